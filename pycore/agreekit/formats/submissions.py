"""What per-file importers share: annotator names from file paths, and one submission per (annotator, item).

A *submission* is what one annotator handed in for one item, as one file (or
one entry of a file) gives it: the rows of the annotations read, and the
annotations left out.  :func:`merge` turns the submissions of all files into
rows: an item an annotator saw and marked nothing on (a submission with no rows
and nothing left out) becomes a saw-nothing row (item and annotator, every
other column empty; a mask's row keeps the image size, without which the
kind cannot read it); a submission whose every
annotation was left out gives no row at all, since "marked nothing" would be
false; and when an annotator handed in the same item twice, the later
submission replaces the earlier one, whose rows are then left out too.
"""
from __future__ import annotations

import os
from pathlib import PurePosixPath
from typing import NamedTuple

from ..arrays import name_list
from ..registry import KINDS
from .base import Skipped

__all__ = ["annotator_names", "Submission", "Merged", "saw_nothing_row", "merge"]

REPLACED = "replaced by a later submission of the same annotator"


def annotator_names(sources):
    """An annotator name for each source of a one-file-per-annotator format.

    The name is the file's stem; sources that share a stem (every CVAT job zip
    holds ``annotations.xml``) are named by the parts of their paths that differ,
    with the parts they all share at the start and at the end removed.

    Parameters
    ----------
    sources : list of Source

    Returns
    -------
    dict
        Source name → annotator name.

    >>> from agreekit.formats.base import Source
    >>> annotator_names([Source("job12/annotations.xml", b""), Source("job13/annotations.xml", b""),
    ...                  Source("bob.xml", b"")])
    {'job12/annotations.xml': 'job12', 'job13/annotations.xml': 'job13', 'bob.xml': 'bob'}
    """
    groups = {}
    for source in sources:
        groups.setdefault(source.stem, []).append(source)
    names = {}
    for stem, group in groups.items():
        paths = [PurePosixPath(s.name.replace("\\", "/")).with_suffix("").parts for s in group]
        head = len(os.path.commonprefix(paths))
        tail = len(os.path.commonprefix([path[::-1] for path in paths]))
        for source, path in zip(group, paths):
            names[source.name] = "/".join(path[head:max(head, len(path) - tail)]) or stem
    return names


class Submission(NamedTuple):
    """One annotator's annotations of one item, as one file (or one entry of it) gives them."""

    source: str       # the file
    annotator: str
    item: str
    rows: list        # rows of the annotations read
    skipped: list     # Skipped records of the annotations left out
    size: tuple | None = None  # (width, height) of the image, when known
    rank: float = 0.0          # which of two submissions is the later (a time stamp); ties go to the one read last


class Merged(NamedTuple):
    """The rows of all submissions, what was left out, and the warnings to show."""

    rows: list
    skipped: list
    warnings: list
    saw_nothing: list   # "annotator on item" of the saw-nothing rows
    sizes: dict         # item → (width, height) of its image, when a kept submission gives it


def saw_nothing_row(kind, submission):
    """The row of ``kind`` saying the submission's annotator saw its item and marked nothing.

    Every column but item and annotator is None, except a mask's width and height
    (the kind needs the size of an empty mask too); None when that size is unknown.
    """
    row = {column: None for column in KINDS[kind].columns}
    row.update(item=submission.item, annotator=submission.annotator)
    if kind == "masks":
        if submission.size is None:
            return None
        row["width"], row["height"] = submission.size
    return row


def merge(submissions, kind):
    """Rows from submissions given in reading order; a later (annotator, item) replaces an earlier one.

    Parameters
    ----------
    submissions : iterable of Submission
        In the order the files (and entries) were read; of two for one
        (annotator, item) pair the one of higher ``rank`` is kept, or, of equal
        ranks, the one read last.  Rows keep the order in which pairs first appear.
    kind : str
        The kind of the rows (the shape of a saw-nothing row).

    Returns
    -------
    Merged
        ``rows``: the kept submissions' rows, a saw-nothing row ``{"item",
        "annotator", …}`` (:func:`saw_nothing_row`) for a submission with no rows
        and nothing left out, none for one whose annotations were all left out
        (or a mask of unknown size); ``skipped``: every
        submission's left-out annotations, and the rows of replaced submissions;
        ``warnings``: the replaced pairs and the pairs with only left-out annotations;
        ``saw_nothing``: the pairs given saw-nothing rows; ``sizes``: the items' image sizes.
    """
    kept, skipped, replaced = {}, [], []
    for submission in submissions:
        key = (submission.annotator, submission.item)
        skipped += submission.skipped
        if key in kept:
            earlier, later = sorted((kept[key], submission), key=lambda s: s.rank)  # stable: ties keep the order
            replaced.append(f"{submission.annotator} on {submission.item}")
            skipped += [Skipped(earlier.source, earlier.item, REPLACED) for _ in earlier.rows]
            submission = later
        kept[key] = submission
    rows, saw_nothing, only_skipped, no_size = [], [], [], []
    for submission in kept.values():
        pair = f"{submission.annotator} on {submission.item}"
        if submission.rows:
            rows += submission.rows
        elif submission.skipped:
            only_skipped.append(pair)
        elif (row := saw_nothing_row(kind, submission)) is None:
            no_size.append(pair)
        else:
            rows.append(row)
            saw_nothing.append(pair)
    warnings = []
    if replaced:
        warnings.append(f"{len(replaced)} item(s) were handed in twice by the same annotator; the later "
                        f"submission is kept: {name_list(replaced)}")
    if only_skipped:
        warnings.append(f"{len(only_skipped)} (annotator, item) pair(s) hold only skipped annotations and are left "
                        f"out, not counted as saw nothing: {name_list(only_skipped)}")
    if no_size:
        warnings.append(f"{len(no_size)} empty mask(s) are left out because their image has no width and height: "
                        f"{name_list(no_size)}")
    sizes = {s.item: tuple(s.size) for s in kept.values() if s.size is not None}
    return Merged(rows, skipped, warnings, saw_nothing, sizes)
