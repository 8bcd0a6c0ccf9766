# Long: one measure (α_U), whose docstring carries its formulas and their derivation for a corpus.
"""Krippendorff's unitizing α_U: do observers agree on where the units of a continuum lie, and what they are?

Observers mark units, stretches ``[start, end)`` with a category, on a continuum
``[b, b + L)`` (the characters of a text, the seconds of a clip).  For one
category c, each observer's continuum falls into units of c and the gaps between
them, and α_U compares these segmentations.  The distance of a segment g of one
observer and a segment h of another is::

    δ²(g, h) = (b_g − b_h)² + (e_g − e_h)²   g and h units of c that overlap (share a position)
             = l_g²                          g a unit of c inside a gap h (and the same with g, h swapped)
             = 0                             otherwise

(b begin, e end, l length).  With m observers, N_c units of c over all observers,
u running over the units of c and h over the gaps of c, of every observer::

    D_o,c = Σ_i Σ_{j≠i} Σ_g Σ_h δ²(ig, jh) / (m (m − 1) L²)

    D_e,c = (2 / L) Σ_u [(N_c − 1) (2l_u³ − 3l_u² s + l_u s²) / 3 + l_u² Σ_{h: l_h ≥ l_u} (l_h − l_u + s)]
            / [mL (mL − s) − Σ_u l_u (l_u − s)]

    α_c = 1 − D_o,c / D_e,c            α_U = 1 − Σ_c D_o,c / Σ_c D_e,c

``s`` is the size of one position of the continuum.  With s = 1 these are
Krippendorff's (2004) formulas for a continuum of discrete positions
(characters).  Every term is homogeneous in (b, l, L, s), so the value does not
change with the unit of measurement, and s = 0 is the limit of ever finer
positions: the continuous continuum of time.  α_U overall is 1 − ΣD_o / ΣD_e
over the categories, not a mean of the α_c (DKPro divides both sums by the
number of categories: the same ratio).

**A corpus of items.**  Krippendorff's formulas are for one continuum.  A
corpus is laid end to end: item k (length L_k, read by m_k observers) takes its
own stretch of one continuum of length L = Σ_k L_k, and every sum above runs
over the whole corpus, so D_e pools the units and gaps of every item.  Two rules
make this well defined for real corpora:

* a gap ends at its item's boundary.  No unit lies across two items, so no
  chance placement may either; and the value cannot depend on the order of the
  items (in one DKPro study of concatenated items, the gap at the end of one item
  runs on into the next one and it does);
* each item is segmented by its own observers.  Pairs i ≠ j in D_o are pairs of
  observers of the same item, and m (m − 1) L² and mL become P·L and M, with
  P = Σ_k m_k (m_k − 1) L_k and M = Σ_k m_k L_k (how many observer pairs, and
  observers, cover the continuum).

When every item has the same m observers, P·L = m (m − 1) L² and M = mL: these
are Krippendorff's formulas on the concatenated continuum, gaps cut at item
boundaries.  Every component is a sum over items, or (the gap term of D_e) over
pairs of items, so a bootstrap resample reweights the sums: item k drawn c_k
times weighs its sums by c_k and its unit–gap pairs with item j by c_k c_j,
exactly as if the drawn copies were laid end to end.  Nothing is recomputed.

**Input.**  Units have positive length (length 0 marks no position), lie inside
their item, and one observer's units of one category on one item do not overlap
(:func:`merge_overlaps` takes unions).  **Cost**: D_o meets each unit with every other
observer of its item (U·m for m observers), D_e sorts the G gaps once per category,
and O(U + G) per category and resample: all in blocks that bound memory.

References
----------
Krippendorff, K. (1995). On the reliability of unitizing contiguous data. Sociological
Methodology 25, 47–76.  Krippendorff, K. (2004). Content Analysis: An Introduction to
Its Methodology, 2nd ed., Sage; the unitizing α and its worked example, p. 254.
Meyer, C. M., Mieskes, M., Stab, C. & Gurevych, I. (2014). DKPro Agreement: an
open-source Java library for measuring inter-rater agreement. COLING 2014 demos,
105–109 (``KrippendorffAlphaUnitizingAgreement``, Apache-2.0).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from ..arrays import safe_ratio

BLOCK_ELEMENTS = 1 << 19  # resamples × (units + gaps) per block of the bootstrap's gap term (cache-sized)


@dataclass(frozen=True)
class Continua:
    """Units on the items of a corpus, each item a continuum ``[0, L_k)``.

    Unit arrays have shape (U,); item arrays shape (K,).  ``observer`` is the
    unit's observer among its item's ``item_observers[item]`` (0-based, local to
    the item: an observer of the item with no unit marked only gaps).
    ``category`` is in ``[0, n_categories)``.
    """

    item: np.ndarray
    start: np.ndarray
    end: np.ndarray
    observer: np.ndarray
    category: np.ndarray
    item_length: np.ndarray
    item_observers: np.ndarray
    n_categories: int

    @classmethod
    def of(cls, item, start, end, observer, category, item_length, item_observers, n_categories=None):
        """The record with arrays of the right types; ``n_categories`` defaults to max(category) + 1."""
        category = np.asarray(category, dtype=np.intp)
        if n_categories is None:
            n_categories = int(category.max()) + 1 if category.size else 0
        return cls(np.asarray(item, dtype=np.intp), np.asarray(start, dtype=float), np.asarray(end, dtype=float),
                   np.asarray(observer, dtype=np.intp), category, np.asarray(item_length, dtype=float),
                   np.asarray(item_observers, dtype=np.intp), int(n_categories))

    def __len__(self):
        return len(self.item)

    def track_order(self):
        """Units sorted by item, category, observer and start: each track's segmentation in order."""
        return np.lexsort((self.start, self.observer, self.category, self.item))


