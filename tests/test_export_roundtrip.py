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
def mask_rows(draw, labels=LABELS + (None,)):
    sizes = {item: (3 + k, 4 + k) for k, item in enumerate(ITEMS)}

    def objects(item):
        width, height = sizes[item]
        pixels = st.lists(st.booleans(), min_size=width * height, max_size=width * height)
        one = st.fixed_dictionaries({"rle": pixels.map(lambda p: " ".join(
            str(v) for v in encode(np.array(p, dtype=bool).reshape(height, width)).tolist())),
            "label": st.sampled_from(labels)})
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
@given(rows=mask_rows())
def test_masks_round_trip_labelstudio(rows):
    """Brush regions carry their image's size; an image with only empty masks has none, so its saw-nothing rows
    are left out by the importer (noted)."""
    written = write("masks", rows, "labelstudio")
    drawn = {r["item"] for r in rows if r["rle"] is not None}
    expected = [r for r in rows if r["item"] in drawn]
    if expected:
        assert_same_rows("masks", read_back(written, "masks").rows, expected)
    assert bool(written.notes) == (len(expected) < len(rows))


def _has_pixel(row):
    return row["rle"] is None or any(int(v) for v in row["rle"].split()[1::2])


@PROFILE
@given(rows=mask_rows(labels=LABELS))
def test_masks_round_trip_cvat(rows):
    """A mask without a pixel is no CVAT shape: left out (noted), and the item then reads as seen, empty."""
    written = write("masks", rows, "cvat")
    back = read_back(written, "masks").rows
    kept = [r for r in rows if _has_pixel(r)]
    emptied = {(r["item"], r["annotator"]) for r in rows} - {(r["item"], r["annotator"]) for r in kept}
    expected = kept + [{"item": i, "annotator": a, "width": None, "height": None, "rle": None, "label": None}
                       for i, a in emptied]
    assert_same_rows("masks", back, expected)
    assert bool(written.notes) == (len(kept) < len(rows))


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
    if "recordings" not in written.read_options and all(r["start"] is None for r in rows):
        with pytest.raises(InputError, match="hold no segments"):
            read_back(written, "segments")
        return
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


# ----------------------------------------------------------------- hand-checked files and refusals

BOXES = [{"item": "img_0.jpg", "annotator": "al", "x": 20, "y": 10, "w": 50, "h": 30, "label": "dog"},
         {"item": "img_0.jpg", "annotator": "bo", "x1": 22, "y1": 10, "x2": 72, "y2": 40, "label": "dog"}]


def test_coco_file_by_hand():
    """Image ids in item order, category ids in label order, rater_id and rater_list; corner rows converted."""
    rows = [{"item": "b.jpg", "annotator": "bo", "x": 1, "y": 2, "w": 3, "h": 4, "label": "dog"},
            {"item": "a.jpg", "annotator": "al", "x": 0.5, "y": 0, "w": 2, "h": 2, "label": "cat"},
            {"item": "a.jpg", "annotator": "bo", "x": None, "y": None, "w": None, "h": None, "label": None}]
    document = json.loads(write("boxes", rows, "coco", image_sizes="item,width,height\na.jpg,10,20\n"
                                                                   "b.jpg,30,40\n").content)
    assert document["images"] == [
        {"id": 1, "file_name": "a.jpg", "width": 10, "height": 20, "rater_list": ["al", "bo"]},
        {"id": 2, "file_name": "b.jpg", "width": 30, "height": 40, "rater_list": ["bo"]}]
    assert document["categories"] == [{"id": 1, "name": "cat"}, {"id": 2, "name": "dog"}]
    assert document["annotations"] == [
        {"id": 1, "image_id": 1, "category_id": 1, "rater_id": "al", "iscrowd": 0, "bbox": [0.5, 0.0, 2.0, 2.0],
         "area": 4.0},
        {"id": 2, "image_id": 2, "category_id": 2, "rater_id": "bo", "iscrowd": 0, "bbox": [1.0, 2.0, 3.0, 4.0],
         "area": 12.0}]


