// Pyodide under Node with numpy, scipy and this checkout's agreekit, for the tests and benchmarks.
// Pyodide is wasm32: np.intp is 32-bit there, which CPython on x86-64 never shows.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Pyodide from `indexDir` (dist/pyodide) with the page's numpy and scipy and the package at
 * `packageDir` on /pkg. The page's: the wheels dist/build-info.json names (numpy with its bytecode,
 * scipy's base and sparse parts, build.py split_scipy), so the core runs here with exactly the scipy
 * the calculator has (no scipy.stats, no scipy.special); the lock's own copies when the build has none.
 */
export async function loadAgreekit(indexDir, packageDir) {
  const { loadPyodide } = await import(pathToFileURL(path.join(indexDir, "pyodide.mjs")).href);
  const py = await loadPyodide({ indexURL: indexDir + path.sep });
  const infoFile = path.join(indexDir, "..", "build-info.json");
  const info = fs.existsSync(infoFile) ? JSON.parse(fs.readFileSync(infoFile, "utf8")) : {};
  const site = (file) => path.join(indexDir, "..", file);
  if (info.numpy && info.scipy?.base) {
    await py.loadPackage(["openblas", site(info.numpy), site(info.scipy.base)]);
    await py.loadPackage([site(info.scipy.sparse)]);  // after openblas: it links scipy.linalg's BLAS
  } else {
    await py.loadPackage(["numpy", "scipy"]);
  }
  // The package with its sub-packages (geometry/, measures/, kinds/): every .py file, same layout.
  for (const name of fs.readdirSync(packageDir, { recursive: true })) {
    if (!name.endsWith(".py") || name.split(path.sep).includes("__pycache__")) continue;
    const target = `/pkg/agreekit/${name.split(path.sep).join("/")}`;
    py.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    py.FS.writeFile(target, fs.readFileSync(path.join(packageDir, name)));
  }
  py.runPython(`import sys; sys.path.insert(0, "/pkg")`);
  return py;
}
