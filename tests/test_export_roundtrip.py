"""Exporters: rows → a tool's format → agreekit's importer → the same rows.

Every writer of :mod:`agreekit.formats.writers` is checked against the importer
of its format (:func:`agreekit.convert`): the same items, annotators, labels
and "saw it, marked nothing" rows, and the same geometry to float tolerance,
on hypothesis-generated rows; the bytes written do not depend on the order of
the rows.  What a format cannot carry is refused with its reason (or noted).
"""
import io
import json
import math
import random
import zipfile

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agreekit
from agreekit.cli import main
from agreekit.formats import convert
from agreekit.formats.writers import WRITERS, write, writer_options
from agreekit.geometry.rle import encode
from agreekit.rows import InputError

SIZE = (200, 100)
ITEMS = ("img_0.jpg", "img_1.png", "img_2.jpg")
CLIPS = ("clip_0", "clip_1", "clip_2")
ANNOTATORS = ("al", "bo", "cy", "ann 4")
LABELS = ("dog", "cat", "bird")
GEOMETRY = {"boxes": ("x", "y", "w", "h"), "polygons": ("points",), "masks": ("width", "height", "rle"),
            "spans": ("start", "end"), "segments": ("start", "end")}


# ----------------------------------------------------------------- comparing rows

def _geometry(kind, row):
    values = [row.get(c) for c in GEOMETRY[kind]]
    if kind == "masks":
        if row.get("rle") in (None, ""):
            return None
        return (int(row["width"]), int(row["height"]), tuple(decode_runs(row["rle"], row["height"], row["width"])))
    if all(v in (None, "") for v in values):
        return None
    if kind == "polygons":
        points = row["points"]
        flat = [float(v) for v in points.replace(",", " ").replace(";", " ").split()] if isinstance(points, str) \
            else [float(v) for pair in points for v in pair]
        return tuple(zip(flat[0::2], flat[1::2]))
    return tuple(float(v) for v in values)


def decode_runs(rle, height, width):
    from agreekit.parse.rle import parse_rle
    return parse_rle(rle, int(height), int(width)).tolist()


def canonical(kind, rows):
    """Rows as sorted ``(item, annotator, label, geometry)`` tuples (geometry rounded for the sort only)."""
    out = [(str(r["item"]), str(r["annotator"]), r.get("label") or None, _geometry(kind, r)) for r in rows]
    return sorted(out, key=lambda t: (t[0], t[1], t[3] is not None, repr(_rounded(t[3])), t[2] or ""))


def _rounded(value):
    if isinstance(value, tuple):
        return tuple(_rounded(v) for v in value)
    return round(value, 6) if isinstance(value, float) else value


def _close(a, b):
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    return a == b


def assert_same_rows(kind, got, expected):
    got, expected = canonical(kind, got), canonical(kind, expected)
    assert [t[:3] for t in got] == [t[:3] for t in expected]
    for g, e in zip(got, expected):
        assert _close(g[3], e[3]), (g, e)


def read_back(written, kind, **options):
    """The rows the importer of the written format reads from the written files (a zip when several)."""
    content = written.content
    data = content if isinstance(content, bytes) else content.encode("utf-8")
    name = written.filename
    conversion = convert((name, data), format=WRITERS[written.format].reader, kind=kind,
                         **{**written.read_options, **options})
    return conversion


# ----------------------------------------------------------------- generated rows

def _tracks(draw, items, annotators, objects):
    """Rows: some (item, annotator) pairs, each with 0 (saw nothing) to 3 objects drawn by ``objects``."""
    pairs = draw(st.lists(st.tuples(st.sampled_from(items), st.sampled_from(annotators)), min_size=1, max_size=7,
                          unique=True))
    rows = []
    for item, annotator in pairs:
        drawn = draw(objects(item))
        rows += [{"item": item, "annotator": annotator, **o} for o in drawn] or [{"item": item,
                                                                                    "annotator": annotator}]
    return rows


def _blank(kind, row):
    return {**dict.fromkeys((*GEOMETRY[kind], "label")), **row}


coordinate = st.integers(0, 15000).map(lambda v: v / 100)
extent = st.integers(1, 4000).map(lambda v: v / 100)


