"""Pixel masks: rows of COCO run lengths in, STAPLE consensus, majority vote and mask IoU out.

The run-length forms and mask IoU on runs are :mod:`agreekit.geometry.rle`; STAPLE
(with its fixed prior) and majority vote are :mod:`agreekit.measures.staple`. This
module reads the rows and writes the report:

* An annotator's several masks on one item are united (OR); a blank ``rle`` means
  the annotator saw the item and marked nothing; with ``label`` given, masks of
  another label count as nothing marked. Items with one annotator are left out.
* Per item: STAPLE of its annotators' masks, each annotator's sensitivity,
  specificity and Dice against the consensus and against the majority vote, the
  mean pairwise mask IoU, and the consensus and majority masks as runs (column-major,
  as COCO's, for drawing).
* Per annotator: means over their items; per pair: mean mask IoU over the items both
  annotated; overall: means over all items or pairs. A mean of no defined value is
  null with a reason.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ... import options as opts
from ...arrays import name_list
from ...geometry.rle import union_runs
from ...measures.bootstrap import DEFAULT_SEED
from ...measures.staple import StapleResult, staple_runs
from ...parse.rle import MAX_PIXELS, empty_runs, parse_rle
from ...reference.report import reference_part, reference_records
from ...registry import register
from ...results import Report, estimate
from ...rows import ANNOTATOR_SYNONYMS, InputError, read_table, shortened, to_int, to_text
from .consensus import CONSENSUS
from .reference import mask_records, mask_set
from .text import format_masks
from .shape import SHAPE
from .methods import METHODS

__all__ = ["ItemMasks", "MaskRows", "parse_masks", "masks"]

COLUMNS = ("item", "annotator", "width", "height", "rle", "label")
SYNONYMS = {
    "item": ("image", "image_id", "img", "item_id", "file", "filename", "image_name"),
    "annotator": ANNOTATOR_SYNONYMS,
    "label": ("class", "category", "class_name", "category_name", "tag"),
    "width": ("w",),
    "height": ("h",),
    "rle": ("counts", "mask", "segmentation"),
}
RATES = ("sensitivity", "specificity", "dice", "majority_dice")  # per annotator, per item


# --------------------------------------------------------------------------- input

class ItemMasks(NamedTuple):
    """The masks of one item: its size and each annotator's run lengths."""

    height: int
    width: int
    by_annotator: dict  # annotator -> [run lengths, …] (several masks are united later)


class MaskRows(NamedTuple):
    """Checked mask rows."""

    items: dict     # item -> ItemMasks, in order of first appearance
    n_rows: int
    warnings: list


def _size(row):
    """The row's (height, width), both positive, with at most ``MAX_PIXELS`` pixels in all."""
    width, height = to_int(row, "width"), to_int(row, "height")
    for column, value in (("width", width), ("height", height)):
        if value <= 0:
            raise InputError(f"'{column}' must be positive", line=row.line, column=column, value=value)
    if width * height > MAX_PIXELS:
        raise InputError(f"a mask of {shortened(width, 24)} × {shortened(height, 24)} pixels is above the "
                         f"ceiling of {MAX_PIXELS:,} pixels (2⁴⁰)", line=row.line, column="width",
                         value=shortened(width))
    return height, width


