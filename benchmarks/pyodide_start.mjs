// Start-up avenues of issue 15, measured in Pyodide under Node on dist/pyodide (benchmarks/RESULTS.md).
//
//   python3 build.py
//   cp .cache/pyodide-packages/numpy-*.whl .cache/pyodide-packages/scipy-*.whl dist/pyodide/
//   for s in imports snapshot; do node benchmarks/pyodide_start.mjs dist/pyodide pycore/agreekit $s; done
//
// It loads Pyodide's own numpy and scipy by name, which the build no longer ships (the calculator
// and the workshop load the build's numpy with bytecode and scipy's parts, build-info.json): copy
// them in from the build's package cache first, as above.
//
// One scenario per process (a fresh V8, nothing compiled or imported before), printing JSON:
//   imports   what the worker does (loadPyodide, loadPackage numpy + scipy, the imports), the
//             imports one step at a time: numpy, scipy.sparse and the linear_sum_assignment
//             extension loaded alone without scipy/optimize/__init__.py (the least a box report
//             needs), then scipy.sparse.csgraph (span and segment kinds), scipy.optimize, agreekit
//   snapshot  Pyodide 0.27's memory snapshot (_makeSnapshot / makeMemorySnapshot / _loadSnapshot):
//             its size and restore time without packages, whether packages load after a restore,
//             and whether a snapshot can be taken after `import numpy` (it holds linear memory and
//             the JS references Python holds, not the loaded shared libraries)
//   restore / plain   the first loadPyodide of a process, from a saved bare snapshot (made once,
//             in $TMPDIR) or as usual; then the packages and imports, which a snapshot keeps
//   first     the page's way to its first result: loadPyodide, loadPackage numpy + scipy, the
//             worker's bridge (web/bridge.py: imports agreekit), then the box example's report
//             (dist/examples/boxes.csv through run_report), each as seconds since loadPyodide
//             began.  Run it on two package folders to compare versions:
//               git archive <ref> pycore | tar -x -C /tmp/before
//               node benchmarks/pyodide_start.mjs dist/pyodide /tmp/before/pycore/agreekit first
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";

const [indexDir, packageDir, scenario] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(indexDir, "pyodide.mjs")).href);
const indexURL = path.resolve(indexDir) + path.sep;
const seconds = (start) => Math.round(performance.now() - start) / 1000;

async function timed(record, name, work) {
  const start = performance.now();
  const value = await work();
  record[name] = seconds(start);
  return value;
}

function copyAgreekit(py) {
  for (const name of fs.readdirSync(packageDir, { recursive: true })) {
    if (!name.endsWith(".py") || name.split(path.sep).includes("__pycache__")) continue;
    const target = `/pkg/agreekit/${name.split(path.sep).join("/")}`;
    py.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    py.FS.writeFile(target, fs.readFileSync(path.join(packageDir, name)));
  }
  py.runPython("import sys; sys.path.insert(0, '/pkg')");
}