def check(continua):
    """Raise ``ValueError`` naming the first unit that breaks the input rules (module docstring)."""
    c = continua
    if len(c.item_observers) != len(c.item_length) or (c.item_observers < 2).any() or (c.item_length < 0).any():
        raise ValueError("every item needs a length ≥ 0 and two or more observers")
    if not (len(c.start) == len(c.end) == len(c.observer) == len(c.category) == len(c)):
        raise ValueError("unit arrays differ in length")
    if (c.item < 0).any() or (c.item >= len(c.item_length)).any():
        raise ValueError("a unit's item is out of range")
    bad = ~((c.end > c.start) & (c.start >= 0) & (c.end <= c.item_length[c.item]) & (c.observer >= 0)
            & (c.observer < c.item_observers[c.item]) & (c.category >= 0) & (c.category < c.n_categories))
    if bad.any():
        raise ValueError(f"unit {int(np.argmax(bad))}: it needs positive length inside its item, and an "
                         "observer and category in range")
    order = c.track_order()
    overlap = _same_track(c, order) & (c.start[order][1:] < c.end[order][:-1])
    if overlap.any():
        raise ValueError(f"unit {int(order[1:][np.argmax(overlap)])} overlaps another unit of its observer and "
                         "category on its item (see merge_overlaps)")


def _same_track(continua, order):
    """For units sorted by ``order``: does each next unit share the previous one's item, category and observer?"""
    c = continua
    return ((c.item[order][1:] == c.item[order][:-1]) & (c.category[order][1:] == c.category[order][:-1])
            & (c.observer[order][1:] == c.observer[order][:-1]))


def merge_overlaps(continua):
    """The units with each observer's overlapping units of one category on one item replaced by their union.

    Units that only touch (one ends where the next starts) stay apart, as in
    Krippendorff's segmentation.  Returns a :class:`Continua` (units in track
    order); ``len(continua) - len(result)`` units were merged away.
    """
    c = continua
    if not len(c):
        return c
    order = c.track_order()
    start, end = c.start[order], c.end[order]
    # Within a track the running maximum of the ends is where the units so far reach; it
    # restarts with each track, done in one pass on exact ranks offset by the track.
    track = np.concatenate([[0], np.cumsum(~_same_track(c, order))])
    positions, rank = np.unique(np.concatenate([start, end]), return_inverse=True)
    span = np.int64(len(positions) + 1)
    reach = np.maximum.accumulate(track.astype(np.int64) * span + rank[len(start):])
    begins = np.concatenate([[True], (track[1:] != track[:-1])
                             | (track[1:].astype(np.int64) * span + rank[:len(start)][1:] >= reach[:-1])])
    first = np.flatnonzero(begins)
    kept = order[first]
    return replace(c, item=c.item[kept], start=start[first], end=np.maximum.reduceat(end, first),
                   observer=c.observer[kept], category=c.category[kept])


# --------------------------------------------------------------------------- observed disagreement