def parse_masks(rows, label=None, progress=None) -> MaskRows:
    """Read and check mask rows.

    Parameters
    ----------
    rows : str or list of dict
        CSV/TSV text or dicts with ``item, annotator, width, height, rle`` and
        optionally ``label`` (synonyms in :data:`SYNONYMS`).
    label : str, optional
        Masks with another label count as nothing marked (the annotator still saw the item).
    progress : callable, optional
        Passed to :func:`agreekit.rows.read_table`.

    Returns
    -------
    MaskRows

    Raises
    ------
    agreekit.rows.InputError
        Naming the line: a missing field, a size that is not a positive integer,
        is above ``MAX_PIXELS`` or differs from the item's first row, run lengths
        that cannot be read.
    """
    table = read_table(rows, COLUMNS, SYNONYMS, required=("item", "annotator", "width", "height", "rle"),
                       progress=progress)
    items, first_line = {}, {}
    other_label = 0
    for row in table:
        item = to_text(row, "item")
        annotator = to_text(row, "annotator")
        height, width = _size(row)
        if item in items and (items[item].height, items[item].width) != (height, width):
            known = items[item]
            raise InputError(f"item {item!r} is {known.width} × {known.height} on line {first_line[item]} "
                             f"but {width} × {height} here", line=row.line, column="width", value=width)
        runs = parse_rle(row.values.get("rle"), height, width, line=row.line)
        if label is not None and runs.size > 1 and to_text(row, "label", required=False) != label:
            other_label += 1
            runs = empty_runs(height * width)
        if item not in items:
            items[item], first_line[item] = ItemMasks(height, width, {}), row.line
        items[item].by_annotator.setdefault(annotator, []).append(runs)
    warnings = []
    if other_label:
        warnings.append(f"{other_label} mask(s) with a label other than {label!r} count as nothing marked")
    return MaskRows(items, len(table), warnings)


# --------------------------------------------------------------------------- per item

class ItemStaple(NamedTuple):
    """STAPLE of one item and its row of the report."""

    item: str
    annotators: list         # sorted; the order of every per-annotator array
    result: StapleResult
    pair_iou: np.ndarray     # (annotators, annotators) mask IoU
    entry: dict              # the item's row in the report's ``items``


def _item_staple(item, masks: ItemMasks, max_iter, tol, start) -> ItemStaple:
    who = sorted(masks.by_annotator)
    n_pixels = masks.height * masks.width
    runs = [union_runs(masks.by_annotator[a], n_pixels) if len(masks.by_annotator[a]) > 1
            else masks.by_annotator[a][0] for a in who]
    fit = staple_runs(runs, n_pixels, max_iter=max_iter, tol=tol, start=start)
    result = fit.result
    upper = fit.pair_iou[np.triu_indices(len(who), 1)]
    entry = {
        "item": item, "width": masks.width, "height": masks.height, "annotators": who,
        "sensitivity": result.sensitivity, "specificity": result.specificity,
        "dice": result.dice, "majority_dice": result.majority_dice,
        "mean_pairwise_iou": float(np.nanmean(upper)) if np.isfinite(upper).any() else None,
        "consensus_area": int(np.sum(fit.consensus_runs[1::2])),
        "majority_area": int(np.sum(fit.majority_runs[1::2])),
        "consensus_majority_dice": result.consensus_majority_dice,
        "consensus_rle": fit.consensus_runs, "majority_rle": fit.majority_runs, "annotator_rle": runs,
        "prior": result.prior, "iterations": result.iterations, "converged": result.converged,
    }
    return ItemStaple(item, who, result, fit.pair_iou, entry)


def _item_warnings(single, fits, max_iter):
    """Items left out (one annotator), items where STAPLE stopped unconverged, empty consensuses."""
    not_converged = [fit.item for fit in fits if not fit.result.converged]
    no_foreground = [fit.item for fit in fits if not np.isfinite(fit.result.sensitivity).all()]
    warnings = []
    if single:
        warnings.append(f"{len(single)} item(s) have only one annotator and are left out: " + name_list(single))
    if not_converged:
        warnings.append(f"STAPLE did not converge within {max_iter} iterations on {len(not_converged)} "
                        "item(s): " + name_list(not_converged))
    if no_foreground:
        warnings.append(f"{len(no_foreground)} item(s) have an empty consensus, so sensitivity is undefined "
                        "there: " + name_list(no_foreground))
    return warnings


# --------------------------------------------------------------------------- per annotator and pair

class ByAnnotator(NamedTuple):
    """Per-item values gathered per annotator, in item order."""

    rates: dict     # RATES key -> [annotator] -> [value per item]
    pair_iou: list  # [annotator a][annotator b] -> [IoU of a with b per item both annotated]


