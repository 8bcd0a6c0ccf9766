// Build-time work in Pyodide itself (under Node), for buildtools/extras.py (docs/architecture.md
// "Start-up: a memory snapshot and compiled modules"). Three commands, one Pyodide each. Modules
// are compiled with Pyodide's own Python (the browser's bytecode: the machine's CPython may be
// another version) into <out dir>/<package>/.../__pycache__/*.pyc, unchecked-hash (PEP 552: the
// wheels are content-addressed, so no source check is needed, and unpacking a wheel keeps no
// file times):
//
//   node scripts/pyodide_build.mjs agreekit <pyodide dir> <pycore dir> <bridge.py> <out dir>
//       agreekit's modules; then it loads numpy and scipy, runs the worker's bridge.py as the
//       worker does, and writes <out dir>/stdlib-modules.json: the standard-library modules that
//       start-up imported beyond a bare interpreter (the snapshot's pre-imports).
//   node scripts/pyodide_build.mjs packages <pyodide dir> <out dir>
//       numpy's and scipy's modules (Pyodide 0.27 ships their sources only).
//   node scripts/pyodide_build.mjs snapshot <pyodide dir> <stdlib-modules.json> <out file>
//       A fresh interpreter imports those modules, then Pyodide 0.27's makeMemorySnapshot() writes
//       its memory. No package can be loaded first (their shared libraries are not part of a
//       snapshot, and makeMemorySnapshot refuses once loadPackage has run), so numpy, scipy and
//       agreekit still load after the restore.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [command, pyodideDir, ...rest] = process.argv.slice(2);
const indexURL = path.resolve(pyodideDir) + path.sep;
const { loadPyodide } = await import(pathToFileURL(path.join(indexURL, "pyodide.mjs")).href);
const quiet = { messageCallback: () => {} };

function copyTree(py, from, to) {
  for (const name of fs.readdirSync(from, { recursive: true })) {
    const source = path.join(from, name);
    if (!name.endsWith(".py") || name.split(path.sep).includes("__pycache__")) continue;
    const target = `${to}/${name.split(path.sep).join("/")}`;
    py.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    py.FS.writeFile(target, fs.readFileSync(source));
  }
}

function readBytecode(py, root, folder, outDir) {
  // Every .pyc under root/folder, written to outDir under its path relative to root.
  const walk = (dir) => {
    for (const name of py.FS.readdir(dir)) {
      if (name === "." || name === "..") continue;
      const full = `${dir}/${name}`;
      if (py.FS.isDir(py.FS.stat(full).mode)) walk(full);
      else if (name.endsWith(".pyc")) {
        const target = path.join(outDir, full.slice(root.length + 1));
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.writeFileSync(target, py.FS.readFile(full));
      }
    }
  };
  walk(`${root}/${folder}`);
}

const COMPILE = (folder, ddir) => `
import compileall, py_compile
if not compileall.compile_dir(${JSON.stringify(folder)}, ddir=${JSON.stringify(ddir)}, quiet=1,
                              invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH):
    raise SystemExit("compileall failed in ${folder}")`;

async function compileAgreekit(pycoreDir, bridgePath, outDir) {
  const py = await loadPyodide({ indexURL });
  const site = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  copyTree(py, path.join(pycoreDir, "agreekit"), "/build/agreekit");
  // ddir: the code objects name the files where the wheel installs them (tracebacks, inspect).
  py.runPython(COMPILE("/build/agreekit", `${site}/agreekit`));
  readBytecode(py, "/build", "agreekit", outDir);
  // What start-up imports beyond a bare interpreter: loadPackage's own unpacking code too.
  const before = new Set(py.runPython("import sys; list(sys.modules)").toJs());
  await py.loadPackage(["numpy", "scipy"], quiet);
  py.runPython("import sys; sys.path.insert(0, '/build')");
  py.runPython(fs.readFileSync(bridgePath, "utf8"), { globals: py.globals.get("dict")() });
  const modules = py.runPython(`
import sys
# Pyodide's standard library lives under /lib (python312.zip, python3.12, its lib-dynload);
# packages in /lib/python3.12/site-packages.
def from_stdlib(module):
    origin = getattr(getattr(module, "__spec__", None), "origin", None) or ""
    return origin in ("built-in", "frozen") or (origin.startswith("/lib/") and "site-packages" not in origin)
sorted(name for name, module in sys.modules.items() if name not in set(${JSON.stringify([...before])})
       and module is not None and from_stdlib(module))`).toJs();
  fs.writeFileSync(path.join(outDir, "stdlib-modules.json"), JSON.stringify(modules, null, 1));
}

async function compilePackages(outDir) {
  const py = await loadPyodide({ indexURL });
  await py.loadPackage(["numpy", "scipy"], quiet);
  const site = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  for (const name of ["numpy", "scipy"]) {  // compiled where they are installed: their own paths
    py.runPython(COMPILE(`${site}/${name}`, `${site}/${name}`));
    readBytecode(py, site, name, outDir);
  }
}

// Seeded from the operating system's entropy when imported: in a snapshot, every visitor would
// get the same state. A bare Pyodide has already imported random (the worker reseeds it after a
// restore); the pre-imports must add none of these. (Python's hash seed is fixed in any snapshot:
// string hashes, and so set order, are the same on every visit; reports never depend on set order.)
const SEEDED_AT_IMPORT = new Set(["random", "secrets", "tempfile", "uuid"]);

async function snapshot(modulesPath, outFile) {
  const modules = JSON.parse(fs.readFileSync(modulesPath, "utf8")).filter((m) => !SEEDED_AT_IMPORT.has(m));
  const py = await loadPyodide({ indexURL, _makeSnapshot: true });
  py.runPython(`
import importlib, sys
bare = set(sys.modules)
for name in ${JSON.stringify(modules)}:
    try:
        importlib.import_module(name)
    except ImportError:   # a module of a package loaded later (its shared library is not here yet)
        pass
seeded = sorted((set(sys.modules) - bare) & set(${JSON.stringify([...SEEDED_AT_IMPORT])}))
if seeded:
    raise SystemExit(f"the snapshot's pre-imports imported {seeded}, seeded at import")`);
  fs.writeFileSync(outFile, py.makeMemorySnapshot());
}

if (command === "agreekit") await compileAgreekit(...rest);
else if (command === "packages") await compilePackages(...rest);
else if (command === "snapshot") await snapshot(...rest);
else throw new Error(`unknown command ${command}: agreekit, packages or snapshot`);
