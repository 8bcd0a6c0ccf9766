"""Bounding boxes: rows in, the full agreement report out.

Rows ``item, annotator, x, y, w, h, label`` (top-left corner, width,
height), or corner form ``x1, y1, x2, y2``.  A row with item and annotator
and all geometry empty means the annotator saw the item and drew nothing; an
annotator with no row for an item never saw it.  See :mod:`agreekit.objects`
for the measures and ``docs/boxes.md`` for the deliberate differences from
Potato.
"""
from __future__ import annotations

import numpy as np

from . import bootstrap as boot
from . import geometry
from .matching import MODES
from .objects import DEFAULT_PAIR_BUDGET, ObjectKind, ObjectSet, object_report
from .report import Report
from .rows import InputError, is_blank, read_table, to_float, to_text

COLUMNS = ("item", "annotator", "x", "y", "w", "h", "label")
CORNERS = ("item", "annotator", "x1", "y1", "x2", "y2", "label")
SYNONYMS = {
    "item": ("image", "image_id", "img", "item_id", "file", "filename", "image_name"),
    "annotator": ("rater", "worker", "user", "coder", "annotator_id", "worker_id", "user_id"),
    "label": ("class", "category", "class_name", "category_name", "tag"),
    "w": ("width",),
    "h": ("height",),
    "x1": ("xmin", "left"),
    "y1": ("ymin", "top"),
    "x2": ("xmax", "right"),
    "y2": ("ymax", "bottom"),
}
DEFAULT_THRESHOLD = 0.5


def parse_boxes(rows, keep_none_labels=False):
    """Read and check box rows.

    Returns ``(records, warnings)`` where each record is ``(line, item,
    annotator, box or None, label)``; ``box`` is ``[x, y, w, h]`` and None
    means "saw the item, drew nothing".  Raises :class:`InputError` naming
    the line and column of the first bad value.
    """
    table = read_table(rows, COLUMNS, SYNONYMS, alternatives=(CORNERS,), required=("item", "annotator"))
    if not table:
        raise InputError("no rows: the input is empty")
    present = set(table[0].values)
    corner = {"x1", "y1", "x2", "y2"} <= present
    geometry_cols = ("x1", "y1", "x2", "y2") if corner else ("x", "y", "w", "h")
    missing = [c for c in geometry_cols if c not in present]
    if missing:
        raise InputError(f"missing column(s) {', '.join(missing)}: expected x, y, w, h or x1, y1, x2, y2",
                         line=1, column=missing[0])
    records = []
    for row in table:
        item = to_text(row, "item")
        annotator = to_text(row, "annotator")
        raw_label = row.values.get("label")
        if raw_label is None and keep_none_labels:
            label = None
        else:
            label = to_text(row, "label", required=False)
        blank = [is_blank(row.values.get(c)) for c in geometry_cols]
        if all(blank):
            if label:
                raise InputError("a label without a box: fill in the box, or leave the label empty "
                                 "to say the annotator drew nothing", line=row.line, column="label", value=label)
            records.append((row.line, item, annotator, None, label))
            continue
        if any(blank):
            column = geometry_cols[blank.index(True)]
            raise InputError(f"'{column}' is empty while other box fields are filled", line=row.line,
                             column=column, value="")
        a, b, c, d = (to_float(row, col) for col in geometry_cols)
        box = [a, b, c - a, d - b] if corner else [a, b, c, d]
        records.append((row.line, item, annotator, box, label))
    return records, []


def _flat_box(box):
    return box[2] <= 0 or box[3] <= 0


FLAT_BOX_NOTE = "box(es) with zero or negative width or height (lines {lines}): they match nothing and have GIoU −1"


def build_objects(records, width=4, is_degenerate=_flat_box, degenerate_note=FLAT_BOX_NOTE):
    """Group records into an :class:`ObjectSet` of the comparable items, plus warnings.

    Each record's geometry is a sequence of ``width`` numbers; ``is_degenerate``
    flags geometry that is kept but warned about with ``degenerate_note``.
    """
    warnings = []
    order, seen = [], {}
    for line, item, annotator, box, label in records:
        if item not in seen:
            seen[item] = {}
            order.append(item)
        seen[item].setdefault(annotator, []).append((line, box, label))
    annotators = sorted({r[2] for r in records})
    position = {a: k for k, a in enumerate(annotators)}
    single = [item for item in order if len(seen[item]) < 2]
    if single:
        warnings.append(f"{len(single)} item(s) have only one annotator and are left out of every measure: "
                        + ", ".join(map(str, single[:10])) + (" …" if len(single) > 10 else ""))
    boxes, labels, owner, lines, members, offsets, item_ids = [], [], [], [], [], [0], []
    degenerate, duplicates, mixed = [], [], []
    for item in order:
        if len(seen[item]) < 2:
            continue
        member = {}
        for annotator in sorted(seen[item]):
            entries = seen[item][annotator]
            drawn = [(line, box, label) for line, box, label in entries if box is not None]
            if drawn and len(drawn) < len(entries):
                mixed.append(f"{item}/{annotator}")
            start = len(boxes)
            keys = set()
            for line, box, label in drawn:
                if is_degenerate(box):
                    degenerate.append(line)
                key = (tuple(box), label)
                if key in keys:
                    duplicates.append(line)
                keys.add(key)
                boxes.append(box)
                labels.append(label)
                owner.append(position[annotator])
                lines.append(line)
            member[position[annotator]] = np.arange(start, len(boxes))
        members.append(member)
        item_ids.append(item)
        offsets.append(len(boxes))
    if degenerate:
        warnings.append(f"{len(degenerate)} " + degenerate_note.format(lines=_lines(degenerate)))
    if duplicates:
        warnings.append(f"{len(duplicates)} duplicate identical box(es) from one annotator on one item "
                        f"(lines {_lines(duplicates)})")
    if mixed:
        warnings.append(f"{len(mixed)} annotator/item pair(s) have both an empty row and boxes; the empty "
                        "row is ignored: " + ", ".join(mixed[:10]))
    objects = ObjectSet(item_ids=item_ids, annotators=annotators, offsets=np.array(offsets),
                        annotator_of=np.array(owner, dtype=int), labels=labels, members=members,
                        lines=np.array(lines, dtype=int))
    return objects, np.array(boxes, dtype=float).reshape(-1, width), warnings


