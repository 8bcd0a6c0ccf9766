// Runs agreekit reports inside Pyodide under Node, for tests/test_pyodide.py.
// Usage: node run_cases.mjs <dist/pyodide dir> <pycore/agreekit dir> <cases.json> <results.json>
import fs from "node:fs";
import { loadAgreekit } from "./load_agreekit.mjs";

const [indexDir, packageDir, casesPath, resultsPath] = process.argv.slice(2);
const py = await loadAgreekit(indexDir, packageDir);
py.FS.writeFile("/cases.json", fs.readFileSync(casesPath));
py.runPython(`
import json, sys, traceback
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
