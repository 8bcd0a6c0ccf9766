"""Character-level α of text spans: each character takes its annotator's span label, or ``O``.

Nominal Krippendorff's α with the characters of an item as units and every
annotator as a coder.  This is *not* Krippendorff's unitizing α_U (which
compares continua of positions with a distance over unit boundaries).  Two
rules give each character its label: ``optimal`` (the longest covering span
wins, independent of row order) and ``potato`` (Potato 2.8's BIO filling,
``docs/potato-differences.md``).

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


def character_labels(track, length, rule="optimal"):
    """Each character's label id for one annotator (0 = ``O``; label id k is written k + 1).

    ``optimal``: a character takes the label of the longest span covering it;
    among equally long spans the one that starts first, then the label first
    in sorted order, so the order of the rows cannot matter.  ``potato``:
    Potato's BIO fill — spans by decreasing length (stable), clipped to the
    text; a span whose first character is already tagged is skipped, otherwise
    it tags its still-untagged characters (so a shorter span can be partly cut
    off).

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
    if rule != "potato":
        return item_character_labels(track, [0, len(track)], length)[0]
    out = np.zeros(length, dtype=np.intp)
    lengths = (track.end - track.start).tolist()
    starts, ends, labels = track.start.tolist(), track.end.tolist(), track.label.tolist()
    for i in sorted(range(len(lengths)), key=lambda i: -lengths[i]):
        s, e = max(starts[i], 0), min(ends[i], length)
        if e <= s or out[s] != 0:
            continue
        segment = out[s:e]
        segment[segment == 0] = labels[i] + 1
    return out


def item_character_labels(track, offsets, length, rule="optimal"):
    """Character labels of every annotator of an item, in one pass (rules of :func:`character_labels`).

    Parameters
    ----------
    track : Track
        Annotator k's spans at ``offsets[k]:offsets[k+1]``.
    offsets : list of int
    length : int
    rule : {"optimal", "potato"}

    Returns
    -------
    np.ndarray
        (annotators × ``length``) label ids.
    """
    if rule == "potato":
        return np.stack([character_labels(track.part(offsets[k], offsets[k + 1]), length, rule)
                         for k in range(len(offsets) - 1)])
    out = np.zeros((len(offsets) - 1, length), dtype=np.intp)
    owner = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    # What is written last wins: write the shortest first, and among equals the later start
    # and the later label (label ids follow the sorted label names).
    order = np.lexsort((-track.label, -track.start, track.end - track.start))
    for k, s, e, label in zip(owner[order].tolist(), track.start[order].tolist(),
                              np.minimum(track.end[order], length).tolist(), (track.label[order] + 1).tolist()):
        out[k, s:e] = label
    return out


def character_coincidence(label_rows, n_categories):
    """Coincidence matrix of nominal values with characters as units.

    Characters in a run where no annotator's label changes have the same
    values, so each run enters :func:`agreekit.measures.alpha.unit_coincidences`
    once, weighted by its length (a text has a few runs per span, not one unit
    per character).

    Parameters
    ----------
    label_rows : np.ndarray
        (annotators × characters) category ids in ``[0, n_categories)``.
    n_categories : int

    Returns
    -------
    np.ndarray
        (n_categories × n_categories) coincidences.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability.
    """
    n_annotators, length = label_rows.shape
    changes = np.flatnonzero((label_rows[:, 1:] != label_rows[:, :-1]).any(axis=0)) + 1
    run_starts = np.concatenate([[0], changes])
    run_lengths = np.diff(np.concatenate([run_starts, [length]]))
    values = label_rows[:, run_starts]  # annotators × runs
    codes = (np.arange(len(run_starts))[None, :] * n_categories + values).ravel()
    counts = np.bincount(codes, minlength=len(run_starts) * n_categories).reshape(-1, n_categories)
    return np.tensordot(run_lengths.astype(float), unit_coincidences(counts), axes=1)


def item_char_alpha(track, offsets, length, rule, n_categories):
    """Character-level α of one item: nominal α over its characters, every annotator a coder.

    Parameters
    ----------
    track, offsets, length, rule
        As for :func:`item_character_labels` (``length``: characters of the item).
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
    labels = item_character_labels(track, offsets, length, rule)
    o = character_coincidence(labels, n_categories)
    value = alpha_from_coincidence(o)
    return CharAlpha(value, undefined_reason(o) if not np.isfinite(value) else None)
