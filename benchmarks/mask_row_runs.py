"""Masks reordered on runs (``agreekit.geometry.row_runs``) against the pixel path the readers used before.

A CVAT or Potato mask comes as row-major runs; agreekit's rows take COCO's column-major runs. The pixel
path (below, as ``formats/cvat.py`` had it before issue 22's last step) expands the crop to bytes,
transposes and diffs it; the run path never holds a pixel. Two masks per size, on a square image:
a filled disc of half the side (few runs: one per row) and a checkerboard of 64-pixel squares (many
runs). Medians of ``--repeats`` wall times and the peak traced memory (``tracemalloc``), each method
in turn in the same process (the machine has 2 noisy cores: the ratios are the figures to quote).

Usage: PYTHONPATH=pycore python benchmarks/mask_row_runs.py [--repeats 3] [--sides 2000 4000 8000]
"""
import argparse
import statistics
import time
import tracemalloc

import numpy as np

from agreekit.geometry.rle import encode
from agreekit.geometry.row_runs import crop_rows_to_columns


def by_pixels(counts, width, height):
    """The pixel path: the crop's pixels, transposed, diffed into column runs (the readers' code before)."""
    crop = np.repeat(np.arange(len(counts)) % 2 == 1, counts.astype(np.intp)).reshape(height, width)
    columns = np.zeros((width, height + 2), dtype=np.int8)
    columns[:, 1:-1] = crop.T
    change = np.diff(columns, axis=1)
    column, row = np.nonzero(change == 1)
    end_column, end_row = np.nonzero(change == -1)
    bounds = np.empty(2 * len(row), dtype=np.int64)
    bounds[0::2] = column.astype(np.int64) * height + row
    bounds[1::2] = end_column.astype(np.int64) * height + end_row
    touching = np.nonzero(bounds[2::2] == bounds[1:-1:2])[0]
    bounds = np.delete(bounds, np.concatenate((2 * touching + 1, 2 * touching + 2)))
    runs = np.diff(np.concatenate(([0], bounds, [width * height])))
    return runs[:-1] if len(runs) > 1 and runs[-1] == 0 else runs


def row_major_runs(side, shape):
    """Row-major runs of a ``side × side`` mask, built a band of rows at a time (never the whole mask)."""
    pieces, band = [], 256
    for top in range(0, side, band):
        y, x = np.mgrid[top:min(top + band, side), 0:side]
        if shape == "disc":
            mask = (x - side / 2) ** 2 + (y - side / 2) ** 2 < (side / 4) ** 2
        else:
            mask = ((x // 64) + (y // 64)) % 2 == 1
        pieces.append(mask)
    return encode(np.vstack(pieces).T)  # column-major runs of the transpose: the row-major runs


def measured(call, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - start)
    tracemalloc.start()
    call()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return result, statistics.median(times), peak


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sides", type=int, nargs="+", default=[2000, 4000, 8000])
    args = parser.parse_args()
    for side in args.sides:
        for shape in ("disc", "checkerboard"):
            counts = row_major_runs(side, shape)
            old, old_s, old_peak = measured(lambda: by_pixels(counts, side, side), args.repeats)
            new, new_s, new_peak = measured(lambda: crop_rows_to_columns(counts, 0, 0, side, side, side, side),
                                            args.repeats)
            assert np.array_equal(old, new)
            print(f"{side:,}² {shape:12} ({len(counts):,} row runs): pixels {old_s:.3f} s, {old_peak / 2**20:.0f} MiB; "
                  f"runs {new_s:.3f} s, {new_peak / 2**20:.1f} MiB; time ratio {old_s / new_s:.2f}x, memory ratio "
                  f"{old_peak / new_peak:.0f}x (median of {args.repeats})")


if __name__ == "__main__":
    main()
