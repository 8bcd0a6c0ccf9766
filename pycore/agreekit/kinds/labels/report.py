"""The labels report: every coefficient at the chosen level, per pair and per annotator, with
bootstrap intervals over items (see ``docs/labels.md`` for the formulas and when to use which)."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ... import options as opts
from ...measures import bootstrap as boot
from ...measures.alpha_draws import ORDINAL_CELLS
from ...reference.report import reference_part, reference_records
from ...registry import register
from ...results import CI_LEVEL, Report
from . import coefficients as co
from . import pairs as pr
from .consensus import CONSENSUS
from .reference import SIMILAR, judgement_records, judgement_set, reader
from .rows import COLUMNS, SYNONYMS, read_judgements
from .scale import LEVELS, build_ratings
from .shape import SHAPE
from .methods import METHODS
from .patterns import category_counts, drawn_rows
from .tables import disputed_items, paradox, prevalence
from .text import format_report

LEVEL = opts.Option("level", "choice", "Level of measurement", "what the labels are: names, ranks, "
                    "numbers with a unit, numbers with a true zero, or sets of labels", choices=(
                        opts.Choice("nominal", "nominal (labels are names)"),
                        opts.Choice("ordinal", "ordinal (labels are ranked)"),
                        opts.Choice("interval", "interval (numbers, differences matter)"),
                        opts.Choice("ratio", "ratio (numbers with a true zero)"),
                        opts.Choice("set", "set (each judgement a set of labels)")))
ORDER = opts.Option("order", "labels", "Ordinal order (lowest first)",
                    "ordinal labels from lowest to highest, comma-separated, when they are not numbers")
assert tuple(c.value for c in LEVEL.choices) == LEVELS


def _coefficients(ratings, level, counts, grouped, fits):
    pairable = int(np.sum(counts.sum(axis=1) >= 2))
    reason = co.why_undefined(ratings, counts)
    out = co.alpha_section(ratings, level, grouped, pairable, reason)
    out.update(co.multirater_section(ratings, level, grouped, pairable, reason))
    out.update(pr.mean_kappas(fits, level))
    out["fleiss_kappa"] = co.fleiss_section(ratings, grouped, reason)
    if len(ratings.annotators) == 2 and len(fits.a):
        out["scott_pi"] = co.drawn(fits.pi[0], int(fits.shared[0]), reason)
    else:
        out["scott_pi"] = co.undefined(f"Scott's π is for two annotators; there are {len(ratings.annotators)} "
                                       "(Fleiss' κ generalizes it)" if len(ratings.annotators) != 2
                                       else "the two annotators share no item")
    out.update(co.icc_section(ratings, level, grouped))
    return out


@register("labels", title="Labels", summary="categories, scales and label sets: item, annotator, label "
          "(or a reliability matrix: one row per item, one column per annotator)",
          options=(LEVEL, ORDER,
                   opts.BOOTSTRAP.but(help="resamples over items for the percentile intervals (0 = none)"),
                   opts.SEED, opts.REFERENCE, opts.REFERENCE_ROWS),
          columns=COLUMNS, synonyms=SYNONYMS, count_key="n_ratings", position=8, text=format_report, shape=SHAPE,
          consensus=CONSENSUS,
          methods=METHODS)
def labels(rows, *, level="nominal", order=None, bootstrap=boot.DEFAULT_RESAMPLES, seed=boot.DEFAULT_SEED,
           reference=None, reference_rows=None, progress=None):
    """Agreement on categorical, ordinal, numeric or set-valued labels.

    Parameters
    ----------
    rows : str or list of dict
        Long rows ``item, annotator, label`` or a reliability matrix (:mod:`.rows`).
    level : {"nominal", "ordinal", "interval", "ratio", "set"}
    order : list of str or str, optional
        Ordinal labels from lowest to highest when they are not numbers.
    bootstrap, seed : int
        Resamples of items (0 = no intervals) and their seed.
    reference, reference_rows : optional
        Score every annotator against a reference (an annotator of the rows, who then leaves the
        agreement measures, or gold rows): κ, the confusion table, wrong labels (``docs/reference.md``).
    progress : callable, optional
        ``progress(done, total, stage)``.

    Returns
    -------
    Report
        Keys in ``docs/report.md``; formulas in ``docs/labels.md``.
    """
    reading = read_judgements(rows, split_sets=level == "set", progress=progress)
    chosen = None
    if reference is not None or reference_rows is not None:  # the records are the reference engine's: none without one
        _, chosen = reference_records(judgement_records(reading.judgements), reference=reference,
                                      reference_rows=reference_rows, parse=reader(level == "set"), kind="labels",
                                      rows=rows)
    if chosen is not None and chosen.source == "annotator":
        reading = replace(reading, judgements=tuple(j for j in reading.judgements if j.annotator != chosen.annotator))
    ratings = build_ratings(reading.judgements, level, order if level == "ordinal" else None)
    counts = category_counts(ratings.codes, len(ratings.categories))  # per item
    grouped = drawn_rows(ratings, bootstrap, seed)
    fits = pr.fit_pairs(ratings, level, grouped)
    coefficients = _coefficients(ratings, level, counts, grouped, fits)
    table = prevalence(ratings, counts)
    items, n_disputed = disputed_items(ratings, counts)
    data = {
        "settings": {"level": level, "order": list(order) if order is not None and level == "ordinal" else None,
                     "bootstrap": bootstrap, "seed": seed, "ci_level": CI_LEVEL},
        "input": {"layout": reading.layout, "reading": reading.note},
        "n_items": int(np.sum(counts.sum(axis=1) >= 2)),
        "n_items_total": len(ratings.items),
        "n_annotators": len(ratings.annotators),
        "n_ratings": int(counts.sum()),
        "categories": list(ratings.categories),
        "coefficients": coefficients,
        "kappa_paradox": paradox(table, coefficients),
        "prevalence": table,
        "pairs": pr.pair_rows(ratings, fits),
        "n_pairs_without_shared_items": fits.n_without_shared,
        "annotators": pr.annotator_rows(ratings, fits),
        "items": items,
        "n_disputed_items": n_disputed,
        "warnings": _warnings(reading, ratings, order, level) + _interval_warnings(ratings, level, grouped),
    }
    if chosen is not None:
        data["reference"], notes, more_settings = reference_part(
            chosen, judgement_set, threshold=SIMILAR, low_overlap=SIMILAR, mode="optimal", label_key=str,
            bootstrap=bootstrap, seed=seed, localization=False)
        data["warnings"] += notes
        data["settings"]["reference"] = more_settings["reference"]
    return Report("labels", data)


def _interval_warnings(ratings, level, grouped):
    size, draws = len(ratings.categories), grouped.draws
    pairable = int(np.sum(grouped.counts.sum(axis=1) >= 2))  # distinct rows: what ordinal α resamples
    if level != "ordinal" or len(draws) < 2 or max(pairable, len(draws)) * size * size <= ORDINAL_CELLS:
        return []
    return [f"ordinal α has no interval: {size} categories are too many to resample its coincidences "
            f"({max(pairable, len(draws)) * size * size:,} cells above {ORDINAL_CELLS:,}); α itself is exact"]


def _warnings(reading, ratings, order, level):
    out = list(ratings.warnings)
    if reading.unrated_items:
        out.append(f"{len(reading.unrated_items)} matrix row(s) without any rating left out: "
                   + ", ".join(reading.unrated_items[:10]) + (" …" if len(reading.unrated_items) > 10 else ""))
    if order is not None and level != "ordinal":
        out.append(f"option order is used at level ordinal only; ignored at level {level}")
    single = int(np.sum((ratings.codes >= 0).sum(axis=1) == 1))
    if single:
        out.append(f"{single} item(s) rated by one annotator only: they count in the label shares of Gwet's "
                   "AC1/AC2 and Conger's κ (as in irrCAC) and in the prevalence table, nowhere else")
    return out
