"""Label Studio JSON / JSON_MIN importer: fixtures row by row, reports, detection, errors, CLI, round trips.

The brush masks are written by :func:`ls_brush_rle`, an encoder of the rle-pack
bitstream written here from its layout (the one label-studio-converter's
``brush.decode_rle`` reads): 32-bit value count, 5-bit word size − 1, four 4-bit
run-field sizes − 1, then tokens of a flag bit (1 repeat / 0 literal), a 2-bit
field index, ``count − 1`` in that field, and one word (repeat) or ``count``
words (literal).
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agreekit
from agreekit.formats import READERS, convert, load_sources
from agreekit.formats.base import Source, detect
from agreekit.formats.labelstudio_brush import brush_mask, decode_values
from agreekit.geometry.rle import decode as rle_decode
from agreekit.geometry.rle import encode as rle_encode
from agreekit.rows import InputError

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "formats" / "labelstudio"
FIXTURE_FILES = sorted(p for p in FIXTURES.rglob("*.json"))


# --------------------------------------------------------------------------- the brush encoder

def ls_brush_rle(mask, color=(255, 0, 0, 128), word=8, sizes=(3, 4, 8, 16)):
    """Label Studio's brush ``rle`` (list of bytes) of a boolean mask painted in ``color`` (RGBA)."""
    mask = np.asarray(mask, dtype=bool)
    values = np.where(mask.ravel()[:, None], np.asarray(color), 0).ravel().tolist()  # RGBA, row-major
    bits = [f"{len(values):032b}", f"{word - 1:05b}"] + [f"{s - 1:04b}" for s in sizes]
    longest = 2 ** max(sizes)

    def token(repeat, words):
        count = len(words) if not repeat else repeat
        field = next(k for k, s in enumerate(sizes) if count - 1 < 2 ** s)
        bits.append(("1" if repeat else "0") + f"{field:02b}" + f"{count - 1:0{sizes[field]}b}"
                    + "".join(f"{w:0{word}b}" for w in words))

    literal = []

    def flush():
        while literal:
            token(0, literal[:longest])
            del literal[:longest]

    i = 0
    while i < len(values):
        j = i
        while j < len(values) and values[j] == values[i]:
            j += 1
        if j - i >= 2:  # a run: one repeat token per `longest` values
            flush()
            for start in range(i, j, longest):
                token(min(longest, j - start), [values[i]])
        else:
            literal.append(values[i])
        i = j
    flush()
    stream = "".join(bits)
    stream += "0" * (-len(stream) % 8)
    return [int(stream[k:k + 8], 2) for k in range(0, len(stream), 8)]


def picture(text):
    """A boolean mask from rows of '.' and '#'."""
    return np.array([[c == "#" for c in line] for line in text.split()], dtype=bool)


CELL_1 = picture("...... .##... .##... ......")
CELL_2 = picture("...... .###.. .###.. ......")
NUCLEUS_1 = picture("#..... ...... ...... .....#")


def brush_result(rid, mask, label, color=(255, 0, 0, 128)):
    height, width = mask.shape
    return {"id": rid, "type": "brushlabels", "from_name": "tag", "to_name": "image", "original_width": width,
            "original_height": height, "image_rotation": 0,
            "value": {"format": "rle", "rle": ls_brush_rle(mask, color), "brushlabels": [label]}}


def brush_export():
    """The tasks of ``ls_brush.json``: two annotators' cells (one also a nucleus), one empty annotation."""
    return [{"id": 9, "data": {"image": "/data/upload/7/c0ffee00-cells.png"}, "annotations": [
        {"id": 91, "completed_by": 1, "was_cancelled": False,
         "result": [brush_result("m1", CELL_1, "cell"), brush_result("m2", NUCLEUS_1, "nucleus", (0, 255, 0, 255))]},
        {"id": 92, "completed_by": 2, "was_cancelled": False, "result": [brush_result("m3", CELL_2, "cell")]},
        {"id": 93, "completed_by": 3, "was_cancelled": False, "result": []}]}]


def test_brush_fixture_is_the_encoders_output():
    """ls_brush.json was written by ``brush_export`` (regenerate it with this function if the encoder changes)."""
    assert json.loads((FIXTURES / "ls_brush.json").read_text()) == brush_export()