def test_coco_mask_area_and_extent():
    # a 3 × 4 image (width 3, height 4), column-major runs: 5 background, 2 foreground (rows 1-2 of column 1), 5
    rows = [{"item": "m.png", "annotator": "al", "width": 3, "height": 4, "rle": "5 2 5", "label": "cell"}]
    annotation = json.loads(write("masks", rows, "coco").content)["annotations"][0]
    assert annotation["segmentation"] == {"size": [4, 3], "counts": [5, 2, 5]}
    assert annotation["area"] == 2
    assert annotation["bbox"] == [1, 1, 1, 2]


def test_labelstudio_percent_and_utf16_offsets_by_hand():
    task = json.loads(write("boxes", BOXES[:1], "labelstudio", image_sizes={"img_0.jpg": (200, 100)},
                            url_prefix="/data/local-files/?d=").content)[0]
    assert task["data"] == {"image": "/data/local-files/?d=img_0.jpg"}
    foldered = write("boxes", [{**BOXES[0], "item": "train/img_0.jpg"}], "labelstudio",
                     image_sizes={"train/img_0.jpg": (200, 100)})
    assert json.loads(foldered.content)[0]["meta"] == {"item": "train/img_0.jpg"}
    assert read_back(foldered, "boxes").rows[0]["item"] == "train/img_0.jpg"  # meta.item, not the file name
    prediction = task["predictions"][0]
    assert prediction["model_version"] == "al"
    assert prediction["result"][0]["value"] == {"x": 10.0, "y": 10.0, "width": 25.0, "height": 30.0, "rotation": 0,
                                                "rectanglelabels": ["dog"]}
    text = "😀 Bob"
    spans = [{"item": "t", "annotator": "al", "start": 2, "end": 5, "label": "PER"}]
    value = json.loads(write("spans", spans, "labelstudio", texts={"t": text}).content)[0]["predictions"][0][
        "result"][0]["value"]
    assert value == {"start": 3, "end": 6, "text": "Bob", "labels": ["PER"]}  # the emoji is two UTF-16 units


def test_cvat_names_the_annotator_in_the_job():
    written = write("boxes", BOXES, "cvat")
    assert [name for name, _ in written.files] == ["al.xml", "bo.xml"]
    assert b"<username>bo</username>" in written.files[1][1]
    assert b'xtl="22" ytl="10" xbr="72" ybr="40"' in written.files[1][1]
    renamed = convert([("job1.xml", written.files[0][1]), ("job2.xml", written.files[1][1])])
    assert sorted({r["annotator"] for r in renamed.rows}) == ["al", "bo"]  # the assignee, not the file name
    odd = [{**BOXES[0], "annotator": "a/b"}, {**BOXES[0], "annotator": "a:b"}, {**BOXES[0], "annotator": ".x"}]
    written = write("boxes", odd, "cvat")
    assert [name for name, _ in written.files] == ["_x.xml", "a_b.xml", "a_b-2.xml"]
    assert sorted({r["annotator"] for r in read_back(written, "boxes").rows}) == [".x", "a/b", "a:b"]


def test_textgrid_fills_gaps_and_takes_durations():
    rows = [{"item": "c", "annotator": "al", "start": 1, "end": 2, "label": "a"}]
    text = write("segments", rows, "textgrid", durations={"c": 5}).content
    assert "intervals: size = 3" in text and "xmax = 5" in text
    assert read_back(write("segments", rows, "textgrid", durations={"c": 5}), "segments").durations == {"c": 5.0}


def test_brat_layout_by_hand():
    rows = [{"item": "news/d1", "annotator": "al", "start": 0, "end": 9, "label": "PER"}]
    written = write("spans", rows, "brat", texts={"news/d1": "Ann\nSmith met"})
    files = dict(written.files)
    assert sorted(files) == ["al/news/d1.ann", "al/news/d1.txt", "annotation.conf"]
    assert files["al/news/d1.ann"] == "T1\tPER 0 9\tAnn Smith\n".encode()
    assert isinstance(written.content, bytes) and zipfile.is_zipfile(io.BytesIO(written.content))


