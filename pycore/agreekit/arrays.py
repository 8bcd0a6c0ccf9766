"""Small helpers every floor uses: division that is undefined where the denominator is not
positive, the "first ten of them" lists that warnings name, and the content order of items
that seeded draws follow (so renaming or reordering items cannot change a draw)."""
from __future__ import annotations

import numpy as np

LISTED = 10  # how many offending items, lines or names a warning lists


def safe_ratio(numerator, denominator):
    """``numerator / denominator`` elementwise, NaN where ``denominator`` ≤ 0 (no warnings raised).

    >>> safe_ratio(np.array([1.0, 1.0]), np.array([4.0, 0.0])).tolist()
    [0.25, nan]
    """
    numerator = np.asarray(numerator, dtype=float)
    denominator = np.asarray(denominator, dtype=float)
    positive = denominator > 0
    return np.where(positive, numerator / np.where(positive, denominator, 1.0), np.nan)


def name_list(names, limit=LISTED):
    """The first ``limit`` names, comma-separated, and how many more there are.

    >>> name_list(range(12), limit=3)
    '0, 1, 2 and 9 more'
    """
    names = [str(name) for name in names]
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def content_key(tracks):
    """An item's key from its annotations alone, not from its name, its annotators' names or row order.

    ``tracks`` holds one sequence of annotation keys per annotator who saw the
    item (each key a tuple of numbers and strings, comparable with the others);
    the key is the sorted tuple of each annotator's sorted keys.

    >>> content_key([[(2.0, "b"), (1.0, "a")], []]) == content_key([[], [(1.0, "a"), (2.0, "b")]])
    True
    """
    return tuple(sorted(tuple(sorted(track)) for track in tracks))


def canonical_ranks(keys):
    """Each key's position in sorted order (np.intp); equal keys keep their given order.

    Seeded draws over items go in this order (``ranks=`` of
    :func:`agreekit.measures.bootstrap.resample_counts`), so a key built from
    content (:func:`content_key`) makes them independent of names and row order;
    end each key with a name to break ties deterministically.

    >>> canonical_ranks([(3,), (1,), (2,)]).tolist()
    [2, 0, 1]
    """
    order = sorted(range(len(keys)), key=keys.__getitem__)
    ranks = np.empty(len(keys), dtype=np.intp)
    ranks[order] = np.arange(len(keys), dtype=np.intp)
    return ranks


def content_ranks(tracks, names, prefixes=None):
    """The items' content order: ``tracks[i]`` holds item i's annotator tracks (sequences of annotation
    keys, see :func:`content_key`), ``prefixes[i]`` (optional) what else an item's content is, such as
    its length; ``names[i]`` breaks ties between items of equal content only.

    >>> content_ranks([[[(5, "b")], [(1, "a")]], [[(1, "a")], [(5, "b")]], [[(0, "a")]]], ["x", "w", "y"]).tolist()
    [2, 1, 0]
    """
    prefixes = [()] * len(names) if prefixes is None else prefixes
    return canonical_ranks([(prefix, content_key(track), name) for track, name, prefix in zip(tracks, names, prefixes)])


def tracks_by_item(n_items, item, annotator, keys):
    """Annotation keys gathered into tracks: ``[[keys of one annotator on item i], …]`` for each item i.

    >>> tracks_by_item(2, [1, 0, 1], ["a", "a", "b"], ["p", "q", "r"])
    [[['q']], [['p'], ['r']]]
    """
    tracks = [{} for _ in range(n_items)]
    for i, a, key in zip(item, annotator, keys):
        tracks[int(i)].setdefault(a, []).append(key)
    return [list(by.values()) for by in tracks]
