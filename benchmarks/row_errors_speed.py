"""Reading box rows with every bad row collected (rows.RowErrors) against the reader that stopped at the first.

Runs the box row reader (``agreekit.kinds.boxes.rows.parse_boxes``) of two source trees side by side
on the same valid crowd-shaped rows (no error: the cost of the per-row ``with errors:``), each in its
own process, alternating, and prints the medians and their ratio.

    python benchmarks/row_errors_speed.py BASELINE_PYCORE [CANDIDATE_PYCORE] [--rounds N]

``BASELINE_PYCORE`` is a ``pycore`` folder of the reader before the change (e.g. ``git archive main
pycore | tar -x -C /tmp/base``); the candidate defaults to this checkout's.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHILD = """
import sys, time
sys.path.insert(0, {tests!r}); sys.path.insert(0, {browser!r})
from big_inputs import crowd_boxes_csv
from agreekit.kinds.boxes.rows import parse_boxes
text = crowd_boxes_csv({images})
parse_boxes(text)  # warm
started = time.perf_counter()
records, _ = parse_boxes(text)
print(time.perf_counter() - started, len(records))
"""


def one_run(pycore, images):
    code = CHILD.format(tests=str(ROOT / "tests"), browser=str(ROOT / "tests" / "browser"), images=images)
    out = subprocess.run([sys.executable, "-c", code], env={"PYTHONPATH": str(pycore)}, capture_output=True,
                         text=True, check=True).stdout.split()
    return float(out[0]), int(out[1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("baseline")
    parser.add_argument("candidate", nargs="?", default=str(ROOT / "pycore"))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--images", type=int, default=2000)
    args = parser.parse_args()
    times = {"baseline": [], "candidate": []}
    for _ in range(args.rounds):
        for name in ("baseline", "candidate"):
            seconds, n = one_run(getattr(args, name), args.images)
            times[name].append(seconds)
    base, cand = statistics.median(times["baseline"]), statistics.median(times["candidate"])
    print(f"{n:,} box rows, {args.rounds} rounds: baseline {base:.3f} s, candidate {cand:.3f} s, ratio {cand / base:.3f}")


if __name__ == "__main__":
    main()