def _gather(names, fits) -> ByAnnotator:
    index = {a: k for k, a in enumerate(names)}
    rates = {key: [[] for _ in names] for key in RATES}
    pair_iou = [[[] for _ in names] for _ in names]
    for fit in fits:
        for k, a in enumerate(fit.annotators):
            for key in RATES:
                rates[key][index[a]].append(getattr(fit.result, key)[k])
            for m, b in enumerate(fit.annotators):
                if m != k:
                    pair_iou[index[a]][index[b]].append(fit.pair_iou[k, m])
    return ByAnnotator(rates, pair_iou)


def _mean_estimate(values, what):
    """The mean of the finite ``values`` as an estimate; undefined when there is none."""
    values = np.asarray(values, dtype=float)
    values = values[np.isfinite(values)]
    if values.size == 0:
        return estimate(None, reason=f"no item defines the {what}")
    return estimate(float(values.mean()), n=values.size)


def _annotator_rows(names, gathered: ByAnnotator):
    rows = []
    for a, name in enumerate(names):
        with_others = [v for b in range(len(names)) for v in gathered.pair_iou[a][b]]
        rows.append({
            "annotator": name, "n_items": len(gathered.rates["dice"][a]),
            "sensitivity": _mean_estimate(gathered.rates["sensitivity"][a], "sensitivity"),
            "specificity": _mean_estimate(gathered.rates["specificity"][a], "specificity"),
            "dice": _mean_estimate(gathered.rates["dice"][a], "Dice"),
            "majority_dice": _mean_estimate(gathered.rates["majority_dice"][a], "Dice"),
            "mean_iou": _mean_estimate(with_others, "mask IoU"),
        })
    return rows


def _pair_rows(names, pair_iou):
    n = len(names)
    return [{"a": names[a], "b": names[b], "n_items": len(pair_iou[a][b]),
             "mean_iou": _mean_estimate(pair_iou[a][b], "mask IoU")}
            for a in range(n) for b in range(a + 1, n) if pair_iou[a][b]]


def _overall_means(item_entries, pair_iou):
    """The report's four overall means, over every item (in report order) or pair."""
    n = len(pair_iou)
    all_pairs = [v for a in range(n) for b in range(a + 1, n) for v in pair_iou[a][b]]
    return {
        "mean_pairwise_iou": _mean_estimate(all_pairs, "mask IoU"),
        "mean_dice": _mean_estimate([d for e in item_entries for d in e["dice"]], "Dice"),
        "mean_majority_dice": _mean_estimate([d for e in item_entries for d in e["majority_dice"]], "Dice"),
        "consensus_majority_dice": _mean_estimate([e["consensus_majority_dice"] for e in item_entries], "Dice"),
    }


# --------------------------------------------------------------------------- report

@register("masks", title="Masks", summary="pixel masks: item, annotator, width, height, rle (COCO), label",
          options=(opts.Option("label", "text", "Only masks with this label",
                               "others count as nothing marked (the annotator still saw the item)"),
                   opts.Option("max_iter", "int", "STAPLE iteration limit", minimum=1, maximum=10_000),
                   opts.Option("tol", "float", "STAPLE tolerance",
                               "stop when no rate moves by more than this", minimum=0.0, maximum=1.0),
                   opts.Option("start", "choice", "STAPLE start", choices=(
                       opts.Choice("votes", "votes (as SimpleITK)"), opts.Choice("rates", "rates"),
                       opts.Choice("potato", "potato (Potato 2.8's whole variant)"))),
                   opts.THRESHOLD.but(label="Mask IoU threshold (reference)",
                                      help="with a reference: mask IoU at or above which a mask matches the "
                                           "reference's"),
                   *opts.REFERENCE_OPTIONS),
          columns=COLUMNS, synonyms=SYNONYMS, count_key="n_masks", position=5, text=format_masks, shape=SHAPE,
          consensus=CONSENSUS,
          methods=METHODS)
