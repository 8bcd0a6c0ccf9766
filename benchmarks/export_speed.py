"""Speed of the exporters on the crowd-shaped box corpus, beside the box report on the same rows (prints figures).

Corpus: ``agreekit.simulate.crowd_corpus()`` (200 images, 196 annotators, ≈ 7,300 boxes).  Timed,
in turns so that load from other jobs falls on all alike, ``--repeats`` rounds, medians: the
baseline ``agreekit.boxes(rows, bootstrap=1000)``; each writer that holds boxes
(``agreekit.formats.writers.write``), and the same writer followed by its importer
(``agreekit.convert``: the round trip a "download consensus, import it again" makes).  Printed:
median seconds and the ratio to the report's median.

Usage: python benchmarks/export_speed.py [--repeats 5]
"""
import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pycore"))

import agreekit  # noqa: E402
from agreekit.formats import convert  # noqa: E402
from agreekit.formats.writers import WRITERS, write  # noqa: E402
from agreekit.simulate import crowd_corpus  # noqa: E402

FORMATS = ("csv", "coco", "labelstudio", "cvat")


def _timed(task):
    start = time.perf_counter()
    task()
    return time.perf_counter() - start


def _round_trip(rows, format, sizes):
    written = write("boxes", rows, format, **({"image_sizes": sizes} if format in ("coco", "labelstudio") else {}))
    if WRITERS[format].reader is not None:
        content = written.content
        convert((written.filename, content if isinstance(content, bytes) else content.encode()), kind="boxes",
                format=WRITERS[format].reader, **written.read_options)
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rows = crowd_corpus()
    sizes = {item: (1, 1) for item in {r["item"] for r in rows}}  # the simulated boxes are in a unit square
    n = sum(r["x"] is not None for r in rows)
    tasks = {"boxes report (baseline)": lambda: agreekit.boxes(rows, bootstrap=1000)}
    for format in FORMATS:
        options = {"image_sizes": sizes} if format in ("coco", "labelstudio") else {}
        tasks[f"write {format}"] = lambda f=format, o=options: write("boxes", rows, f, **o)
        if WRITERS[format].reader is not None:
            tasks[f"write {format} + import"] = lambda f=format: _round_trip(rows, f, sizes)
    times = {name: [] for name in tasks}
    for name, task in tasks.items():  # warm-up
        task()
    for _ in range(args.repeats):
        for name, task in tasks.items():
            times[name].append(_timed(task))
    base = statistics.median(times["boxes report (baseline)"])
    print(f"{len(rows)} rows ({n} boxes), {args.repeats} rounds, medians")
    print(f"{'task':32} {'seconds':>8} {'× report':>9}")
    for name, found in times.items():
        median = statistics.median(found)
        print(f"{name:32} {median:8.3f} {median / base:9.2f}")


if __name__ == "__main__":
    main()