def test_encoder_uses_both_token_kinds_and_decodes_back():
    rle = ls_brush_rle(NUCLEUS_1, (0, 255, 0, 255))
    values = decode_values(rle)
    expected = np.where(NUCLEUS_1.ravel()[:, None], [0, 255, 0, 255], 0).ravel()
    assert values.dtype == np.uint8 and values.tolist() == expected.tolist()
    assert brush_mask(rle, 6, 4).tolist() == NUCLEUS_1.tolist()
    # the first token follows the 53-bit header: a literal (flag 0) for the pixel (0, 255, 0, 255), whose
    # values have no equal neighbours; a repeat (flag 1) for the background that opens CELL_1
    assert "".join(f"{b:08b}" for b in rle)[53] == "0"
    cell = ls_brush_rle(CELL_1)
    assert "".join(f"{b:08b}" for b in cell)[53] == "1"
    assert brush_mask(cell, 6, 4).tolist() == CELL_1.tolist()


def test_brush_decoder_rejects_broken_streams():
    rle = ls_brush_rle(CELL_1)
    with pytest.raises(ValueError, match="ends inside"):
        decode_values(rle[:-3])
    with pytest.raises(ValueError, match="shorter than its header"):
        decode_values(rle[:4])
    with pytest.raises(ValueError, match="list of bytes"):
        decode_values([1, 2, 300])
    with pytest.raises(ValueError, match=r"holds 96 values, not 4 × 5 × 4 = 80"):
        brush_mask(rle, 5, 4)


def repeat_tokens(runs, n_values):
    """A brush RLE of repeat tokens only, 16-bit counts: ``runs`` is [(value, how many)] summing to ``n_values``."""
    bits = [f"{n_values:032b}", f"{7:05b}", f"{15:04b}" * 4]
    for value, many in runs:
        while many:
            take = min(many, 1 << 16)
            bits.append(f"1{0:02b}{take - 1:016b}{value:08b}")
            many -= take
    text = "".join(bits)
    text += "0" * (-len(text) % 8)
    return list(int(text[k:k + 8], 2) for k in range(0, len(text), 8))


def test_a_large_brush_canvas_is_read_on_runs_without_the_canvas():
    import tracemalloc

    from agreekit.formats.labelstudio_brush import brush_runs

    width = height = 8000  # an RGBA canvas of 256 MB: the lower half painted
    half = 4 * width * height // 2
    rle = repeat_tokens([(0, half), (255, half)], 4 * width * height)
    tracemalloc.start()
    runs = brush_runs(rle, width, height)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 32 * 2 ** 20
    assert runs.tolist() == [height // 2] * (2 * width)  # each column: its top half clear, its bottom half marked


def test_a_brush_header_declaring_another_size_is_refused_before_decoding():
    from agreekit.formats.labelstudio_brush import brush_runs

    with pytest.raises(ValueError, match="holds 4294967295 values, not 96"):
        brush_runs(repeat_tokens([], 2 ** 32 - 1), 6, 4)  # would have allocated 4 GB before being checked


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 7), st.integers(1, 7), st.data())
def test_brush_masks_round_trip(height, width, data):
    """mask → Label Studio brush RLE → agreekit's COCO runs equals the runs of the mask."""
    mask = np.array(data.draw(st.lists(st.lists(st.booleans(), min_size=width, max_size=width),
                                       min_size=height, max_size=height)), dtype=bool)
    color = data.draw(st.tuples(*[st.integers(0, 255)] * 3, st.integers(1, 255)))
    sizes = data.draw(st.sampled_from([(3, 4, 8, 16), (1, 2, 3, 4), (2, 2, 2, 2)]))
    task = [{"id": 1, "data": {"image": "m.png"}, "annotations": [
        {"completed_by": 1, "result": [{"id": "r", "type": "brushlabels", "original_width": width,
                                        "original_height": height,
                                        "value": {"format": "rle", "rle": ls_brush_rle(mask, color, sizes=sizes),
                                                  "brushlabels": ["x"]}}]}]}]
    row, = convert(("t.json", json.dumps(task).encode()), kind="masks").rows
    runs = [int(r) for r in row["rle"].split()]
    assert runs == rle_encode(mask).tolist()
    assert rle_decode(runs, height, width).tolist() == mask.tolist()


