"""κ coefficients for nominal labels: Cohen's (two annotators) and Fleiss' (m per unit), and the
per-unit percent agreement Fleiss' κ is built from.

Everything is batched over leading axes, so bootstrap resamples (reweighted
tables and sums) are one call; an undefined value is NaN, never 0 or 1.
Cohen's κ of every annotator pair of a units × annotators label matrix, and
its bootstrap mean, are folded block by block (:func:`pair_kappas`), so
memory follows the labels and the pairs that occur, not n_annotators².

References
----------
J. Cohen, "A coefficient of agreement for nominal scales", Educational and
Psychological Measurement 20(1): 37–46, 1960.

J. L. Fleiss, "Measuring nominal scale agreement among many raters",
Psychological Bulletin 76(5): 378–382, 1971.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..arrays import safe_ratio

__all__ = ["CohenKappa", "unit_agreement", "cohen_kappa", "Margins", "kappa_from_margins", "kappa_reason",
           "fleiss_kappa", "PairBlock", "pair_blocks", "resampled_kappa", "ListedPairs", "PairKappas", "pair_kappas"]


class CohenKappa(NamedTuple):
    """Cohen's κ and the observed agreement p_o it corrects for chance."""

    kappa: np.ndarray     # NaN where there are no shared units or p_e = 1
    observed: np.ndarray  # p_o, NaN where there are no shared units


def unit_agreement(counts) -> np.ndarray:
    """Per-unit percent agreement: the share of agreeing ordered label pairs within each unit.

    P_u = Σ_c n_uc (n_uc − 1) / (m_u (m_u − 1)), with n_uc the number of labels
    of category c on unit u and m_u = Σ_c n_uc: Fleiss' (1971) P_i.

    Parameters
    ----------
    counts : array_like, shape (..., units, categories)

    Returns
    -------
    np.ndarray, shape (..., units)
        P_u in [0, 1]; NaN for units with fewer than 2 labels.

    References
    ----------
    Fleiss (1971): P_i, with his n raters per subject as m_u here.

    >>> unit_agreement([[2, 1], [2, 0], [1, 0]]).round(4).tolist()
    [0.3333, 1.0, nan]
    """
    counts = np.asarray(counts, dtype=float)
    m = counts.sum(axis=-1)
    return safe_ratio((counts * (counts - 1)).sum(axis=-1), m * (m - 1))


def cohen_kappa(table) -> CohenKappa:
    """Cohen's κ of a contingency table of two annotators' labels on the units both labelled.

    κ = (p_o − p_e) / (1 − p_e), with n = Σ table, p_o = Σ_c table_cc / n the
    observed agreement and p_e = Σ_c (row_c / n)(column_c / n) the agreement
    expected from each annotator's own marginals (Cohen 1960).

    Parameters
    ----------
    table : array_like, shape (..., C, C)
        ``table[c, k]``: units annotator a labelled c and annotator b labelled k.

    Returns
    -------
    CohenKappa
        ``kappa`` and ``observed`` (p_o), each of shape (...).

    References
    ----------
    Cohen (1960).

    >>> cohen_kappa([[3, 1], [1, 3]])
    CohenKappa(kappa=array(0.5), observed=array(0.75))
    """
    return kappa_from_margins(Margins.of(table))


class Margins(NamedTuple):
    """What Cohen's κ needs of a (..., C, C) table: its total, its diagonal and its row and column sums."""

    n: np.ndarray  # (...)
    agree: np.ndarray  # (...)
    rows: np.ndarray  # (..., C)
    cols: np.ndarray  # (..., C)

    @classmethod
    def of(cls, table):
        """The margins of ``table``."""
        table = np.asarray(table, dtype=float)
        return cls(table.sum(axis=(-2, -1)), np.trace(table, axis1=-2, axis2=-1), table.sum(axis=-1),
                   table.sum(axis=-2))


