"""One item of a report, shape by shape: what the page's item views draw.

A report carries per-item summaries (counts, F1, the within mean), not the
shapes themselves: a 7,500-box report would otherwise ship every box to the
page at once.  :class:`ItemDetails` keeps a report's rows and options, parses
them once on the first request, and answers for one item at a time.  How a
kind reads its rows and describes one item is the kind's own
(``Kind.item_detail``, an :class:`agreekit.registry.ItemDetail` declared in its
package's ``detail`` module); the kinds of the object engine share
:func:`agreekit.object_detail.object_detail`.
"""
from __future__ import annotations

from .errors import InputError
from .registry import KINDS


def detail_kinds():
    """The names of the registered kinds that have an item view, in tab order."""
    return [name for name, kind in KINDS.items() if kind.item_detail is not None]


class ItemDetails:
    """The shapes and matches of one report's items, computed on demand.

    Parameters
    ----------
    kind : str
        A kind whose registry entry has an item view (``Kind.item_detail``).
    rows : str or list of dict
        The report's rows, as given to the kind's report function.
    options : dict
        The report's options (those that change matching are used: threshold,
        match, distance; segments also ``tolerances``, the boundary sweep's).

    ``detail(item)`` returns ``{item, annotators, empty, shapes, matches,
    settings}``: ``shapes`` in the engine's object order, each ``{annotator,
    line, label, geometry, n_matched}`` (``geometry``: boxes ``x y w h`` in
    top-left form, polygons ``points`` as a flat ``x1 y1 x2 y2 …`` list,
    cuboids ``cx cy cz sx sy sz qx qy qz qw yaw``, segments ``start end``);
    ``matches`` ``{a, b, similarity, same_label}`` with ``a``, ``b`` positions
    in ``shapes``; ``empty`` the annotators who saw the item and drew nothing.
    Segments add ``boundaries`` (:func:`agreekit.kinds.segments.detail.boundary_detail`: every start and end, and
    each pair's boundary matches at each of the sweep's tolerances) and
    ``settings.tolerances``.
    For traces, ``detail(trace)`` is ``{item, annotators, steps, cells, labels,
    disputed, settings}``: ``cells`` ``{annotator, step, label, line}`` (the label
    as given), ``labels`` every label of the corpus sorted, ``disputed`` the steps
    where two annotators' labels differ (as the level compares them).  For spans
    (:func:`agreekit.kinds.spans.detail.span_detail`): ``{item, annotators, length, text, shapes, matches,
    settings}``, shapes with ``geometry`` ``{start, end}`` (character offsets,
    end exclusive) and ``n_missed``, matches ``{a, b, outcome}``.
    """

    def __init__(self, kind, rows, options):
        view = KINDS[kind].item_detail if kind in KINDS else None
        if view is None:
            raise InputError(f"no item view for {kind}: item views exist for {', '.join(detail_kinds())}")
        self.kind, self.rows, self.options = kind, rows, dict(options)
        self._view = view
        self._setup = None

    def detail(self, item):
        if self._setup is None:
            self._setup = self._view.setup(self.rows, **self.options)
        return {"kind": self.kind, **self._view.detail(self._setup, item)}