# --------------------------------------------------------------------------- helpers

def report_of(kind, rows, **options):
    if "bootstrap" in agreekit.get(kind).defaults():
        options["bootstrap"] = 0
    return agreekit.report(kind, rows, **options).to_dict()


def converted(name, **keywords):
    return convert(FIXTURES / name, **keywords)


def assert_rows(conversion, expected):
    """Row by row: the same keys, text equal, numbers equal to 1e-9."""
    assert len(conversion.rows) == len(expected), conversion.rows
    for got, want in zip(conversion.rows, expected):
        assert set(got) == set(want), (got, want)
        for key, value in want.items():
            if isinstance(value, float):
                assert got[key] == pytest.approx(value, abs=1e-9), (key, got, want)
            else:
                assert got[key] == value, (key, got, want)


def assert_report_matches(conversion, expected):
    assert report_of(conversion.kind, conversion.rows, **conversion.options()) == report_of(
        conversion.kind, expected, **conversion.options())


def nothing(kind, item, annotator, **kept):
    """A saw-nothing row: item and annotator, every other column of ``kind`` blank (a mask keeps its size)."""
    return {**dict.fromkeys(agreekit.KINDS[kind].columns), "item": item, "annotator": annotator, **kept}


def points(text):
    return [float(v) for v in text.split()]


def warning_with(conversion, text):
    found = [w for w in conversion.warnings if text in w]
    assert found, conversion.warnings
    return found[0]


# --------------------------------------------------------------------------- fixtures, row by row

def test_boxes_percent_to_pixels_cancelled_and_empty():
    c = converted("ls_boxes.json")
    expected = [
        {"item": "img_a.jpg", "annotator": "1", "x": 20, "y": 20, "w": 60, "h": 40, "label": "dog"},
        {"item": "img_a.jpg", "annotator": "2", "x": 24, "y": 22, "w": 60, "h": 40, "label": "dog"},
        nothing("boxes", "img_b.jpg", "1"),  # result: [] → saw it, drew nothing
    ]  # annotator 2 cancelled img_b → never saw it: no row
    assert c.kind == "boxes" and c.format == "labelstudio"
    assert_rows(c, expected)
    assert_report_matches(c, expected)
    assert [(s.where, s.reason) for s in c.skipped] == [("task 2, annotation 22",
                                                        "cancelled (the annotator pressed Skip)")]
    assert warning_with(c, "cancelled").startswith("1 cancelled annotation(s)")
    summary = c.summary()
    assert (summary["n_items"], summary["n_annotators"], summary["n_annotations"], summary["n_saw_nothing"]) == (
        2, 2, 2, 1)


def test_polygons_request_reads_polygons_and_turns_rectangles():
    c = converted("ls_shapes.json", kind="polygons")
    expected = [
        {"item": "street.png", "annotator": "1", "points": "20 10 100 10 100 50", "label": "road"},
        {"item": "street.png", "annotator": "2", "points": "22 10 100 12 98 50", "label": "road"},
        {"item": "street.png", "annotator": "2", "points": "20 20 80 20 80 60 20 60", "label": "car"},
        # x = 30 % of 200, y = 20 % of 100, 60 × 40 px turned 90° clockwise about its top-left corner
        {"item": "street.png", "annotator": "3", "points": "60 20 60 80 20 80 20 20", "label": "car"},
    ]
    assert len(c.rows) == len(expected)
    for got, want in zip(c.rows, expected):
        assert {k: v for k, v in got.items() if k != "points"} == {k: v for k, v in want.items() if k != "points"}
        assert points(got["points"]) == pytest.approx(points(want["points"]), abs=1e-9)
    assert_report_matches(c, expected)
    assert warning_with(c, "read as 4-point polygons").startswith("2 rectangle(s)")
    # the per-region Choices shares the rectangle's id (merged into it); the task-level Choices is left out
    assert [(s.where, s.reason) for s in c.skipped] == [
        ("task 5, annotation 53, region c3", "classification of the whole task, not a region")]