@st.composite
def box_rows(draw, labels=LABELS + (None,)):
    def objects(item):
        box = st.fixed_dictionaries({"x": coordinate, "y": coordinate.map(lambda v: v / 2), "w": extent,
                                     "h": extent, "label": st.sampled_from(labels)})
        return st.lists(box, max_size=3)
    return [_blank("boxes", r) for r in _tracks(draw, ITEMS, ANNOTATORS, objects)]


@st.composite
def polygon_rows(draw, labels=LABELS + (None,)):
    def polygon(values):
        x, y, a, b, kind = values
        points = [(x, y), (x + a, y), (x, y + b)] if kind == 0 else [(x, y), (x + a, y), (x + a, y + b), (x, y + b)]
        return " ".join(f"{v!r}" for p in points for v in p)

    def objects(item):
        shape = st.tuples(coordinate, coordinate.map(lambda v: v / 2), extent, extent, st.integers(0, 1))
        one = st.fixed_dictionaries({"points": shape.map(polygon), "label": st.sampled_from(labels)})
        return st.lists(one, max_size=3)
    return [_blank("polygons", r) for r in _tracks(draw, ITEMS, ANNOTATORS, objects)]


@st.composite
def mask_rows(draw):
    sizes = {item: (3 + k, 4 + k) for k, item in enumerate(ITEMS)}

    def objects(item):
        width, height = sizes[item]
        pixels = st.lists(st.booleans(), min_size=width * height, max_size=width * height)
        one = st.fixed_dictionaries({"rle": pixels.map(lambda p: " ".join(
            str(v) for v in encode(np.array(p, dtype=bool).reshape(height, width)).tolist())),
            "label": st.sampled_from(LABELS + (None,))})
        return st.lists(one, max_size=2)
    rows = _tracks(draw, ITEMS, ANNOTATORS, objects)
    return [{**_blank("masks", r), "width": sizes[r["item"]][0], "height": sizes[r["item"]][1]} for r in rows]


TEXT = st.text(st.sampled_from("ab cé\n\t😀Z."), min_size=3, max_size=30).map(lambda t: "x " + t)


@st.composite
def span_rows(draw, labels=LABELS):
    texts = {item: draw(TEXT) for item in CLIPS}

    def objects(item):
        n = len(texts[item])
        span = st.tuples(st.integers(0, n - 1), st.integers(1, n)).filter(lambda p: p[0] < p[1])
        return st.lists(span.flatmap(lambda p: st.fixed_dictionaries({
            "start": st.just(p[0]), "end": st.just(p[1]), "label": st.sampled_from(labels)})), max_size=3)
    rows = [_blank("spans", r) for r in _tracks(draw, CLIPS, ANNOTATORS, objects)]
    return rows, {item: text for item, text in texts.items() if any(r["item"] == item for r in rows)}


@st.composite
def segment_rows(draw, labels=LABELS):
    """Segments that do not overlap within one annotator's track (TextGrid's tiers need that)."""
    def objects(item):
        steps = st.lists(st.tuples(st.integers(0, 300), st.integers(1, 300), st.sampled_from(labels)), max_size=3)

        def laid_out(found):
            at, out = 0, []
            for gap, length, label in found:
                out.append({"start": (at + gap) / 100, "end": (at + gap + length) / 100, "label": label})
                at += gap + length
            return out
        return steps.map(laid_out)
    return [_blank("segments", r) for r in _tracks(draw, CLIPS, ANNOTATORS, objects)]


SIZES = {item: SIZE for item in ITEMS}
PROFILE = settings(max_examples=15, deadline=None)


# ----------------------------------------------------------------- round trips

@PROFILE
@given(rows=box_rows())
def test_boxes_round_trip_coco_and_labelstudio(rows):
    for format in ("coco", "labelstudio"):
        written = write("boxes", rows, format, image_sizes=SIZES)
        assert_same_rows("boxes", read_back(written, "boxes").rows, rows)


@PROFILE
@given(rows=box_rows(labels=LABELS))
def test_boxes_round_trip_cvat(rows):
    assert_same_rows("boxes", read_back(write("boxes", rows, "cvat"), "boxes").rows, rows)


