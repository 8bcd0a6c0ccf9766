"""Peak memory of the per-pair tables: many annotators on few items (issue 10).

Goal: memory grows with the data and the pairs that occur, not with n_annotators²
dense arrays, and stays under 1 GB for

* ``spans``: 2,000 annotators on one item of 2,000 characters, each marking 5
  entities with jittered boundaries (2 million annotator pairs);
* ``traces``: 3,000 annotators × 20 steps × 5 traces, every annotator labelling
  every step with one of 3 labels (4.5 million annotator pairs), without a
  bootstrap, and ``traces_bootstrap`` with 20 resamples: the mean-κ interval
  reweights per-pair per-trace tables, in blocks, so its memory stays bounded
  while its time grows with pairs × resamples (1,000 resamples of 4.5 million
  pairs are 4.5 billion κ values).

Each case runs in its own subprocess, which reports its peak resident set size
(``ru_maxrss``) and wall time.  ``--compare REV`` also runs the cases on the
package as of git revision ``REV`` (``git archive``), e.g. the commit before the
budget.  The address space of every subprocess is capped (``--limit-gb``, 16 by
default) so that the old code fails with MemoryError rather than exhausting a
shared machine, and each runs with one BLAS thread.

    PYTHONPATH=pycore python3 benchmarks/pair_memory.py [--compare REV] [--cases spans,traces]
"""
import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
CASES = ("spans", "traces", "traces_bootstrap")
TRACE_RESAMPLES = 20
SPAN_ANNOTATORS, SPAN_ENTITIES, SPAN_LENGTH = 2000, 5, 2000
TRACE_ANNOTATORS, TRACE_STEPS, TRACE_TRACES = 3000, 20, 5
LABELS = ("PER", "ORG", "LOC")


def span_rows(seed=1):
    """One item: each annotator marks each entity, 60% exactly, otherwise ±1–3 characters, 10% relabelled."""
    rng = np.random.default_rng(seed)
    starts = np.sort(rng.choice(SPAN_LENGTH // 100, SPAN_ENTITIES, replace=False)) * 100
    ends = starts + rng.integers(5, 30, SPAN_ENTITIES)
    labels = rng.choice(LABELS, SPAN_ENTITIES)
    rows = []
    for a in range(SPAN_ANNOTATORS):
        for s, e, label in zip(starts.tolist(), ends.tolist(), labels.tolist()):
            if rng.random() >= 0.6:
                s = max(0, s + int(rng.integers(-3, 4)))
                e = max(s + 1, e + int(rng.integers(-3, 4)))
            if rng.random() < 0.10:
                label = LABELS[int(rng.integers(len(LABELS)))]
            rows.append({"item": "doc", "annotator": f"ann{a:04d}", "start": s, "end": e, "label": label})
    return rows


def trace_rows(seed=2):
    """Every annotator labels every step; 70% give the step's majority label, the rest one at random."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(len(LABELS), size=(TRACE_TRACES, TRACE_STEPS))
    rows = []
    for a in range(TRACE_ANNOTATORS):
        noise = rng.random((TRACE_TRACES, TRACE_STEPS)) >= 0.7
        labels = np.where(noise, rng.integers(len(LABELS), size=truth.shape), truth)
        for t in range(TRACE_TRACES):
            for s in range(TRACE_STEPS):
                rows.append({"trace": f"t{t}", "step": s, "annotator": f"ann{a:04d}",
                             "label": LABELS[labels[t, s]]})
    return rows


def run_case(case):
    """Build the case's rows, run its report, print ``{"seconds": …}`` (the child side)."""
    import agreekit
    if case == "spans":
        rows, report = span_rows(), agreekit.spans
        kwargs = {"lengths": {"doc": SPAN_LENGTH}}
    else:
        rows, report = trace_rows(), agreekit.traces
        kwargs = {"bootstrap": TRACE_RESAMPLES if case == "traces_bootstrap" else 0}
    start = time.perf_counter()
    out = report(rows, **kwargs)
    seconds = time.perf_counter() - start
    summary = {"seconds": seconds}
    if case == "spans":
        summary.update(exact_f1=out["exact_f1"]["value"], n_pair_rows=len(out["disagreement"]["pairs"]))
    else:
        summary.update(mean_kappa=out["cohen_kappa"]["mean"]["value"], mean_ci=out["cohen_kappa"]["mean"]["ci"],
                       n_pair_rows=len(out["cohen_kappa"]["pairs"]))
    print(json.dumps(summary))


CHILD = """
import resource, sys, json
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
sys.path[:0] = [{pycore!r}, {bench!r}]
import pair_memory
try:
    pair_memory.run_case({case!r})
except MemoryError:
    print(json.dumps({{"error": "MemoryError"}}))
print(json.dumps({{"max_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}}))
"""


def measure(case, pycore, limit_gb):
    """Run ``case`` in a fresh interpreter on the package in ``pycore``: peak RSS (MB), seconds, summary."""
    code = CHILD.format(limit=int(limit_gb * 2 ** 30), pycore=str(pycore), bench=str(ROOT / "benchmarks"),
                        case=case)
    start = time.perf_counter()
    # One BLAS thread: on a shared, loaded machine more threads only add contention to the timings.
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    out = {}
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            out.update(json.loads(line))
    if done.returncode and "error" not in out:
        out["error"] = f"exit {done.returncode}: {done.stderr.strip().splitlines()[-1:]}"
    out["wall_seconds"] = wall
    out["peak_mb"] = out.pop("max_rss_kb", 0) / 1024
    return out


def old_package(rev, folder):
    """The ``pycore`` folder of git revision ``rev``, unpacked into ``folder``."""
    archive = Path(folder) / "old.tar"
    with archive.open("wb") as handle:
        subprocess.run(["git", "-C", str(ROOT), "archive", rev, "pycore"], stdout=handle, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(folder, filter="data")
    return Path(folder) / "pycore"


def _line(label, case, result):
    what = result.get("error") or ", ".join(f"{k}={v}" for k, v in result.items()
                                            if k not in ("peak_mb", "wall_seconds", "seconds"))
    report = f"{result['seconds']:7.1f} s in the report" if "seconds" in result else ""
    print(f"{label:>7} {case:<17} peak {result['peak_mb']:8.0f} MB  wall {result['wall_seconds']:7.1f} s "
          f"{report}  {what}", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", metavar="REV", help="also run the package as of git revision REV")
    parser.add_argument("--cases", default=",".join(CASES), help="comma-separated: " + ", ".join(CASES))
    parser.add_argument("--limit-gb", type=float, default=16.0, help="address-space cap of each case")
    args = parser.parse_args(argv)
    cases = [c for c in args.cases.split(",") if c]
    with tempfile.TemporaryDirectory() as folder:
        packages = [("after", ROOT / "pycore")]
        if args.compare:
            packages.insert(0, ("before", old_package(args.compare, folder)))
        for case in cases:
            for label, pycore in packages:
                _line(label, case, measure(case, pycore, args.limit_gb))


if __name__ == "__main__":
    main()