def masks(rows, *, label=None, max_iter=1000, tol=1e-10, start="votes", threshold=0.5, reference=None,
          reference_rows=None, low_overlap=opts.DEFAULT_LOW_OVERLAP, progress=None):
    """Agreement report for pixel masks: STAPLE consensus, majority vote, mask IoU.

    Parameters
    ----------
    rows : str or list of dict
        CSV/TSV text or dicts with ``item, annotator, width, height, rle, label``
        (``rle``: COCO run lengths, uncompressed or compressed; see
        :mod:`agreekit.geometry.rle`). An annotator's several masks on one item are
        united (OR).
    label : str, optional
        Restrict the report to masks of this label.
    max_iter, tol, start
        STAPLE's iteration limit, parameter tolerance and starting point
        (:func:`agreekit.measures.staple.staple`).
    threshold, reference, reference_rows, low_overlap
        Score every annotator's mask against a reference (an annotator of the rows, who then leaves
        the agreement measures, or gold rows) by mask IoU at ``threshold`` (``docs/reference.md``).
    progress : callable, optional
        ``progress(done, total, stage)``, called while the rows are read (stage
        ``"reading rows"``) and after each item's STAPLE (stage ``"STAPLE"``).

    Returns
    -------
    Report
        Keys in ``docs/masks.md``; items sorted by mean Dice, lowest first.
    """
    data = parse_masks(rows, label, progress)
    data, chosen, runs = _with_reference(data, rows, label, reference, reference_rows)
    names = sorted({a for item in data.items.values() for a in item.by_annotator})
    compared = {item: m for item, m in data.items.items() if len(m.by_annotator) >= 2}
    single = [item for item in data.items if item not in compared]
    fits = []
    for item, m in compared.items():
        fits.append(_item_staple(item, m, int(max_iter), float(tol), start))
        if progress is not None:
            progress(len(fits), len(compared), "STAPLE")
    warnings = data.warnings + _item_warnings(single, fits, int(max_iter))
    # Items whose annotators disagree most come first.
    item_entries = sorted((fit.entry for fit in fits), key=lambda e: float(np.mean(e["dice"])))
    gathered = _gather(names, fits)
    report = {
        "settings": {"label": label, "max_iter": int(max_iter), "tol": float(tol), "start": start,
                     "rle_order": "column-major (COCO)", "prior": "fixed: mean of all votes"},
        "n_items": len(item_entries),
        "n_items_total": len(data.items),
        "n_annotators": len(names),
        "n_masks": data.n_rows,
        **_overall_means(item_entries, gathered.pair_iou),
        "annotators": _annotator_rows(names, gathered),
        "pairs": _pair_rows(names, gathered.pair_iou),
        "items": item_entries,
        "warnings": warnings,
    }
    if chosen is not None:
        report["reference"], notes, more_settings = reference_part(
            chosen, lambda both: mask_set(both, runs), threshold=threshold, low_overlap=low_overlap,
            mode="optimal", label_key=str, bootstrap=1000, seed=DEFAULT_SEED, localization=False)
        warnings += notes
        report["settings"].update(more_settings, threshold=threshold)
    return Report("masks", report)


def _with_reference(data, rows, label, reference, reference_rows):
    """``(mask rows of the agreement report, ReferenceRecords or None, united runs by record index)``."""
    runs = []
    sizes = {item: (m.height, m.width) for item, m in data.items.items()}
    _, chosen = reference_records(mask_records(data, runs), reference=reference, reference_rows=reference_rows,
                                  parse=lambda gold: mask_records(parse_masks(gold, label), runs, sizes),
                                  kind="masks", rows=rows, options={"label": label})
    if chosen is None or chosen.source != "annotator":
        return data, chosen, runs
    items, dropped = {}, 0
    for item, m in data.items.items():
        dropped += len(m.by_annotator.get(chosen.annotator, []))
        kept = {a: v for a, v in m.by_annotator.items() if a != chosen.annotator}
        if kept:
            items[item] = ItemMasks(m.height, m.width, kept)
    return MaskRows(items, data.n_rows - dropped, data.warnings), chosen, runs
