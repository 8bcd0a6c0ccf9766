"""Large items of the object engine (issue 27): block by block, the same report as the square matrices.

The limits of :mod:`agreekit.object_blocks` are lowered so that small random items
take the blocked path (per annotator pair, chunked, matched from the pairs that reach
the threshold), and every report must equal the one of the square matrices.
"""
import numpy as np
import pytest

import agreekit
from agreekit import matching, object_blocks, object_sets
from same_report import assert_same

LABELS = ("a", "b", "c")


def crowded_boxes(seed, n_items=3, n_annotators=3, n_objects=40):
    """Boxes of a few crowded items: the same objects with edge noise, some missed, some drawn twice,
    on a small canvas so that neighbours compete for matches.  Exact ties (identical boxes) are left
    out: among equally good matchings the blocked path may choose another (matching.match_allowed)."""
    rng = np.random.default_rng(seed)
    rows = []
    for item in range(n_items):
        truth = np.column_stack([rng.uniform(0, 20, (n_objects, 2)), rng.uniform(1, 4, (n_objects, 2))])
        labels = rng.integers(len(LABELS), size=n_objects)
        for a in range(n_annotators):
            noisy = truth + rng.normal(0, 0.15, truth.shape) * np.tile(truth[:, 2:], 2)
            keep = rng.random(n_objects) >= 0.1
            twice = rng.integers(n_objects, size=3)  # drawn twice, a little apart (no exact ties)
            again = noisy[twice] + rng.normal(0, 0.05, (3, 4))
            drawn_labels = np.concatenate([labels[keep], labels[twice]]).tolist()
            for (x, y, w, h), label in zip(np.vstack([noisy[keep], again]).tolist(), drawn_labels):
                label = rng.integers(len(LABELS)) if rng.random() < 0.15 else label
                rows.append({"item": f"i{item}", "annotator": f"ann{a}", "x": x, "y": y, "w": abs(w), "h": abs(h),
                             "label": LABELS[label]})
    return rows


def crowded_segments(seed, n_items=2, n_annotators=3, n_events=50):
    """Segments of a few crowded clips: jittered copies of the same events, overlapping neighbours."""
    rng = np.random.default_rng(seed)
    rows = []
    for item in range(n_items):
        start = np.sort(rng.uniform(0, 60, n_events))
        length = rng.uniform(0.5, 3.0, n_events)
        labels = rng.integers(len(LABELS), size=n_events)
        for a in range(n_annotators):
            for k in np.flatnonzero(rng.random(n_events) >= 0.1).tolist():
                s = max(0.0, start[k] + rng.normal(0, 0.3))
                rows.append({"item": f"c{item}", "annotator": f"ann{a}", "start": s,
                             "end": s + max(0.05, length[k] + rng.normal(0, 0.3)), "label": LABELS[labels[k]]})
    return rows