def _lines(lines):
    return ", ".join(map(str, lines[:10])) + (" …" if len(lines) > 10 else "")


def box_kind(boxes, distance):
    """The :class:`ObjectKind` of boxes (n × 4) with the chosen distance."""
    return ObjectKind(
        similarity=lambda idx: geometry.iou_matrix(boxes[idx], boxes[idx]),
        paired_distance=lambda ia, ib: geometry.paired_distance(boxes[ia], boxes[ib], distance),
        distance_block=lambda rows, cols: geometry.distance_matrix(boxes[rows], boxes[cols], distance),
    )


def check_options(threshold, match, bootstrap, distance=None):
    if not 0.0 <= float(threshold) <= 1.0:
        raise InputError(f"threshold must be between 0 and 1, got {threshold}", column="threshold")
    if match not in MODES:
        raise InputError(f"match must be one of {', '.join(MODES)}, got {match!r}", column="match")
    if int(bootstrap) < 0:
        raise InputError(f"bootstrap must be ≥ 0, got {bootstrap}", column="bootstrap")
    if distance is not None and distance not in geometry.DISTANCES:
        raise InputError(f"distance must be one of {', '.join(geometry.DISTANCES)}, got {distance!r}",
                         column="distance")


def boxes(rows, *, threshold=DEFAULT_THRESHOLD, distance="giou", match="optimal",
          bootstrap=boot.DEFAULT_RESAMPLES, seed=boot.DEFAULT_SEED, pair_budget=DEFAULT_PAIR_BUDGET,
          progress=None):
    """Agreement report for bounding boxes.

    ``rows``: CSV/TSV text (header optional) or a list of dicts with
    ``item, annotator, x, y, w, h, label`` (or ``x1, y1, x2, y2``).
    ``threshold``: IoU at or above which two boxes match.  ``distance``:
    ``giou``, ``iou`` or ``centroid``, for σ and KS.  ``match``: ``optimal``
    or ``potato`` (reproduce Potato 2.8 exactly).  ``bootstrap``: resamples
    over items for the intervals (0 for none).  ``pair_budget``: the largest
    number of between-item pairs computed exactly; above it a seeded sample.
    ``progress(done, total, stage)`` is called during long work.
    """
    check_options(threshold, match, bootstrap, distance)
    potato = match == "potato"
    records, warnings = parse_boxes(rows, keep_none_labels=potato)
    objects, box_array, more = build_objects(records)
    warnings += more
    kind = box_kind(box_array, distance)
    label_key, label_equal = label_rules(potato)
    data = object_report(objects, kind, threshold=float(threshold), match_mode=match,
                         bootstrap=int(bootstrap), seed=int(seed), pair_budget=int(pair_budget),
                         progress=progress, label_equal=label_equal, label_key=label_key,
                         potato_alpha=potato)
    settings = {"threshold": float(threshold), "distance": distance, "match": match,
                "bootstrap": int(bootstrap), "seed": int(seed), "pair_budget": int(pair_budget)}
    return object_kind_report("boxes", "n_boxes", int(len(box_array)), records, objects, data, warnings, settings)


def label_rules(potato):
    """How labels are keyed and compared: Potato keeps None apart from "" (str(None) is "None")."""
    if potato:
        return str, (lambda a, b: a == b)
    key = (lambda label: "" if label is None else str(label))
    return key, (lambda a, b: key(a) == key(b))


def object_kind_report(kind, count_key, count, records, objects, data, warnings, settings):
    """The box-style report of one kind of object (boxes, polygons, cuboids) from the engine's output."""
    loc = data["localization"]
    if not loc["between_exact"]:
        warnings.append(f"the chance baseline has {loc['n_between_possible']:,} pairs, more than the budget "
                        f"{settings['pair_budget']:,}: it is a seeded sample of {loc['n_between']:,} pairs "
                        f"(standard error of the mean {loc['between_se']:.2g})")
    return Report(kind, {
        "settings": {**settings, "ci_level": boot.DEFAULT_LEVEL},
        "n_items": len(objects.item_ids),
        "n_items_total": len({r[1] for r in records}),
        "n_annotators": len({r[2] for r in records}),
        count_key: count,
        **data,
        "warnings": warnings,
    })
