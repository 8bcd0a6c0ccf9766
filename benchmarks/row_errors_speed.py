"""Reading rows with every bad row collected (rows.RowErrors) against the reader that stopped at the first.

Runs a row reader of two source trees side by side on the same valid rows (no error: the cost of
the per-row ``with errors:``), each in its own process, alternating, and prints the medians and their
ratio. ``--reader boxes`` (default): the box row reader (``agreekit.kinds.boxes.rows.parse_boxes``)
on crowd-shaped rows; ``--reader matrix``: the labels reader (``read_judgements``) on a reliability
matrix (``--images`` rows of items, 12 annotators' columns, about one blank cell in five).

    python benchmarks/row_errors_speed.py BASELINE_PYCORE [CANDIDATE_PYCORE] [--rounds N] [--reader matrix]

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
CHILDREN = {"boxes": """
import sys, time
sys.path.insert(0, {tests!r}); sys.path.insert(0, {browser!r})
from big_inputs import crowd_boxes_csv
from agreekit.kinds.boxes.rows import parse_boxes
text = crowd_boxes_csv({images})
parse_boxes(text)  # warm
started = time.perf_counter()
records, _ = parse_boxes(text)
print(time.perf_counter() - started, len(records))
""", "matrix": """
import random, sys, time
from agreekit.kinds.labels.rows import read_judgements
draw = random.Random(20261207)
header = "item," + ",".join("coder_" + str(j) for j in range(12))
lines = [header] + ["u" + str(i) + "," + ",".join("" if draw.random() < 0.2 else draw.choice("abcd") for _ in range(12))
                    for i in range({images})]
text = "\\n".join(lines) + "\\n"
read_judgements(text)  # warm
started = time.perf_counter()
reading = read_judgements(text)
print(time.perf_counter() - started, len(reading.judgements))
"""}


def one_run(pycore, images, reader="boxes"):
    code = CHILDREN[reader].format(tests=str(ROOT / "tests"), browser=str(ROOT / "tests" / "browser"), images=images)
    out = subprocess.run([sys.executable, "-c", code], env={"PYTHONPATH": str(pycore)}, capture_output=True,
                         text=True, check=True).stdout.split()
    return float(out[0]), int(out[1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("baseline")
    parser.add_argument("candidate", nargs="?", default=str(ROOT / "pycore"))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--images", type=int, default=2000, help="boxes: images of the crowd; matrix: its rows")
    parser.add_argument("--reader", choices=sorted(CHILDREN), default="boxes")
    args = parser.parse_args()
    times = {"baseline": [], "candidate": []}
    for _ in range(args.rounds):
        for name in ("baseline", "candidate"):
            seconds, n = one_run(getattr(args, name), args.images, args.reader)
            times[name].append(seconds)
    base, cand = statistics.median(times["baseline"]), statistics.median(times["candidate"])
    what = "box rows" if args.reader == "boxes" else "matrix judgements"
    print(f"{n:,} {what}, {args.rounds} rounds: baseline {base:.3f} s, candidate {cand:.3f} s, ratio {cand / base:.3f}")


if __name__ == "__main__":
    main()