def test_boxes_request_leaves_rotated_rectangles_out():
    c = converted("ls_shapes.json", kind="boxes")
    # annotators 1 (a polygon) and 3 (a rotated rectangle) drew regions: left out, not saw-nothing rows
    expected = [{"item": "street.png", "annotator": "2", "x": 20, "y": 20, "w": 60, "h": 40, "label": "car"}]
    assert_rows(c, expected)
    assert "task 5 annotation 51" in warning_with(c, "not counted as saw nothing")
    assert "task 5 annotation 53" in warning_with(c, "not counted as saw nothing")
    reasons = {(s.where, s.reason) for s in c.skipped}
    assert ("task 5, annotation 53, region b3", "rotated rectangle (boxes are axis-aligned)") in reasons
    assert ("task 5, annotation 51, region p1", "polygon, not boxes") in reasons
    assert "--kind polygons" in warning_with(c, "rotated rectangle(s)")


def test_several_kinds_without_a_kind_is_an_error_listing_them():
    with pytest.raises(InputError, match=r"several kinds: polygons \(2 regions\), boxes \(2 regions\); "
                                         r"choose one with --kind"):
        converted("ls_shapes.json")


def test_spans_utf16_offsets_become_code_points():
    c = converted("ls_spans.json")
    expected = [
        {"item": "7", "annotator": "1", "start": 0, "end": 5, "label": "PER"},
        {"item": "7", "annotator": "1", "start": 17, "end": 22, "label": "LOC"},
        {"item": "7", "annotator": "2", "start": 10, "end": 13, "label": "PER"},
        {"item": "8", "annotator": "1", "start": 5, "end": 8, "label": "PER"},       # UTF-16 6–9 after 😀
        {"item": "8", "annotator": "carol@example.org", "start": 2, "end": 4, "label": "GREETING"},
        {"item": "8", "annotator": "carol@example.org", "start": 5, "end": 8, "label": "PER"},  # already code points
        nothing("spans", "8", "2"),
    ]
    assert c.kind == "spans"
    assert_rows(c, expected)
    assert c.lengths == {"7": "Alice met Bob in Paris.", "8": "😀 Hi Bob"}
    assert c.options() == {"lengths": c.lengths}
    assert_report_matches(c, expected)
    for row in c.rows[3:6]:
        assert c.lengths["8"][row["start"]:row["end"]] in ("Bob", "Hi")
    assert warning_with(c, "converted to code points").startswith("2 span(s)")
    assert warning_with(c, "only when their offsets are read as code points").startswith("1 span(s)")


def test_json_min_keeps_the_latest_annotation():
    c = converted("ls_min.json")
    expected = [
        {"item": "img_a.jpg", "annotator": "1", "x": 20, "y": 20, "w": 60, "h": 40, "label": "dog"},
        {"item": "img_a.jpg", "annotator": "2", "x": 24, "y": 22, "w": 60, "h": 40, "label": "dog"},
        {"item": "img_a.jpg", "annotator": "2", "x": 120, "y": 50, "w": 40, "h": 20, "label": "cat"},
        nothing("boxes", "img_b.jpg", "1"),
    ]  # annotation 13 of annotator 1 is older (updated_at) though later in the file; img_c has no annotation
    assert_rows(c, expected)
    assert_report_matches(c, expected)
    assert [(s.where, s.reason) for s in c.skipped] == [
        ("task 1, annotation 13", "an earlier annotation by the same annotator")]
    assert "1 on img_a.jpg" in warning_with(c, "submitted one item more than once")
    assert "task 3" in warning_with(c, "have no annotation")


def test_audio_segments_split_by_channel():
    c = converted("ls_audio.json")
    expected = [
        {"item": "meeting.wav#ch0", "annotator": "1", "start": 1.2, "end": 3.4, "label": "Speech"},
        {"item": "meeting.wav#ch1", "annotator": "1", "start": 5, "end": 7.5, "label": "Music"},
        {"item": "meeting.wav#ch0", "annotator": "2", "start": 1.0, "end": 3.5, "label": "Speech"},
        nothing("segments", "meeting.wav#ch1", "2"),
        nothing("segments", "call.wav", "1"),
    ]
    assert c.kind == "segments"
    assert_rows(c, expected)
    assert_report_matches(c, expected)
    assert warning_with(c, "prediction(s)").startswith("1 prediction(s)")
    assert "task 33" in warning_with(c, "have no annotation")
    assert "meeting.wav" in warning_with(c, "several audio channels")


