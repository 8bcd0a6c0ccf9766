"""Row-major runs of a crop reordered as COCO's column-major runs of the image on runs, never as pixels
(agreekit.geometry.row_runs, issue 22): the same runs as the pixel path on small masks, and masks far
above any pixel budget read in bounded memory, their areas and IoUs computed on runs."""
from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from agreekit.formats import convert
from agreekit.formats.cvat import crop_runs_to_coco
from agreekit.geometry.rle import decode, encode, mask_iou
from agreekit.geometry.row_runs import MAX_COLUMN_RUNS, crop_rows_to_columns


def by_pixels(counts, left, top, width, height, image_width, image_height):
    """The pixel path, as the readers took it before: the crop's pixels placed in the image, encoded."""
    crop = np.repeat(np.arange(len(counts)) % 2 == 1, counts).reshape(height, width)
    image = np.zeros((image_height, image_width), dtype=bool)
    image[top:top + height, left:left + width] = crop
    return encode(image).tolist()


@st.composite
def masks_in_images(draw):
    width, height = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    left, top = draw(st.integers(0, 4)), draw(st.integers(0, 4))
    image_width, image_height = left + width + draw(st.integers(0, 3)), top + height + draw(st.integers(0, 3))
    pixels = draw(st.lists(st.booleans(), min_size=width * height, max_size=width * height))
    counts = encode(np.array(pixels).reshape(width, height)).tolist()  # row-major runs: the crop read by rows
    extra_zeros = draw(st.lists(st.integers(0, len(counts)), max_size=3))  # empty runs, as a writer may leave
    for at in sorted(extra_zeros, reverse=True):
        counts[at:at] = [0, 0]
    return counts, left, top, width, height, image_width, image_height


@settings(max_examples=400, deadline=None)
@given(masks_in_images())
def test_runs_reordered_on_runs_are_the_pixel_paths(case):
    counts, left, top, width, height, image_width, image_height = case
    got = crop_runs_to_coco(counts, left, top, width, height, image_width, image_height).tolist()
    assert got == by_pixels(counts, left, top, width, height, image_width, image_height)
    assert decode(got, image_height, image_width).sum() == sum(counts[1::2])


@settings(max_examples=200, deadline=None)
@given(masks_in_images(), st.integers(1, 4))
def test_runs_reordered_a_few_rows_at_a_time_are_the_pixel_paths(case, chunk):
    # Large masks are reordered a slice of row transitions at a time (CHUNK_PIECES): tiny slices here.
    from agreekit.geometry import row_runs

    counts, left, top, width, height, image_width, image_height = case
    saved, row_runs.CHUNK_PIECES = row_runs.CHUNK_PIECES, chunk
    try:
        got = crop_runs_to_coco(counts, left, top, width, height, image_width, image_height).tolist()
    finally:
        row_runs.CHUNK_PIECES = saved
    assert got == by_pixels(counts, left, top, width, height, image_width, image_height)


def rectangle_counts(width, height, rows, columns):
    """Row-major runs over a ``width × height`` crop of the filled rectangle ``rows × columns`` (half-open)."""
    (r0, r1), (c0, c1) = rows, columns
    counts = [r0 * width + c0]
    for _ in range(r0, r1 - 1):
        counts += [c1 - c0, width - (c1 - c0)]
    return counts + [c1 - c0, width * height - (r1 - 1) * width - c1]


def test_a_mask_far_above_a_pixel_budget_is_read_on_runs_with_its_area_and_iou():
    # A 100,000 × 100,000 image (10¹⁰ pixels, 10 GB as bytes): two rectangles, as CVAT crops.
    side = 100_000
    a = crop_runs_to_coco(rectangle_counts(60_000, 50_000, (10_000, 40_000), (5_000, 55_000)),
                          20_000, 30_000, 60_000, 50_000, side, side)
    tracemalloc.start()  # (slows the reading tenfold: one mask is measured)
    b = crop_runs_to_coco(rectangle_counts(side, side, (45_000, 75_000), (30_000, 70_000)), 0, 0, side, side,
                          side, side)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 64 * 2 ** 20
    assert int(a.sum()) == int(b.sum()) == side * side
    area_a, area_b = 30_000 * 50_000, 30_000 * 40_000
    assert int(a[1::2].sum()) == area_a and int(b[1::2].sum()) == area_b
    assert len(a) == 2 * 50_000 + 1  # one run in each of the rectangle's columns
    # a covers rows 40,000–70,000 and columns 25,000–75,000 of the image; b rows 45,000–75,000, columns 30,000–70,000
    intersection = 25_000 * 40_000
    assert mask_iou(a, b) == pytest.approx(intersection / (area_a + area_b - intersection), rel=1e-12)


def test_runs_that_would_be_too_many_in_column_order_are_refused_with_the_count():
    # Every other row of a 100,000 × 200 crop: 100 row runs, but 100 runs in each of 100,000 columns.
    width, height = 100_000, 200
    counts = [0] + [width, width] * (height // 2)
    with pytest.raises(ValueError, match=f"10,000,000 runs in column order, above the ceiling of {MAX_COLUMN_RUNS:,}"):
        crop_rows_to_columns(np.array(counts, dtype=np.int64), 0, 0, width, height, width, height)


def test_a_cvat_mask_crop_above_the_old_pixel_ceiling_is_read():
    # A 20,000 × 20,000 crop (4 × 10⁸ pixels, above the 2²⁸ the readers once held as pixels).
    job = """<?xml version="1.0" encoding="utf-8"?>
<annotations><version>1.1</version>
<image id="0" name="big.png" width="30000" height="30000">
<mask label="leaf" source="manual" occluded="0" rle="{rle}" left="5000" top="5000" width="20000" height="20000" z_order="0"/>
</image></annotations>"""
    counts = rectangle_counts(20_000, 20_000, (0, 20_000), (0, 20_000))  # the whole crop
    conversion = convert([("annotations.xml", job.format(rle=", ".join(map(str, counts))).encode())], format="cvat",
                         kind="masks")
    [row] = conversion.rows
    from agreekit.parse.rle import parse_rle

    runs = parse_rle(row["rle"], 30_000, 30_000)
    assert int(np.sum(runs[1::2])) == 20_000 * 20_000 and len(runs) == 2 * 20_000 + 1