def observed_sums(continua):
    """Σ_i Σ_{j≠i} Σ_g Σ_h δ²(ig, jh) per item and category, shape (K, C).

    Each unit x is compared with every other observer b of its item: with b's
    units of its category that overlap it, found by binary search on the exact
    ranks of the positions (no floating-point sums), or, when none does, with the
    gap of b that contains it (δ² = l_x², counted twice: (i, j) and (j, i)).
    An overlapping pair is met from both of its units, which counts it twice too.
    """
    c = continua
    n_items, n_categories = len(c.item_length), c.n_categories
    out = np.zeros(n_items * n_categories)
    if not len(c):
        return out.reshape(n_items, n_categories)
    order = c.track_order()
    item, category, observer = c.item[order], c.category[order], c.observer[order]
    start, end = c.start[order], c.end[order]
    width = np.int64(max(int(c.item_observers.max()), 1))
    code = (item.astype(np.int64) * n_categories + category) * width + observer
    tracks = np.unique(code)
    positions, rank = np.unique(np.concatenate([start, end]), return_inverse=True)
    span = np.int64(len(positions) + 1)
    unit_track = np.searchsorted(tracks, code).astype(np.int64)
    key_start, key_end = unit_track * span + rank[:len(start)], unit_track * span + rank[len(start):]
    cell = item * n_categories + category
    # Every unit against every other observer of its item, in blocks of about BLOCK_ELEMENTS (unit, other
    # observer) rows: with m observers there are U·(m − 1) of them, which must not all be held at once.
    per_unit = c.item_observers[item].astype(np.intp)
    ends = np.cumsum(per_unit, dtype=np.int64)  # U·m may outgrow a 32-bit intp (Pyodide)
    low = 0
    while low < len(start):
        high = max(low + 1, int(np.searchsorted(ends, ends[low] - per_unit[low] + BLOCK_ELEMENTS, side="right")))
        x, other = _other_observers(per_unit[low:high], observer[low:high])
        x = x + low
        other_code = (item[x].astype(np.int64) * n_categories + category[x]) * width + other
        t = np.minimum(np.searchsorted(tracks, other_code), len(tracks) - 1)
        exists = tracks[t] == other_code
        lo = np.searchsorted(key_end, t * span + rank[:len(start)][x], side="right")
        hi = np.searchsorted(key_start, t * span + rank[len(start):][x], side="left")
        _add_observed(out, cell, start, end, x, lo, np.where(exists, np.maximum(hi - lo, 0), 0))
        low = high
    return out.reshape(n_items, n_categories)


def _add_observed(out, cell, start, end, x, lo, n_overlapping):
    """Add to ``out`` the δ² of units ``x`` against one other observer each: 2·l² inside a gap (no unit
    of that observer overlaps), else the distance to each of its ``n_overlapping`` units from ``lo``."""
    length = end - start
    inside_gap = n_overlapping == 0
    out += np.bincount(cell[x[inside_gap]], 2.0 * length[x[inside_gap]] ** 2, minlength=out.size)
    pair_x = np.repeat(x, n_overlapping)
    pair_y = np.repeat(lo, n_overlapping) + _ramps(n_overlapping)
    distance = (start[pair_x] - start[pair_y]) ** 2 + (end[pair_x] - end[pair_y]) ** 2
    out += np.bincount(cell[pair_x], distance, minlength=out.size)


def _other_observers(n_observers, observer):
    """``(unit, other)``: each unit once for every other observer of its item (``n_observers`` per unit)."""
    unit = np.repeat(np.arange(len(observer)), n_observers)
    other = _ramps(n_observers)
    keep = other != observer[unit]
    return unit[keep], other[keep]


def _ramps(counts):
    """0, 1, …, counts[0] − 1, 0, 1, …, counts[1] − 1, …"""
    counts = np.asarray(counts, dtype=np.intp)
    total = int(counts.sum())
    return np.arange(total, dtype=np.intp) - np.repeat(np.cumsum(counts) - counts, counts)


# --------------------------------------------------------------------------- expected disagreement

class GapTerm(NamedTuple):
    """One category's Σ_u l_u² Σ_{h: l_h ≥ l_u} (l_h − l_u + s), kept apart by item for reweighting."""

    unit_item: np.ndarray  # (U_c,)
    unit_length: np.ndarray  # (U_c,)
    gap_item: np.ndarray  # (G_c,) gaps from the longest to the shortest
    gap_length: np.ndarray  # (G_c,) descending
    gap_count: np.ndarray  # (G_c,) how many observers have that gap (a full-item gap is often shared)
    fitting: np.ndarray  # (U_c,) how many gaps are at least as long as the unit: the first ones