def test_timeseries_segments():
    c = converted("ls_timeseries.json")
    expected = [
        {"item": "sensor.csv", "annotator": "1", "start": 1000, "end": 2500, "label": "Run"},
        {"item": "sensor.csv", "annotator": "1", "start": 4000, "end": 4000, "label": "Jump"},  # instant
        {"item": "sensor.csv", "annotator": "2", "start": 1100, "end": 2400, "label": "Run"},
    ]
    assert_rows(c, expected)
    assert_report_matches(c, expected)


def test_brush_masks_become_coco_runs():
    c = converted("ls_brush.json")
    expected = [  # column-major runs, background first, of the pictures above (hand-counted)
        {"item": "cells.png", "annotator": "1", "width": 6, "height": 4, "rle": "5 2 2 2 13", "label": "cell"},
        {"item": "cells.png", "annotator": "1", "width": 6, "height": 4, "rle": "0 1 22 1", "label": "nucleus"},
        {"item": "cells.png", "annotator": "2", "width": 6, "height": 4, "rle": "5 2 2 2 2 2 9", "label": "cell"},
        nothing("masks", "cells.png", "3", width=6, height=4),
    ]
    assert c.kind == "masks"
    assert_rows(c, expected)
    assert_report_matches(c, expected)
    assert report_of("masks", c.rows, label="cell") == report_of("masks", expected, label="cell")


def test_percent_coordinates_without_image_size():
    c = converted("ls_percent.json")
    expected = [  # img_p has no size anywhere: percent; img_q's size comes from annotator 7's region
        {"item": "img_p.jpg", "annotator": "ann@example.org", "x": 10, "y": 10, "w": 20, "h": 20, "label": "dog"},
        {"item": "img_p.jpg", "annotator": "ben@example.org", "x": 11, "y": 10, "w": 20, "h": 21,
         "label": "dog+puppy"},
        {"item": "img_q.jpg", "annotator": "ann@example.org", "x": 100, "y": 30, "w": 200, "h": 60, "label": "cat"},
        {"item": "img_q.jpg", "annotator": "ben@example.org", "x": 100, "y": 33, "w": 200, "h": 60, "label": "cat"},
    ]
    assert_rows(c, expected)
    assert_report_matches(c, expected)
    assert "img_p.jpg" in warning_with(c, "stay in percent")
    assert "img_q.jpg" not in warning_with(c, "stay in percent")
    assert "task 62 annotation 622 region q4" in warning_with(c, "scaled by their item's size")
    assert warning_with(c, "joined with '+'").startswith("1 region(s)")
    assert warning_with(c, "image_rotation").startswith("1 region(s)")
    assert warning_with(c, "prediction(s)").startswith("1 prediction(s)")


def test_one_project_per_annotator_names_annotators_after_the_files():
    c = convert(FIXTURES / "projects")
    expected = [
        {"item": "cat.jpg", "annotator": "alice", "x": 10, "y": 10, "w": 50, "h": 50, "label": "cat"},
        nothing("boxes", "dog.jpg", "alice"),
        {"item": "cat.jpg", "annotator": "bob", "x": 12, "y": 10, "w": 50, "h": 48, "label": "cat"},
        {"item": "dog.jpg", "annotator": "bob", "x": 40, "y": 40, "w": 10, "h": 10, "label": "dog"},
    ]
    assert_rows(c, expected)
    assert_report_matches(c, expected)
    assert "(alice, bob)" in warning_with(c, "each file is taken as one annotator")


# --------------------------------------------------------------------------- built-in edge cases

def one_task(results, data=None, **annotation):
    task = {"id": 1, "data": data or {"image": "a.jpg"},
            "annotations": [{"id": 1, "completed_by": 1, "result": results, **annotation}]}
    return ("edge.json", json.dumps([task]).encode())


def span(start, end, text, rid="s"):
    return {"id": rid, "type": "labels", "from_name": "ner", "to_name": "text",
            "value": {"start": start, "end": end, "text": text, "labels": ["X"]}}


