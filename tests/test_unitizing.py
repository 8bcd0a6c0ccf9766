"""Krippendorff's unitizing α_U: the published example, a slow direct implementation, the corpus rule, reports.

``reference`` below is Krippendorff's (2004) formulas written out loop by loop: every
observer's segmentation of the continuum into units and gaps, δ² over every pair of
segments of two observers (DKPro's three cases), and D_e unit by unit and gap by gap.
It is generalized to a corpus exactly as ``agreekit.measures.unitizing`` states: items
with their own observers, gaps cut at item boundaries.
"""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agreekit
from agreekit.measures.bootstrap import percentile_ci, resample_counts
from agreekit.measures.unitizing import Continua, alpha_u, check, components, merge_overlaps, unitizing_alpha
from agreekit.rows import InputError
from agreekit.kinds.segments.durations import read_durations

# Krippendorff (2004, p. 254): (start, length, observer, category), continuum [150, 450); c = 0, k = 1.
BOOK = [(225, 70, 0, 0), (370, 30, 0, 0), (220, 80, 1, 0), (355, 20, 1, 0), (400, 20, 1, 0),
        (180, 60, 0, 1), (300, 50, 0, 1), (180, 60, 1, 1), (300, 50, 1, 1)]


def book_alpha(step=1.0):
    start, length, observer, category = (list(column) for column in zip(*BOOK))
    return unitizing_alpha(start, length, observer, category, 150, 450, step=step)


# --------------------------------------------------------------------------- the slow direct implementation

def segmentation(units, length):
    """``[(begin, end, is_unit)]`` covering ``[0, length)``: the units in order and the gaps between them."""
    out, position = [], 0
    for begin, end in sorted(units):
        if begin > position:
            out.append((position, begin, False))
        out.append((begin, end, True))
        position = end
    if length > position:
        out.append((position, length, False))
    return out


def delta2(g, h):
    """Krippendorff's δ² of two segments of two observers (DKPro's ``measureDistance`` cases)."""
    (bg, eg, unit_g), (bh, eh, unit_h) = g, h
    if unit_g and unit_h and bg < eh and bh < eg:
        return (bg - bh) ** 2 + (eg - eh) ** 2
    if unit_g and not unit_h and bh <= bg and eg <= eh:
        return (eg - bg) ** 2
    if unit_h and not unit_g and bg <= bh and eh <= eg:
        return (eh - bh) ** 2
    return 0.0


def reference(items, n_categories, step=1.0):
    """``(α_U, [D_o,c], [D_e,c])``; ``items`` = ``[(length, [[(begin, end, category)] per observer])]``."""
    total = sum(length for length, _ in items)
    coverage = sum(len(observers) * length for length, observers in items)
    pair_coverage = sum(len(observers) * (len(observers) - 1) * length for length, observers in items)
    observed, expected = [], []
    for c in range(n_categories):
        disagreement, units, gap_lengths = 0.0, [], []
        for length, observers in items:
            segments = [segmentation([(b, e) for b, e, cat in marks if cat == c], length) for marks in observers]
            for i, mine in enumerate(segments):
                for j, theirs in enumerate(segments):
                    if i != j:
                        disagreement += sum(delta2(g, h) for g in mine for h in theirs)
                units += [e - b for b, e, is_unit in mine if is_unit]
                gap_lengths += [e - b for b, e, is_unit in mine if not is_unit]
        n = len(units)
        chance = sum((n - 1) * (2 * l ** 3 - 3 * l ** 2 * step + l * step ** 2) / 3
                     + l ** 2 * sum(h - l + step for h in gap_lengths if h >= l) for l in units)
        denominator = coverage * (coverage - step) - sum(l * (l - step) for l in units)
        observed.append(disagreement / (pair_coverage * total) if total else math.nan)
        expected.append(2 * chance / (total * denominator) if total else math.nan)
    return 1 - _ratio(sum(observed), sum(expected)), observed, expected


def _ratio(a, b):
    return a / b if b > 0 else math.nan


def as_continua(items, n_categories):
    """The same corpus as :class:`Continua`."""
    columns = [], [], [], [], []
    for k, (_, observers) in enumerate(items):
        for o, marks in enumerate(observers):
            for begin, end, category in marks:
                for column, value in zip(columns, (k, begin, end, o, category)):
                    column.append(value)
    return Continua.of(*columns, [length for length, _ in items], [len(obs) for _, obs in items], n_categories)


