"""Row-major run lengths of a mask's crop as COCO's column-major run lengths of the whole image, on runs.

CVAT stores a mask as run lengths over its bounding crop, row by row; Potato over the whole image,
row by row; agreekit's masks rows take COCO's column-major runs over the image.  Reordering the
pixels would hold the crop in memory (60,000 × 60,000 pixels are 3.6 GB); here no pixel is held:

1. the foreground runs are cut at row ends into *pieces* (a row and a column interval) and *blocks*
   (rows the run covers whole);
2. a column run starts at row ``r`` in the columns that are foreground on row ``r`` and not on row
   ``r − 1``, and ends there in the columns where it is the other way round: these are differences of
   the two rows' column intervals, computed only where the rows change;
3. each (row, column interval) of starts and ends is spread over its columns, and the bounds are
   placed in the image's column-major order and sorted.

Time and memory grow with the number of runs, never with the number of pixels.  The column runs of
a mask can be many more than its row runs (horizontal stripes: ``h / 2`` row runs, ``w · h / 2``
column runs), so their number has a ceiling, :data:`MAX_COLUMN_RUNS`.

References
----------
cvat-ai/cvat: cvat-core ``rle2Mask`` (CVAT's runs over a crop, row-major, background first);
T.-Y. Lin et al., "Microsoft COCO", ECCV 2014 (column-major RLE, ``pycocotools/common/maskApi.c``).
"""
from __future__ import annotations

import numpy as np

__all__ = ["MAX_COLUMN_RUNS", "crop_rows_to_columns"]

MAX_COLUMN_RUNS = 2 ** 23  # foreground runs in column order: 2 × 8 bytes each while they are sorted


def _row_groups(starts, stops, width):
    """``[(first row, end row, [(column, end column), …])]``: the foreground rows in order, a run's whole
    rows as one group; pieces of one row in one group."""
    groups = []

    def add(first, end, piece):
        last = groups[-1] if groups else None
        if last is not None and end == first + 1 and last[0] == first and last[1] == end:
            last[2].append(piece)
        else:
            groups.append((first, end, [piece]))

    for start, stop in zip(starts, stops):
        row, column = divmod(start, width)
        last_row, last_column = divmod(stop - 1, width)
        if row == last_row:
            add(row, row + 1, (column, last_column + 1))
            continue
        add(row, row + 1, (column, width))
        if last_row > row + 1:
            add(row + 1, last_row, (0, width))
        add(last_row, last_row + 1, (0, last_column + 1))
    return groups


def _minus(intervals, removed):
    """The parts of sorted disjoint column ``intervals`` outside sorted disjoint ``removed``."""
    out, j = [], 0
    for low, high in intervals:
        while j < len(removed) and removed[j][1] <= low:
            j += 1
        k, at = j, low
        while k < len(removed) and removed[k][0] < high:
            if removed[k][0] > at:
                out.append((at, removed[k][0]))
            at, k = max(at, removed[k][1]), k + 1
        if at < high:
            out.append((at, high))
    return out


def _transitions(groups):
    """``(starts, ends)``: the (row, column, end column) where column runs start and where they end."""
    starts, ends, previous, previous_end = [], [], [], None
    for first, end, columns in groups:
        above = previous if previous_end == first else []
        if previous_end is not None and previous_end != first:  # empty rows between: every column run ends
            ends += [(previous_end, low, high) for low, high in previous]
        starts += [(first, low, high) for low, high in _minus(columns, above)]
        ends += [(first, low, high) for low, high in _minus(above, columns)]
        previous, previous_end = columns, end
    if previous_end is not None:
        ends += [(previous_end, low, high) for low, high in previous]
    return starts, ends


def _spread(transitions, left, top, image_height):
    """Each (row, column interval) spread over its columns, as sorted indices in the image's column order."""
    table = np.array(transitions, dtype=np.int64).reshape(-1, 3)
    rows, lows, highs = table[:, 0], table[:, 1], table[:, 2]
    widths = (highs - lows).astype(np.intp)  # wasm32: repeat counts as intp
    offsets = np.repeat(np.cumsum(widths) - widths, widths)
    columns = np.repeat(lows, widths) + (np.arange(int(widths.sum()), dtype=np.int64) - offsets)
    return np.sort((left + columns) * image_height + top + np.repeat(rows, widths))


def crop_rows_to_columns(counts, left, top, width, height, image_width, image_height):
    """COCO column-major run lengths over the image of a mask given as row-major runs over a crop.

    Parameters
    ----------
    counts : np.ndarray of int64
        Run lengths over the ``width × height`` crop, row by row, background first, summing to
        ``width · height`` (checked by the caller).
    left, top, width, height : int
        The crop in the image (inside it: checked by the caller).
    image_width, image_height : int

    Returns
    -------
    np.ndarray of int64
        Column-major run lengths over the image, background first, with no empty run at the end.

    Raises
    ------
    ValueError
        When the mask has more than :data:`MAX_COLUMN_RUNS` foreground runs in column order.

    >>> crop_rows_to_columns(np.array([1, 2, 1]), 1, 0, 2, 2, 3, 2).tolist()
    [3, 2, 1]
    """
    ends = np.cumsum(counts)
    starts, stops = ends[0:-1:2], ends[1::2]  # foreground runs [start, stop) in row-major crop order
    keep = stops > starts
    starts, stops = starts[keep], stops[keep]
    touching = np.nonzero(starts[1:] == stops[:-1])[0]  # split by an empty background run: one run
    starts, stops = np.delete(starts, touching + 1), np.delete(stops, touching)
    begin, end = _transitions(_row_groups(starts.tolist(), stops.tolist(), width))
    total = sum(high - low for _, low, high in begin)
    if total > MAX_COLUMN_RUNS:
        raise ValueError(f"the mask has {total:,} runs in column order, above the ceiling of {MAX_COLUMN_RUNS:,}")
    bounds = np.empty(2 * total, dtype=np.int64)
    bounds[0::2] = _spread(begin, left, top, image_height)
    bounds[1::2] = _spread(end, left, top, image_height)  # within a column, starts and ends alternate
    joined = np.nonzero(bounds[2::2] == bounds[1:-1:2])[0]  # a run that ends where the next begins: one run
    bounds = np.delete(bounds, np.concatenate((2 * joined + 1, 2 * joined + 2)))
    runs = np.diff(np.concatenate(([0], bounds, [image_width * image_height]))).astype(np.int64)
    return runs[:-1] if len(runs) > 1 and runs[-1] == 0 else runs