def test_an_unresolvable_span_names_its_region():
    with pytest.raises(InputError, match=r"edge\.json: task 1, annotation 1, region bad: offsets 1–3 do not give "
                                         r"the exported text 'zz'") as error:
        convert(one_task([span(0, 1, "a", "ok"), span(1, 3, "zz", "bad")], {"text": "abc"}))
    assert error.value.column == "value.start"


def test_spans_on_two_text_fields_are_two_items_and_hypertext_is_left_out():
    title = dict(span(0, 2, "Hi", "t1"), to_name="title")
    body = dict(span(4, 7, "Bob", "b1"), to_name="body")
    dom = {"id": "h1", "type": "hypertextlabels", "from_name": "ner", "to_name": "page",
           "value": {"start": "/p[1]", "end": "/p[1]", "startOffset": 0, "endOffset": 2, "text": "Hi",
                     "hypertextlabels": ["X"]}}
    c = convert(one_task([title, body, dom], {"title": "Hi there", "body": "Hey Bob"}))
    assert [(r["item"], r["start"], r["end"]) for r in c.rows] == [("1:title", 0, 2), ("1:body", 4, 7)]
    assert c.lengths == {"1:title": "Hi there", "1:body": "Hey Bob"}
    assert [s.reason for s in c.skipped] == ["HyperText or Paragraphs span (DOM offsets are not read)"]


def test_utf16_reading_comes_first_when_both_readings_fit():
    # "a" at UTF-16 offsets 2–3 of "😀aa" is the first "a" (code points 1–2); read as code points, 2–3 is
    # the second "a", which also matches the exported text: Label Studio's units decide
    c = convert(one_task([span(2, 3, "a")], {"text": "😀aa"}))
    assert (c.rows[0]["start"], c.rows[0]["end"]) == (1, 2)


def test_completions_of_label_studio_before_1_0():
    task = {"id": 4, "data": {"text": "abc"},
            "completions": [{"id": 1, "completed_by": 5, "result": [span(1, 2, "b")]}]}
    c = convert(("old.json", json.dumps([task]).encode()))
    assert_rows(c, [{"item": "4", "annotator": "5", "start": 1, "end": 2, "label": "X"}])


def test_missing_completed_by_uses_the_file_name():
    task = one_task([span(0, 1, "a")], {"text": "abc"})
    data = json.loads(task[1])
    del data[0]["annotations"][0]["completed_by"]
    c = convert(("coder_x.json", json.dumps(data).encode()))
    assert [r["annotator"] for r in c.rows] == ["coder_x"]
    assert "no completed_by" in warning_with(c, "file name")


def test_bad_geometry_is_an_error_naming_the_field():
    rect = {"id": "r", "type": "rectanglelabels", "original_width": 10, "original_height": 10,
            "value": {"x": "ten", "y": 0, "width": 1, "height": 1, "rectanglelabels": ["a"]}}
    with pytest.raises(InputError, match=r"edge\.json: task 1, annotation 1, region r: value\.x must be a number"):
        convert(one_task([rect]))


def test_a_rectangle_turned_30_degrees_about_its_top_left_corner():
    rect = {"id": "r", "type": "rectanglelabels", "original_width": 200, "original_height": 100,
            "value": {"x": 30, "y": 20, "width": 30, "height": 40, "rotation": 30, "rectanglelabels": ["a"]}}
    row, = convert(one_task([rect]), kind="polygons").rows
    c, s = 3 ** 0.5 / 2, 0.5  # cos 30°, sin 30°; the box is 60 × 40 px at (60, 20), y pointing down
    corners = [60, 20, 60 + 60 * c, 20 + 60 * s, 60 + 60 * c - 40 * s, 20 + 60 * s + 40 * c, 60 - 40 * s, 20 + 40 * c]
    assert points(row["points"]) == pytest.approx(corners, abs=1e-9)
    with pytest.raises(InputError, match=r"no boxes annotations \(1 skipped: 1 rotated rectangle \(boxes are "
                                         r"axis-aligned\)\)"):
        convert(one_task([rect]), kind="boxes")  # not a saw-nothing row: the annotator drew a region


