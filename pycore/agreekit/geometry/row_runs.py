"""Row-major run lengths of a mask's crop as COCO's column-major run lengths of the whole image, on runs.

CVAT stores a mask as run lengths over its bounding crop, row by row; Potato over the whole image,
row by row; agreekit's masks rows take COCO's column-major runs over the image.  Reordering the
pixels would hold the crop in memory (60,000 × 60,000 pixels are 3.6 GB); here no pixel is held:

1. the foreground runs are cut at row ends into *pieces* (a row and a column interval) and *blocks*
   (rows a run covers whole); the pieces of one row form a group, a block a group of its own;
2. a column run starts at row ``r`` in the columns that are foreground on row ``r`` and not on row
   ``r − 1``, and ends there in the columns where it is the other way round: differences of two
   groups' column intervals, computed only where the rows change, for all rows at once (the
   intervals as +1/−1 events sorted by row and column; running sums say which side covers what),
   a slice of :data:`CHUNK_PIECES` pieces at a time;
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
CHUNK_PIECES = 2 ** 18      # row pieces whose column events are sorted together (~40 bytes an event)


def _pieces(starts, stops, width):
    """``(first row, end row, column, end column)`` arrays of the foreground runs cut at row ends, in row order:
    a run's first row, the rows it covers whole (one block), its last row."""
    row, column = np.divmod(starts, width)
    last_row, last_column = np.divmod(stops - 1, width)
    last_column += 1
    one_row = row == last_row
    first = np.stack([row, row + 1, last_row], axis=1).ravel()
    end = np.stack([row + 1, last_row, last_row + 1], axis=1).ravel()
    low = np.stack([column, np.zeros_like(row), np.zeros_like(row)], axis=1).ravel()
    high = np.stack([np.where(one_row, last_column, width), np.full_like(row, width), last_column], axis=1).ravel()
    kept = np.stack([np.ones_like(one_row), last_row > row + 1, ~one_row], axis=1).ravel()
    return first[kept], end[kept], low[kept], high[kept]


def _segments(rows, a_groups, b_groups, group_start, group_count, low, high):
    """Where column runs start and end at each of ``rows``: the column intervals of group ``a`` (the rows from
    there) outside those of group ``b`` (the row above), and the other way round (-1: no group).

    Each group's intervals become +1/-1 events on its side; sorted by (transition, column), running sums give
    each side's coverage between consecutive events: (a, not b) starts runs, (b, not a) ends them.
    """
    owners, columns, changes = [], [], []
    for side, groups in ((0, a_groups), (1, b_groups)):
        transition = np.flatnonzero(groups >= 0)
        counts = group_count[groups[transition]].astype(np.intp)  # wasm32: repeat counts as intp
        offsets = np.arange(int(counts.sum()), dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
        piece = np.repeat(group_start[groups[transition]], counts) + offsets
        owner = np.repeat(transition, counts)
        step = np.zeros((2 * len(piece), 2), dtype=np.int8)  # +1 where an interval begins, -1 past its end
        step[:len(piece), side], step[len(piece):, side] = 1, -1
        owners += [owner, owner]
        columns += [low[piece], high[piece]]
        changes.append(step)
    order = np.lexsort((np.concatenate(columns), np.concatenate(owners)))
    owner, column = np.concatenate(owners)[order], np.concatenate(columns)[order]
    state = np.cumsum(np.concatenate(changes)[order], axis=0, dtype=np.int8)  # each side covered 0 or 1 times
    segment = (owner[:-1] == owner[1:]) & (column[:-1] < column[1:])
    found = []
    for wanted in ((1, 0), (0, 1)):
        at = np.flatnonzero(segment & (state[:-1, 0] == wanted[0]) & (state[:-1, 1] == wanted[1]))
        found.append((rows[owner[at]], column[at], column[at + 1]))
    return found


def _transitions(starts, stops, width):
    """``(starts, ends)``, each ``(rows, columns, end columns)``: where column runs start and where they end."""
    first, end, low, high = _pieces(starts, stops, width)
    if len(first) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return (empty, empty, empty), (empty, empty, empty)
    single = end == first + 1
    new = np.ones(len(first), dtype=bool)  # pieces of one row form one group; a block is a group of its own
    new[1:] = ~((first[1:] == first[:-1]) & single[1:] & single[:-1])
    group_start = np.flatnonzero(new)
    group_count = np.diff(np.append(group_start, len(first)))
    group_first, group_end = first[group_start], end[group_start]
    n = len(group_start)
    below = np.zeros(n, dtype=bool)  # group k starts on the row where group k - 1 ends
    below[1:] = group_end[:-1] == group_first[1:]
    closed = np.ones(n, dtype=bool)  # group k is followed by an empty row (or by nothing)
    closed[:-1] = ~below[1:]
    ids = np.arange(n)
    rows = np.concatenate([group_first, group_end[closed]])
    a_groups = np.concatenate([ids, np.full(int(closed.sum()), -1)])
    b_groups = np.concatenate([np.where(below, ids - 1, -1), ids[closed]])
    # The transitions are independent: taken a slice at a time, their events stay within CHUNK_PIECES pieces.
    size = np.where(a_groups >= 0, group_count[a_groups], 0) + np.where(b_groups >= 0, group_count[b_groups], 0)
    cuts = np.searchsorted(np.cumsum(size), np.arange(CHUNK_PIECES, int(size.sum()), CHUNK_PIECES), side="right")
    parts = [_segments(rows[a:b], a_groups[a:b], b_groups[a:b], group_start, group_count, low, high)
             for a, b in zip([0, *cuts.tolist()], [*cuts.tolist(), len(rows)]) if b > a]
    return tuple(tuple(np.concatenate([part[k][j] for part in parts]) for j in range(3)) for k in range(2))


def _spread(transitions, left, top, image_height):
    """Each (row, column interval) spread over its columns, as sorted indices in the image's column order."""
    rows, lows, highs = transitions
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
    begin, end = _transitions(starts, stops, width)
    total = int((begin[2] - begin[1]).sum())
    if total > MAX_COLUMN_RUNS:
        raise ValueError(f"the mask has {total:,} runs in column order, above the ceiling of {MAX_COLUMN_RUNS:,}")
    bounds = np.empty(2 * total, dtype=np.int64)
    bounds[0::2] = _spread(begin, left, top, image_height)
    bounds[1::2] = _spread(end, left, top, image_height)  # within a column, starts and ends alternate
    joined = np.nonzero(bounds[2::2] == bounds[1:-1:2])[0]  # a run that ends where the next begins: one run
    bounds = np.delete(bounds, np.concatenate((2 * joined + 1, 2 * joined + 2)))
    runs = np.diff(np.concatenate(([0], bounds, [image_width * image_height]))).astype(np.int64)
    return runs[:-1] if len(runs) > 1 and runs[-1] == 0 else runs
