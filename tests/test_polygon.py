"""Exact polygon area, IoU and GIoU against shapely (test-only), plus validation and properties."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agreekit.geometry import polygon_checks as C
from agreekit.parse.points import parse_points
from agreekit.geometry import polygon_overlap as O
from agreekit.geometry import polygons as P
from agreekit.rows import InputError

shapely = pytest.importorskip("shapely", reason="shapely is the test-only reference for polygon areas")

TOL = 1e-9


# --------------------------------------------------------------------------- generators

def star_polygon(rng, n, centre, radius):
    """Star-shaped about ``centre``: sorted random angles, random radii (often very non-convex)."""
    angles = np.sort(rng.uniform(0, 2 * np.pi, n))
    radii = radius * rng.uniform(0.1, 1.0, n)
    return np.c_[centre[0] + radii * np.cos(angles), centre[1] + radii * np.sin(angles)]


def untangled_polygon(rng, n, centre, radius):
    """A random simple polygon, not necessarily star-shaped: random points in random
    order, made simple by 2-opt moves (reverse a stretch whenever two edges cross)."""
    pts = centre + radius * rng.uniform(-1, 1, (n, 2))
    while True:
        edges_a = pts
        edges_b = np.roll(pts, -1, axis=0)
        i, j = np.triu_indices(n, 2)
        keep = (j - i) % n != n - 1
        i, j = i[keep], j[keep]
        hit = C._segments_touch(edges_a[i], edges_b[i], edges_a[j], edges_b[j])
        if not hit.any():
            return pts
        k = int(np.argmax(hit))
        pts[i[k] + 1:j[k] + 1] = pts[i[k] + 1:j[k] + 1][::-1].copy()


def random_polygons(seed, count):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        n = int(rng.integers(3, 16))
        centre = rng.uniform(0, 2, 2)
        radius = rng.uniform(0.3, 2.5)
        p = star_polygon(rng, n, centre, radius) if rng.random() < 0.5 else untangled_polygon(rng, n, centre, radius)
        if rng.random() < 0.5:
            p = p[::-1]  # clockwise input
        if shapely.Polygon(p).is_valid:
            out.append(p)
    return out


def shapely_reference(a_list, b_list):
    sa = np.array([shapely.Polygon(p) for p in a_list])
    sb = np.array([shapely.Polygon(p) for p in b_list])
    inter = shapely.area(shapely.intersection(sa, sb))
    union = shapely.area(shapely.union(sa, sb))
    hull = shapely.area(shapely.convex_hull(shapely.union(sa, sb)))
    return inter, union, inter / union - (hull - union) / hull


def check_pairs(a_list, b_list):
    ps = P.pack(C.validate_polygons(list(a_list) + list(b_list)))
    i = np.arange(len(a_list))
    j = len(a_list) + np.arange(len(b_list))
    inter, union = P.pair_areas(ps, i, j)
    giou = P.pair_giou(ps, i, j)
    ref_inter, ref_union, ref_giou = shapely_reference(a_list, b_list)
    np.testing.assert_allclose(inter / ref_union, ref_inter / ref_union, rtol=0, atol=TOL)
    np.testing.assert_allclose(union, ref_union, rtol=TOL)
    np.testing.assert_allclose(inter / union, ref_inter / ref_union, rtol=0, atol=TOL)
    np.testing.assert_allclose(giou, ref_giou, rtol=0, atol=TOL)
    return inter


# --------------------------------------------------------------------------- against shapely

@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_simple_polygons_match_shapely(seed):
    polys = random_polygons(seed, 200)
    rng = np.random.default_rng(seed + 100)
    a = rng.integers(0, len(polys), 3000)
    b = rng.integers(0, len(polys), 3000)
    inter = check_pairs([polys[k] for k in a], [polys[k] for k in b])
    # The draw must exercise real overlaps, not mostly disjoint pairs.
    assert np.mean(inter > 0) > 0.5


def test_areas_match_shapely():
    polys = random_polygons(7, 300)
    ours = np.array([P.polygon_area(p) for p in polys])
    np.testing.assert_allclose(ours, [shapely.Polygon(p).area for p in polys], rtol=TOL)


def test_far_from_origin_and_tiny_scales():
    for offset, scale in [(1e5, 1.0), (-3e6, 10.0), (0.0, 1e-6), (1e3, 1e-3)]:
        polys = [offset + scale * p for p in random_polygons(11, 60)]
        rng = np.random.default_rng(5)
        a, b = rng.integers(0, 60, 400), rng.integers(0, 60, 400)
        check_pairs([polys[k] for k in a], [polys[k] for k in b])


def test_shared_edges_and_integer_grid():
    """Degenerate but common: identical outlines, shared and collinear edges, integer vertices."""
    rng = np.random.default_rng(3)
    polys = []
    for _ in range(150):
        p = np.round(star_polygon(rng, int(rng.integers(3, 10)), rng.integers(0, 6, 2).astype(float), 4.0))
        if shapely.Polygon(p).is_valid and len(C.collapse_repeats(p)) == len(p):
            polys.append(p)
    rects = []
    for _ in range(100):
        x0, y0 = rng.integers(0, 5, 2)
        w, h = rng.integers(1, 5, 2)
        rects.append(np.array([[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]], dtype=float))
    pool = polys + rects
    a = rng.integers(0, len(pool), 2000)
    b = rng.integers(0, len(pool), 2000)
    check_pairs([pool[k] for k in a], [pool[k] for k in b])
    # identical outlines, one of them re-started at another vertex and reversed
    check_pairs(pool, [np.roll(p, 2, axis=0)[::-1] for p in pool])


def test_non_convex_pair_by_hand():
    # A U shape and a bar across its opening: the bar covers the two prongs' tips.
    u = np.array([[0, 0], [3, 0], [3, 3], [2, 3], [2, 1], [1, 1], [1, 3], [0, 3]], float)
    bar = np.array([[-1, 2], [4, 2], [4, 4], [-1, 4]], float)
    assert P.intersection_area(u, bar) == pytest.approx(2.0, abs=1e-12)
    assert P.polygon_iou(u, bar) == pytest.approx(2.0 / (7.0 + 10.0 - 2.0), abs=1e-12)
    # hull of the union: the rectangle [-1, 4] × [0, 4] minus two corner triangles
    hull = 20.0 - 2 * 0.5 * 1 * 2
    union = 15.0
    assert P.polygon_giou(u, bar) == pytest.approx(2.0 / union - (hull - union) / hull, abs=1e-12)


def test_disjoint_polygons_have_negative_giou():
    a = np.array([[0, 0], [1, 0], [0, 1]], float)
    b = a + [10, 0]
    assert P.polygon_iou(a, b) == 0.0
    hull = shapely.convex_hull(shapely.union(shapely.Polygon(a), shapely.Polygon(b))).area
    assert P.polygon_giou(a, b) == pytest.approx(-(hull - 1.0) / hull, abs=1e-12)
    assert P.polygon_giou(a, b) < 0


def test_matrices_match_pairs():
    polys = random_polygons(21, 40)
    m = P.iou_matrix(polys[:15], polys[15:])
    ref_inter, ref_union, ref_giou = shapely_reference(
        [polys[a] for a in range(15) for _ in range(25)], [polys[15 + b] for _ in range(15) for b in range(25)])
    np.testing.assert_allclose(m.ravel(), ref_inter / ref_union, atol=TOL, rtol=0)
    np.testing.assert_allclose(P.giou_matrix(polys[:15], polys[15:]).ravel(), ref_giou, atol=TOL, rtol=0)
    square = P.iou_matrix(polys)
    np.testing.assert_allclose(square, square.T, atol=TOL, rtol=0)
    np.testing.assert_allclose(np.diag(square), 1.0, atol=TOL, rtol=0)


def test_pairwise_iou_streams_unordered_pairs():
    polys = random_polygons(41, 37)
    full = P.iou_matrix(polys)
    expected = np.triu(full, 1) + np.triu(full, 1).T + np.eye(len(polys))
    for chunk in (1, 50, 10 ** 6):
        np.testing.assert_array_equal(P.pairwise_iou(polys, chunk_pairs=chunk), expected)


@pytest.mark.parametrize("block", [None, 97])
def test_a_pair_does_not_depend_on_the_other_pairs(monkeypatch, block):
    """Bit-equal values whether a pair is computed alone or among others, in any order
    (ties between within and between distances depend on it), with blocks of any size."""
    polys = random_polygons(31, 30)
    ps = P.pack(polys)
    i, j = np.triu_indices(len(polys))
    reference = P.pair_giou(ps, i, j)
    if block:
        monkeypatch.setattr(P, "BLOCK_ELEMENTS", block)  # pair chunks
        monkeypatch.setattr(O, "BLOCK_ELEMENTS", block)  # slices of fan triangles
    whole = P.pair_giou(ps, i, j)
    np.testing.assert_allclose(whole, reference, atol=1e-14, rtol=0)
    alone = np.array([P.pair_giou(ps, [a], [b])[0] for a, b in zip(i, j)])
    np.testing.assert_array_equal(alone, whole)
    backwards = P.pair_giou(ps, i[::-1], j[::-1])[::-1]
    np.testing.assert_array_equal(backwards, whole)


# --------------------------------------------------------------------------- properties

coordinates = st.floats(-50, 50, allow_nan=False, allow_infinity=False)


@st.composite
def polygon_pairs(draw):
    seed = draw(st.integers(0, 2 ** 32 - 1))
    rng = np.random.default_rng(seed)
    make = star_polygon if draw(st.booleans()) else untangled_polygon
    a = make(rng, draw(st.integers(3, 12)), rng.uniform(-3, 3, 2), rng.uniform(0.5, 3))
    b = make(rng, draw(st.integers(3, 12)), rng.uniform(-3, 3, 2), rng.uniform(0.5, 3))
    return a, b, (draw(coordinates), draw(coordinates)), draw(st.floats(0.01, 100)), draw(st.floats(0, 6.3))


@settings(max_examples=150, deadline=None)
@given(polygon_pairs())
def test_invariances(pair):
    a, b, shift, scale, angle = pair
    if not (shapely.Polygon(a).is_valid and shapely.Polygon(b).is_valid):
        return
    iou, giou = P.polygon_iou(a, b), P.polygon_giou(a, b)
    assert -1 <= giou <= iou <= 1
    assert P.polygon_iou(b, a) == pytest.approx(iou, abs=TOL)
    assert P.polygon_giou(b[::-1], np.roll(a, 1, axis=0)) == pytest.approx(giou, abs=TOL)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])

    def move(p):
        return scale * p @ rot.T + shift

    assert P.polygon_iou(move(a), move(b)) == pytest.approx(iou, abs=1e-8)
    assert P.polygon_giou(move(a), move(b)) == pytest.approx(giou, abs=1e-8)
    assert P.polygon_iou(a, a) == pytest.approx(1.0, abs=TOL)
    # Identical outlines: GIoU = |A| / |hull(A)|, which is 1 only for convex polygons.
    hull_area = P.polygon_area(P.convex_hull(a))
    assert P.polygon_giou(a, a) == pytest.approx(P.polygon_area(a) / hull_area, abs=TOL)


# --------------------------------------------------------------------------- parsing and validation

@pytest.mark.parametrize("text", [
    "0 0 4 0 4 3 0 3",
    "0,0; 4,0; 4,3; 0,3",
    "0 0; 4 0; 4 3; 0 3",
    "0,0 4,0 4,3 0,3",
    "[[0, 0], [4, 0], [4, 3], [0, 3]]",
    "[0, 0, 4, 0, 4, 3, 0, 3]",
    "0 0 4 0 4 3 0 3 0 0",  # closing repeat of the first point
])
def test_parse_forms(text):
    p = C.validate_polygon(parse_points(text))
    assert P.polygon_area(p) == 12.0
    assert len(p) == 4


@pytest.mark.parametrize("text, message", [
    ("0 0 1 0 1", "odd count"),
    ("0 0 1 x 1 1", "'x' is not a number"),
    ("[[0, 0], [1, 0]", "JSON"),
    ("", "no points"),
    ("[[0, 0, 1], [1, 0, 2]]", "pairs"),
])
def test_parse_errors_name_the_line(text, message):
    with pytest.raises(InputError) as err:
        parse_points(text, line=7)
    assert err.value.line == 7 and err.value.column == "points"
    assert message in str(err.value)
    assert "line 7" in str(err.value)


@pytest.mark.parametrize("points, message", [
    ([[0, 0], [1, 0]], "at least 3"),
    ([[0, 0], [1, 0], [1, 0], [0, 0]], "at least 3"),
    ([[0, 0], [1, 0], [float("nan"), 1]], "finite"),
    ([[0, 0], [1, 0], [float("inf"), 1]], "finite"),
    ([[0, 0], [2, 2], [2, 0], [0, 2]], "self-intersecting"),  # bow tie
    ([[0, 0], [2, 0], [2, 2], [1, 0], [0, 2]], "self-intersecting"),  # vertex touches an edge
    ([[0, 0], [2, 0], [1, 1], [2, 2], [0, 2], [1, 1]], "self-intersecting"),  # pinched figure eight
    ([[0, 0], [2, 0], [2, 2], [2, 1]], "self-intersecting"),  # spike folding back
    ([[0, 0], [1, 1], [2, 2]], "self-intersecting"),  # collinear
])
def test_invalid_polygons_rejected(points, message):
    with pytest.raises(InputError) as err:
        C.validate_polygon(points, line=3)
    assert message in str(err.value) and err.value.line == 3


def test_shapely_agrees_on_validity():
    rng = np.random.default_rng(8)
    for _ in range(500):
        p = rng.integers(0, 4, (int(rng.integers(3, 7)), 2)).astype(float)
        if len(C.collapse_repeats(p)) != len(p):
            continue
        try:
            C.validate_polygon(p)
            ours = True
        except InputError:
            ours = False
        assert ours == shapely.Polygon(p).is_valid, p


@pytest.mark.parametrize("seed", range(4))
def test_sorted_wedges_give_the_all_pairs_sum(monkeypatch, seed):
    """Large polygons find their overlapping fan wedges by sorting (``SORTED_ABOVE``): the same sum as
    testing every wedge pair, on star-shaped, tangled-then-untangled, clockwise, padded (mixed vertex
    counts), shared-edge and disjoint pairs."""
    polys = random_polygons(100 + seed, 24)
    polys += [polys[0], polys[1] + 50.0, polys[2][::-1]]  # identical, far apart, reversed
    ps = P.pack(polys)
    i, j = np.triu_indices(len(polys))
    monkeypatch.setattr(O, "SORTED_ABOVE", 1 << 40)
    every_pair = P.pair_areas(ps, i, j).intersection
    monkeypatch.setattr(O, "SORTED_ABOVE", 0)
    sorted_wedges = P.pair_areas(ps, i, j).intersection
    np.testing.assert_allclose(sorted_wedges, every_pair, rtol=0, atol=1e-12)
    assert np.count_nonzero(every_pair > 0.1) > len(i) // 4  # overlapping pairs exercised


def test_large_polygons_take_the_sorted_path():
    """Two polygons of 5,000 vertices: k·l is far above ``SORTED_ABOVE``, and the area matches shapely."""
    t = np.linspace(0, 2 * np.pi, 5000, endpoint=False)
    a = np.c_[np.cos(t) * (1 + 0.2 * np.sin(9 * t)), np.sin(t) * (1 + 0.1 * np.cos(4 * t))]
    b = 1.1 * a[::-1] + [0.05, -0.1]
    assert len(a) * len(b) > O.SORTED_ABOVE
    expected = shapely.Polygon(a).intersection(shapely.Polygon(b)).area
    assert P.intersection_area(a, b) == pytest.approx(expected, abs=1e-9)


def test_origin_on_an_edge():
    """The fan origin (centre of the overlap box) lies on the hypotenuse of a right
    triangle: sliver fan triangles must not spoil the sum."""
    tri = np.array([[0.3, 0.1], [1.7, 0.1], [0.3, 2.9]])
    others = [tri, tri + [1e-12, 0], tri + [0.2, 0.1], tri[::-1] * 1.5, np.array([[0.3, 2.9], [1.7, 0.1], [1.7, 2.9]])]
    check_pairs([tri] * len(others), others)


def test_batch_validation_names_the_first_bad_line():
    good = [[0, 0], [1, 0], [0, 1]]
    bow = [[0, 0], [2, 2], [2, 0], [0, 2]]
    with pytest.raises(InputError) as err:
        C.validate_polygons([good, good, bow, [[0, 0], [1, 1]]], lines=[2, 3, 4, 5])
    assert err.value.line == 4 and "self-intersecting" in str(err.value)
    assert len(C.validate_polygons([good, bow[:3], good], lines=[2, 3, 4])) == 3


@pytest.mark.parametrize("block", [C.BLOCK_ELEMENTS, 37])
def test_large_polygons_checked_through_sorted_boxes(monkeypatch, block):
    """Above _SORTED_CHECK_FROM points, crossings are found through sorted bounding boxes:
    the same first crossing as the all-pairs test, and the same verdict as shapely."""
    monkeypatch.setattr(C, "BLOCK_ELEMENTS", block)
    rng = np.random.default_rng(12)
    verdicts = []
    for trial in range(90):
        n = int(rng.integers(C._SORTED_CHECK_FROM + 1, 130))
        if trial % 3 == 0:
            p = rng.integers(0, 12, (n, 2)).astype(float)  # many touchings and collinear overlaps
        elif trial % 3 == 1:
            p = star_polygon(rng, n, (0, 0), 1.0)
            if trial % 2:
                p[rng.integers(0, n)] = rng.uniform(-1, 1, 2)  # maybe one crossing
        else:
            p = rng.uniform(-1, 1, (n, 2))  # crossings everywhere
        p = C.collapse_repeats(p)
        if len(p) <= C._SORTED_CHECK_FROM:
            continue
        sorted_fault = C._crossing_by_sorted_boxes(p, np.roll(p, -1, axis=0))
        monkeypatch.setattr(C, "_SORTED_CHECK_FROM", 10 ** 9)
        all_pairs = C._simplicity_faults(p[None])[0]
        monkeypatch.undo()
        monkeypatch.setattr(C, "BLOCK_ELEMENTS", block)
        if all_pairs and "fold" in all_pairs:
            continue
        assert sorted_fault == all_pairs
        try:
            C.validate_polygon(p)
            ours = True
        except InputError:
            ours = False
        assert ours == shapely.Polygon(p).is_valid
        verdicts.append(ours)
    assert 10 < sum(verdicts) < len(verdicts) - 10  # both kinds exercised


def test_thousands_of_points():
    t = np.linspace(0, 2 * np.pi, 2000, endpoint=False)
    big = np.c_[np.cos(t) * (1 + 0.1 * np.sin(7 * t)), np.sin(t)]
    small = 0.9 * big + 0.05
    ref = shapely.Polygon(big).intersection(shapely.Polygon(small)).area / shapely.Polygon(big).union(
        shapely.Polygon(small)).area
    assert P.polygon_iou(big, small) == pytest.approx(ref, abs=TOL)
    pinched = big.copy()
    pinched[1000] = pinched[10]  # a vertex dropped onto the other side: touches there
    with pytest.raises(InputError, match="self-intersecting"):
        C.validate_polygon(pinched)