def test_a_self_intersecting_polygon_is_skipped():
    bow = {"id": "p", "type": "polygonlabels", "original_width": 100, "original_height": 100,
           "value": {"points": [[0, 0], [10, 10], [10, 0], [0, 10]], "polygonlabels": ["a"]}}
    with pytest.raises(InputError, match=r"no polygons annotations \(1 skipped: 1 polygon that is not simple"):
        convert(one_task([bow]))  # not a saw-nothing row: the annotator drew a region


def test_a_broken_brush_stream_is_an_error_naming_the_region():
    result = brush_result("m", CELL_1, "cell")
    result["value"]["rle"] = result["value"]["rle"][:-4]
    with pytest.raises(InputError, match=r"edge\.json: task 1, annotation 1, region m: value\.rle: the brush RLE "
                                         r"ends inside"):
        convert(one_task([result]))


def test_no_regions_and_no_kind_asks_for_a_kind():
    with pytest.raises(InputError, match="choose a kind with --kind"):
        convert(one_task([]))
    assert convert(one_task([]), kind="boxes").rows == [nothing("boxes", "a.jpg", "1")]


def test_shared_image_names_in_one_file_get_the_task_id():
    tasks = [{"id": k, "data": {"image": f"/data/{folder}/same.jpg"},
              "annotations": [{"completed_by": 1, "result": []}]} for k, folder in ((1, "x"), (2, "y"))]
    c = convert(("two.json", json.dumps(tasks).encode()), kind="boxes")
    assert [r["item"] for r in c.rows] == ["same.jpg#1", "same.jpg#2"]
    assert "same.jpg" in warning_with(c, "shared by several tasks")


def test_unknown_options_are_refused():
    with pytest.raises(InputError, match="unknown option 'from_name'; its options are predictions, question"):
        convert(FIXTURES / "ls_boxes.json", from_name="label")


# --------------------------------------------------------------------------- detection

@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_each_fixture_is_detected_as_label_studio_only(path):
    source, = load_sources(path)
    assert detect([source]) == "labelstudio"
    fits = [name for name, reader in READERS.items() if reader.detect(source) is None]
    assert fits == ["labelstudio"]


@pytest.mark.parametrize("name, data", [
    ("notes.json", b"hello, not json"),
    ("coco.json", b'{"images": [], "annotations": [], "categories": []}'),
    ("list.json", b"[1, 2, 3]"),
    ("other.json", b'[{"text": "a", "label": [[0, 1, "X"]]}]'),
    ("ls_boxes.csv", (FIXTURES / "ls_boxes.json").read_bytes()),
])
def test_other_files_are_not_label_studio(name, data):
    source = Source(name, data)
    assert READERS["labelstudio"].detect(source) is not None  # a reason why not
    try:
        assert detect([source]) != "labelstudio"  # another format may claim it (an empty COCO file is COCO)
    except InputError as error:
        assert "Tried" in str(error) and "Label Studio JSON: " in str(error)


