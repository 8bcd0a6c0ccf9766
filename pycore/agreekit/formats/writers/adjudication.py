"""The adjudication list: a CSV of the conflicts a person should resolve, the items that need it most first.

Columns: ``rank`` (of the item), ``item``, ``item_weight`` (the item's
conflicts' total weight) and ``item_conflicts`` (their number), then one
conflict a line: ``conflict``, ``annotators`` (separated by ``; ``),
``weight``, ``detail``, and ``link`` to the item's view on the page (empty
when no link is given).  The order is :func:`agreekit.conflicts.adjudication_order`.
"""
from __future__ import annotations

import csv
import io
from urllib.parse import quote

from ...conflicts import ItemConflict, adjudication_order, item_needs
from ...rows import InputError
from .records import number_text

__all__ = ["adjudication_csv", "COLUMNS"]

COLUMNS = ("rank", "item", "item_weight", "item_conflicts", "conflict", "annotators", "weight", "detail", "link")


def _linker(link):
    """item → URL: a template with ``{item}`` (URL-quoted in), a callable, or None (no links)."""
    if link is None:
        return lambda item: ""
    if callable(link):
        return lambda item: str(link(item))
    if "{item}" not in str(link):
        raise InputError(f"link {link!r} must hold '{{item}}', where the item's name goes", column="link",
                         value=link)
    return lambda item: str(link).replace("{item}", quote(item, safe=""))


def adjudication_csv(conflicts, link=None):
    """The adjudication list of ``conflicts`` as CSV text.

    Parameters
    ----------
    conflicts : iterable of ItemConflict
    link : str or callable, optional
        The item view's address: a template such as
        ``"https://example.org/page#item={item}"`` or a function of the item.

    Returns
    -------
    str
        The header and one line per conflict (see the module docstring).
    """
    conflicts = list(conflicts)
    if not all(isinstance(c, ItemConflict) for c in conflicts):
        raise InputError("the adjudication list takes agreekit.conflicts.ItemConflict records")
    needs, url = item_needs(conflicts), _linker(link)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    ranks = {}
    for conflict in adjudication_order(conflicts):
        rank = ranks.setdefault(conflict.item, len(ranks) + 1)
        weight, count = needs[conflict.item]
        writer.writerow([rank, conflict.item, number_text(weight), count, conflict.conflict,
                         "; ".join(conflict.annotators), number_text(conflict.weight), conflict.detail,
                         url(conflict.item)])
    return out.getvalue()
