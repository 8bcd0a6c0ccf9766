"""Seeded inputs for the item-view tests (CPython and browser): several annotators per item,
near-copies of the same shapes with some dropped, some extra and some relabelled, and a
hostile label. ``read_rows`` maps each input line number to its fields, independently of agreekit;
``engine_matches`` gives the pairs the report's object engine matched over the whole corpus.
"""
from __future__ import annotations

import csv
import io
import math

import numpy as np

import agreekit
from agreekit.objects import item_label_equality, item_similarities, pair_matching

HOSTILE = "<img src=x onerror=alert(1)>"
LABELS = ("car", "person", HOSTILE)
ANNOTATORS = ("ann", "bo", "<b>cy</b>")


def _objects(rng, n_items, per_item):
    """For each item and annotator, the indices of the base objects it drew (some drop, some extra)."""
    out = []
    for i in range(n_items):
        n = int(rng.integers(1, per_item + 1))
        for a, annotator in enumerate(ANNOTATORS):
            kept = [k for k in range(n) if rng.random() > 0.2] + ([n + a] if rng.random() < 0.3 else [])
            out.append((f"img{i}", annotator, kept))
    return out


def _label(rng, k):
    return LABELS[k % len(LABELS)] if rng.random() > 0.15 else LABELS[(k + 1) % len(LABELS)]


def _csv(header, rows):
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return text.getvalue()


def boxes_rows(seed=1, n_items=5, per_item=4, corners=False):
    rng = np.random.default_rng(seed)
    rows = []
    for item, annotator, kept in _objects(rng, n_items, per_item):
        for k in kept:
            x, y = 30.0 * k + rng.normal(0, 2), 20.0 + 7 * k + rng.normal(0, 2)
            w, h = 25 + rng.normal(0, 2), 18 + rng.normal(0, 2)
            geometry = [x, y, x + w, y + h] if corners else [x, y, w, h]
            rows.append([item, annotator, *map(repr, geometry), _label(rng, k)])
    header = ["item", "annotator", *(("x1", "y1", "x2", "y2") if corners else ("x", "y", "w", "h")), "label"]
    return _csv(header, rows)


def polygons_rows(seed=2, n_items=4, per_item=3):
    rng = np.random.default_rng(seed)
    rows = []
    for item, annotator, kept in _objects(rng, n_items, per_item):
        for k in kept:
            cx, cy, r = 40.0 * k + 20, 30.0 + rng.normal(0, 1), 12 + rng.normal(0, 1)
            angles = np.sort(rng.uniform(0, 2 * math.pi, 5))
            points = [v for t in angles for v in (cx + r * math.cos(t), cy + r * math.sin(t))]
            rows.append([item, annotator, " ".join(map(repr, points)), _label(rng, k)])
    return _csv(["item", "annotator", "points", "label"], rows)


def cuboids_rows(seed=3, n_items=4, per_item=3):
    rng = np.random.default_rng(seed)
    rows = []
    for item, annotator, kept in _objects(rng, n_items, per_item):
        for k in kept:
            centre = [6.0 * k + rng.normal(0, 0.2), 2 + rng.normal(0, 0.2), 1 + rng.normal(0, 0.05)]
            size = [4 + rng.normal(0, 0.1), 1.8 + rng.normal(0, 0.1), 1.5 + rng.normal(0, 0.05)]
            yaw = 0.3 * k + rng.normal(0, 0.05)
            rows.append([item, annotator, *map(repr, centre + size + [yaw]), _label(rng, k)])
    return _csv(["item", "annotator", "cx", "cy", "cz", "sx", "sy", "sz", "yaw", "label"], rows)


def segments_rows(seed=4, n_items=4, per_item=5):
    rng = np.random.default_rng(seed)
    rows = []
    for item, annotator, kept in _objects(rng, n_items, per_item):
        for k in kept:
            start = 10.0 * k + rng.normal(0, 0.3)
            rows.append([item, annotator, repr(start), repr(start + 6 + rng.normal(0, 0.3)), _label(rng, k)])
    return _csv(["item", "annotator", "start", "end", "label"], rows)


ROWS = {"boxes": boxes_rows, "polygons": polygons_rows, "cuboids": cuboids_rows, "segments": segments_rows}


def read_rows(text):
    """``{line number: {column: text}}`` of a CSV input with a header (line 1)."""
    reader = csv.reader(io.StringIO(text))
    header = next(reader)
    return {line: dict(zip(header, fields)) for line, fields in enumerate(reader, start=2)}


