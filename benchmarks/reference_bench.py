"""Reference mode's cost on a crowd-shaped corpus (prints figures; not a test).

Corpus: :func:`agreekit.simulate.crowd_corpus` (200 images, 196 annotators, 9
per image, 3–6 objects each: ≈ 7,300 boxes) and its true boxes as gold rows.
Side by side, alternately, medians of ``--repeats`` runs of the box report with
1000 bootstrap resamples: the plain agreement report, the report with the gold
rows as ``reference_rows`` (the same agreement report plus the reference
section), with one annotator of the rows as ``reference``, and the reference
section alone (on parsed rows).  Goal: the reference report ≤ 1.5 × the plain one.

Usage: PYTHONPATH=pycore python benchmarks/reference_bench.py [--repeats 3] [--images 200]
"""
import argparse
import statistics
import time

import agreekit
from agreekit.kinds.boxes.compare import box_kind
from agreekit.kinds.boxes.rows import box_objects, parse_boxes
from agreekit.reference.report import reference_part
from agreekit.reference.setup import from_rows
from agreekit.simulate import crowd_corpus


def seconds(function):
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def section_only(crowd, gold):
    """The reference section alone (1000 resamples), on rows already parsed: what reference mode adds."""
    records, _ = parse_boxes(crowd)
    chosen = from_rows(records, parse_boxes(gold)[0])

    def build(both):
        objects, array, _ = box_objects(both)
        return objects, box_kind(array, "giou")
    return lambda: reference_part(chosen, build, threshold=0.5, low_overlap=0.1, mode="optimal", label_key=str,
                                  bootstrap=1000, seed=1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--images", type=int, default=200)
    args = parser.parse_args()
    rows = crowd_corpus(n_images=args.images, truth_as="gold")
    crowd = [r for r in rows if r["annotator"] != "gold"]
    gold = [r for r in rows if r["annotator"] == "gold"]
    expert = max({r["annotator"] for r in crowd}, key=lambda a: sum(r["annotator"] == a for r in crowd))
    print(f"{len(crowd):,} rows of {len({r['annotator'] for r in crowd})} annotators, {len(gold):,} gold boxes, "
          f"{args.images} images; expert for reference=NAME: {expert}")
    runs = {"plain": lambda: agreekit.boxes(crowd), "gold rows": lambda: agreekit.boxes(crowd, reference_rows=gold),
            "annotator": lambda: agreekit.boxes(crowd, reference=expert), "section": section_only(crowd, gold)}
    times = {name: [] for name in runs}
    for _ in range(args.repeats):   # alternately, so a slower moment of a shared machine hits all alike
        for name, run in runs.items():
            times[name].append(seconds(run))
    plain = statistics.median(times["plain"])
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:10} median {median:6.2f} s over {args.repeats} runs ({', '.join(f'{v:.2f}' for v in values)})"
              f"  ratio to plain {median / plain:.2f}" + ("  (goal ≤ 1.5)" if name in ("gold rows", "annotator") else ""))
    report = agreekit.boxes(crowd, reference_rows=gold, bootstrap=0).to_dict()["reference"]
    print(f"reference section: {report['n_annotators']} annotators, {report['n_comparisons']:,} comparisons, "
          f"total F1 {report['total']['f1']['value']:.4f}, sigma vs gold {report['total']['sigma']['value']:.4f}")


if __name__ == "__main__":
    main()