@st.composite
def corpora(draw, max_items=3, same_observers=False, closed_ends=False, scale=1):
    """Random corpora: each observer's continuum cut at random points, each stretch a unit or not."""
    n_categories = draw(st.integers(1, 3))
    n_observers = draw(st.integers(2, 4))
    items = []
    for _ in range(draw(st.integers(1, max_items))):
        length = draw(st.integers(1, 25))
        m = n_observers if same_observers else draw(st.integers(2, 4))
        observers = []
        for _ in range(m):
            marks = []
            for c in range(n_categories):
                cuts = sorted(set(draw(st.lists(st.integers(1, length - 1), max_size=6))) if length > 1 else [])
                edges = [0] + cuts + [length]
                for s, (b, e) in enumerate(zip(edges[:-1], edges[1:])):
                    at_end = s == 0 or s == len(edges) - 2
                    if (closed_ends and at_end) or draw(st.booleans()):
                        marks.append((b * scale, e * scale, c))
            observers.append(marks)
        items.append((length * scale, observers))
    return items, n_categories


def assert_same(result, expected):
    alpha, observed, chance = expected
    np.testing.assert_allclose(result.observed, observed, rtol=1e-9, atol=1e-15)
    np.testing.assert_allclose(result.expected, chance, rtol=1e-9, atol=1e-15)
    np.testing.assert_allclose(result.value, alpha, rtol=1e-9, atol=1e-12, equal_nan=True)


# --------------------------------------------------------------------------- the published example

def test_the_published_example():
    result = book_alpha()
    assert result.observed[0] == pytest.approx(0.0144, abs=1e-4)
    assert result.expected[0] == pytest.approx(0.0532, abs=1e-4)
    assert result.per_category[0] == pytest.approx(0.7286, abs=1e-4)
    assert result.observed[1] == 0.0
    assert result.expected[1] == pytest.approx(0.0490, abs=1e-4)
    assert result.per_category[1] == 1.0
    # 0.8591 in the book (from its four-decimal D values); DKPro's test allows ±0.0005.
    assert result.value == pytest.approx(0.8591, abs=5e-4)
    assert result.value == pytest.approx(1 - 1300 / 90000 / (result.expected.sum()), abs=1e-15)
    assert_same(result, reference([(300, [[(s - 150, s - 150 + l, c) for s, l, o, c in BOOK if o == obs]
                                          for obs in (0, 1)])], 2))


def _observed(first, second, length=1000):
    """Σδ² over ordered pairs for observer 0's units ``first`` and observer 1's ``second``, ``(start, length)``."""
    units = [(s, s + l, 0) for s, l in first], [(s, s + l, 0) for s, l in second]
    return components(as_continua([(length, list(units))], 1), 1.0).observed[0, 0] / 2


@pytest.mark.parametrize("first, second, distance", [
    ([(225, 70)], [(220, 80)], 50), ([(370, 30)], [(355, 20)], 850),
    ([], [(400, 20)], 400),  # observer 0's gap [400, 450) holds observer 1's unit
    ([(5, 6)], [(4, 2)], 26), ([(5, 6)], [(5, 2)], 16), ([(5, 6)], [(6, 2)], 10), ([(5, 6)], [(7, 2)], 8),
    ([(5, 6)], [(6, 4)], 2), ([(5, 6)], [(5, 6)], 0),
])
def test_the_published_pairwise_distances(first, second, distance):
    length = 450 if distance == 400 else 1000
    assert _observed(first, second, length) == distance


def test_touching_units_do_not_overlap():
    """[0, 5) against [5, 10): no shared position, so each lies in the other's gap: 25 + 25."""
    assert _observed([(0, 5)], [(5, 5)]) == 50


# --------------------------------------------------------------------------- against the direct implementation

@settings(max_examples=150, deadline=None)
@given(corpora(max_items=1), st.sampled_from([1.0, 0.0]))
def test_one_continuum_matches_the_direct_formulas(corpus, step):
    items, n_categories = corpus
    assert_same(alpha_u(components(as_continua(items, n_categories), step)), reference(items, n_categories, step))


@settings(max_examples=150, deadline=None)
@given(corpora(max_items=4), st.sampled_from([1.0, 0.0]))
def test_a_corpus_matches_the_direct_formulas(corpus, step):
    items, n_categories = corpus
    assert_same(alpha_u(components(as_continua(items, n_categories), step)), reference(items, n_categories, step))


