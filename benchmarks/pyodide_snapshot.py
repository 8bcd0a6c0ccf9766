"""A bare Pyodide memory snapshot in Chromium: does it restore, and is Python ready sooner for it?

    python3 build.py
    PYTHONPATH=pycore .venv/bin/python benchmarks/pyodide_snapshot.py [--runs 2]

Pyodide 0.27.7 can snapshot its memory only before any package is loaded (``makeMemorySnapshot``
fails after ``loadPackage``: "Unexpected hiwire entry"; benchmarks/pyodide_start.mjs shows it), so
the snapshot here is the bare interpreter, made once under Node (as a build step would) from
dist/pyodide. Each run is a new Chromium process on a page of the served site, timing
``loadPyodide`` (plain, or ``_loadSnapshot`` with the snapshot fetched from the server), then
numpy + scipy (one ``loadPackage``) and ``import numpy, scipy.optimize, scipy.sparse``, on the
page's main thread. Nothing here is part of the calculator. It loads Pyodide's own numpy and scipy
by name, which the build no longer ships: copy them in first,
``cp .cache/pyodide-packages/numpy-*.whl .cache/pyodide-packages/scipy-*.whl dist/pyodide/``.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import build  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
MAKE_SNAPSHOT = """
const [indexDir, out] = process.argv.slice(1);
const { loadPyodide } = await import(new URL("pyodide.mjs", "file://" + indexDir + "/").href);
const py = await loadPyodide({ indexURL: indexDir + "/", _makeSnapshot: true });
(await import("node:fs")).writeFileSync(out, py.makeMemorySnapshot());
"""
START = """async (useSnapshot) => {
  const seconds = (since) => (performance.now() - since) / 1000;
  let start = performance.now();
  const { loadPyodide } = await import("./pyodide/pyodide.mjs");
  const options = { indexURL: new URL("pyodide/", location.href).href };
  if (useSnapshot) options._loadSnapshot = fetch("bare.snapshot").then((r) => r.arrayBuffer());
  const py = await loadPyodide(options);
  const pyodide = seconds(start);
  start = performance.now();
  await py.loadPackage(["numpy", "scipy"]);
  const packages = seconds(start);
  start = performance.now();
  py.runPython("import numpy, scipy.optimize, scipy.sparse");
  const imports = seconds(start);
  const works = py.runPython("str(scipy.optimize.linear_sum_assignment(1 - numpy.eye(3))[1].tolist())") === "[0, 1, 2]";
  return { pyodide, packages, imports, total: pyodide + packages + imports, works };
}"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder)
        for entry in build.DIST.iterdir():  # the built site, plus the snapshot
            (site / entry.name).symlink_to(entry)
        subprocess.run(["node", "--input-type=module", "-e", MAKE_SNAPSHOT, str(build.DIST / "pyodide"),
                        str(site / "bare.snapshot")], check=True, capture_output=True)
        print(f"bare snapshot: {(site / 'bare.snapshot').stat().st_size / 1e6:.1f} MB")
        server = build.make_server(site, 0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/build-info.json"
        with sync_playwright() as playwright:
            for _ in range(args.runs):
                for snapshot in (False, True):
                    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
                    try:
                        page = browser.new_context(service_workers="block").new_page()
                        page.goto(url)
                        times = page.evaluate(START, snapshot)
                        print(json.dumps({"snapshot": snapshot, **{k: round(v, 2) if isinstance(v, float) else v
                                                                   for k, v in times.items()}}), flush=True)
                    finally:
                        browser.close()
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    main()