def kappa_from_margins(margins) -> CohenKappa:
    """Cohen's κ from a table's :class:`Margins` (the definition in :func:`cohen_kappa`).

    Margins add up over units, so reweighted tables (a bootstrap) need only
    their reweighted margins.

    Parameters
    ----------
    margins : Margins

    Returns
    -------
    CohenKappa
    """
    observed = safe_ratio(margins.agree, margins.n)
    # Σ_c row_c · col_c, category by category (each term is a contiguous slab in a bootstrap's layout).
    chance = sum((margins.rows[..., c] * margins.cols[..., c] for c in range(margins.rows.shape[-1])),
                 np.zeros(np.shape(margins.n)))
    expected = safe_ratio(chance, margins.n ** 2)
    return CohenKappa(safe_ratio(observed - expected, 1.0 - expected), observed)


def kappa_reason(table):
    """Why Cohen's κ of the (C, C) ``table`` is undefined, or None when it is defined.

    >>> kappa_reason([[3, 0], [0, 0]])
    'both annotators gave one and the same label on every shared unit: expected agreement is 1'
    >>> kappa_reason([[3, 1], [1, 3]]) is None
    True
    """
    table = np.asarray(table, dtype=float)
    n = table.sum()
    if n == 0:
        return "the two annotators share no labelled unit"
    if np.count_nonzero(table.sum(axis=1)) == 1 and np.count_nonzero(table.sum(axis=0)) == 1 \
            and np.argmax(table.sum(axis=1)) == np.argmax(table.sum(axis=0)):
        return "both annotators gave one and the same label on every shared unit: expected agreement is 1"
    return None


def fleiss_kappa(agree_sum, n_units, category_totals, m) -> np.ndarray:
    """Fleiss' κ of N units with the same number m ≥ 2 of labels each, from its sums.

    κ = (P̄ − P̄_e) / (1 − P̄_e), with P̄ = Σ_u P_u / N the mean of
    :func:`unit_agreement`, and P̄_e = Σ_c p_c², p_c = Σ_u n_uc / (N m) the share
    of all labels in category c (Fleiss 1971).

    Parameters
    ----------
    agree_sum : array_like, shape (...)
        Σ_u P_u.
    n_units : array_like, shape (...)
        N.
    category_totals : array_like, shape (..., C)
        Σ_u n_uc.
    m : float
        Labels per unit.

    Returns
    -------
    np.ndarray, shape (...)
        NaN where there are no units or P̄_e = 1 (every label in one category).

    References
    ----------
    Fleiss (1971).

    Two units of two labels: both "x", and one "x", one "y". P̄ = (1 + 0) / 2,
    p = (3/4, 1/4), P̄_e = 10/16, κ = (1/2 − 5/8) / (3/8) = −1/3:

    >>> float(fleiss_kappa(1.0, 2, [3, 1], 2))
    -0.3333333333333333
    """
    agree_sum = np.asarray(agree_sum, dtype=float)
    n_units = np.asarray(n_units, dtype=float)
    category_totals = np.asarray(category_totals, dtype=float)
    mean_agreement = safe_ratio(agree_sum, n_units)
    share = safe_ratio(category_totals, (n_units * m)[..., None])
    expected = (share ** 2).sum(axis=-1)
    return safe_ratio(mean_agreement - expected, 1.0 - expected)


# --------------------------------------------------------------------------- every annotator pair

# Cohen's κ of every annotator pair is computed block by block: a block has at most PAIRS_PER_BLOCK
# possible pairs (its dense tables: C² cells each) and CELL_BUDGET label pairs (two annotators'
# labels on one unit), and the bootstrap holds at most CELL_BUDGET reweighted margins at once.
# Memory is then bounded by the budgets and the data, not by n_annotators²; tables and margins
# are counts, so any block size gives the same κ.
PAIRS_PER_BLOCK = 5000
CELL_BUDGET = 1 << 22