def test_a_truncated_export_is_detected_and_names_the_file():
    data = (FIXTURES / "ls_boxes.json").read_bytes()
    with pytest.raises(InputError, match=r"cut\.json: not valid JSON .* is the file complete\?"):
        convert(("cut.json", data[: len(data) // 2]))


def test_a_task_that_is_not_an_object_names_its_position():
    with pytest.raises(InputError, match=r"x\.json: element 2 of the list is not a task object"):
        convert(("x.json", b'[{"id": 1, "data": {}, "annotations": [], "predictions": []}, 3]'))


# --------------------------------------------------------------------------- command line

def run_cli(*args):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "pycore")}
    return subprocess.run([sys.executable, "-m", "agreekit", *args], capture_output=True, text=True, env=env,
                          cwd=ROOT)


def test_cli_report_and_convert():
    path = str(FIXTURES / "ls_boxes.json")
    done = run_cli("boxes", path)
    assert done.returncode == 0, done.stderr
    assert "imported labelstudio: 2 items, 2 annotators, 2 annotations, 1 saw-nothing rows" in done.stderr
    assert "detection" in done.stdout.lower()
    done = run_cli("convert", path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["item,annotator,x,y,w,h,label", "img_a.jpg,1,20,20,60,40,dog",
                                        "img_a.jpg,2,24,22,60,40,dog", "img_b.jpg,1,,,,,"]
    done = run_cli("convert", str(FIXTURES / "ls_shapes.json"))
    assert done.returncode == 2 and "--kind" in done.stderr


# --------------------------------------------------------------------------- round trips

def utf16_offset(text, k):
    return len(text[:k].encode("utf-16-le")) // 2


def write_spans(rows, texts):
    """Rows → a Label Studio JSON export (offsets in UTF-16 code units, as Label Studio writes them)."""
    tasks = []
    for item, text in texts.items():
        annotations = {}
        for row in rows:
            if row["item"] == item:
                results = annotations.setdefault(row["annotator"], [])
                if row["start"] is not None:
                    value = {"start": utf16_offset(text, row["start"]), "end": utf16_offset(text, row["end"]),
                             "text": text[row["start"]:row["end"]], "labels": [row["label"]]}
                    results.append({"id": f"r{len(results)}", "type": "labels", "from_name": "ner",
                                    "to_name": "text", "value": value})
        tasks.append({"id": int(item), "data": {"text": text},
                      "annotations": [{"completed_by": int(a), "result": r} for a, r in annotations.items()]})
    return json.dumps(tasks, ensure_ascii=False).encode()


@st.composite
def span_rows(draw):
    alphabet = st.sampled_from(list("ab \n") + ["😀", "é", "𝄞", "中"])
    texts = {str(k): draw(st.text(alphabet, min_size=1, max_size=12)) for k in range(1, draw(st.integers(1, 3)) + 1)}
    rows = []
    for item, text in texts.items():
        for annotator in ("1", "2"):
            marks = []
            for _ in range(draw(st.integers(0, 3))):
                start = draw(st.integers(0, len(text) - 1))
                end = draw(st.integers(start + 1, len(text)))
                marks.append({"item": item, "annotator": annotator, "start": start, "end": end,
                              "label": draw(st.sampled_from(["P", "Q"]))})
            rows += marks or [nothing("spans", item, annotator)]
    return rows, texts


@settings(max_examples=80, deadline=None)
@given(span_rows())
def test_spans_round_trip(case):
    rows, texts = case
    c = convert(("rt.json", write_spans(rows, texts)), kind="spans")
    assert c.rows == rows
    assert c.lengths == texts


def write_boxes(rows, size):
    """Rows in pixels → a Label Studio JSON export in percent of ``size``."""
    width, height = size
    annotations = {}
    for row in rows:
        results = annotations.setdefault(row["annotator"], [])
        if row["x"] is not None:
            results.append({"id": f"r{len(results)}", "type": "rectanglelabels", "original_width": width,
                            "original_height": height, "value": {
                                "x": row["x"] * 100 / width, "y": row["y"] * 100 / height,
                                "width": row["w"] * 100 / width, "height": row["h"] * 100 / height,
                                "rotation": 0, "rectanglelabels": [row["label"]]}})
    task = {"id": 1, "data": {"image": "/data/upload/1/abcdef12-pic.jpg"},
            "annotations": [{"completed_by": int(a), "result": r} for a, r in annotations.items()]}
    return json.dumps([task]).encode()


@st.composite
def box_rows(draw):
    size = (draw(st.integers(10, 4000)), draw(st.integers(10, 4000)))
    rows = []
    for annotator in ("1", "2", "3"):
        marks = []
        for _ in range(draw(st.integers(0, 3))):
            x, y = draw(st.integers(0, size[0] - 2)), draw(st.integers(0, size[1] - 2))
            marks.append({"item": "pic.jpg", "annotator": annotator, "x": x, "y": y,
                          "w": draw(st.integers(1, size[0] - x)), "h": draw(st.integers(1, size[1] - y)),
                          "label": draw(st.sampled_from(["a", "b"]))})
        rows += marks or [nothing("boxes", "pic.jpg", annotator)]
    return rows, size


@settings(max_examples=80, deadline=None)
@given(box_rows())
def test_boxes_round_trip(case):
    rows, size = case
    c = convert(("rt.json", write_boxes(rows, size)), kind="boxes")
    assert_rows(c, [{k: float(v) if k in "xywh" and v is not None else v for k, v in row.items()} for row in rows])
