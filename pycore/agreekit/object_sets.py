"""Rows to objects: the checked annotations of one kind grouped into the object engine's input.

An :class:`Annotation` is one parsed row; :func:`build_objects` keeps the items
that at least two annotators saw, orders each annotator's objects canonically
(the tie-break of matching, so row order cannot change a report) and lays them
out contiguously by item in an :class:`ObjectSet`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .arrays import canonical_ranks, content_key, name_list


class Annotation(NamedTuple):
    """One parsed input row: ``geometry`` is None for "saw the item, drew nothing"."""

    line: int
    item: str
    annotator: str
    geometry: object
    label: object



@dataclass(frozen=True)
class ObjectSet:
    """Objects of the comparable items, contiguous by item.

    ``offsets[i]:offsets[i + 1]`` are item i's objects; ``members[i]`` maps
    annotator position → global object indices (an empty array for an
    annotator who saw the item and drew nothing).  ``item_ranks`` orders the
    items by their annotations (:func:`agreekit.arrays.canonical_ranks`), the
    order seeded draws over items follow, and ``object_ranks`` the objects
    likewise (seeded samples of objects); None draws in the given order.
    """

    item_ids: list
    annotators: list
    offsets: np.ndarray
    annotator_of: np.ndarray
    labels: list
    members: list
    lines: np.ndarray
    item_ranks: np.ndarray = None     # each item's place in the content order the bootstrap draws in
    object_ranks: np.ndarray = None   # each object's place in content order (:func:`object_ranks`)

    @property
    def n_objects(self):
        return int(self.offsets[-1])

    @property
    def n_items(self):
        return len(self.item_ids)



def _group(records):
    """``{item: {annotator: [Annotation, …]}}`` with items in order of their first row."""
    grouped = {}
    for record in records:
        grouped.setdefault(record.item, {}).setdefault(record.annotator, []).append(record)
    return grouped



def canonical_order(record):
    """The tie-break order of an annotator's objects on an item: by geometry, then label, never by row."""
    return tuple(record.geometry), "" if record.label is None else str(record.label)



def build_objects(records, *, width, noun, plural, is_degenerate=None, degenerate_note=None,
                  order=canonical_order, content=None):
    """Group :class:`Annotation` records into an :class:`ObjectSet` of the comparable items.

    Each record's geometry is a sequence of ``width`` numbers; ``is_degenerate``
    (when given) flags geometry that is kept but warned about with
    ``degenerate_note``.  ``noun`` names a counted object in the warnings
    ("box(es)"), ``plural`` several ("boxes").
    ``order`` sorts each annotator's objects on an item (the documented
    tie-break of matching, so row order cannot change a report); ``None``
    keeps row order, as Potato mode must.  ``content`` keys one record by its
    annotation alone (default ``order``, else :func:`canonical_order`); the
    items' ``item_ranks`` sort them by these keys, then by name.
    Returns ``(objects, geometry array (n × width), warnings)``.
    """
    grouped = _group(records)
    annotators = sorted({r.annotator for r in records})
    position = {a: k for k, a in enumerate(annotators)}
    warnings = []
    single = [item for item, by in grouped.items() if len(by) < 2]
    if single:
        warnings.append(f"{len(single)} item(s) have only one annotator and are left out of every measure: "
                        + name_list(single))
    content = content or order or canonical_order
    drawn_all, members, offsets, item_ids, item_keys = [], [], [0], [], []
    degenerate, duplicates, mixed = [], [], []
    for item, by in grouped.items():
        if len(by) < 2:
            continue
        member = {}
        for annotator in sorted(by):
            drawn = [r for r in by[annotator] if r.geometry is not None]
            if order is not None:
                drawn.sort(key=order)
            if drawn and len(drawn) < len(by[annotator]):
                mixed.append(f"{item}/{annotator}")
            keys = set()
            for r in drawn:
                key = (tuple(r.geometry), r.label)
                if is_degenerate is not None and is_degenerate(r.geometry):
                    degenerate.append(r.line)
                if key in keys:
                    duplicates.append(r.line)
                keys.add(key)
            member[position[annotator]] = np.arange(len(drawn_all), len(drawn_all) + len(drawn))
            drawn_all += drawn
        members.append(member)
        item_ids.append(item)
        item_keys.append((content_key([[content(r) for r in rs if r.geometry is not None] for rs in by.values()]),
                          item))
        offsets.append(len(drawn_all))
    if degenerate:
        warnings.append(f"{len(degenerate)} " + degenerate_note.format(lines=name_list(degenerate)))
    if duplicates:
        warnings.append(f"{len(duplicates)} duplicate identical {noun} from one annotator on one item "
                        f"(lines {name_list(duplicates)})")
    if mixed:
        warnings.append(f"{len(mixed)} annotator/item pair(s) have both an empty row and {plural}; the empty "
                        f"row is ignored: " + name_list(mixed))
    item_ranks = canonical_ranks(item_keys)
    objects = ObjectSet(item_ids=item_ids, annotators=annotators, offsets=np.array(offsets, dtype=np.intp),
                        annotator_of=np.array([position[r.annotator] for r in drawn_all], dtype=np.intp),
                        labels=[r.label for r in drawn_all], members=members,
                        lines=np.array([r.line for r in drawn_all], dtype=np.intp),
                        item_ranks=item_ranks,
                        object_ranks=object_ranks(item_ranks, members, annotators, [content(r) for r in drawn_all]))
    geometry = np.array([r.geometry for r in drawn_all], dtype=float).reshape(-1, width)
    return objects, geometry, warnings