class PairBlock(NamedTuple):
    """A block of annotator pairs (a < b) that share a labelled unit, in pair order.

    ``tables[p]`` (C × C) counts the units both labelled, a's label by b's;
    ``per_trace`` is sparse (traces × P·(2 + 2C)): row t holds the
    :class:`Margins` of every pair's table on the units of trace t, pair p's
    at columns p·(2 + 2C) + (n, agree, rows, cols) (None when not asked for).
    """

    a: np.ndarray
    b: np.ndarray
    tables: np.ndarray
    per_trace: sparse.csc_matrix | None


class LabelList(NamedTuple):
    """Every label as (unit, annotator, category), sorted by annotator, and as a sparse one-hot matrix.

    The pairs' tables are products of slices of ``one_hot``.
    """

    unit: np.ndarray
    annotator: np.ndarray
    category: np.ndarray
    unit_trace: np.ndarray  # trace of each unit
    n_traces: int
    n_categories: int
    n_annotators: int
    one_hot: sparse.csc_matrix  # (units × annotators·C), 1 where annotator a gave unit u category c

    @classmethod
    def of(cls, values, unit_trace, n_traces, n_categories):
        """The labels of ``values`` (arguments as :func:`pair_blocks`)."""
        from scipy import sparse  # here, not with the package: seconds of the page's start-up in Pyodide
        annotator, unit = np.nonzero(np.asarray(values).T >= 0)
        category = np.asarray(values)[unit, annotator]
        one_hot = sparse.csc_matrix((np.ones(len(unit)), (unit, annotator * n_categories + category)),
                                    shape=(len(unit_trace), values.shape[1] * n_categories))
        return cls(unit, annotator, category, np.asarray(unit_trace), n_traces, n_categories, values.shape[1],
                   one_hot)

    def blocks(self):
        """Annotator ranges ``[lo, hi)`` within the budgets (at least one annotator each)."""
        n = self.n_annotators
        labels_per_unit = np.bincount(self.unit, minlength=len(self.unit_trace))
        label_pairs = np.bincount(self.annotator, weights=labels_per_unit[self.unit], minlength=n)
        possible = np.concatenate([[0], np.cumsum(n - 1 - np.arange(n), dtype=np.int64)])
        mass = np.concatenate([[0.0], np.cumsum(label_pairs)])
        lo = 0
        while lo < n - 1:
            hi = min(np.searchsorted(possible, possible[lo] + PAIRS_PER_BLOCK, "right") - 1,
                     np.searchsorted(mass, mass[lo] + CELL_BUDGET, "right") - 1)
            hi = min(max(int(hi), lo + 1), n - 1)
            yield lo, hi
            lo = hi


def _pair_block(labels, lo, hi, by_trace):
    """The pairs (a, b), lo ≤ a < hi, a < b, that share a labelled unit (:class:`PairBlock`)."""
    n_cat, width, n_after = labels.n_categories, hi - lo, labels.n_annotators - lo
    start, stop = np.searchsorted(labels.annotator, [lo, hi])
    unit, own = labels.unit[start:stop], (labels.annotator[start:stop] - lo) * n_cat + labels.category[start:stop]
    from scipy import sparse  # here, not with the package: seconds of the page's start-up in Pyodide
    # (a, c) × (b, k): units where a said c and b said k, for a in the block and every b ≥ lo.
    by_label = sparse.csr_matrix((np.ones(len(unit)), (own, unit)), shape=(width * n_cat, len(labels.unit_trace)))
    counts = (by_label @ labels.one_hot[:, lo * n_cat:]).toarray().reshape(width, n_cat, n_after, n_cat)
    counts = counts.transpose(0, 2, 1, 3)  # (a, b, c, k)
    later = np.arange(n_after)[None, :] > np.arange(width)[:, None]
    first, second = np.nonzero(later & (counts.sum(axis=(2, 3)) > 0))
    tables = counts[first, second]
    per_trace = None
    if by_trace:
        pair_of = np.full((width, n_after), -1, dtype=np.intp)
        pair_of[first, second] = np.arange(len(first))
        per_trace = _per_trace(labels, unit, own, lo, pair_of, len(first))
    return PairBlock(first + lo, second + lo, tables, per_trace)


