"""Potato mode replays Potato's float arithmetic for box IoU; the default mode keeps its own.

Potato's ``geometry.iou_bbox`` (described in /work/shared/docs/reference-semantics.md §1; no code
copied) takes widths and heights as given and evaluates ix, iy, I = ix·iy, U = (aw·ah + bw·bh) − I,
I/U in that order.  The default mode takes each width as (x + w) − x, so that identical boxes give
IoU 1 wherever they lie.  Two boxes at IoU exactly 1/2 on paper can then land on different sides of
threshold 0.5: potato mode must decide them as Potato does.
"""
import json
import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import agreekit
from agreekit.geometry import boxes as geometry

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "tests" / "fixtures" / "potato"
DOC = ROOT / "docs" / "potato-differences.md"

# Found by searching decimal boxes a, a shifted by a third of its width: exact IoU 1/2 (checked below).
EDGE_A = ("0.443", "0.622", "0.6", "0.391")
EDGE_B = ("0.643", "0.622", "0.6", "0.391")


def potato_order_iou(a, b):
    """The described order of operations, one Python float operation at a time (the oracle)."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    if aw <= 0 or ah <= 0 or bw <= 0 or bh <= 0:
        return 0.0
    ix = max(0.0, min(ax + aw, bx + bw) - max(ax, bx))
    iy = max(0.0, min(ay + ah, by + bh) - max(ay, by))
    inter = ix * iy
    union = aw * ah + bw * bh - inter
    return inter / union if union > 0 else 0.0


def exact_iou(a, b):
    """IoU of the decimal boxes in rational arithmetic."""
    ax, ay, aw, ah = map(Fraction, a)
    bx, by, bw, bh = map(Fraction, b)
    inter = max(0, min(ax + aw, bx + bw) - max(ax, bx)) * max(0, min(ay + ah, by + bh) - max(ay, by))
    return inter / (aw * ah + bw * bh - inter)


def edge_rows():
    return [{"item": "photo", "annotator": name, "x": x, "y": y, "w": w, "h": h, "label": "car"}
            for name, (x, y, w, h) in (("ann", EDGE_A), ("bo", EDGE_B))]


def test_the_constructed_pair_is_on_the_threshold_and_the_two_orders_differ():
    a, b = np.array(EDGE_A, float), np.array(EDGE_B, float)
    assert exact_iou(EDGE_A, EDGE_B) == Fraction(1, 2)
    potato = geometry.potato_iou_matrix(a, b)[0, 0]
    default = geometry.iou_matrix(a, b)[0, 0]
    assert potato == potato_order_iou(a.tolist(), b.tolist())
    assert potato < 0.5 <= default


def test_potato_mode_decides_the_edge_pair_as_potato_and_the_default_mode_as_before():
    potato = agreekit.boxes(edge_rows(), threshold=0.5, match="potato", bootstrap=0)
    default = agreekit.boxes(edge_rows(), threshold=0.5, bootstrap=0)
    assert potato.n_matched_pairs == 0 and potato.detection_f1 == 0.0
    assert default.n_matched_pairs == 1 and default.detection_f1 == 1.0
    # Below the edge both modes match: only the decision at the threshold differs.
    assert agreekit.boxes(edge_rows(), threshold=0.49, match="potato", bootstrap=0).n_matched_pairs == 1


def test_potato_iou_equals_the_oracle_bit_for_bit_on_random_boxes():
    rng = random.Random(7)
    for _ in range(300):
        a = [round(rng.uniform(-1, 1), rng.randint(1, 4)) for _ in range(2)] + \
            [round(rng.uniform(-0.1, 1), rng.randint(1, 4)) for _ in range(2)]
        b = [v + round(rng.uniform(-0.3, 0.3), 3) for v in a]
        assert geometry.potato_iou_matrix(np.array(a), np.array(b))[0, 0] == potato_order_iou(a, b), (a, b)


MATCH_CASES = [c for c in json.loads((REFERENCE / "matching.json").read_text())["cases"]
               if c["kind"] == "match_boxes" and c.get("iou_matrix")] if (REFERENCE / "matching.json").exists() else []


@pytest.mark.skipif(not MATCH_CASES, reason="tests/fixtures/potato/matching.json not present")
def test_potato_iou_is_potatos_own_iou_matrix_bit_for_bit():
    """Potato's IoU matrices in the shared matching cases, equal to the last bit (the default's only to 1e-12)."""
    differ = 0
    for case in MATCH_CASES:
        a = np.array(case["input"]["boxes_a"], float).reshape(-1, 4)
        b = np.array(case["input"]["boxes_b"], float).reshape(-1, 4)
        expected = np.array(case["iou_matrix"], float).reshape(len(a), len(b))
        np.testing.assert_array_equal(geometry.potato_iou_matrix(a, b), expected, err_msg=case["id"])
        differ += int(np.any(geometry.iou_matrix(a, b) != expected))
    assert differ > 0, "no case tells the two orders apart: the bit-for-bit check proves nothing more"


def test_the_documented_edge_case_is_the_computed_one():
    text = DOC.read_text()
    a, b = np.array(EDGE_A, float), np.array(EDGE_B, float)
    for shown in (f"[{', '.join(EDGE_A)}]", f"[{', '.join(EDGE_B)}]",
                  repr(float(geometry.potato_iou_matrix(a, b)[0, 0])), "potato_iou_matrix",
                  "test_potato_arithmetic.py"):
        assert shown in text, shown
