"""Cost of the pair table's σ intervals (issue 26): the box report, this code beside a commit without them.

Prints figures; not a test.  Corpora (``agreekit.simulate.crowd_corpus``), report ``agreekit.boxes(rows,
bootstrap=1000)``:

* ``crowd``: the defaults (200 images, 196 annotators, 9 per image): above
  ``cross.PAIR_INTERVAL_ANNOTATORS`` (and ``PAIR_INTERVAL_RUNS``), so the pairs get a null interval with its
  reason; the figure is what the check costs there;
* ``small crowd``: 100 images, 40 annotators, 9 per image (900 runs, ≈ 700 annotator pairs), where every
  pair's interval is computed.

Each version runs in its own child process (one report to warm up, one timed), versions taking turns,
``--repeats`` rounds; printed: median wall seconds per version and the ratio this / baseline.

Run with OPENBLAS_NUM_THREADS=1 on a shared machine (see benchmarks/RESULTS.md).

Usage: python benchmarks/pair_sigma_intervals.py [--repeats 3] [--against ad7526c]
"""
import argparse
import json
import statistics
import subprocess
import sys
import tempfile

from box_report_speed import ROOT, export  # same folder: on sys.path when run as a script

CORPORA = {"crowd": {}, "small crowd": {"n_images": 100, "n_annotators": 40}}

CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
import agreekit
from agreekit.simulate import crowd_corpus
rows = crowd_corpus(**json.loads(sys.argv[2]))
agreekit.boxes(rows, bootstrap=1000)
start = time.perf_counter()
report = agreekit.boxes(rows, bootstrap=1000)
with_ci = sum(row["sigma"]["ci"] is not None for row in report["pairs"])
print(json.dumps({"seconds": time.perf_counter() - start, "pairs": len(report["pairs"]), "with_ci": with_ci}))
"""


def child_run(pycore, corpus):
    out = subprocess.run([sys.executable, "-c", CHILD, str(pycore), json.dumps(corpus)], check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout.splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--against", default="ad7526c")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        versions = {"this code": ROOT / "pycore", args.against: export(args.against, tmp)}
        print(f"box report, 1000 resamples; medians of {args.repeats} runs, same run, against {args.against}")
        for name, corpus in CORPORA.items():
            runs = {version: [] for version in versions}
            for _ in range(args.repeats):
                for version, pycore in versions.items():
                    runs[version].append(child_run(pycore, corpus))
            ours = statistics.median(r["seconds"] for r in runs["this code"])
            theirs = statistics.median(r["seconds"] for r in runs[args.against])
            last = runs["this code"][-1]
            print(f"{name:>12}: this code {ours:7.3f} s, {args.against} {theirs:7.3f} s, ratio {ours / theirs:5.2f}; "
                  f"{last['with_ci']} of {last['pairs']} pairs with an interval")


if __name__ == "__main__":
    main()