REFUSALS = [
    ("boxes", BOXES, "coco", {}, "option image_sizes"),
    ("boxes", BOXES, "labelstudio", {}, "option image_sizes"),
    ("spans", [{"item": "t", "annotator": "al", "start": 0, "end": 1, "label": "X"}], "brat", {}, "option texts"),
    ("spans", [{"item": "t", "annotator": "al", "start": 0, "end": 1, "label": "X"}], "labelstudio", {},
     "option texts"),
    ("spans", [{"item": "t", "annotator": "al", "start": 0, "end": 9, "label": "X"}], "brat", {"texts": {"t": "ab"}},
     "ends past its text"),
    ("spans", [{"item": "t", "annotator": "al", "start": 0, "end": 1, "label": "two words"}], "brat",
     {"texts": {"t": "ab"}}, "must be one word"),
    ("segments", [{"item": "c", "annotator": "al", "start": 0, "end": 2, "label": "a"},
                  {"item": "c", "annotator": "al", "start": 1, "end": 3, "label": "b"}], "textgrid", {},
     "overlapping segments"),
    ("segments", [{"item": "c", "annotator": "al", "start": 0, "end": 2, "label": None}], "textgrid", {},
     "needs a label"),
    ("segments", [{"item": "c d", "annotator": "al", "start": 0, "end": 2, "label": "a"}], "rttm", {},
     "must be one word"),
    ("segments", [{"item": "c", "annotator": "a/b", "start": 0, "end": 2, "label": "a"}], "rttm", {},
     "cannot be a file name"),
    ("boxes", [{**BOXES[0], "label": None}], "cvat", {}, "requires a label"),
    ("spans", [{"item": "t", "annotator": ".al", "start": 0, "end": 1, "label": "X"}], "brat",
     {"texts": {"t": "ab"}}, "starts with a dot"),
    ("segments", [{"item": "a/b", "annotator": "al", "start": 0, "end": 2, "label": "a"}], "textgrid", {},
     "cannot be a file name"),
    ("masks", [{"item": "m", "annotator": "al", "width": 2, "height": 2, "rle": "4", "label": None}], "rttm", {},
     "holds segments, not masks"),
    ("boxes", BOXES, "coco", {"colour": "red"}, "unknown option 'colour'"),
    ("boxes", BOXES, "pdf", {}, "unknown export format"),
    ("boxes", [{"item": "a", "annotator": "al", "x": 1, "y": 1, "w": None, "h": 1, "label": "dog"}], "csv", {},
     "'w' is empty"),
    ("boxes", [{"item": "a", "annotator": "al", "x": 1, "y": 1, "w": -2, "h": 1, "label": "dog"}], "csv", {},
     "'w' must not be negative"),
    ("polygons", [{"item": "a", "annotator": "al", "points": "0 0 2 2 2 0 0 2", "label": "dog"}], "coco",
     {"image_sizes": {"a": (9, 9)}}, "self-intersect|not simple|crosses"),
]


@pytest.mark.parametrize("kind, rows, format, options, message", REFUSALS,
                         ids=[f"{r[2]}-{r[4][:20]}" for r in REFUSALS])
def test_what_a_format_cannot_carry_is_refused(kind, rows, format, options, message):
    with pytest.raises(InputError, match=message):
        write(kind, rows, format, **options)


# ----------------------------------------------------------------- Label Studio predictions, read