def object_ranks(item_ranks, members, annotators, keys):
    """Each object's place in content order: items by ``item_ranks``, on an item the annotators' tracks
    by their content (``keys``, one per object; the annotator's name only between equal tracks), each
    track in its own order.  Seeded samples of objects draw in this order, so that neither row order nor
    names change them (:func:`agreekit.arrays.canonical_ranks`).
    """
    places = np.empty(len(keys), dtype=np.intp)
    start = 0
    for i in np.argsort(np.asarray(item_ranks, dtype=np.intp), kind="stable").tolist():
        tracks = sorted(members[i].items(), key=lambda entry: (tuple(keys[k] for k in entry[1]), annotators[entry[0]]))
        for _, indices in tracks:
            places[indices] = np.arange(start, start + len(indices), dtype=np.intp)
            start += len(indices)
    return places


def label_codes(labels, key):
    """``(codes, keys)``: each label's code, equal exactly where ``key(label)`` is equal.

    ``keys[c]`` is the key of code ``c``, codes in order of first appearance.  Keys
    are compared as dict keys: labels are str or None, their keys str or the label.
    One dict look-up per label, so whole-corpus comparisons are integer arrays.
    """
    code_of = {}
    codes = [code_of.setdefault(key(label), len(code_of)) for label in labels]
    return np.array(codes, dtype=np.intp), list(code_of)


def labels_equal(labels, a, b, label_equal):
    """``label_equal(labels[a[k]], labels[b[k]])`` for each k, a bool array: one call per pair of distinct labels."""
    codes, distinct = label_codes(labels, lambda label: label)
    table = np.array([[bool(label_equal(p, q)) for q in distinct] for p in distinct], dtype=bool)
    return table.reshape(len(distinct), len(distinct))[codes[a], codes[b]]


DENSE_ITEM_OBJECTS = 1500  # an item with more objects never gets square matrices (1,500² doubles: 18 MB)


@dataclass(frozen=True)
class ItemLabels:
    """Label codes of the objects of one item too large for its square "same label" matrix
    (more than :data:`DENSE_ITEM_OBJECTS` objects), compared block by block (local indices)."""

    codes: np.ndarray

    def block(self, rows, cols):
        """Whether objects ``rows`` × ``cols`` carry the same label: (len(rows) × len(cols)) bool."""
        return self.codes[rows][:, None] == self.codes[cols][None, :]

    def pairs(self, rows, cols):
        """Whether ``rows[k]`` and ``cols[k]`` carry the same label, for each k."""
        return self.codes[rows] == self.codes[cols]


def item_label_equality(objects, label_key):
    """Each comparable item's object-by-object "same label" matrix (local indices); an
    :class:`ItemLabels` for an item of more than :data:`DENSE_ITEM_OBJECTS` objects."""
    codes, _ = label_codes(objects.labels, label_key)
    out = []
    for i in range(objects.n_items):
        item_codes = codes[objects.offsets[i]:objects.offsets[i + 1]]
        large = len(item_codes) > DENSE_ITEM_OBJECTS
        out.append(ItemLabels(item_codes) if large else item_codes[:, None] == item_codes[None, :])
    return out


def label_rules(potato):
    """``(key, equal)``: how labels are keyed and compared.  Potato keeps None apart from ""."""
    if potato:
        return str, (lambda a, b: a == b)
    key = (lambda label: "" if label is None else str(label))
    return key, (lambda a, b: key(a) == key(b))