def gaps(continua):
    """Every observer's gaps per category: ``(item, category, length, count)`` arrays of positive gaps.

    Between consecutive units of a track, before its first and after its last;
    an observer of an item with no unit of a category has one gap, the whole item
    (those are counted, not repeated: ``count`` observers share it).
    """
    c = continua
    order = c.track_order()
    item, category, start, end = c.item[order], c.category[order], c.start[order], c.end[order]
    same = _same_track(c, order)
    first = np.concatenate([[True], ~same]) if len(c) else np.zeros(0, dtype=bool)
    last = np.concatenate([~same, [True]]) if len(c) else np.zeros(0, dtype=bool)
    between = start[1:][same] - end[:-1][same]
    tracks = np.bincount(item[first] * c.n_categories + category[first],
                         minlength=len(c.item_length) * c.n_categories).reshape(len(c.item_length), c.n_categories)
    untouched = c.item_observers[:, None] - tracks
    whole_item, whole_category = np.nonzero((untouched > 0) & (c.item_length[:, None] > 0))
    out_item = np.concatenate([item[first], item[1:][same], item[last], whole_item])
    out_category = np.concatenate([category[first], category[1:][same], category[last], whole_category])
    out_length = np.concatenate([start[first], between, c.item_length[item[last]] - end[last],
                                 c.item_length[whole_item]])
    out_count = np.concatenate([np.ones(len(out_item) - len(whole_item)), untouched[whole_item, whole_category]])
    positive = out_length > 0
    return out_item[positive], out_category[positive], out_length[positive], out_count[positive]


def gap_terms(continua):
    """The :class:`GapTerm` of each category, in category order."""
    c = continua
    gap_item, gap_category, gap_length, gap_count = gaps(c)
    terms = []
    for k in range(c.n_categories):
        mine = gap_category == k
        ascending = np.argsort(gap_length[mine], kind="stable")
        units = c.category == k
        unit_length = c.end[units] - c.start[units]
        fitting = len(ascending) - np.searchsorted(gap_length[mine][ascending], unit_length, side="left")
        # Gaps shorter than every unit, and units longer than every gap, add nothing: leave them out.
        order, fits = ascending[::-1][:int(fitting.max(initial=0))], fitting > 0
        terms.append(GapTerm(c.item[units][fits], unit_length[fits], gap_item[mine][order],
                             gap_length[mine][order], gap_count[mine][order], fitting[fits]))
    return terms


