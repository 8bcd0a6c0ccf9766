// Runs agreekit reports inside Pyodide under Node, for tests/test_pyodide.py.
// Usage: node run_cases.mjs <dist/pyodide dir> <pycore/agreekit dir> <cases.json> <results.json>
// Pyodide is wasm32: np.intp is 32-bit there, which CPython on x86-64 never shows.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [indexDir, packageDir, casesPath, resultsPath] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(indexDir, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: indexDir + path.sep });
await py.loadPackage(["numpy", "scipy"]);
// The package with its sub-packages (geometry/, measures/, kinds/): every .py file, same layout.
for (const name of fs.readdirSync(packageDir, { recursive: true })) {
  if (!name.endsWith(".py") || name.split(path.sep).includes("__pycache__")) continue;
  const target = `/pkg/agreekit/${name.split(path.sep).join("/")}`;
  py.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
  py.FS.writeFile(target, fs.readFileSync(path.join(packageDir, name)));
}
py.FS.writeFile("/cases.json", fs.readFileSync(casesPath));
py.runPython(`
import json, sys, traceback
sys.path.insert(0, "/pkg")
import agreekit
results = []
for case in json.load(open("/cases.json")):
    try:
        report = agreekit.report(case["kind"], case["rows"], **case["options"])
        results.append({"report": report.to_dict()})
    except Exception as error:  # reported back to the test as data
        results.append({"error": f"{type(error).__name__}: {error}", "trace": traceback.format_exc()})
open("/results.json", "w").write(json.dumps(results, allow_nan=False))
`);
fs.writeFileSync(resultsPath, py.FS.readFile("/results.json"));
