"""Compare two rounds (or groups) of annotations of one kind: :func:`compare`.

Both reports are computed once, under one count source (:mod:`agreekit.measures.paired_counts`):
A's resamples are its report's own; B's reuse A's counts for the items they share (matched by
item id) and draw the rest independently.  Each coefficient's resampled values come back with its
interval (:func:`agreekit.measures.bootstrap.drawing_counts`), so Δ*_r = B*_r − A*_r costs nothing
beyond the two reports: no report is recomputed per resample.
"""
from __future__ import annotations

from ..errors import InputError
from ..measures.bootstrap import DEFAULT_RESAMPLES, DEFAULT_SEED, drawing_counts
from ..measures.paired_counts import PairedCounts
from ..registry import get
from ..results import CI_LEVEL
from . import walk
from .difference import difference
from .result import Comparison, ItemChange, Resampling, RowDifference

# Per-item agreement measures, in order of preference, and whether higher means more agreement.
ITEM_MEASURES = (("alpha", True), ("char_alpha", True), ("percent_agreement", True), ("exact_f1", True),
                 ("mean_within", False), ("detection_f1", True), ("mean_iou", True), ("mean_agreement", True))
TOP_ITEMS = 10
MAX_PAIR_ROWS = 1000  # annotator-pair rows compared at most (a crowd of 196 annotators has 6,000+ pairs)


def _reports(kind, rows_a, rows_b, options, paired):
    """The two reports under one :class:`PairedCounts`, and the source (its pairings)."""
    source = PairedCounts(paired=paired)
    with drawing_counts(source):
        report_a = _labelled(kind, rows_a, options, "A")
        source.start_b()
        report_b = _labelled(kind, rows_b, options, "B")
    return report_a, report_b, source


def _labelled(kind, rows, options, side):
    try:
        return kind.function(rows, **options)
    except InputError as error:
        raise InputError(f"{side}: {error.message}", line=error.line, column=error.column, value=error.value,
                         field=error.field or side) from None


def _resampling(source, bootstrap, seed):
    if not source.pairings or bootstrap <= 0:
        return Resampling("none", 0, seed, 0, 0, 0, "no bootstrap: differences are given without intervals")
    first = source.pairings[0]
    n_a = first.n_a if first.n_a >= 0 else (source.draws_a[0].n_items if source.draws_a else 0)
    if first.n_shared and first.n_shared == first.n_a == first.n_b:
        method = "paired"
        text = f"paired: the {first.n_shared:,} items of A and B resampled jointly ({bootstrap:,} resamples)"
    elif first.n_shared:
        method = "partly paired"
        text = (f"partly paired: {first.n_shared:,} shared items resampled jointly, the other "
                f"{n_a - first.n_shared:,} of A and {first.n_b - first.n_shared:,} of B independently "
                f"({bootstrap:,} resamples)")
    else:
        method = "independent"
        text = (f"independent: A ({n_a:,} items) and B ({first.n_b:,} items) resampled separately "
                + ("(paired=False)" if not source.paired else "(they share no item)") + f", {bootstrap:,} resamples")
    return Resampling(method, bootstrap, seed, n_a, first.n_b, first.n_shared, text)


def _coefficients(a, b, resampling):
    ca, cb = walk.coefficients(a), walk.coefficients(b)
    out = []
    for name, est in ca.items():
        if name in cb:
            out.append(difference(name, est, cb[name], walk.draws_of(est), walk.draws_of(cb[name]), resampling))
    return tuple(out)


def _table_rows(a, b, resampling):
    """Rows present in both, per table kind; the keys present in one report only; the pair tables left out
    (over ``MAX_PAIR_ROWS`` rows)."""
    ta, tb = walk.tables(a), walk.tables(b)
    out = {"annotators": [], "pairs": [], "labels": []}
    only_a, only_b, skipped = {}, {}, []
    for path, rows_a in ta.items():
        kind = walk.table_kind(path)
        if kind not in out or path not in tb:
            continue
        if kind == "pairs" and max(len(rows_a), len(tb[path])) > MAX_PAIR_ROWS:
            skipped.append(path)
            continue
        by_key_b = {walk.row_key(row): row for row in tb[path]}
        by_key_a = {walk.row_key(row): row for row in rows_a}
        for key, row in by_key_a.items():
            if key in by_key_b:
                na, nb = walk.numbers(row), walk.numbers(by_key_b[key])
                diffs = tuple(difference(f, na[f], nb[f], walk.draws_of(na[f]), walk.draws_of(nb[f]), resampling)
                              for f in na if f in nb)
                out[kind].append(RowDifference(path, dict(key), diffs))
        only_a[path] = [dict(k) for k in by_key_a if k not in by_key_b]
        only_b[path] = [dict(k) for k in by_key_b if k not in by_key_a]
    return out, {k: v for k, v in only_a.items() if v}, {k: v for k, v in only_b.items() if v}, skipped