LS_TASK = {"id": 5, "data": {"image": "/data/upload/1/abcdef12-img.jpg"},
           "annotations": [{"completed_by": 3, "result": [
               {"id": "h", "type": "rectanglelabels", "original_width": 100, "original_height": 100,
                "value": {"x": 10, "y": 10, "width": 10, "height": 10, "rectanglelabels": ["dog"]}}]}],
           "predictions": [{"model_version": "yolo-v8", "result": [
               {"id": "p", "type": "rectanglelabels", "original_width": 100, "original_height": 100,
                "value": {"x": 11, "y": 10, "width": 10, "height": 10, "rectanglelabels": ["dog"]}}]},
               {"result": []}]}


def _ls(tasks, **options):
    return convert(("tasks.json", json.dumps(tasks).encode()), **options)


def test_predictions_are_left_out_beside_annotations_by_default():
    c = _ls([LS_TASK])
    assert {r["annotator"] for r in c.rows} == {"3"}
    assert any("2 prediction(s) (model output) are ignored" in w and "predictions='read'" in w for w in c.warnings)


def test_predictions_read_as_annotators_named_after_the_model_version():
    c = _ls([LS_TASK], predictions="read")
    assert sorted((r["annotator"], r["x"]) for r in c.rows) == [("3", 10), ("prediction", None), ("yolo-v8", 11)]
    assert any(w.startswith("2 prediction(s) are read as annotators") for w in c.warnings)


def test_prediction_only_files_are_read_by_default_and_ignored_on_request():
    task = {k: v for k, v in LS_TASK.items() if k != "annotations"}
    assert sorted(r["annotator"] for r in _ls([task]).rows) == ["prediction", "yolo-v8"]
    with pytest.raises(InputError, match="no boxes annotations"):
        _ls([task], predictions="ignore", kind="boxes")
    with pytest.raises(InputError, match="option predictions must be one of"):
        _ls([task], predictions="maybe")


# ----------------------------------------------------------------- the adjudication list

def test_adjudication_list_orders_items_by_need():
    C = agreekit.ItemConflict
    conflicts = [C("b", "missing", ("x", "gold")), C("a", "wrong label", ("gold", "y"), 0.5, "dog → cat"),
                 C("b", "extra", ("y",)), C("c", "low overlap", ("x", "gold"), 2.5, "IoU 0.2"),
                 C("d e", "extra", ("x",))]
    text = agreekit.adjudication_csv(conflicts, link="https://page/#item={item}")
    assert text.splitlines() == [
        "rank,item,item_weight,item_conflicts,conflict,annotators,weight,detail,link",
        "1,c,2.5,1,low overlap,gold; x,2.5,IoU 0.2,https://page/#item=c",
        "2,b,2,2,extra,y,1,,https://page/#item=b",
        "2,b,2,2,missing,gold; x,1,,https://page/#item=b",
        "3,d e,1,1,extra,x,1,,https://page/#item=d%20e",
        "4,a,0.5,1,wrong label,gold; y,0.5,dog → cat,https://page/#item=a"]
    assert agreekit.adjudication_csv(conflicts[::-1], link="https://page/#item={item}") == text
    assert agreekit.adjudication_csv(conflicts).splitlines()[1].endswith("IoU 0.2,")


def test_adjudication_list_refuses_bad_records():
    with pytest.raises(InputError, match="weight must be a number"):
        agreekit.ItemConflict("a", "extra", ("x",), weight=-1)
    with pytest.raises(InputError, match="must hold"):
        agreekit.adjudication_csv([agreekit.ItemConflict("a", "extra")], link="https://page/")


# ----------------------------------------------------------------- API and command line

def test_api_returns_text_or_a_zip():
    assert agreekit.export("boxes", BOXES, "csv").startswith("item,annotator,x,y,w,h,label\n")
    assert isinstance(agreekit.export("boxes", BOXES, "cvat"), bytes)
    assert isinstance(agreekit.export("boxes", BOXES[:1], "cvat"), str)


