"""The banded GIoU distance block, in given and in reordered column order, bit for bit against the paired formula."""
import numpy as np
import pytest

import agreekit
from agreekit import runtime
from agreekit.geometry import boxes as geometry
from agreekit.simulate import crowd_corpus


def awkward_boxes(seed, n):
    """Boxes ``x, y, w, h`` mixing random ones with touching, nested, identical, tied and far-apart ones."""
    rng = np.random.default_rng(seed)
    n = max(n, 1)
    size = rng.uniform(0.05, 0.3, size=(n, 2))
    corner = rng.uniform(0, 1, size=(n, 2)) * (1 - size)
    boxes = np.column_stack([corner, size])
    x, y, w, h = boxes[0]
    special = np.array([
        [x + w, y, 0.1, h],              # touches box 0 on its right side
        [x, y + h, w, 0.2],              # touches box 0 below
        [x + w / 4, y + h / 4, w / 2, h / 2],   # nested in box 0
        [x, y, w, h],                    # identical to box 0
        [x, y + 0.5, w, h],              # same x as box 0 (ties in the column order)
        [1e6, -1e6, 0.1, 0.1],           # far from everything
        [-0.0, -0.0, 0.25, 0.25],        # signed zero corner
        [0.0, 0.0, 0.25, 0.25],
        [-3.5, 2.0, 1e-9, 1e-9],         # tiny
    ])
    return np.vstack([boxes, special])[rng.permutation(n + len(special))]


def paired(a, b):
    """Every pair of ``a`` × ``b`` through the paired distance (the formula of the within distances)."""
    i, j = np.meshgrid(np.arange(len(a)), np.arange(len(b)), indexing="ij")
    return geometry.paired_distance(a[i.ravel()], b[j.ravel()]).reshape(len(a), len(b))


def same_bits(x, y):
    return x.shape == y.shape and np.array_equal(x.view(np.int64), y.view(np.int64))


@pytest.mark.parametrize("reorder", [False, True])
@pytest.mark.parametrize("seed, n, m", [(0, 49, 309), (1, 16, 5009), (2, 309, 1), (3, 1, 49), (4, 3, 0), (5, 0, 3)])
def test_block_equals_paired_formula_bit_for_bit(seed, n, m, reorder):
    a, b = awkward_boxes(seed, n)[:n], awkward_boxes(seed + 100, m)[:m]
    block = geometry._giou_distance_matrix(geometry._parts(a), geometry._parts(b), reorder=reorder)
    assert same_bits(block, paired(a, b))


@pytest.mark.parametrize("reorder", [False, True])
def test_block_with_degenerate_boxes_equals_paired_formula(reorder):
    a, b = awkward_boxes(6, 30), awkward_boxes(7, 50)
    b[3, 2] = 0.0      # zero width
    b[9, 3] = -0.1     # negative height
    block = geometry._giou_distance_matrix(geometry._parts(a), geometry._parts(b), reorder=reorder)
    assert same_bits(block, paired(a, b))
    assert (block[:, [3, 9]] == 1.0).all()


def test_reordered_and_given_order_agree_on_a_large_block():
    a, b = awkward_boxes(8, 200), awkward_boxes(9, 6000)
    parts_a, parts_b = geometry._parts(a), geometry._parts(b)
    assert same_bits(geometry._giou_distance_matrix(parts_a, parts_b, reorder=True),
                     geometry._giou_distance_matrix(parts_a, parts_b, reorder=False))


@pytest.mark.parametrize("n", [0, 1, 2, 10, 997])
def test_column_order_is_a_permutation(n):
    rng = np.random.default_rng(n)
    x, y = rng.random(n), rng.random(n)
    order = geometry._column_order(x, y)
    assert order.dtype == np.intp
    assert np.array_equal(np.sort(order), np.arange(n))


def test_box_report_is_the_same_with_reordered_blocks(monkeypatch):
    """The whole report (exact baseline, KS, σ_cross, bootstrap), in CPython with Pyodide's block order."""
    rows = crowd_corpus(n_images=12, n_annotators=20, per_image=5, seed=4)
    reports = []
    for reorder in (False, True):
        monkeypatch.setattr(runtime, "REORDER_COLUMNS", reorder)
        reports.append(agreekit.boxes(rows, bootstrap=50, seed=1).to_json())
    assert reports[0] == reports[1]


@pytest.mark.parametrize("reorder", [False, True])
@pytest.mark.parametrize("distance", geometry.DISTANCES)
def test_transposed_block_is_the_block_transposed_bit_for_bit(distance, reorder, monkeypatch):
    """The baseline takes its blocks transposed (``chance._transposed``): every box distance is symmetric
    bit for bit, so the transposed block is computed directly; degenerate boxes included."""
    monkeypatch.setattr(runtime, "REORDER_COLUMNS", reorder)
    a, b = awkward_boxes(10, 40), awkward_boxes(11, 700)
    b[5, 2] = 0.0      # zero width
    a[2, 3] = -0.1     # negative height
    transposed = geometry.transposed_distance_matrix(a, b, distance)
    assert transposed.flags.c_contiguous
    assert same_bits(transposed, np.ascontiguousarray(geometry.distance_matrix(a, b, distance).T))