def _per_trace(labels, unit, own, lo, pair_of, n_pairs):
    """The :class:`PairBlock` ``per_trace`` margins: each pair's table margins on each trace's units."""
    n_cat, width = labels.n_categories, pair_of.shape[0]
    from scipy import sparse  # here, not with the package: seconds of the page's start-up in Pyodide
    rows = labels.unit_trace[unit] * width * n_cat + own  # (trace, a, c)
    by_trace = sparse.csr_matrix((np.ones(len(unit)), (rows, unit)),
                                 shape=(labels.n_traces * width * n_cat, len(labels.unit_trace)))
    product = (by_trace @ labels.one_hot[:, lo * n_cat:]).tocoo()
    trace, rest = np.divmod(product.row, width * n_cat)
    a, c = np.divmod(rest, n_cat)
    b, k = np.divmod(product.col, n_cat)
    pair = pair_of[a, b]
    kept = pair >= 0
    trace, c, k, count, first = trace[kept], c[kept], k[kept], product.data[kept], pair[kept] * (2 + 2 * n_cat)
    agree = c == k
    # Each cell adds to its pair's n, its row c and its column k; a diagonal cell also to agree.
    column = np.concatenate([first, first[agree] + 1, first + 2 + c, first + 2 + n_cat + k])
    return sparse.csc_matrix((np.concatenate([count, count[agree], count, count]),
                              (np.concatenate([trace, trace[agree], trace, trace]), column)),
                             shape=(labels.n_traces, n_pairs * (2 + 2 * n_cat)))


def pair_blocks(values, unit_trace, n_traces, n_categories, by_trace=True):
    """The contingency tables of every annotator pair that shares a labelled unit, block by block.

    Parameters
    ----------
    values : np.ndarray
        (units × annotators) category index of each label, −1 where none.
    unit_trace : np.ndarray
        (units,) trace of each unit.
    n_traces, n_categories : int
    by_trace : bool
        Whether to give the per-trace tables (the bootstrap needs them).

    Yields
    ------
    PairBlock
        In pair order (a, then b); pairs sharing no unit are left out.
    """
    labels = LabelList.of(np.asarray(values), unit_trace, n_traces, n_categories)
    if not len(labels.unit):
        return
    for lo, hi in labels.blocks():
        block = _pair_block(labels, lo, hi, by_trace)
        if len(block.a):
            yield block


