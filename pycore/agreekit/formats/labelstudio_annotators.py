"""Label Studio annotators: who made each submission, and which of an annotator's submissions is kept.

* The annotator is ``completed_by`` (a user id, or the ``email`` of a user object), JSON_MIN's
  ``annotator``, else the file name; when several files all hold one and the same user (one
  project per annotator, exported by one account), each file is an annotator named after it.
* Two annotations of one annotator on one item: the latest (``updated_at``, else ``created_at``,
  else the last in the files) is kept, the others skipped with their reason.
"""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone

from ..arrays import name_list

__all__ = ["name_annotators", "keep_latest"]


def _file_labels(sources):
    """Each file's annotator name: its stem, or its full name when stems repeat."""
    stems = [source.stem for source in sources]
    return {source.name: source.stem if stems.count(source.stem) == 1 else source.name for source in sources}


def name_annotators(submissions, sources, notes):
    """The submissions with their annotators named (see the module docstring); assumptions go to ``notes``."""
    labels = _file_labels(sources)
    users = {s.annotator for s in submissions if s.annotator is not None}
    files = list(dict.fromkeys(s.source for s in submissions))
    if len(files) > 1 and len(users) == 1:
        notes.extra.append(f"every annotation in the {len(files)} files is by Label Studio user {users.pop()}: "
                           "each file is taken as one annotator, named after the file ("
                           + name_list(labels[f] for f in files) + ")")
        return [replace(s, annotator=labels[s.source]) for s in submissions]
    out = []
    for submission in submissions:
        if submission.annotator is None:
            notes.note("no annotator", f"{submission.source}: {submission.where}")
            submission = replace(submission, annotator=labels[submission.source])
        out.append(submission)
    return out


def _timestamp(text):
    """``text`` as an aware datetime (naive ones taken as UTC), or None."""
    try:
        moment = datetime.fromisoformat(str(text))
    except (TypeError, ValueError):
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def keep_latest(submissions, notes):
    """One submission per (item, annotator): the latest by timestamp when all have one, else the last."""
    groups = {}
    for order, submission in enumerate(submissions):
        groups.setdefault((submission.item, submission.annotator), []).append((order, submission))
    kept = []
    for (item, annotator), group in groups.items():
        times = [_timestamp(s.when) for _, s in group]
        if None in times:  # without a time on each, the order in the files decides
            latest = len(group) - 1
        else:
            latest = max(range(len(group)), key=lambda k: (times[k], group[k][0]))
        if len(group) > 1:
            notes.note("duplicate", f"{annotator} on {item}")
            for k, (_, older) in enumerate(group):
                if k != latest:
                    notes.skip(older.source, older.where, "an earlier annotation by the same annotator")
        kept.append(group[latest])
    return [s for _, s in sorted(kept, key=lambda pair: pair[0])]