def _items_changed(a, b, top, id_field):
    """The ``top`` items in both reports whose per-item agreement changed most (items keyed by ``id_field``).

    One measure for all items, so that the changes are ranked on one scale: of ``ITEM_MEASURES``,
    the one with a value in both reports for the most shared items (the first on a tie).  An item
    without it, or whose value is the same in both, is not listed.
    """
    ta, tb = walk.tables(a), walk.tables(b)
    path = walk.item_table(ta, id_field)
    if path is None or path not in tb:
        return ()
    id_field = "item" if path == "items" else id_field
    rows_b = {str(row.get(id_field)): row for row in tb[path]}
    shared = [(str(row.get(id_field)), walk.numbers(row), walk.numbers(rows_b[str(row.get(id_field))]))
              for row in ta[path] if str(row.get(id_field)) in rows_b]
    values = {measure: [(item, _plain_value(na.get(measure)), _plain_value(nb.get(measure))) for item, na, nb in shared]
              for measure, _ in ITEM_MEASURES}
    counts = {measure: sum(va is not None and vb is not None for _, va, vb in rows) for measure, rows in values.items()}
    measure, higher = max(ITEM_MEASURES, key=lambda m: counts[m[0]])  # max keeps the first of equals
    if counts[measure] == 0:
        return ()
    changes = [ItemChange(item, measure, higher, va, vb, vb - va) for item, va, vb in values[measure]
               if va is not None and vb is not None and vb != va]
    changes.sort(key=lambda c: (-abs(c.delta), c.item))
    return tuple(changes[:top])


def _plain_value(value):
    value = value.get("value") if isinstance(value, dict) else value
    return None if value is None or value != value else float(value)


def compare(kind, rows_a, rows_b, *, bootstrap=DEFAULT_RESAMPLES, seed=DEFAULT_SEED, paired=True,
            top_items=TOP_ITEMS, **options):
    """Compare two rounds or groups of annotations of one ``kind``: every coefficient in A, in B, and B − A.

    Parameters
    ----------
    kind : str
        A registered kind ("boxes", "labels", …).
    rows_a, rows_b : str or list of dict
        The two data sets, as the kind's report takes them.  Items are matched by their id.
    bootstrap, seed : int
        Resamples (0 = no intervals) and their seed (for kinds with a bootstrap).
    paired : bool
        Resample the items A and B share jointly (default); False resamples B independently.
    top_items : int
        How many of the items whose agreement changed most to list.
    **options
        The kind's options, applied to both reports.

    Returns
    -------
    Comparison
        ``coefficients`` (each a ``Difference``: ``value_a``, ``value_b``, ``delta``, ``ci``,
        ``p_value``, ``resampling``, ``sentence``), ``annotators``, ``pairs``, ``labels``,
        ``items_changed``, ``resampling`` and ``summary`` (the headline in words).

    Notes
    -----
    Δ* = B* − A* per resample, percentile interval; paired resampling of shared items (Efron &
    Tibshirani 1993, §16.4); ``docs/compare.md``.
    """
    spec = get(kind)
    names = {option.name for option in spec.options}
    if "bootstrap" in names:
        options = {**options, "bootstrap": bootstrap, "seed": seed}
    report_a, report_b, source = _reports(spec, rows_a, rows_b, options, paired)
    resampling = _resampling(source, bootstrap if "bootstrap" in names else 0, seed)
    method = "paired" if resampling.method in ("paired", "partly paired") else "independent"
    a, b = report_a._data, report_b._data
    coefficients = _coefficients(a, b, method)
    rows, only_a, only_b, skipped = _table_rows(a, b, method)
    warnings = _warnings(resampling, source, a, b) + [
        f"the pair table {path} is not compared: more than {MAX_PAIR_ROWS:,} annotator pairs" for path in skipped]
    headline = next((d for d in coefficients if d.ci is not None), next(iter(coefficients), None))
    return Comparison(kind, {**options, "paired": paired, "ci_level": CI_LEVEL}, resampling, coefficients,
                      tuple(rows["annotators"]), tuple(rows["pairs"]), tuple(rows["labels"]), only_a, only_b,
                      _items_changed(a, b, top_items, spec.columns[0]), headline.sentence if headline else "nothing to compare",
                      tuple(warnings), report_a, report_b)


def _warnings(resampling, source, a, b):
    out = [f"A: {w}" for w in a.get("warnings", [])] + [f"B: {w}" for w in b.get("warnings", [])]
    if resampling.method == "independent" and source.paired:
        out.append("A and B share no item: the difference is resampled independently (unpaired), which is "
                   "wider than a paired comparison of the same items would be")
    unaligned = [p for p in source.pairings[1:] if p.n_a >= 0 and p.n_shared < min(p.n_a, p.n_b)]
    if resampling.method == "paired" and unaligned:
        out.append("some coefficients are computed over a subset of the items; there A and B are paired on "
                   "the items both subsets hold and resampled independently elsewhere")
    return out