@settings(max_examples=60, deadline=None)
@given(corpora(max_items=3, scale=0.1))
def test_inexact_floats_in_seconds(corpus):
    """Positions like 0.1·3: touching stays touching, ranks compare floats exactly."""
    items, n_categories = corpus
    assert_same(alpha_u(components(as_continua(items, n_categories), 0.0)), reference(items, n_categories, 0.0))


@settings(max_examples=80, deadline=None)
@given(corpora(max_items=3))
def test_identical_annotators_agree_perfectly(corpus):
    items, n_categories = corpus
    copied = [(length, [observers[0]] * len(observers)) for length, observers in items]
    result = alpha_u(components(as_continua(copied, n_categories), 1.0))
    assert np.all(result.observed == 0)
    if result.expected.sum() > 0:
        assert result.value == 1.0


def test_time_does_not_depend_on_its_unit():
    seconds = book_alpha(step=0.0)
    start, length, observer, category = (np.array(column, dtype=float) for column in zip(*BOOK))
    milliseconds = unitizing_alpha(start * 1000, length * 1000, observer, category, 150_000, 450_000, step=0.0)
    np.testing.assert_allclose(milliseconds.per_category, seconds.per_category, rtol=1e-12)
    # Positions of size s measured in units of s: Krippendorff's discrete formulas.
    tenths = unitizing_alpha(start / 10, length / 10, observer, category, 15, 45, step=0.1)
    np.testing.assert_allclose(tenths.per_category, book_alpha().per_category, rtol=1e-12)
    assert seconds.value != pytest.approx(book_alpha().value, abs=1e-6)  # the step matters


def test_an_observer_who_marked_nothing_disagrees():
    """dkpro-statistics #2: one of three raters annotates; that is not agreement."""
    items = [(100, [[(10, 30, 0), (50, 60, 0)], [], []])]
    result = alpha_u(components(as_continua(items, 1), 1.0))
    assert result.value < 0
    assert_same(result, reference(items, 1))


# --------------------------------------------------------------------------- the corpus rule

@settings(max_examples=80, deadline=None)
@given(corpora(max_items=4, same_observers=True, closed_ends=True), st.randoms(use_true_random=False))
def test_end_to_end_equals_one_continuum_of_the_concatenated_items(corpus, random):
    """Same observers on every item and no gap at an item boundary: the plain concatenation, in any order."""
    items, n_categories = corpus
    mine = alpha_u(components(as_continua(items, n_categories), 1.0))
    random.shuffle(items)
    assert_same(mine, reference([concatenate(items)], n_categories))


def concatenate(items):
    """One continuum of the items end to end, as one DKPro study would have it (gaps not cut)."""
    offsets = np.cumsum([0] + [length for length, _ in items]).tolist()
    observers = [[(b + offset, e + offset, c) for (_, obs), offset in zip(items, offsets) for b, e, c in obs[o]]
                 for o in range(len(items[0][1]))]
    return offsets[-1], observers


def test_gaps_end_at_item_boundaries_so_the_order_does_not_matter():
    first = (10, [[(0, 3, 0)], [(0, 4, 0)]])   # ends in gaps
    second = (10, [[(7, 10, 0)], [(6, 10, 0)]])  # starts in gaps
    mine = alpha_u(components(as_continua([first, second], 1), 1.0))
    assert mine.value == pytest.approx(alpha_u(components(as_continua([second, first], 1), 1.0)).value, abs=1e-15)
    # Second then first: no gap meets a boundary, and one continuum agrees; the other order joins
    # the two items' gaps into gaps of 14 and 12 positions and changes D_e.
    assert mine.value == pytest.approx(reference([concatenate([second, first])], 1)[0], abs=1e-12)
    assert abs(mine.value - reference([concatenate([first, second])], 1)[0]) > 1e-3


@settings(max_examples=60, deadline=None)
@given(corpora(max_items=4), st.data())
def test_a_resample_weighs_items_as_their_copies_laid_end_to_end(corpus, data):
    items, n_categories = corpus
    counts = data.draw(st.lists(st.integers(0, 3), min_size=len(items), max_size=len(items)))
    copies = [item for item, count in zip(items, counts) for _ in range(count)]
    weighted = alpha_u(components(as_continua(items, n_categories), 1.0), np.array([counts], dtype=float))
    np.testing.assert_allclose(weighted.observed[0], reference(copies, n_categories)[1], rtol=1e-9, atol=1e-15)
    np.testing.assert_allclose(weighted.expected[0], reference(copies, n_categories)[2], rtol=1e-9, atol=1e-15)
    np.testing.assert_allclose(weighted.value[0], reference(copies, n_categories)[0], rtol=1e-9, equal_nan=True)