def crowded_cuboids(seed, n_objects, columns, n_annotators=3):
    """One scene: each annotator's jittered, slightly turned copies of ``n_objects`` cuboids on a grid."""
    rng = np.random.default_rng(seed)
    rows = []
    for a in range(n_annotators):
        for k in range(n_objects):
            cx, cy = (k % columns) * 1.5 + rng.normal(0, 0.2), (k // columns) * 1.5 + rng.normal(0, 0.2)
            angle = rng.normal(0, 0.2)
            rows.append({"item": "scene", "annotator": f"ann{a}", "cx": cx, "cy": cy, "cz": 0.5, "sx": 1.6,
                         "sy": 1.2, "sz": 1.0, "qx": 0.0, "qy": 0.0, "qz": np.sin(angle / 2),
                         "qw": np.cos(angle / 2), "label": LABELS[k % 2]})
    return rows


def crowded_polygons(seed, items=("p1", "p2"), n_annotators=3):
    """Hexagons around 25 centres per item, each annotator's turned and sized a little differently."""
    rng = np.random.default_rng(seed)
    rows = []
    for item in items:
        centres = rng.uniform(0, 30, (25, 2))
        for a in range(n_annotators):
            for k, (x, y) in enumerate(centres.tolist()):
                angles = np.arange(6) * np.pi / 3 + rng.uniform(-0.2, 0.2, 6)
                radius = rng.uniform(1.0, 2.5)
                points = np.column_stack([x + radius * np.cos(angles), y + radius * np.sin(angles)])
                rows.append({"item": item, "annotator": f"ann{a}", "label": LABELS[k % 3],
                             "points": " ".join(f"{v:.3f}" for v in points.ravel())})
    return rows


def blocked(monkeypatch):
    """Every item of more than 10 objects is large, every annotator pair above 50 pairs sparse."""
    monkeypatch.setattr(object_sets, "DENSE_ITEM_OBJECTS", 10)
    monkeypatch.setattr(object_blocks, "DENSE_PAIRS", 50)
    monkeypatch.setattr(object_blocks, "CHUNK_PAIRS", 64)


@pytest.mark.parametrize("match", ["optimal", "potato"])
@pytest.mark.parametrize("seed", [1, 2])
def test_boxes_blocked_equal_square(monkeypatch, seed, match):
    rows = crowded_boxes(seed)
    dense = agreekit.boxes(rows, match=match, bootstrap=50).to_dict()
    blocked(monkeypatch)
    assert_same(agreekit.boxes(rows, match=match, bootstrap=50).to_dict(), dense)


@pytest.mark.parametrize("match", ["optimal", "potato"])
def test_segments_blocked_equal_square(monkeypatch, match):
    rows = crowded_segments(3)
    dense = agreekit.segments(rows, match=match, bootstrap=50).to_dict()
    blocked(monkeypatch)
    assert_same(agreekit.segments(rows, match=match, bootstrap=50).to_dict(), dense)


def test_blocked_path_taken_for_large_items(monkeypatch):
    """Above the limits no item gets its square similarity and pairs are matched from the allowed pairs."""
    from agreekit import objects
    seen = {"items": [], "sparse": 0}
    item_similarities, match_allowed = objects.item_similarities, object_blocks.match_allowed

    def spying_items(*args):
        out = item_similarities(*args)
        seen["items"] += [type(item) for item in out]
        return out

    def spying_match(*args):
        seen["sparse"] += 1
        return match_allowed(*args)

    monkeypatch.setattr(objects, "item_similarities", spying_items)
    monkeypatch.setattr(object_blocks, "match_allowed", spying_match)
    blocked(monkeypatch)
    agreekit.boxes(crowded_boxes(4), bootstrap=0)
    assert seen["items"] and set(seen["items"]) == {object_blocks.LargeItem}
    assert seen["sparse"] > 0


def random_block(rng, n, m, ties):
    """A similarity block where objects compete; with ``ties`` values on a coarse grid (exact ties)."""
    sim = rng.random((n, m)) * (rng.random((n, m)) < 0.3)
    return np.round(sim * 4) / 4 if ties else sim


@pytest.mark.parametrize("seed", range(20))
def test_match_allowed_equals_dense_match(seed):
    rng = np.random.default_rng(seed)
    n, m = rng.integers(1, 30, size=2)
    sim = random_block(rng, n, m, ties=False)
    same = rng.random((n, m)) < 0.5
    r, c = np.nonzero(sim >= 0.5)
    keep = matching.match_allowed(r, c, sim[r, c], (n, m), same[r, c])
    dense = matching.match(sim, 0.5, "optimal", same)
    assert np.array_equal(r[keep], dense[0]) and np.array_equal(c[keep], dense[1])


@pytest.mark.parametrize("seed", range(10))
def test_match_allowed_with_ties_is_as_good(seed):
    """With exact ties the matching is as good as the dense one: as many pairs, the same total similarity
    and the same number of same-label pairs (which pairs is the solver's choice among equals)."""
    rng = np.random.default_rng(seed)
    n, m = rng.integers(5, 30, size=2)
    sim = random_block(rng, n, m, ties=True)
    same = rng.random((n, m)) < 0.5
    r, c = np.nonzero(sim >= 0.5)
    keep = matching.match_allowed(r, c, sim[r, c], (n, m), same[r, c])
    rows, cols = matching.match(sim, 0.5, "optimal", same)
    assert len(keep) == len(rows) and len(set(r[keep].tolist())) == len(keep) == len(set(c[keep].tolist()))
    assert sim[r[keep], c[keep]].sum() == pytest.approx(sim[rows, cols].sum(), abs=1e-12)
    assert same[r[keep], c[keep]].sum() == same[rows, cols].sum()


def kinds_with_candidates(rng):
    """A box kind and a segment kind over random, partly touching and zero-length, objects."""
    from agreekit.kinds.boxes.compare import box_kind
    from agreekit.kinds.segments.compare import segment_kind
    boxes = np.round(np.column_stack([rng.uniform(0, 10, (80, 2)), rng.uniform(0, 3, (80, 2))]), 1)
    start = np.round(rng.uniform(0, 20, 80), 1)
    end = start + np.round(rng.uniform(0, 2, 80), 1) * (rng.random(80) < 0.8)
    return box_kind(boxes, "giou"), segment_kind(start, end, "default")


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("threshold", [1e-9, 0.3, 0.5])
def test_candidates_find_every_allowed_pair(seed, threshold):
    """The kinds' candidate pairs (a sweep) give the same allowed pairs, bit for bit, as the whole block."""
    rng = np.random.default_rng(seed)
    for kind in kinds_with_candidates(rng):
        rows, cols = np.arange(0, 40), np.arange(40, 80)
        swept = object_blocks.LargeItem(0, kind.block, kind.candidates).allowed_pairs(rows, cols, threshold)
        whole = object_blocks.LargeItem(0, kind.block).allowed_pairs(rows, cols, threshold)
        assert len(whole[0]) > 0
        for x, y in zip(swept, whole):
            assert np.array_equal(x, y)


def test_overlapping_pairs_is_every_meeting_pair():
    from agreekit.geometry.intervals import overlapping_pairs
    rng = np.random.default_rng(9)
    low_a, low_b = rng.integers(0, 30, 50).astype(float), rng.integers(0, 30, 60).astype(float)
    high_a, high_b = low_a + rng.integers(0, 5, 50), low_b + rng.integers(0, 8, 60)
    r, c = overlapping_pairs(low_a, high_a, low_b, high_b, chunk=7)
    meet = (low_a[:, None] <= high_b[None, :]) & (low_b[None, :] <= high_a[:, None])
    assert np.array_equal(np.column_stack([r, c]), np.argwhere(meet))


def test_unitizing_observed_sums_in_blocks(monkeypatch):
    """α_U's observed disagreement in blocks of a few (unit, other observer) rows equals one block."""
    from agreekit.measures import unitizing
    rng = np.random.default_rng(11)
    n_observers, per = 7, 6
    item = np.zeros(n_observers * per, dtype=np.intp)
    observer = np.repeat(np.arange(n_observers), per)
    start = np.tile(np.arange(per) * 10.0, n_observers) + rng.integers(0, 3, n_observers * per)
    end = start + rng.integers(1, 6, n_observers * per)
    continua = unitizing.Continua.of(item, start, end, observer, rng.integers(0, 2, len(item)), [80.0],
                                     [n_observers + 1], 2)
    whole = unitizing.observed_sums(continua)
    monkeypatch.setattr(unitizing, "BLOCK_ELEMENTS", 5)
    assert whole.sum() > 0
    assert np.allclose(unitizing.observed_sums(continua), whole, rtol=1e-13, atol=0)


@pytest.mark.parametrize("match", ["optimal", "potato"])
def test_item_detail_of_a_large_item(monkeypatch, match):
    """The item view matches a large item by blocks too, with the same matches."""
    rows = crowded_boxes(5, n_items=2)
    detail = agreekit.KINDS["boxes"].item_detail
    dense = detail.detail(detail.setup(rows, match=match), "i1")
    blocked(monkeypatch)
    assert dense["matches"]
    assert_same(detail.detail(detail.setup(rows, match=match), "i1"), dense)


@pytest.mark.parametrize("match", ["optimal", "potato"])
@pytest.mark.parametrize("with_candidates", [True, False])
def test_cuboids_blocked_equal_square(monkeypatch, match, with_candidates):
    """Cuboids by their candidates (enclosing cubes), and as a kind without candidates (its large blocks
    scanned in chunks): the same report."""
    rows = crowded_cuboids(12, n_objects=30, columns=6)
    rows += [{**row, "item": "other"} for row in rows[:40]]
    dense = agreekit.cuboids(rows, bootstrap=20, match=match).to_dict()
    assert dense["n_matched_pairs"] > 0
    blocked(monkeypatch)
    if not with_candidates:
        import dataclasses
        from agreekit.kinds.cuboids import compare, report
        monkeypatch.setattr(report, "cuboid_kind",
                            lambda *args: dataclasses.replace(compare.cuboid_kind(*args), candidates=None))
    assert_same(agreekit.cuboids(rows, bootstrap=20, match=match).to_dict(), dense)


def test_object_kind_block_defaults_to_the_square():
    """A kind that gives only its square similarity still answers rectangular blocks."""
    from agreekit.objects import ObjectKind
    points = np.random.default_rng(13).random(9)
    kind = ObjectKind(similarity=lambda idx: 1.0 - np.abs(points[idx][:, None] - points[idx][None, :]),
                      paired_distance=None, distance_block=None)
    rows, cols = np.array([4, 1, 7]), np.array([0, 8])
    assert np.array_equal(kind.block(rows, cols), 1.0 - np.abs(points[rows][:, None] - points[cols][None, :]))


def test_reference_mode_on_large_items(monkeypatch):
    """Scoring against a reference annotator takes the blocks of a large item: the same report."""
    rows = crowded_boxes(6)
    dense = agreekit.boxes(rows, reference="ann0", bootstrap=20).to_dict()
    blocked(monkeypatch)
    assert_same(agreekit.boxes(rows, reference="ann0", bootstrap=20).to_dict(), dense)


@pytest.mark.parametrize("distance, dense_items", [("giou", 4000), ("centroid", 4000), ("giou", 2)])
def test_between_baseline_of_crowded_items_in_run_blocks(monkeypatch, distance, dense_items):
    """σ's exact baseline streams a crowded item's pairs in blocks of whole runs: the same report
    (with dense item-pair sums, and with the sampled ones kept above ``DENSE_ITEMS`` items)."""
    from agreekit.measures import chance, crowded_items
    monkeypatch.setattr(chance, "DENSE_ITEMS", dense_items)
    rows = crowded_boxes(7, n_items=4)
    dense = agreekit.boxes(rows, distance=distance, bootstrap=50).to_dict()
    monkeypatch.setattr(chance, "_CHUNK_ELEMENTS", 2000)
    monkeypatch.setattr(crowded_items, "CHUNK_ELEMENTS", 2000)
    calls = []
    one_item = chance.one_item_between
    monkeypatch.setattr(chance, "one_item_between", lambda *args: calls.append(args[-1]) or one_item(*args))
    assert dense["localization"]["between_exact"]
    assert_same(agreekit.boxes(rows, distance=distance, bootstrap=50).to_dict(), dense)
    assert len(calls) >= 2


def test_threshold_zero_on_large_items(monkeypatch):
    """At threshold 0 every pair may match: large blocks are matched densely, with the same report."""
    rows = crowded_boxes(8, n_items=2)
    dense = agreekit.boxes(rows, threshold=0.0, bootstrap=0).to_dict()
    blocked(monkeypatch)
    assert_same(agreekit.boxes(rows, threshold=0.0, bootstrap=0).to_dict(), dense)


def test_polygons_blocked_equal_square(monkeypatch):
    """Polygons give candidates from their bounding boxes: the same report, block by block."""
    rows = crowded_polygons(14)
    dense = agreekit.polygons(rows, bootstrap=20).to_dict()
    assert dense["n_matched_pairs"] > 0
    blocked(monkeypatch)
    assert_same(agreekit.polygons(rows, bootstrap=20).to_dict(), dense)
