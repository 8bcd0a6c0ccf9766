"""The labels report in CPython and in Pyodide under Node, in one run (prints figures; not a test).

Issue 23: 10,000 items × 5 annotators, nominal, every coefficient and 1000 resamples; the page (the
same core in Pyodide, in the page's worker) ≤ 1.5 × CPython. The rows are ``labels_bench.py``'s
synthetic ratings; each runtime times ``agreekit.labels(rows)`` from CSV text to the report and its
strict JSON (what the worker sends), after one untimed report; medians of ``--repeats``. The two
runtimes take turns, so a change of load hits both alike; the ratio is the figure to quote.  Each turn
also prints the CPU seconds of a report in each runtime (CPython's ``time.process_time``, BLAS threads
included; Node's ``process.cpuUsage``), which move less than wall time on a machine shared with other work.

The Pyodide side needs a built ``dist/pyodide`` (``python3 build.py``; ``--pyodide`` names another)
and Node; it loads this checkout's ``pycore/agreekit`` files (``tests/pyodide/load_agreekit.mjs``).

Usage: python benchmarks/labels_runtimes.py [--items 10000] [--repeats 3] [--pyodide DIR]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "pycore"))

from labels_bench import synthetic_rows  # noqa: E402

# Runs unchanged in CPython and in Pyodide; prints one JSON line: the median seconds.
TIMED = r'''
import json, statistics, sys, time
import agreekit
if sys.platform == "emscripten":  # Node's CPU seconds of the process (time.process_time is 0 in Pyodide)
    import js
    def cpu():
        used = js.process.cpuUsage()
        return (used.user + used.system) / 1e6
else:
    cpu = time.process_time
rows = open(sys.argv[1], encoding="utf-8").read()
agreekit.labels(rows).to_json()
times, cpus = [], []
for _ in range(int(sys.argv[2])):
    start, start_cpu = time.perf_counter(), cpu()
    agreekit.labels(rows).to_json()
    times.append(time.perf_counter() - start)
    cpus.append(cpu() - start_cpu)
print(json.dumps({"median": statistics.median(times), "cpu": statistics.median(cpus)}))
'''

NODE = r'''
const [loader, indexDir, packageDir, codePath, rowsPath, repeats] = process.argv.slice(2);
const fs = await import("node:fs");
const { loadAgreekit } = await import(loader);
const py = await loadAgreekit(indexDir, packageDir);
py.FS.writeFile("/tmp/rows.csv", fs.readFileSync(rowsPath, "utf8"));
py.runPython(`import sys; sys.argv = ["timed", "/tmp/rows.csv", "${repeats}"]`);
py.setStdout({ batched: (line) => console.log(line) });
py.runPython(fs.readFileSync(codePath, "utf8"));
'''


def median_seconds(command, env=None):
    """``(wall, cpu)``: the medians of the runtime's wall and CPU seconds per report."""
    out = subprocess.run(command, check=True, capture_output=True, text=True, env=env).stdout
    found = json.loads([line for line in out.splitlines() if line.startswith("{")][-1])
    return found["median"], found["cpu"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--annotators", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=2, help="turns of CPython then Pyodide")
    parser.add_argument("--pyodide", default=str(ROOT / "dist" / "pyodide"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        code, runner, rows = Path(tmp) / "timed.py", Path(tmp) / "timed.mjs", Path(tmp) / "rows.csv"
        code.write_text(TIMED, encoding="utf-8")
        runner.write_text(NODE, encoding="utf-8")
        rows.write_text(synthetic_rows(args.items, args.annotators), encoding="utf-8")
        cpython = [sys.executable, str(code), str(rows), str(args.repeats)]
        pyodide = ["node", str(runner), (ROOT / "tests" / "pyodide" / "load_agreekit.mjs").as_uri(), args.pyodide,
                   str(ROOT / "pycore" / "agreekit"), str(code), str(rows), str(args.repeats)]
        for turn in range(args.rounds):
            c, c_cpu = median_seconds(cpython, {"PYTHONPATH": str(ROOT / "pycore")})
            p, p_cpu = median_seconds(pyodide)
            print(f"turn {turn + 1}: {args.items:,} items x {args.annotators} annotators, nominal, 1000 resamples: "
                  f"CPython {c:.3f} s, Pyodide {p:.3f} s, ratio {p / c:.2f}; CPU seconds {c_cpu:.3f} and "
                  f"{p_cpu:.3f}, ratio {p_cpu / c_cpu:.2f} (load {os.getloadavg()[0]:.1f}; medians of {args.repeats})",
                  flush=True)


if __name__ == "__main__":
    main()