@PROFILE
@given(rows=polygon_rows())
def test_polygons_round_trip_coco_and_labelstudio(rows):
    for format in ("coco", "labelstudio"):
        written = write("polygons", rows, format, image_sizes=SIZES)
        assert_same_rows("polygons", read_back(written, "polygons").rows, rows)


@PROFILE
@given(rows=polygon_rows(labels=LABELS))
def test_polygons_round_trip_cvat(rows):
    assert_same_rows("polygons", read_back(write("polygons", rows, "cvat"), "polygons").rows, rows)


@PROFILE
@given(rows=mask_rows())
def test_masks_round_trip_coco(rows):
    assert_same_rows("masks", read_back(write("masks", rows, "coco"), "masks").rows, rows)


@PROFILE
@given(case=span_rows())
def test_spans_round_trip_brat_and_labelstudio(case):
    rows, texts = case
    for format in ("brat", "labelstudio"):
        conversion = read_back(write("spans", rows, format, texts=texts), "spans")
        assert_same_rows("spans", conversion.rows, rows)
        assert conversion.lengths == texts


@PROFILE
@given(rows=segment_rows())
def test_segments_round_trip_textgrid_and_labelstudio(rows):
    for format in ("textgrid", "labelstudio"):
        assert_same_rows("segments", read_back(write("segments", rows, format), "segments").rows, rows)


@PROFILE
@given(rows=segment_rows())
def test_segments_round_trip_rttm(rows):
    """RTTM cannot say "heard no speech": saw-nothing rows come back only when the recordings option restores
    them (every annotator went through every item), and an annotator with no turn at all is left out."""
    written = write("segments", rows, "rttm")
    back = read_back(written, "segments").rows
    if "recordings" in written.read_options:
        assert_same_rows("segments", back, rows)
    else:
        assert_same_rows("segments", back, [r for r in rows if r["start"] is not None])
        assert any("saw-nothing" in note for note in written.notes) == any(r["start"] is None for r in rows)


@PROFILE
@given(rows=st.one_of(box_rows().map(lambda r: ("boxes", r)), polygon_rows().map(lambda r: ("polygons", r)),
                      mask_rows().map(lambda r: ("masks", r)), segment_rows().map(lambda r: ("segments", r))))
def test_csv_round_trip(rows):
    kind, rows = rows
    text = write(kind, rows, "csv").content
    assert_same_rows(kind, _csv_rows(text), rows)


def _csv_rows(text):
    import csv
    return [{k: (v if v != "" else None) for k, v in row.items()} for row in csv.DictReader(io.StringIO(text))]


# ----------------------------------------------------------------- determinism

CASES = [("boxes", box_rows(labels=LABELS), ("coco", "labelstudio", "cvat", "csv"), {"image_sizes": SIZES}),
         ("polygons", polygon_rows(labels=LABELS), ("coco", "labelstudio", "cvat", "csv"), {"image_sizes": SIZES}),
         ("segments", segment_rows(), ("rttm", "textgrid", "labelstudio", "csv"), {})]


@pytest.mark.parametrize("kind, rows_strategy, formats, options", CASES, ids=[c[0] for c in CASES])
def test_output_does_not_depend_on_row_order(kind, rows_strategy, formats, options):
    @settings(max_examples=10, deadline=None)
    @given(rows=rows_strategy, seed=st.integers(0, 2 ** 16))
    def check(rows, seed):
        shuffled = list(rows)
        random.Random(seed).shuffle(shuffled)
        for format in formats:
            taken = {k: v for k, v in options.items() if k in writer_options(WRITERS[format])}
            first = write(kind, rows, format, **taken)
            assert write(kind, shuffled, format, **taken).files == first.files
            assert write(kind, rows, format, **taken).content == first.content  # the zip's bytes too
    check()


@PROFILE
@given(case=span_rows())
def test_span_output_does_not_depend_on_row_order(case):
    rows, texts = case
    for format in ("brat", "labelstudio", "csv"):
        options = {} if format == "csv" else {"texts": texts}
        assert write("spans", rows[::-1], format, **options).content == write("spans", rows, format,
                                                                               **options).content
