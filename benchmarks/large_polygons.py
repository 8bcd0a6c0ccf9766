"""Large polygons: the report on polygons of 10,000 vertices, overlapping fan wedges found by sorting
against testing every wedge pair (the method before; ``polygon_overlap.SORTED_ABOVE`` raised out of reach).

Two cases: one item with two annotators' 10,000-vertex outlines of one object (within pairs only), and
two such items (within and between-item pairs). Medians of ``--repeats`` wall times, each method in
turn in the same process (the machine has 2 noisy cores: the ratio is the figure to quote).
Goal (issue 27): two 10,000-vertex polygons ≤ 2 s.

Usage: PYTHONPATH=pycore python benchmarks/large_polygons.py [--repeats 3] [--vertices 10000]
"""
import argparse
import statistics
import time

import numpy as np

import agreekit
from agreekit.geometry import polygon_overlap


def outline(n, seed, radius=100.0):
    """A smooth non-convex outline of ``n`` vertices (a five-lobed ring), slightly different per seed."""
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    r = radius * (1 + 0.05 * np.sin(5 * t + seed))
    return " ".join(f"{v:.3f}" for v in np.c_[500 + r * np.cos(t), 500 + r * np.sin(t)].ravel())


def rows(n_items, vertices):
    return [{"item": f"image{k}", "annotator": a, "points": outline(vertices, 2 * k + (a == "B")), "label": "x"}
            for k in range(n_items) for a in "AB"]


def timed(call, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--vertices", type=int, default=10_000)
    args = parser.parse_args()
    sorted_above = polygon_overlap.SORTED_ABOVE
    for n_items in (1, 2):
        data = rows(n_items, args.vertices)
        figures = {}
        for method, threshold in (("every wedge pair", 1 << 62), ("sorted wedges", sorted_above)):
            polygon_overlap.SORTED_ABOVE = threshold
            figures[method] = timed(lambda: agreekit.polygons(data, bootstrap=0), args.repeats)
        polygon_overlap.SORTED_ABOVE = sorted_above
        old, new = figures["every wedge pair"], figures["sorted wedges"]
        print(f"{n_items} item(s) x 2 annotators, {args.vertices:,} vertices: every wedge pair {old:.2f} s, "
              f"sorted wedges {new:.2f} s, ratio {old / new:.1f}x (median of {args.repeats})")


if __name__ == "__main__":
    main()
