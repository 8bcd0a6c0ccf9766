"""Peak memory and wall time of the consensus, the ranking and the consensus reference on one crowded item
(issue 27; prints figures, not a test).

Goal: memory grows with the annotations, not with their square, on :mod:`object_memory`'s crowded
items with three annotators (a consensus needs a majority of more than two):

* ``consensus-boxes-4k``: one image, 3 annotators × 4,000 boxes (``agreekit.consensus``): < 500 MB;
* ``ranking-boxes-4k``: the same rows ranked (``agreekit.annotator_ranking``, one weighted round,
  so 3 leave-one-out consensuses twice): < 500 MB;
* ``reference-boxes-4k``: the boxes report with ``reference="consensus"`` (each annotator against
  the consensus of the others, and the ranking's reliability column): < 500 MB;
* ``consensus-segments-10k``, ``ranking-segments-10k``: one clip, 3 annotators × 10,000 segments:
  < 1 GB and ≤ 30 s.

The same cases at sizes the square matrices still fit in (``--cases reference-boxes-1k,
consensus-segments-2k,ranking-segments-2k``: any ``<what>-<kind>-<thousands>k``) compare the
results of the two revisions where the old code does not run out of memory or time.

Each case runs in a fresh interpreter with one BLAS thread and a capped address space
(``--limit-gb``), as :mod:`object_memory` runs its cases, and prints a digest of its result
(the consensus rows, the ranking's scores, the reference section's figures) so that two revisions
can be compared.  ``--compare REV`` also runs the cases on the package as of git revision ``REV``.

    PYTHONPATH=pycore python3 benchmarks/consensus_memory.py [--compare REV] [--repeats 3] [--cases …]
"""
import hashlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = ("consensus-boxes-4k", "ranking-boxes-4k", "reference-boxes-4k", "consensus-segments-10k",
         "ranking-segments-10k")
SAME = ("reference-boxes-1k", "consensus-segments-2k", "ranking-segments-2k")  # sizes the old code holds


def digest(value):
    """A short digest of a JSON-ready value (NaN as null), to compare results between revisions."""
    text = json.dumps(value, sort_keys=True, default=str).replace("NaN", "null")
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def case_rows(case):
    """The crowded rows of ``case`` (``…-boxes-4k``: 4,000 boxes per annotator) and its kind."""
    from object_memory import crowded_boxes, crowded_segments
    kind, size = case.split("-")[1:]
    n = int(size.rstrip("k")) * 1000
    if kind == "boxes":
        return crowded_boxes(n, annotators=3), "boxes"
    return crowded_segments(n, annotators=3), "segments"


def run_case(case):
    """Build the case's rows, run it, print ``{"seconds": …, digest…}`` (the child side)."""
    import agreekit
    rows, kind = case_rows(case)
    start = time.perf_counter()
    if case.startswith("consensus"):
        out = agreekit.consensus(kind, rows)
        summary = {"objects": len(out.objects), "rows": digest([sorted(r.items()) for r in out.rows]),
                   "support": digest([o.support for o in out.objects])}
    elif case.startswith("ranking"):
        out = agreekit.annotator_ranking(kind, rows)
        summary = {"scores": digest(out.to_dict()),
                   "reliability": [round(s.reliability, 6) for s in out.scores]}
    else:
        out = agreekit.report(kind, rows, reference="consensus", bootstrap=0)
        summary = {"reference": digest(out.to_dict()["reference"])}
    summary = {"seconds": time.perf_counter() - start, **summary}
    print(json.dumps(summary))


def main(argv=None):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import object_memory
    object_memory.main(argv, "consensus_memory", CASES, __doc__, limit_gb=6.0)


if __name__ == "__main__":
    main()