def test_cli_export(tmp_path, capsys):
    rows = tmp_path / "rows.csv"
    rows.write_text("item,annotator,start,end,label\nc1,al,0.5,1.5,sp\nc1,bo,0.6,1.5,sp\n")
    assert main(["export", "segments", str(rows), "--to", "rttm"]) == 2
    assert "give the zip's name with -o" in capsys.readouterr().err
    out = tmp_path / "out.zip"
    assert main(["export", "segments", str(rows), "--to", "rttm", "-o", str(out)]) == 0
    assert main(["convert", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == ["c1,al,0.5,1.5,sp", "c1,bo,0.6,1.5,sp"]
    assert main(["export", "segments", str(rows), "--to", "textgrid", "--durations", str(_write(
        tmp_path / "d.csv", "item,duration\nc1,9\n"))]) == 0
    assert "xmax = 9" in capsys.readouterr().out


def test_cli_export_carries_span_texts_from_an_import(tmp_path, capsys):
    rows = [{"item": "d", "annotator": "al", "start": 0, "end": 3, "label": "PER"},
            {"item": "d", "annotator": "bo", "start": 4, "end": 7, "label": "PER"}]
    brat = tmp_path / "brat.zip"
    brat.write_bytes(agreekit.export("spans", rows, "brat", texts={"d": "Ann met Bob"}))
    assert main(["export", "spans", str(brat), "--to", "labelstudio"]) == 0
    tasks = json.loads(capsys.readouterr().out)
    assert tasks[0]["data"] == {"text": "Ann met Bob"}


def _write(path, text):
    path.write_text(text)
    return path


ODD_NAMES = ['O"Brien & <co>', "ann, 2", "Zoë 😀", "tab\there"]


@pytest.mark.parametrize("format", ["coco", "labelstudio", "cvat", "csv"])
def test_names_with_quotes_commas_and_markup_survive(format):
    """Escaping: XML (CVAT), JSON (COCO, Label Studio) and CSV quoting give every name back as it was."""
    rows = [{"item": f"img {k}, v2.jpg", "annotator": name, "x": 1, "y": 2, "w": 3, "h": 4,
             "label": f'say "hi" & <{k}>'} for k, name in enumerate(ODD_NAMES[:3])]
    if format == "csv":
        assert_same_rows("boxes", _csv_rows(write("boxes", rows, "csv").content), rows)
        return
    written = write("boxes", rows, format, image_sizes={r["item"]: SIZE for r in rows})
    assert_same_rows("boxes", read_back(written, "boxes").rows, rows)


def test_segment_labels_with_quotes_survive_textgrid():
    rows = [{"item": "clip", "annotator": name, "start": 0.5, "end": 1, "label": 'a "quoted" label'}
            for name in ODD_NAMES[:3]]
    assert_same_rows("segments", read_back(write("segments", rows, "textgrid"), "segments").rows, rows)


# ----------------------------------------------------------------- the labels kind as Label Studio choices

@st.composite
def label_rows(draw):
    """Long label rows; an annotator may give one item several labels (a label set)."""
    pairs = draw(st.lists(st.tuples(st.sampled_from(CLIPS), st.sampled_from(ANNOTATORS)), min_size=1, max_size=8,
                          unique=True))
    return [{"item": item, "annotator": annotator, "label": label} for item, annotator in pairs
            for label in draw(st.sets(st.sampled_from(LABELS), min_size=1, max_size=2))]


@PROFILE
@given(rows=label_rows())
def test_labels_round_trip_labelstudio(rows):
    back = read_back(write("labels", rows, "labelstudio"), "labels").rows
    assert sorted(map(lambda r: (r["item"], r["annotator"], r["label"]), back)) == \
        sorted((r["item"], r["annotator"], r["label"]) for r in rows)


def test_labelstudio_choices_read_as_labels():
    tasks = [{"id": 1, "data": {"text": "good film"}, "annotations": [
        {"completed_by": 1, "result": [{"type": "choices", "from_name": "s", "to_name": "text",
                                        "value": {"choices": ["pos"]}},
                                       {"type": "labels", "from_name": "ner", "to_name": "text",
                                        "value": {"start": 0, "end": 4, "text": "good", "labels": ["X"]}}]},
        {"completed_by": 2, "result": [{"type": "choices", "from_name": "s", "to_name": "text",
                                        "value": {"choices": ["pos", "neg"]}}]},
        {"completed_by": 3, "result": []}]}]
    c = _ls(tasks, kind="labels")
    assert sorted((r["item"], r["annotator"], r["label"]) for r in c.rows) == [
        ("1", "1", "pos"), ("1", "2", "neg"), ("1", "2", "pos")]  # annotator 3 answered nothing: not rated
    assert c.summary()["also_holds"] == ["the files also hold 1 region(s) of kind spans: convert with --kind spans"]
    tasks[0]["annotations"][0]["result"] += [  # a region with its own choice: the region's, not the task's
        {"id": "r", "type": "rectanglelabels", "value": {"x": 1, "y": 1, "width": 1, "height": 1}},
        {"id": "r", "type": "choices", "from_name": "s", "to_name": "text", "value": {"choices": ["neg"]}}]
    assert sorted(r["label"] for r in _ls(tasks, kind="labels").rows if r["annotator"] == "1") == ["pos"]
    tasks[0]["annotations"][1]["result"].append({"type": "rating", "from_name": "stars", "to_name": "text",
                                                 "value": {"rating": 4}})
    with pytest.raises(InputError, match=r"2 questions: 's' \(2 answers\), 'stars' \(1 answer\)"):
        _ls(tasks, kind="labels")  # each control tag is a question of its own: one is chosen
    assert [(r["item"], r["label"]) for r in _ls(tasks, kind="labels", question="stars").rows] == [("1", "4")]


# ----------------------------------------------------------------- COCO as pycocotools reads it

@settings(max_examples=15, deadline=None)
@given(rows=mask_rows())
def test_coco_masks_as_pycocotools_reads_them(rows, tmp_path_factory):
    """pycocotools loads the file; each mask's pixels, area and bbox are pycocotools' own of the same runs."""
    coco_module = pytest.importorskip("pycocotools.coco")
    mask_utils = pytest.importorskip("pycocotools.mask")
    path = tmp_path_factory.mktemp("coco") / "masks.json"
    path.write_text(write("masks", rows, "coco").content)
    coco = coco_module.COCO(str(path))
    drawn = [r for r in rows if r["rle"] is not None]
    assert len(coco.getAnnIds()) == len(drawn)
    for annotation in coco.loadAnns(coco.getAnnIds()):
        compressed = coco.annToRLE(annotation)
        pixels = coco.annToMask(annotation).astype(bool)
        assert annotation["area"] == int(mask_utils.area(compressed)) == int(pixels.sum())
        if pixels.any():
            assert annotation["bbox"] == [int(v) for v in mask_utils.toBbox(compressed)]
    image = coco.loadImgs(coco.getImgIds())[0]
    assert image["rater_list"] == sorted({r["annotator"] for r in rows if r["item"] == image["file_name"]})


def test_importers_give_the_image_sizes_back():
    """COCO, CVAT and Label Studio carry image sizes: the conversion gives them, for the next export."""
    sizes = {"img_0.jpg": (200, 100)}
    for format in ("coco", "cvat", "labelstudio"):
        assert read_back(write("boxes", BOXES, format, image_sizes=sizes), "boxes").image_sizes == sizes
    assert read_back(write("boxes", BOXES, "cvat"), "boxes").image_sizes is None


def test_cli_export_carries_image_sizes_from_an_import(tmp_path, capsys):
    coco = tmp_path / "boxes.json"
    coco.write_text(agreekit.export("boxes", BOXES, "coco", image_sizes={"img_0.jpg": (200, 100)}))
    assert main(["export", "boxes", str(coco), "--to", "labelstudio"]) == 0
    task = json.loads(capsys.readouterr().out)[0]
    assert task["predictions"][0]["result"][0]["original_width"] == 200
    assert main(["boxes", str(coco)]) == 0  # the report takes no image sizes: none are passed to it