def resampled_kappa(block, resamples):
    """Cohen's κ of every pair of a block on every bootstrap resample of the traces.

    A resample's table is Σ_t count_t · table_t, so its :class:`Margins` are
    the traces' margins reweighted alike.  Pairs go in steps whose reweighted
    margins fit ``CELL_BUDGET`` cells.

    Parameters
    ----------
    block : PairBlock
    resamples : np.ndarray
        (R × traces) draw counts.

    Returns
    -------
    np.ndarray
        (R × pairs) κ, column-major, NaN where undefined.
    """
    (n_resamples, n_traces), n_cat, n_pairs = resamples.shape, block.tables.shape[-1], len(block.a)
    width = 2 + 2 * n_cat  # margins per pair
    out = np.empty((n_resamples, n_pairs), order="F")
    step = max(1, CELL_BUDGET // (max(n_resamples, n_traces) * width))
    for start in range(0, n_pairs, step):
        stop = min(start + step, n_pairs)
        per_trace = block.per_trace[:, start * width:stop * width].toarray()
        # (pairs, 2 + 2C, R): each margin of a pair a contiguous row, each pair's κ a column of ``out``.
        reweighted = (per_trace.T @ resamples.T).reshape(stop - start, width, n_resamples)
        margins = Margins(reweighted[:, 0], reweighted[:, 1], reweighted[:, 2:2 + n_cat].transpose(0, 2, 1),
                          reweighted[:, 2 + n_cat:].transpose(0, 2, 1))
        out[:, start:stop] = kappa_from_margins(margins).kappa.T
    return out


class ListedPairs(NamedTuple):
    """Annotator pairs in pair order with their tables and fits: those a report lists in full."""

    a: np.ndarray
    b: np.ndarray
    tables: np.ndarray  # (listed, C, C)
    kappa: np.ndarray
    observed: np.ndarray

    @classmethod
    def empty(cls, n_categories):
        """No pair."""
        none = np.zeros(0, dtype=np.intp)
        return cls(none, none, np.zeros((0, n_categories, n_categories)), np.zeros(0), np.zeros(0))

    def merged(self, block, fit, limit):
        """These pairs and a later block's, cut back to the ``limit`` that share the most units."""
        merged = ListedPairs(*(np.concatenate([mine, theirs]) for mine, theirs
                               in zip(self, (block.a, block.b, block.tables, fit.kappa, fit.observed))))
        if len(merged.a) <= limit:
            return merged
        # Merged rows are in pair order, so a stable sort breaks ties in pair order.
        keep = np.sort(np.argsort(-merged.tables.sum(axis=(1, 2)), kind="stable")[:limit])
        return ListedPairs(*(field[keep] for field in merged))


class PairKappas(NamedTuple):
    """Cohen's κ of every annotator pair that shares a labelled unit (see :func:`pair_kappas`)."""

    kappas: np.ndarray  # (pairs,) in pair order, NaN where undefined
    listed: ListedPairs
    resampled_mean: np.ndarray | None  # (R,) mean κ per resample, None without resamples


def pair_kappas(values, unit_trace, n_traces, n_categories, resamples=None, max_listed=None):
    """Cohen's κ of every annotator pair over the units both labelled, and its bootstrap mean.

    The pairs are folded block by block (:func:`pair_blocks`), so memory is
    bounded by the budgets, the data and ``max_listed``, not by n_annotators².

    Parameters
    ----------
    values, unit_trace, n_traces, n_categories
        As :func:`pair_blocks`.
    resamples : np.ndarray, optional
        (R × traces) bootstrap draw counts.  A resample's mean is over the
        pairs whose κ is defined on the data, of those where it is defined in
        the resample.
    max_listed : int, optional
        How many pairs to keep in ``listed``: those sharing the most units,
        ties in pair order (default: every pair).

    Returns
    -------
    PairKappas

    References
    ----------
    Cohen (1960).
    """
    kappas, listed, sums, counts = [], ListedPairs.empty(n_categories), None, 0
    for block in pair_blocks(values, unit_trace, n_traces, n_categories, by_trace=resamples is not None):
        fit = cohen_kappa(block.tables)
        kappas.append(fit.kappa)
        listed = listed.merged(block, fit, np.inf if max_listed is None else max_listed)
        if resamples is not None:
            resampled = resampled_kappa(block, resamples)[:, np.isfinite(fit.kappa)]
            finite = np.isfinite(resampled)
            resampled[~finite] = 0.0
            sums, counts = _running_sum(sums, resampled), counts + finite.sum(axis=1)
    mean = None
    if resamples is not None:
        mean = safe_ratio(np.zeros(len(resamples)) if sums is None else sums, counts)
    return PairKappas(np.concatenate(kappas) if kappas else np.zeros(0), listed, mean)


def _running_sum(sums, values):
    """``sums`` (None at first) plus each column of ``values`` in turn, left to right.

    A sum along the rows of a column-major array adds column after column, so
    blocks add up in the order one array of every pair would.
    """
    if sums is None:
        return np.asfortranarray(values).sum(axis=1)
    columns = np.empty((len(values), 1 + values.shape[1]), order="F")
    columns[:, 0], columns[:, 1:] = sums, values
    return columns.sum(axis=1)