def gap_term(term, weights, step):
    """Σ_u w_u l_u² Σ_{h: l_h ≥ l_u} w_h (l_h − l_u + s) for each row of ``weights`` (R × K item weights).

    With the gaps longest first, those that fit a unit are a prefix: running sums
    along the gaps, read at each unit's ``fitting``, give Σ w_h (l_h + s) − l_u Σ w_h.
    """
    out = np.zeros(len(weights))
    if not len(term.unit_length) or not len(term.gap_length):
        return out
    squares = term.unit_length ** 2
    shifted = term.gap_length + step
    rows = max(1, BLOCK_ELEMENTS // (len(term.unit_length) + len(term.gap_length)))
    for lo in range(0, len(weights), rows):
        w = weights[lo:lo + rows]
        gap_weight = w[:, term.gap_item] * term.gap_count
        count, mass = np.zeros((2, len(w), len(term.gap_length) + 1))
        np.cumsum(gap_weight, axis=1, out=count[:, 1:])
        np.cumsum(gap_weight * shifted, axis=1, out=mass[:, 1:])
        inner = mass[:, term.fitting] - count[:, term.fitting] * term.unit_length
        out[lo:lo + rows] = (inner * w[:, term.unit_item]) @ squares
    return out


# --------------------------------------------------------------------------- the corpus and α_U

@dataclass(frozen=True)
class Components:
    """What α_U is made of, per item: (K, C) sums over units, (K,) coverage, and each category's gap term."""

    observed: np.ndarray  # Σ δ² over ordered observer pairs
    n_units: np.ndarray
    cubes: np.ndarray  # Σ_u (2l³ − 3l²s + ls²) / 3
    squares: np.ndarray  # Σ_u l (l − s)
    length: np.ndarray  # L_k
    coverage: np.ndarray  # m_k L_k
    pair_coverage: np.ndarray  # m_k (m_k − 1) L_k
    gap_terms: list
    step: float


def components(continua, step):
    """The :class:`Components` of ``continua`` with positions of size ``step`` (1: characters, 0: time).

    Raises ``ValueError`` on input that breaks the rules of the module docstring.
    """
    check(continua)
    c = continua
    if step < 0:
        raise ValueError("step must be ≥ 0")
    shape = (len(c.item_length), c.n_categories)
    cell = c.item * c.n_categories + c.category
    length = c.end - c.start

    def per_cell(values):
        return np.bincount(cell, values, minlength=shape[0] * shape[1]).reshape(shape)

    m = c.item_observers.astype(float)
    return Components(observed_sums(c), per_cell(np.ones(len(c))),
                      per_cell((2 * length ** 3 - 3 * length ** 2 * step + length * step ** 2) / 3),
                      per_cell(length * (length - step)), c.item_length, m * c.item_length,
                      m * (m - 1) * c.item_length, gap_terms(c), float(step))


class UnitizingAlpha(NamedTuple):
    """α_U with its ingredients: scalars and (C,) arrays, or (R,) and (R, C) for R item weightings."""

    value: np.ndarray  # α_U = 1 − Σ_c D_o,c / Σ_c D_e,c (NaN when Σ_c D_e,c is 0)
    per_category: np.ndarray  # α_c (NaN when D_e,c is 0)
    observed: np.ndarray  # D_o,c
    expected: np.ndarray  # D_e,c


def alpha_u(parts, weights=None):
    """α_U of a corpus from its :class:`Components`, with each item weighted (the corpus rule above).

    Parameters
    ----------
    parts : Components
    weights : ndarray, shape (R, K), optional
        How often each item counts in each of R resamples
        (:func:`agreekit.measures.bootstrap.resample_counts`); by default once.

    Returns
    -------
    UnitizingAlpha
        Scalars and (C,) arrays without ``weights``, else (R,) and (R, C) arrays.
    """
    single = weights is None
    w = np.ones((1, len(parts.length))) if single else np.asarray(weights, dtype=float)
    total, coverage, pair_coverage = w @ parts.length, w @ parts.coverage, w @ parts.pair_coverage
    n_units = w @ parts.n_units
    chance = (n_units - 1) * (w @ parts.cubes)
    for k, term in enumerate(parts.gap_terms):
        chance[:, k] += gap_term(term, w, parts.step)
    observed = safe_ratio(w @ parts.observed, (pair_coverage * total)[:, None])
    pairable = coverage * (coverage - parts.step)
    expected = safe_ratio(2 * chance, total[:, None] * (pairable[:, None] - w @ parts.squares))
    per_category = 1 - safe_ratio(observed, expected)
    value = 1 - safe_ratio(observed.sum(axis=1), expected.sum(axis=1))
    if single:
        return UnitizingAlpha(float(value[0]), per_category[0], observed[0], expected[0])
    return UnitizingAlpha(value, per_category, observed, expected)


def unitizing_alpha(start, length, observer, category, begin, end, n_observers=None, step=1.0):
    """Krippendorff's α_U on one continuum ``[begin, end)``.

    Parameters
    ----------
    start, length : array_like, shape (U,)
        Where each unit begins and how long it is (positive).
    observer : array_like of int, shape (U,)
        Observer of each unit, in ``[0, n_observers)``.
    category : array_like of int, shape (U,)
        Category of each unit, in ``[0, C)`` with C = max(category) + 1.
    begin, end : float
        The continuum.
    n_observers : int, optional
        Observers who segmented the continuum (one with no unit marked only
        gaps); by default max(observer) + 1.
    step : float
        Size of one position: 1 for Krippendorff's discrete formulas, 0 for a
        continuous continuum (module docstring).

    Returns
    -------
    UnitizingAlpha
        α_U, and α_c, D_o,c and D_e,c per category.

    Examples
    --------
    Krippendorff's (2004, p. 254) two observers on [150, 450), categories c (0)
    and k (1):

    >>> start = [225, 370, 220, 355, 400, 180, 300, 180, 300]
    >>> length = [70, 30, 80, 20, 20, 60, 50, 60, 50]
    >>> observer = [0, 0, 1, 1, 1, 0, 0, 1, 1]
    >>> category = [0, 0, 0, 0, 0, 1, 1, 1, 1]
    >>> result = unitizing_alpha(start, length, observer, category, 150, 450)
    >>> [round(float(d), 4) for d in result.observed], [round(float(d), 4) for d in result.expected]
    ([0.0144, 0.0], [0.0532, 0.049])
    >>> [round(float(a), 4) for a in result.per_category]
    [0.7286, 1.0]
    >>> round(result.value, 4)
    0.8587

    The book's α_U = 0.8591 is 1 − ΣD_o / ΣD_e from these four-decimal values:

    >>> round(1 - 0.0144 / (0.0532 + 0.0490), 4)
    0.8591

    References
    ----------
    Krippendorff, K. (2004). Content Analysis, 2nd ed., p. 254.
    """
    start = np.asarray(start, dtype=float)
    observer = np.asarray(observer, dtype=np.intp)
    n_observers = int(observer.max()) + 1 if n_observers is None else int(n_observers)
    continua = Continua.of(np.zeros(len(start)), start - begin, start - begin + np.asarray(length, dtype=float),
                           observer, category, [end - begin], [n_observers])
    return alpha_u(components(continua, step))