def test_the_bootstrap_blocks_do_not_change_the_sums(monkeypatch):
    from agreekit.measures import unitizing
    parts = components(as_continua([(300, [[(s - 150, s - 150 + l, c) for s, l, o, c in BOOK if o == obs]
                                            for obs in (0, 1)])] * 3, 2), 1.0)
    weights = resample_counts(3, 50, seed=1)
    whole = alpha_u(parts, weights)
    monkeypatch.setattr(unitizing, "BLOCK_ELEMENTS", 7)
    np.testing.assert_array_equal(alpha_u(parts, weights).expected, whole.expected)


# --------------------------------------------------------------------------- input rules

def test_overlapping_units_of_one_observer_and_category_merge_into_their_union():
    units = Continua.of([0, 0, 0, 0, 0, 0, 0], [0, 3, 10, 12, 20, 2, 25], [5, 8, 20, 13, 25, 4, 30],
                        [0, 0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 0, 1], [40], [2], 2)
    with pytest.raises(ValueError, match="overlaps another unit"):
        check(units)
    merged = merge_overlaps(units)
    check(merged)
    got = sorted(zip(merged.observer.tolist(), merged.category.tolist(), merged.start.tolist(), merged.end.tolist()))
    # [0, 5) ∪ [3, 8); [10, 20) holds [12, 13); [20, 25) only touches; other observers and categories apart.
    assert got == [(0, 0, 0, 8), (0, 0, 10, 20), (0, 0, 20, 25), (0, 1, 25, 30), (1, 0, 2, 4)]


@pytest.mark.parametrize("start, end, observer, item_observers", [
    ([3], [3], [0], [2]), ([-1], [3], [0], [2]), ([5], [11], [0], [2]), ([0], [3], [2], [2]), ([0], [3], [0], [1]),
])
def test_units_that_break_the_rules_are_refused(start, end, observer, item_observers):
    with pytest.raises(ValueError):
        components(Continua.of([0], start, end, observer, [0], [10], item_observers), 1.0)


def test_no_units_is_undefined_not_agreement():
    result = alpha_u(components(Continua.of([], [], [], [], [], [10], [2], 1), 1.0))
    assert math.isnan(result.value) and math.isnan(result.per_category[0])


# --------------------------------------------------------------------------- reports

def book_rows(kind_unit=1):
    return [{"item": "ex", "annotator": f"obs{o}", "start": (s - 150) * kind_unit, "end": (s - 150 + l) * kind_unit,
             "label": "ck"[c]} for s, l, o, c in BOOK]


def test_spans_report_the_published_example():
    alpha = agreekit.spans(book_rows(), lengths={"ex": 300}, bootstrap=0).to_dict()["unitizing_alpha"]
    book = book_alpha()
    assert alpha["value"] == pytest.approx(book.value, abs=1e-15) and alpha["name"] == "α_U"
    assert alpha["continuum"] == "characters" and alpha["n"] == 1 and alpha["n_units"] == 9 and alpha["ci"] is None
    labels = {row["label"]: row for row in alpha["per_label"]}
    assert labels["c"]["value"] == pytest.approx(0.7286, abs=1e-4) and labels["k"]["value"] == 1.0
    assert labels["c"]["observed_disagreement"] == pytest.approx(book.observed[0], abs=1e-15)
    assert labels["k"]["expected_disagreement"] == pytest.approx(book.expected[1], abs=1e-15)


def test_spans_need_item_lengths_for_alpha_u():
    report = agreekit.spans(book_rows(), bootstrap=0)
    assert report.unitizing_alpha.value is None and report.unitizing_alpha.reason == "item lengths are needed"
    assert report.char_alpha.value is not None  # character-level α falls back to the largest end