const record = { scenario };
if (scenario === "imports") {
  const py = await timed(record, "loadPyodide", () => loadPyodide({ indexURL }));
  await timed(record, "loadPackage numpy scipy", () => py.loadPackage(["numpy", "scipy"]));
  // In this order, each step times only what the steps before it did not import.
  await timed(record, "import numpy", () => py.runPython("import numpy"));
  await timed(record, "+ import scipy.sparse", () => py.runPython("import scipy.sparse"));
  await timed(record, "+ _lsap alone", () => py.runPython(`
import importlib.machinery, importlib.util, pathlib, scipy
where = next(pathlib.Path(scipy.__file__).parent.glob("optimize/_lsap*.so"))
loader = importlib.machinery.ExtensionFileLoader("scipy.optimize._lsap", str(where))
lsap = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
loader.exec_module(lsap)
assert lsap.linear_sum_assignment(1 - numpy.eye(3))[1].tolist() == [0, 1, 2]  # least cost: the diagonal`));
  record["box minimum: scipy.linalg not imported"] = py.runPython("import sys; 'scipy.linalg' not in sys.modules");
  await timed(record, "+ import scipy.sparse.csgraph", () => py.runPython("import scipy.sparse.csgraph"));
  await timed(record, "+ import scipy.optimize", () => py.runPython("import scipy.optimize"));
  copyAgreekit(py);
  await timed(record, "+ import agreekit", () => py.runPython("import agreekit"));
} else if (scenario === "snapshot") {
  await timed(record, "loadPyodide", () => loadPyodide({ indexURL }));
  const maker = await timed(record, "loadPyodide _makeSnapshot", () => loadPyodide({ indexURL, _makeSnapshot: true }));
  const bare = maker.makeMemorySnapshot();
  record["snapshot MB, no packages"] = Math.round(bare.length / 1e5) / 10;
  record["snapshot MB gzipped, no packages"] = Math.round(zlib.gzipSync(bare, { level: 6 }).length / 1e5) / 10;
  const restored = await timed(record, "loadPyodide _loadSnapshot", () => loadPyodide({ indexURL, _loadSnapshot: bare }));
  record["restored runs Python"] = restored.runPython("sum(range(10))") === 45;
  await timed(record, "restored: loadPackage numpy", () => restored.loadPackage(["numpy"]));
  await timed(record, "restored: import numpy", () => restored.runPython("import numpy"));
  record["restored: numpy works"] = String(restored.runPython("str(numpy.arange(4).sum())")) === "6";

  const withNumpy = await loadPyodide({ indexURL, _makeSnapshot: true });
  await withNumpy.loadPackage(["numpy"]);
  withNumpy.runPython("import numpy");
  let snap;
  try {
    snap = withNumpy.makeMemorySnapshot();
    record["snapshot MB, after import numpy"] = Math.round(snap.length / 1e5) / 10;
  } catch (error) {
    record["makeMemorySnapshot after import numpy"] = `fails: ${String(error.message || error).split("\n")[0].slice(0, 200)}`;
  }
  if (snap) {
    try {
      const again = await loadPyodide({ indexURL, _loadSnapshot: snap });
      record["numpy after restore"] = String(again.runPython("import numpy; str(numpy.arange(4).sum())"));
    } catch (error) {
      record["numpy after restore"] = `fails: ${String(error.message || error).split("\n")[0].slice(0, 200)}`;
    }
  }
} else if (scenario === "restore" || scenario === "plain") {
  // One cold start per process, nothing before it: restoring a saved bare snapshot against loadPyodide.
  const saved = path.join(process.env.TMPDIR || "/tmp", "agreekit-pyodide-bare.snapshot");
  if (!fs.existsSync(saved)) fs.writeFileSync(saved, (await loadPyodide({ indexURL, _makeSnapshot: true })).makeMemorySnapshot());
  const options = scenario === "restore" ? { indexURL, _loadSnapshot: new Uint8Array(fs.readFileSync(saved)) } : { indexURL };
  const py = await timed(record, "first loadPyodide in the process", () => loadPyodide(options));
  await timed(record, "loadPackage numpy scipy", () => py.loadPackage(["numpy", "scipy"]));
  await timed(record, "import numpy, scipy.optimize", () => py.runPython("import numpy, scipy.optimize"));
} else if (scenario === "first") {
  const root = path.resolve(indexDir, "..", "..");
  const start = performance.now();
  const py = await loadPyodide({ indexURL });
  record["loadPyodide"] = seconds(start);
  await py.loadPackage(["numpy", "scipy"]);
  record["packages loaded"] = seconds(start);
  copyAgreekit(py);
  const bridge = py.globals.get("dict")();
  py.runPython(fs.readFileSync(path.join(root, "web", "bridge.py"), "utf8"), { globals: bridge });
  record["agreekit imported"] = seconds(start);
  const rows = fs.readFileSync(path.join(indexDir, "..", "examples", "boxes.csv"), "utf8");
  const answer = JSON.parse(bridge.get("run_report")("boxes", rows, "{}"));
  record["box example report computed"] = seconds(start);
  record["report ok"] = answer.ok;
  record["scipy.sparse imported"] = py.runPython("import sys; 'scipy.sparse' in sys.modules");
} else {
  throw new Error(`unknown scenario ${scenario}: imports, snapshot, restore, plain or first`);
}
console.log(JSON.stringify(record));