def expected_geometry(kind, fields):
    """The geometry an item view must show for an input row, in the input's own units."""
    number = lambda name: float(fields[name])  # noqa: E731
    if kind == "boxes":
        if "x1" in fields:
            x, y = number("x1"), number("y1")
            return {"x": x, "y": y, "w": number("x2") - x, "h": number("y2") - y}
        return {name: number(name) for name in ("x", "y", "w", "h")}
    if kind == "polygons":
        return {"points": [float(v) for v in fields["points"].split()]}
    if kind == "cuboids":
        return {name: number(name) for name in ("cx", "cy", "cz", "sx", "sy", "sz", "yaw")}
    return {"start": number("start"), "end": number("end")}


def same_geometry(kind, shown, expected, tolerance=1e-9):
    """Whether ``shown`` (numbers by name) equals ``expected`` to ``tolerance`` (yaw modulo 2π)."""
    for name, value in expected.items():
        got = shown[name]
        if isinstance(value, list):
            if len(got) != len(value) or any(abs(g - v) > tolerance * max(1, abs(v)) for g, v in zip(got, value)):
                return False
            continue
        if name == "yaw":
            got = value + math.remainder(got - value, 2 * math.pi)
        if abs(got - value) > tolerance * max(1, abs(value)):
            return False
    return True


def engine_matches(kind, rows):
    """{item: {(line_a, line_b, similarity)}}: the pairs the report's own object engine matched."""
    setup = agreekit.KINDS[kind].item_detail.setup(rows)
    setup = getattr(setup, "shapes", setup)  # segments: its objects beside the sweep's corpus
    objects = setup.objects
    kind_ = type("Kind", (), {"similarity": staticmethod(setup.similarity)})
    sims = item_similarities(objects, kind_)
    records = pair_matching(objects, sims, setup.threshold, setup.mode, item_label_equality(objects, setup.label_key))
    out = {}
    for r in records:
        for p, q, s in zip(r.matched_a, r.matched_b, r.similarity):
            out.setdefault(objects.item_ids[r.item], set()).add((int(objects.lines[p]), int(objects.lines[q]), float(s)))
    return out


def big_item_rows(n_boxes=500, seed=5):
    """One image with ``n_boxes`` boxes by each of three annotators (jittered copies), and a small second image."""
    rng = np.random.default_rng(seed)
    side = int(math.ceil(math.sqrt(n_boxes)))
    rows = []
    for annotator in ANNOTATORS:
        for k in range(n_boxes):
            x, y = 40.0 * (k % side) + rng.normal(0, 1), 40.0 * (k // side) + rng.normal(0, 1)
            rows.append(["big", annotator, repr(x), repr(y), repr(30 + rng.normal(0, 1)), repr(30 + rng.normal(0, 1)),
                         LABELS[k % 2]])
        rows.append(["small", annotator, "1", "1", repr(10 + rng.normal(0, 0.5)), "10", "car"])
    return _csv(["item", "annotator", "x", "y", "w", "h", "label"], rows)


def traces_rows(seed=6, n_traces=5, n_steps=8):
    """Traces labelled by three annotators, most steps agreed, some disputed."""
    rng = np.random.default_rng(seed)
    rows = []
    for t in range(n_traces):
        for step in range(n_steps):
            truth = LABELS[int(rng.integers(0, len(LABELS)))]
            for annotator in ANNOTATORS:
                if rng.random() < 0.1:
                    continue
                label = truth if rng.random() > 0.2 * t / n_traces + 0.05 else LABELS[int(rng.integers(0, len(LABELS)))]
                rows.append([f"trace{t}", step, annotator, label])
    return _csv(["trace", "step", "annotator", "label"], rows)


def spans_rows(seed=7, n_items=4):
    """(rows, lengths): spans over short texts by three annotators, and the texts as ``item,text`` rows."""
    rng = np.random.default_rng(seed)
    rows, texts = [], []
    for i in range(n_items):
        text = " ".join(f"w{k}{'x' * int(rng.integers(1, 6))}" for k in range(14))
        texts.append([f"doc{i}", text])
        bases = sorted(int(v) for v in rng.choice(len(text) - 12, size=4, replace=False))
        for annotator in ANNOTATORS:
            for k, start in enumerate(bases):
                if rng.random() < 0.2:
                    continue
                shift = int(rng.integers(-1, 2)) if rng.random() < 0.4 else 0
                rows.append([f"doc{i}", annotator, max(0, start + shift), start + 5 + int(rng.integers(0, 2)), _label(rng, k)])
    return _csv(["item", "annotator", "start", "end", "label"], rows), _csv(["item", "text"], texts)
