"""Peak memory and wall time of the box report on large corpora (prints figures; not a test).

Each case runs in a fresh subprocess; its peak resident set size is the
child's ``ru_maxrss`` (from ``os.wait4``), which includes building the rows.
Wall times: the whole child, and the report alone (``agreekit.boxes`` with
1000 resamples); and the child's CPU time (user + system), which a busy
machine inflates less than wall time.  Cases (``agreekit.simulate.crowd_corpus``):

* ``200k-boxes``: 20,000 images × 3 annotators × 3–4 objects (≈ 193,000 boxes):
  the sampled baseline, its item-pair sums kept sparse (goal: < 2 GB, < 60 s);
* ``100k-items``: 100,000 images × 2 annotators × 1–2 objects (≈ 285,000
  boxes), the sampled baseline (goal: < 2 GB);
* ``all-pairs-6k-items``: 6,000 images × 2 annotators × 1 object with a pair
  budget above its ≈ 58 M pairs: every pair streamed, above the dense item
  threshold, so the interval's baseline term is estimated from a sample of
  item pairs (its standard error is printed).

Usage: PYTHONPATH=pycore python benchmarks/memory.py [--repeats 1] [--cases 200k-boxes ...]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

CASES = {
    "200k-boxes": ({"n_images": 20_000, "per_image": 3, "objects": (3, 4)}, {}),
    "100k-items": ({"n_images": 100_000, "per_image": 2, "objects": (1, 2)}, {}),
    "all-pairs-6k-items": ({"n_images": 6_000, "per_image": 2, "objects": (1, 1)}, {"pair_budget": 100_000_000}),
}
RESAMPLES = 1000


def child(name):
    """Build the case's corpus, run the report, print one JSON line of figures."""
    import agreekit
    from agreekit.simulate import crowd_corpus
    corpus, options = CASES[name]
    rows = crowd_corpus(**corpus)
    start = time.perf_counter()
    report = agreekit.boxes(rows, bootstrap=RESAMPLES, **options)
    seconds = time.perf_counter() - start
    loc = report.localization
    print(json.dumps({"report_s": seconds, "n_items": report.n_items, "n_boxes": report.n_boxes,
                      "between_exact": loc.between_exact, "sigma": loc.sigma.value, "ci": loc.sigma.ci,
                      "baseline_interval": loc.baseline_interval,
                      "baseline_interval_se": loc.baseline_interval_se}))


def measure(name):
    """(peak RSS in bytes, wall seconds, CPU seconds, the child's figures) of one run of ``name``."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, __file__, "--child", name], stdout=subprocess.PIPE,
                               env={**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH", "pycore")})
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise SystemExit(f"{name}: the child failed with exit code {process.returncode}")
    figures = json.loads(output.decode().strip().splitlines()[-1])
    return usage.ru_maxrss * 1024, time.perf_counter() - start, usage.ru_utime + usage.ru_stime, figures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--cases", nargs="*", default=list(CASES))
    parser.add_argument("--child")
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    for name in args.cases:
        runs = [measure(name) for _ in range(args.repeats)]
        peak = statistics.median(r[0] for r in runs) / 2 ** 30
        wall = statistics.median(r[1] for r in runs)
        cpu = statistics.median(r[2] for r in runs)
        report = statistics.median(r[3]["report_s"] for r in runs)
        figures = runs[-1][3]
        se = figures["baseline_interval_se"]
        print(f"{name}: {figures['n_items']:,} items, {figures['n_boxes']:,} boxes, {RESAMPLES} resamples: "
              f"peak RSS {peak:.2f} GiB, wall {wall:.1f} s (report {report:.1f} s), CPU {cpu:.1f} s"
              f"{' medians of ' + str(args.repeats) if args.repeats > 1 else ''}")
        print(f"    baseline {'exact' if figures['between_exact'] else 'sampled'}; σ {figures['sigma']:.4f} "
              f"CI {figures['ci']}; interval's baseline: {figures['baseline_interval']}"
              + (f" (se {se:.2g})" if se is not None else ""))


if __name__ == "__main__":
    main()