def test_spans_alpha_u_interval_is_the_bootstrap_over_items():
    shift = {"c": 5, "k": 0}
    rows = book_rows() + [{**row, "item": "ex2", "start": row["start"] + shift[row["label"]],
                           "end": row["end"] + shift[row["label"]]} for row in book_rows()]
    report = agreekit.spans(rows, lengths={"ex": 300, "ex2": 310}, bootstrap=200, seed=3).to_dict()
    items = [(300, [[(r["start"], r["end"], "ck".index(r["label"])) for r in book_rows() if r["annotator"] == a]
                    for a in ("obs0", "obs1")])]
    items.append((310, [[(b + (5 if c == 0 else 0), e + (5 if c == 0 else 0), c) for b, e, c in obs]
                        for obs in items[0][1]]))
    resampled = alpha_u(components(as_continua(items, 2), 1.0), resample_counts(2, 200, 3))
    assert report["unitizing_alpha"]["ci"] == percentile_ci(resampled.value)
    assert report["unitizing_alpha"]["per_label"][0]["ci"] == percentile_ci(resampled.per_category[:, 0])


def test_spans_an_annotator_who_read_the_item_and_marked_nothing_is_an_observer():
    rows = book_rows() + [{"item": "ex", "annotator": "obs2", "start": "", "end": "", "label": ""}]
    two = agreekit.spans(book_rows(), lengths={"ex": 300}, bootstrap=0).unitizing_alpha.value
    three = agreekit.spans(rows, lengths={"ex": 300}, bootstrap=0).unitizing_alpha.value
    assert three < two


def test_spans_overlapping_spans_of_one_label_are_merged_with_a_warning():
    rows = book_rows() + [{"item": "ex", "annotator": "obs0", "start": 130, "end": 160, "label": "c"}]
    report = agreekit.spans(rows, lengths={"ex": 300}, bootstrap=0)
    assert any("merged into their union" in w for w in report.warnings)
    merged = [r for r in book_rows() if not (r["annotator"] == "obs0" and r["start"] == 75)]
    merged.append({"item": "ex", "annotator": "obs0", "start": 75, "end": 160, "label": "c"})  # the union
    union = agreekit.spans(merged, lengths={"ex": 300}, bootstrap=0)
    assert report.unitizing_alpha.value == union.unitizing_alpha.value
    assert report.unitizing_alpha.value != agreekit.spans(book_rows(), lengths={"ex": 300}).unitizing_alpha.value


def test_segments_report_alpha_u_over_seconds():
    rows = book_rows(kind_unit=1)
    report = agreekit.segments(rows, durations="clip,duration\nex,300\n", bootstrap=0).to_dict()
    alpha = report["unitizing_alpha"]
    assert alpha["value"] == pytest.approx(book_alpha(step=0.0).value, abs=1e-15)
    assert alpha["continuum"] == "seconds" and alpha["assumption"] is None and alpha["length"] == 300


def test_segments_without_durations_end_at_the_last_segment_end_and_say_so():
    report = agreekit.segments(book_rows(), bootstrap=0).to_dict()
    start, length, observer, category = (list(column) for column in zip(*BOOK))
    assumed = unitizing_alpha(start, length, observer, category, 150, 150 + 270, step=0.0)  # last end: 420
    assert report["unitizing_alpha"]["value"] == pytest.approx(assumed.value, abs=1e-15)
    assert "last segment end" in report["unitizing_alpha"]["assumption"]


def test_segments_outside_their_clip_are_clipped_with_a_warning():
    rows = book_rows() + [{"item": "ex", "annotator": "obs0", "start": 310, "end": 330, "label": "k"}]
    report = agreekit.segments(rows, durations={"ex": 300}, bootstrap=0)
    assert any("clipped" in w and "lines 10" in w for w in report.warnings)
    assert report.unitizing_alpha.value == pytest.approx(book_alpha(step=0.0).value, abs=1e-15)


@pytest.mark.parametrize("text, line, column", [
    ("item,duration\na,5\na,6\n", 3, "item"), ("item,duration\na,-1\n", 2, "duration"),
    ("item,duration\na,x\n", 2, "duration"), ("item,duration\na,inf\n", 2, "duration"),
])
def test_bad_durations_are_located_input_errors(text, line, column):
    with pytest.raises(InputError) as caught:
        agreekit.segments(book_rows(), durations=text)
    assert (caught.value.line, caught.value.column) == (line, column)


def test_durations_from_a_dict_or_rows():
    assert read_durations({"a": 5, "b": 2.5}) == {"a": 5.0, "b": 2.5}
    assert read_durations([{"clip": "a", "seconds": "4"}], item_synonyms=("clip",)) == {"a": 4.0}
    with pytest.raises(InputError):
        read_durations({"a": True})
