"""Character-level α of text spans: each character takes its annotator's span label, or ``O``.

Nominal Krippendorff's α with the characters of an item as units and every
annotator as a coder.  This is *not* Krippendorff's unitizing α_U (which
compares continua of positions with a distance over unit boundaries).  Two
rules give each character its label: ``optimal`` (the longest covering span
wins, independent of row order) and ``potato`` (Potato 2.8's BIO filling,
``docs/potato-differences.md``).  Labels are held per run of characters
between span boundaries, never per character, so an item of a billion
characters costs no more memory than its spans.

References
----------
Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability.
Annenberg School for Communication, University of Pennsylvania.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .alpha import alpha_from_coincidence, undefined_reason, unit_coincidences


class CharAlpha(NamedTuple):
    """Character-level α of one item: ``value`` (NaN when undefined) and, when undefined, ``reason``."""

    value: float
    reason: str | None


class RunLabels(NamedTuple):
    """Every annotator's label on each run of an item (see :func:`run_labels`)."""

    labels: np.ndarray  # (annotators × runs) label ids, 0 = ``O``, label id k written k + 1
    widths: np.ndarray  # (runs,) characters in each run, all ≥ 1, summing to the item's length


def character_runs(track, length):
    """The run boundaries of an item: 0, ``length`` and every span start and end, clipped to the item.

    No span starts or ends inside a run, so every annotator's label is
    constant on it, whatever the rule: the labels of the runs are the labels
    of all characters, held in memory proportional to the spans rather than
    to the length of the item.

    Parameters
    ----------
    track : Track
    length : int
        Characters of the item.

    Returns
    -------
    np.ndarray
        Strictly increasing boundaries from 0 to ``length``: run k is the
        characters ``[bounds[k], bounds[k + 1])``.
    """
    cuts = np.concatenate([np.array([0, length], dtype=np.intp), np.clip(track.start, 0, length),
                           np.clip(track.end, 0, length)])
    return np.unique(cuts)


def run_labels(track, offsets, length, rule="optimal"):
    """Each annotator's label on each run of an item (:func:`character_runs`).

    ``optimal``: a character takes the label of the longest span covering it;
    among equally long spans the one that starts first, then the label first
    in sorted order, so the order of the rows cannot matter.  ``potato``:
    Potato's BIO fill — spans by decreasing length (stable), clipped to the
    text; a span whose first character is already tagged is skipped, otherwise
    it tags its still-untagged characters (so a shorter span can be partly cut
    off).  Both rules paint whole runs, since every span starts and ends on a
    run boundary: the result is the per-character one, run-length encoded.

    Parameters
    ----------
    track : Track
        Annotator k's spans at ``offsets[k]:offsets[k+1]``.
    offsets : list of int
    length : int
        Characters of the item; spans are clipped to it.
    rule : {"optimal", "potato"}

    Returns
    -------
    RunLabels

    References
    ----------
    The ``potato`` rule: Potato 2.8's BIO filling; ``docs/potato-differences.md``.
    """
    bounds = character_runs(track, length)
    first = np.searchsorted(bounds, np.clip(track.start, 0, length))
    last = np.searchsorted(bounds, np.clip(track.end, 0, length))  # one past the span's last run
    out = np.zeros((len(offsets) - 1, len(bounds) - 1), dtype=np.intp)
    owner = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    spans_long_first = track.start - track.end
    if rule == "potato":
        # Per annotator, longest first; lexsort is stable, so equal lengths keep row order.
        order = np.lexsort((spans_long_first, owner))
        for k, lo, hi, label in zip(owner[order].tolist(), first[order].tolist(), last[order].tolist(),
                                    (track.label[order] + 1).tolist()):
            if hi <= lo or out[k, lo] != 0:
                continue
            segment = out[k, lo:hi]
            segment[segment == 0] = label
    else:
        # What is written last wins: write the shortest first, and among equals the later start
        # and the later label (label ids follow the sorted label names).
        order = np.lexsort((-track.label, -track.start, -spans_long_first))
        for k, lo, hi, label in zip(owner[order].tolist(), first[order].tolist(), last[order].tolist(),
                                    (track.label[order] + 1).tolist()):
            out[k, lo:hi] = label
    return RunLabels(out, np.diff(bounds))


def character_labels(track, length, rule="optimal"):
    """Each character's label id for one annotator (0 = ``O``; label id k is written k + 1).

    The rules are those of :func:`run_labels`; this expands its runs to
    characters (for inspection and tests: α itself never does).

    Parameters
    ----------
    track : Track
    length : int
        Characters of the item; spans are clipped to it.
    rule : {"optimal", "potato"}

    Returns
    -------
    np.ndarray
        ``length`` label ids.

    References
    ----------
    The ``potato`` rule: Potato 2.8's BIO filling; ``docs/potato-differences.md``.
    """
    runs = run_labels(track, [0, len(track)], length, rule)
    return np.repeat(runs.labels[0], runs.widths)


def character_coincidence(label_rows, n_categories, widths=None):
    """Coincidence matrix of nominal values with characters as units.

    Characters in a run where no annotator's label changes have the same
    values, so each run enters :func:`agreekit.measures.alpha.unit_coincidences`
    once, weighted by its length (a text has a few runs per span, not one unit
    per character).

    Parameters
    ----------
    label_rows : np.ndarray
        (annotators × columns) category ids in ``[0, n_categories)``: one
        column per character, or per run of characters (:func:`run_labels`).
    n_categories : int
    widths : np.ndarray, optional
        Characters in each column (default: 1 each).

    Returns
    -------
    np.ndarray
        (n_categories × n_categories) coincidences.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability.
    """
    n_columns = label_rows.shape[1]
    widths = np.ones(n_columns, dtype=np.intp) if widths is None else np.asarray(widths)
    changes = np.flatnonzero((label_rows[:, 1:] != label_rows[:, :-1]).any(axis=0)) + 1
    run_starts = np.concatenate([[0], changes]).astype(np.intp)
    run_lengths = np.add.reduceat(widths, run_starts)
    values = label_rows[:, run_starts]  # annotators × runs
    codes = (np.arange(len(run_starts))[None, :] * n_categories + values).ravel()
    counts = np.bincount(codes, minlength=len(run_starts) * n_categories).reshape(-1, n_categories)
    return np.tensordot(run_lengths.astype(float), unit_coincidences(counts), axes=1)


def item_char_alpha(track, offsets, length, rule, n_categories):
    """Character-level α of one item: nominal α over its characters, every annotator a coder.

    Parameters
    ----------
    track, offsets, length, rule
        As for :func:`run_labels` (``length``: characters of the item).
    n_categories : int
        Labels + 1 (for ``O``).

    Returns
    -------
    CharAlpha
        Undefined for fewer than two characters, or when every character
        carries one label for everyone.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability.
    """
    if length < 2:
        return CharAlpha(float("nan"), "fewer than two characters")
    runs = run_labels(track, offsets, length, rule)
    o = character_coincidence(runs.labels, n_categories, runs.widths)
    value = alpha_from_coincidence(o)
    return CharAlpha(value, undefined_reason(o) if not np.isfinite(value) else None)
