"""Importers of text-span tools and Potato: Potato, Prodigy, doccano and brat.

Every fixture under tests/fixtures/formats/<format>/ is written to the tool's
documented layout; each is converted and compared row by row with rows written
here by hand, and the report on the converted rows must equal the report on the
hand-written ones.  Detection, broken files, the command line and round trips
(rows → file → rows) follow.
"""
import io
import json
import subprocess
import sys
import zipfile
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import agreekit
from agreekit.formats import READERS, convert, load_sources
from agreekit.formats.base import Source, detect
from agreekit.geometry.rle import decode
from agreekit.parse.rle import rle_from_string, rle_to_string
from agreekit.registry import KINDS
from agreekit.rows import InputError

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "formats"
TEXT_1 = "😀 Alice met Bob in Paris."   # an emoji (one code point, two UTF-16 units) before every span
TEXT_2 = "Nothing to see here."
TEXT_3 = "Carol flew to Oslo."


def span(item, annotator, start, end, label):
    return {"item": item, "annotator": annotator, "start": start, "end": end, "label": label}


def blank(item, annotator, kind="spans"):
    """A saw-nothing row: every column of the kind, only item and annotator filled."""
    return {**dict.fromkeys(KINDS[kind].columns), "item": item, "annotator": annotator}


def box(item, annotator, x, y, w, h, label):
    return {"item": item, "annotator": annotator, "x": x, "y": y, "w": w, "h": h, "label": label}


def same_report(kind, conversion, expected_rows, expected_lengths=None):
    """The report on the converted rows equals the report on the hand-written rows."""
    fixed = {} if kind == "masks" else {"bootstrap": 0}
    got = agreekit.report(kind, conversion.rows, **conversion.options(), **fixed).to_dict()
    given_lengths = {"lengths": expected_lengths} if expected_lengths else {}
    assert got == agreekit.report(kind, expected_rows, **given_lengths, **fixed).to_dict()


def reasons(conversion):
    return Counter(s.reason for s in conversion.skipped)


def jsonl(*records):
    return ("\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n").encode()


# ============================================================ Prodigy

PRODIGY_ROWS = [
    span("-1893", "ner_news-alice", 2, 7, "PER"), span("-1893", "ner_news-alice", 19, 24, "LOC"),
    span("-1893", "ner_news-bob", 2, 7, "PER"),
    blank("4471", "ner_news-alice"),
    span("2024", "ner_news-alice", 0, 5, "PER"), span("2024", "ner_news-alice", 14, 18, "LOC"),
    span("2024", "ner_news-carol", 0, 5, "PER"), span("2024", "ner_news-carol", 14, 18, "LOC"),
]
PRODIGY_TEXTS = {"-1893": TEXT_1, "4471": TEXT_2, "2024": TEXT_3}


def test_prodigy_spans_rows_texts_and_what_was_left_out():
    c = convert(FIXTURES / "prodigy" / "ner_news.jsonl")
    assert (c.format, c.kind) == ("prodigy", "spans")
    assert c.rows == PRODIGY_ROWS
    assert c.lengths == PRODIGY_TEXTS
    assert reasons(c) == {"rejected in Prodigy, a bad example (counted as never seen)": 1,
                          "ignored in Prodigy (counted as never seen)": 1,
                          "superseded by a later submission of the same annotator": 1}
    assert any("1 rejected answer(s) count as never seen" in w for w in c.warnings)
    assert any("the latest of each is kept: ner_news-alice on 2024" in w for w in c.warnings)
    same_report("spans", c, PRODIGY_ROWS, PRODIGY_TEXTS)


def _prodigy_task(**fields):
    task = {"text": TEXT_1, "_input_hash": 5, "_task_hash": 6, "_view_id": "ner_manual", "spans": [],
            "answer": "accept", "_annotator_id": "d-ann", "_session_id": "d-ann"}
    return {**task, **fields}


def test_prodigy_utf16_offsets_are_an_error_with_a_hint():
    wrong = _prodigy_task(spans=[{"start": 3, "end": 8, "label": "PER", "text": "Alice"}])
    with pytest.raises(InputError, match=r"d\.jsonl line 2, span 1: .*UTF-16"):
        convert(("d.jsonl", jsonl(_prodigy_task(), wrong)))


def test_prodigy_span_past_the_text_names_the_line():
    with pytest.raises(InputError, match=r"d\.jsonl line 1, span 1: end 99 is past the end"):
        convert(("d.jsonl", jsonl(_prodigy_task(spans=[{"start": 2, "end": 99, "label": "PER"}]))))


def test_prodigy_a_later_reject_replaces_an_accept_and_no_annotator_means_the_file():
    first = _prodigy_task(spans=[{"start": 2, "end": 7, "label": "PER"}], _timestamp=1)
    later = _prodigy_task(answer="reject", _timestamp=2)
    other = {k: v for k, v in _prodigy_task(spans=[{"start": 2, "end": 7, "label": "PER"}]).items()
             if k not in ("_annotator_id", "_session_id")}
    c = convert([("a.jsonl", jsonl(first, later)), ("b_dataset.jsonl", jsonl(other))])
    assert c.rows == [span("5", "b_dataset", 2, 7, "PER")]
    assert reasons(c)["superseded by a later submission of the same annotator"] == 1
    assert any("their annotator is the file name" in w for w in c.warnings)


def test_prodigy_binary_ner_is_refused_as_spans():
    with pytest.raises(InputError, match="binary 'ner' task .*manual interfaces"):
        convert(("d.jsonl", jsonl(_prodigy_task(_view_id="ner"))), kind="spans")


def test_prodigy_binary_tasks_read_as_labels_accept_or_reject_per_suggestion():
    # textcat.teach: one suggested label per task; the label is the question, the input (_input_hash) the item.
    def teach(annotator, input_hash, answer, stamp):
        return _prodigy_task(_view_id="classification", label="POSITIVE", _input_hash=input_hash,
                             _task_hash=input_hash + 100, answer=answer, _annotator_id=annotator, _timestamp=stamp)
    records = [teach("a", 61, "accept", 1), teach("b", 61, "reject", 2), teach("a", 62, "reject", 3),
               teach("b", 62, "reject", 4), teach("a", 63, "ignore", 5), teach("b", 63, "accept", 6),
               teach("a", 61, "reject", 7)]  # a changed their mind on 61: the later answer is kept
    c = convert(("teach.jsonl", jsonl(*records)))
    assert c.kind == "labels"
    assert [(r["item"], r["annotator"], r["label"]) for r in c.rows] == [
        ("61", "a", "not POSITIVE"), ("61", "b", "not POSITIVE"), ("62", "a", "not POSITIVE"),
        ("62", "b", "not POSITIVE"), ("63", "b", "POSITIVE")]
    assert reasons(c) == {"an earlier answer by the same annotator": 1,
                          "ignored in Prodigy (counted as never seen)": 1}
    assert any("question 'POSITIVE': 5 answer(s) read as labels" in w for w in c.warnings)


def test_prodigy_multiple_choice_is_a_label_set_and_manual_tasks_beside_it_are_skipped():
    def choice(annotator, accepted, answer="accept"):
        return _prodigy_task(_view_id="choice", _task_hash=70, options=[{"id": "A"}, {"id": "B"}],
                             accept=accepted, answer=answer, _annotator_id=annotator)
    c = convert(("c.jsonl", jsonl(choice("a", ["A", "B"]), choice("b", ["B"]), choice("c", ["A"], "reject"),
                                  _prodigy_task(_annotator_id="d"))), kind="labels")
    # the item is the input (_input_hash 5); the manual task beside the choices marked nothing: no region to name
    assert [(r["item"], r["annotator"], r["label"]) for r in c.rows] == [("5", "a", "A"), ("5", "a", "B"),
                                                                         ("5", "b", "B")]
    assert reasons(c) == {"rejected in Prodigy, a bad example (counted as never seen)": 1}
    assert any("1 answer(s) hold several labels" in w and "level set" in w for w in c.warnings)
    with pytest.raises(InputError, match="'accept' must be a list of option ids"):
        convert(("c.jsonl", jsonl(choice("a", "A"))), kind="labels")


def test_prodigy_image_boxes_and_polygons():
    path = FIXTURES / "prodigy" / "images.jsonl"
    with pytest.raises(InputError, match="boxes and polygons; choose one kind"):
        convert(path)
    boxes = convert(path, kind="boxes")
    expected = [box("901", "img-alice", 10.0, 20.0, 100.0, 50.0, "car"),
                box("901", "img-bob", 12.0, 22.0, 96.0, 50.0, "car"),
                blank("902", "img-alice", "boxes"), box("902", "img-bob", 0.0, 0.0, 30.0, 30.0, "car")]
    assert boxes.rows == expected
    assert reasons(boxes) == {"polygon: read with kind polygons": 1}
    same_report("boxes", boxes, expected)
    polygons = convert(path, kind="polygons")
    points = [json.loads(r["points"]) if r["points"] else None for r in polygons.rows]
    assert points == [[[10, 20], [10, 70], [110, 70], [110, 20]], [[300, 300], [340, 300], [320, 340]],
                      [[12, 22], [12, 72], [108, 72], [108, 22]], None, [[0, 0], [0, 30], [30, 30], [30, 0]]]
    assert [r["label"] for r in polygons.rows] == ["car", "sign", "car", None, "car"]


# ============================================================ doccano

DOCCANO_APPROVED = [
    span("1", "alice", 2, 7, "PER"), span("1", "alice", 19, 24, "LOC"), blank("2", "alice"),
    span("3", "alice", 0, 5, "PER"),
    span("1", "bob", 2, 7, "PER"), span("3", "bob", 0, 5, "PER"), span("3", "bob", 14, 18, "LOC"),
]
DOCCANO_TEXTS = {"1": TEXT_1, "2": TEXT_2, "3": TEXT_3}


def test_doccano_approved_export_lists_what_each_member_saw():
    c = convert(FIXTURES / "doccano" / "approved")
    assert (c.format, c.kind) == ("doccano", "spans")
    assert c.rows == DOCCANO_APPROVED
    assert c.lengths == DOCCANO_TEXTS
    assert "Export only approved documents" in c.warnings[0] and "unlisted one as never seen" in c.warnings[0]
    assert any("grapheme mode" in w and "items 1" in w for w in c.warnings)  # the emoji before item 1's spans
    same_report("spans", c, DOCCANO_APPROVED, DOCCANO_TEXTS)


def test_doccano_export_zip_reads_like_its_folder():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in ("alice.jsonl", "bob.jsonl"):
            archive.write(FIXTURES / "doccano" / "approved" / name, name)
    assert convert(("project_1_export.zip", buffer.getvalue())).rows == DOCCANO_APPROVED


def test_doccano_all_documents_export_reads_empty_examples_as_unlabelled_says():
    folder = FIXTURES / "doccano" / "all_documents"
    saw = convert(folder)
    assert saw.rows == [span("1", "alice", 2, 7, "PER"), blank("2", "alice"),
                        span("1", "bob", 2, 7, "PER"), span("1", "bob", 19, 24, "LOC"), blank("2", "bob")]
    assert "lists the same examples" in saw.warnings[0] and "unlabelled='saw'" in saw.warnings[0]
    unseen = convert(folder, unlabelled="unseen")
    assert unseen.rows == [span("1", "alice", 2, 7, "PER"), span("1", "bob", 2, 7, "PER"),
                           span("1", "bob", 19, 24, "LOC")]
    assert reasons(unseen) == {"no spans, counted as never seen": 2}
    assert unseen.lengths == {"1": TEXT_1}
    with pytest.raises(InputError, match="unlabelled"):
        convert(folder, unlabelled="maybe")


def test_doccano_collaborative_all_jsonl_is_refused_saying_why():
    with pytest.raises(InputError, match=r"all\.jsonl: .*Share annotations across all users.*without saying whose"):
        convert(FIXTURES / "doccano" / "collaborative" / "all.jsonl")


def test_doccano_relation_project_entities_and_skipped_relations():
    c = convert(FIXTURES / "doccano" / "relations")
    expected = [span("7", "alice", 0, 5, "PER"), span("7", "alice", 14, 18, "LOC"), span("7", "bob", 0, 5, "PER")]
    assert c.rows == expected
    assert reasons(c) == {"relation: agreekit compares spans": 1}
    same_report("spans", c, expected, {"7": TEXT_3})


def test_doccano_errors_name_the_file_and_line():
    record = {"id": 1, "text": TEXT_2, "label": [[0, 7, "PER"], [5, 30, "PER"]]}
    with pytest.raises(InputError, match=r"ann\.jsonl line 1, span 2: end 30 is past the end"):
        convert(("ann.jsonl", jsonl(record)))
    with pytest.raises(InputError, match="text-classification project: convert with --kind labels"):
        convert(("ann.jsonl", jsonl({"id": 1, "text": TEXT_2, "label": ["positive"]})), kind="spans")


def test_doccano_text_classification_reads_as_labels():
    alice = jsonl({"id": 1, "text": TEXT_2, "label": ["positive"]},
                  {"id": 2, "text": TEXT_3, "label": ["neg", "sarcasm"]}, {"id": 3, "text": TEXT_1, "label": []})
    bob = jsonl({"id": 1, "text": TEXT_2, "label": ["positive"]}, {"id": 2, "text": TEXT_3, "label": ["neg"]},
                {"id": 3, "text": TEXT_1, "label": ["neutral"]})
    c = convert([("alice.jsonl", alice), ("bob.jsonl", bob)])
    assert c.kind == "labels"
    assert [(r["item"], r["annotator"], r["label"]) for r in c.rows] == [
        ("1", "alice", "positive"), ("2", "alice", "neg"), ("2", "alice", "sarcasm"), ("1", "bob", "positive"),
        ("2", "bob", "neg"), ("3", "bob", "neutral")]
    assert reasons(c) == {"an empty answer (no label chosen: not rated)": 1}
    assert any("1 answer(s) hold several labels" in w and "level set" in w for w in c.warnings)
    expected = ("item,annotator,label\n1,alice,positive\n2,alice,neg\n2,alice,sarcasm\n1,bob,positive\n2,bob,neg\n"
                "3,bob,neutral\n")
    assert agreekit.report("labels", c.rows, level="set", bootstrap=0).to_dict() == \
        agreekit.report("labels", expected, level="set", bootstrap=0).to_dict()


def test_doccano_repeated_example_keeps_the_later_line():
    c = convert(("ann.jsonl", jsonl({"id": 1, "text": TEXT_2, "label": [[0, 7, "PER"]]},
                                    {"id": 1, "text": TEXT_2, "label": [[8, 10, "PER"]]})))
    assert c.rows == [span("1", "ann", 8, 10, "PER")]
    assert any("the latest of each is kept: ann on 1" in w for w in c.warnings)


# ============================================================ brat

BRAT_ROWS = [
    span("doc-1", "alice", 2, 7, "PER"), span("doc-1", "alice", 12, 15, "PER"),
    span("doc-1", "alice", 16, 18, "LOC"), span("doc-1", "alice", 19, 24, "LOC"),   # "in Paris": two fragments
    blank("doc-2", "alice"),                                                           # an empty .ann
    span("doc-1", "bob", 2, 7, "PER"), span("doc-1", "bob", 19, 24, "LOC"),           # no doc-2.ann: never saw
]
BRAT_TEXTS = {"doc-1": TEXT_1 + "\n", "doc-2": TEXT_2 + "\n"}


def test_brat_folders_rows_texts_and_skipped_lines():
    c = convert(FIXTURES / "brat" / "corpus")
    assert (c.format, c.kind) == ("brat", "spans")
    assert c.rows == BRAT_ROWS
    assert c.lengths == BRAT_TEXTS
    assert reasons(c) == {"relation: agreekit compares spans only": 1, "attribute: agreekit compares spans only": 1,
                          "note: agreekit compares spans only": 1}
    assert c.warnings[0] == "annotators are the folders alice, bob"
    assert any("1 discontinuous span(s) were split" in w for w in c.warnings)
    assert any("no .ann beside them: counted as never seen" in w and "bob/doc-2.txt" in w for w in c.warnings)
    assert any("ignored 1 other file(s): corpus/annotation.conf" in w for w in c.warnings)
    same_report("spans", c, BRAT_ROWS, BRAT_TEXTS)


def test_brat_annotator_folders_given_one_by_one_or_zipped_read_the_same():
    corpus = FIXTURES / "brat" / "corpus"
    assert convert([corpus / "alice", corpus / "bob"]).rows == BRAT_ROWS
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in sorted(corpus.rglob("*")):
            if path.is_file():
                archive.write(path, str(path.relative_to(corpus)))
    assert convert(("corpus.zip", buffer.getvalue())).rows == BRAT_ROWS


def test_brat_text_field_is_checked_against_the_txt():
    text = b"Alice met Bob.\n"
    with pytest.raises(InputError, match=r"a/d\.ann line 1: the offsets 0–5 cut out 'Alice' but .* 'Bob'"):
        convert([("a/d.ann", b"T1\tPER 0 5\tBob\n"), ("a/d.txt", text)])
    with pytest.raises(InputError, match=r"a/d\.ann line 1: the fragments cut out 'Alice Bob'"):
        convert([("a/d.ann", b"T1\tPER 0 5;10 13\tAlice met\n"), ("a/d.txt", text)])
    crlf = "line one\r\nAlice".encode()
    with pytest.raises(InputError, match="CRLF"):
        convert([("a/d.ann", b"T1\tPER 9 14\tAlice\n"), ("a/d.txt", crlf)])


def test_brat_layout_errors():
    with pytest.raises(InputError, match="one folder per annotator"):
        convert(("d.ann", b"T1\tPER 0 5\tAlice\n"))
    with pytest.raises(InputError, match=r"b/d\.txt differs from a/d\.txt"):
        convert([("a/d.ann", b""), ("a/d.txt", b"one"), ("b/d.ann", b""), ("b/d.txt", b"two")])
    with pytest.raises(InputError, match=r"a/d\.ann line 1: offsets '0 x' are not"):
        convert([("a/d.ann", b"T1\tPER 0 x\tAlice\n"), ("a/d.txt", b"Alice")])


# ============================================================ Potato

POTATO_SPANS = [
    span("doc_1", "ann_a", 0, 5, "PER"), span("doc_1", "ann_a", 14, 20, "LOC"),
    blank("doc_2", "ann_a"),                                                   # in the queue, labelled, no span
    span("doc_3", "ann_a", 0, 3, "LOC"), span("doc_3", "ann_a", 13, 17, "LOC"),  # additional_parts: two parts
    span("doc_1", "ann_b", 0, 5, "PER"),
    blank("doc_2", "ann_b"),                                                   # up to current_instance_index 1
]


def test_potato_user_state_spans_and_what_counts_as_seen():
    c = convert(FIXTURES / "potato" / "spans")
    assert (c.format, c.kind) == ("potato", "spans")
    assert c.rows == POTATO_SPANS
    assert c.lengths is None
    assert any("current_instance_index" in w for w in c.warnings)
    assert any("1 discontinuous span(s) were split" in w for w in c.warnings)
    same_report("spans", c, POTATO_SPANS)


def test_potato_jsonl_export_keeps_the_latest_record():
    c = convert(FIXTURES / "potato" / "export" / "annotations.jsonl")
    expected = [span("doc_1", "ann_a", 0, 5, "PER"), blank("doc_2", "ann_a"), span("doc_1", "ann_b", 0, 5, "PER")]
    assert c.rows == expected
    assert reasons(c) == {"superseded by a later submission of the same annotator": 1}
    assert any("record only for items an annotator annotated" in w for w in c.warnings)
    same_report("spans", c, expected)


IMAGES = FIXTURES / "potato" / "images"


def test_potato_images_hold_several_kinds():
    with pytest.raises(InputError, match="boxes and masks and polygons; choose one kind"):
        convert(IMAGES)


def test_potato_boxes_in_fractions_and_a_user_who_saw_nothing():
    c = convert(IMAGES, kind="boxes")
    # img_c holds only masks: ann_a and ann_b drew there, so they are left out, not "saw nothing" (issue 22)
    expected = [box("img_a", "ann_a", 0.1, 0.2, 0.3, 0.4, "dog"), box("img_b", "ann_a", 0.25, 0.25, 0.5, 0.5, "dog"),
                box("img_a", "ann_b", 0.12, 0.2, 0.3, 0.38, "dog"), box("img_b", "ann_b", 0.2, 0.25, 0.5, 0.55, "cat"),
                blank("img_a", "ann_c", "boxes"),             # _data "[]"
                box("img_b", "ann_c", 0.25, 0.2, 0.5, 0.5, "dog")]
    assert c.rows == expected
    assert reasons(c) == {"polygon: read with kind polygons": 2, "landmark: no agreekit kind": 1,
                          "mask: read with kind masks": 2}
    assert any("fractions of the image" in w and "img_a, img_b" in w for w in c.warnings)
    assert any("ignored 1 other file(s)" in w and "task_config.yaml" in w for w in c.warnings)
    assert any("not counted as saw nothing: ann_a on img_c, ann_b on img_c" in w for w in c.warnings)
    same_report("boxes", c, expected)


def test_potato_boxes_in_pixels_with_image_sizes():
    c = convert(IMAGES, kind="boxes", image_sizes={"img_a": (100, 50), "img_b": (10, 10)})
    got = [(r["x"], r["y"], r["w"], r["h"]) for r in c.rows if r["x"] is not None]
    want = [(10, 10, 30, 20), (2.5, 2.5, 5, 5), (12, 10, 30, 19), (2, 2.5, 5, 5.5), (2.5, 2, 5, 5)]
    assert np.allclose(got, want, rtol=0, atol=1e-12)
    assert not any("fractions of the image" in w for w in c.warnings)


@pytest.mark.parametrize("table", ["item,width,height\nimg_a,100,50\nimg_b,10,10\n",
                                   "item\twidth\theight\nimg_a\t100\t50\nimg_b\t10\t10\n",
                                   '{"img_a": [100, 50], "img_b": [10, 10]}',
                                   [{"item": "img_a", "width": 100, "height": 50},
                                    {"item": "img_b", "width": 10, "height": 10}]])
def test_potato_image_sizes_as_a_table_read_as_the_dict(table):
    # The page's field and the command line give a table (CSV/TSV or JSON text): the same rows as the dict.
    by_dict = convert(IMAGES, kind="boxes", image_sizes={"img_a": (100, 50), "img_b": (10, 10)})
    assert convert(IMAGES, kind="boxes", image_sizes=table).rows == by_dict.rows


def test_potato_image_sizes_without_their_columns_are_an_input_error():
    with pytest.raises(InputError, match="item, width, height"):
        convert(IMAGES, kind="boxes", image_sizes="name,w,h\nimg_a,100,50\n")


def test_potato_polygons():
    c = convert(IMAGES, kind="polygons")
    drawn = [(r["annotator"], r["item"], json.loads(r["points"])) for r in c.rows if r["points"]]
    assert drawn == [("ann_a", "img_a", [[0.5, 0.5], [0.9, 0.5], [0.7, 0.9]]),
                     ("ann_b", "img_a", [[0.5, 0.52], [0.9, 0.5], [0.7, 0.88]])]
    assert [(r["annotator"], r["item"]) for r in c.rows if r["points"] is None] == [("ann_c", "img_a")]  # "[]"


def test_potato_masks_row_major_runs_become_coco_column_major():
    c = convert(IMAGES, kind="masks")
    # ann_a: 2 × 3, row-major runs [1, 2, 2, 1] = rows 0 1 1 / 0 0 1; read down the columns:
    # 0 0 | 1 0 | 1 1 → column-major runs [2, 1, 1, 2].  ann_b: [1, 2, 1] stops after 4 pixels,
    # the rest background: rows 0 1 1 / 0 0 0 → columns 0 0 | 1 0 | 1 0 → [2, 1, 1, 1, 1].
    expected = [{"item": "img_c", "annotator": "ann_a", "width": 3, "height": 2,
                 "rle": rle_to_string([2, 1, 1, 2]), "label": "road"},
                {"item": "img_c", "annotator": "ann_b", "width": 3, "height": 2,
                 "rle": rle_to_string([2, 1, 1, 1, 1]), "label": "road"}]
    assert c.rows == expected
    assert decode(rle_from_string(c.rows[0]["rle"]), 2, 3).tolist() == [[False, True, True], [False, False, True]]
    assert any("1 mask(s) have runs that stop short" in w for w in c.warnings)
    assert any("1 saw-nothing row(s) left out" in w for w in c.warnings)  # ann_c's "[]" on img_a
    same_report("masks", c, expected)


def _state(user, labels, ordering=("i1",), current=0):
    return json.dumps({"user_id": user, "instance_id_ordering": list(ordering), "current_instance_index": current,
                       "instance_id_to_label_to_value": labels, "instance_id_to_span_to_value": {}}).encode()


def _data(*objects):
    return [[{"schema": "s", "name": "_data"}, json.dumps(list(objects))]]


def test_potato_errors():
    bbox = {"type": "bbox", "label": "a", "coordinates": {"x": 0.1, "y": 0.1, "width": 0.2, "height": 0.2}}
    flat = {"type": "bbox", "label": "a", "x": 10, "y": 10, "width": 20, "height": 20}
    with pytest.raises(InputError, match="mixes coordinates in fractions of the image and in pixels"):
        convert(("u/user_state.json", _state("u", {"i1": _data(bbox, flat)})))
    with pytest.raises(InputError, match=r"b/user_state\.json and a/user_state\.json both hold .* 'u'"):
        convert([("a/user_state.json", _state("u", {})), ("b/user_state.json", _state("u", {}))])
    mask = {"type": "mask", "label": "m", "rle": {"counts": [4, 4], "size": [2, 3]}}
    with pytest.raises(InputError, match=r"instance 'i1', object 1: the runs add up to 8, more than 2 × 3"):
        convert(("u/user_state.json", _state("u", {"i1": _data(mask)})))
    with pytest.raises(InputError, match=r"u/user_state\.json: not JSON"):
        convert(("u/user_state.json", _state("u", {})[:-10]))


def test_potato_multi_field_spans_and_export_images():
    def ner(start, end, field):
        return [{"schema": "ner", "name": "P", "title": "P", "start": start, "end": end, "id": field,
                 "target_field": field}, "P"]
    states = [(f"{user}/user_state.json", json.dumps(
        {"user_id": user, "instance_id_ordering": ["d1", "d2"], "current_instance_index": 1,
         "instance_id_to_label_to_value": {}, "instance_id_to_span_to_value": {"d1": [ner(0, 2, field)]}}).encode())
        for user, field in (("u", "title"), ("v", "body"))]
    assert convert(states).rows == [span("d1#title", "u", 0, 2, "P"), blank("d1#body", "u"), blank("d2", "u"),
                                    span("d1#body", "v", 0, 2, "P"), blank("d1#title", "v"), blank("d2", "v")]
    drawn = {"type": "bbox", "label": "a", "coordinates": {"x": 0.1, "y": 0.1, "width": 0.2, "height": 0.2}}
    export = jsonl({"instance_id": "i", "user_id": "u", "labels": {"obj": {"_data": json.dumps([drawn])}}},
                   {"instance_id": "i", "user_id": "v", "labels": {"obj": {"_data": "[]"}}})
    assert convert(("annotations.jsonl", export)).rows == [box("i", "u", 0.1, 0.1, 0.2, 0.2, "a"),
                                                          blank("i", "v", "boxes")]


def test_potato_user_states_win_over_an_export_beside_them():
    spans = [("ann_a/user_state.json", (FIXTURES / "potato" / "spans" / "ann_a" / "user_state.json").read_bytes()),
             ("exports/jsonl/annotations.jsonl", (FIXTURES / "potato" / "export" / "annotations.jsonl").read_bytes())]
    c = convert(spans)
    assert c.rows == POTATO_SPANS[:5]
    assert any("ignored the JSONL export(s) exports/jsonl/annotations.jsonl" in w for w in c.warnings)


# ============================================================ detection

PRIMARY = [("prodigy", "prodigy/ner_news.jsonl"), ("prodigy", "prodigy/images.jsonl"),
           ("doccano", "doccano/approved/alice.jsonl"), ("doccano", "doccano/relations/alice.jsonl"),
           ("doccano", "doccano/collaborative/all.jsonl"),
           ("potato", "potato/spans/ann_a/user_state.json"), ("potato", "potato/export/annotations.jsonl"),
           ("brat", "brat/corpus/alice/doc-1.ann"), ("brat", "brat/corpus/alice/doc-2.ann")]


@pytest.mark.parametrize("name,path", PRIMARY)
def test_each_fixture_is_its_own_format_and_no_other(name, path):
    source = Source(path, (FIXTURES / path).read_bytes())
    assert detect([source]) == name
    assert [n for n, reader in READERS.items() if reader.detect(source) is None] == [name]


@pytest.mark.parametrize("path", ["brat/corpus/alice/doc-1.txt", "brat/corpus/annotation.conf",
                                  "potato/images/annotation_output/task_config.yaml"])
def test_companion_files_alone_are_no_format(path):
    with pytest.raises(InputError, match="not a format agreekit reads. Tried"):
        detect([Source(path, (FIXTURES / path).read_bytes())])


@pytest.mark.parametrize("name,data", [("x.jsonl", b"\x00\x01\x02garbage"), ("x.ann", b"garbage line\n"),
                                       ("x.json", b'{"some": "json"}'), ("x.jsonl", b'{"text": "no labels"}\n'),
                                       ("x.jsonl", b'{"_input_hash": 1, "_task')])
def test_garbage_is_no_format(name, data):
    with pytest.raises(InputError, match="not a format agreekit reads. Tried"):
        convert((name, data))


def test_truncated_files_name_the_file_and_record():
    prodigy = (FIXTURES / "prodigy" / "ner_news.jsonl").read_bytes()
    cut = prodigy[:prodigy.index(b"\n", 10) + 40]
    with pytest.raises(InputError, match=r"ner_news\.jsonl line 2: not JSON"):
        convert(("ner_news.jsonl", cut))
    doccano = (FIXTURES / "doccano" / "approved" / "alice.jsonl").read_bytes()
    with pytest.raises(InputError, match=r"alice\.jsonl line 3: not JSON"):
        convert(("alice.jsonl", doccano[:-20]))


def test_a_file_no_format_claims_is_ignored_and_named():
    ann = ("a/d.ann", b"T1\tPER 0 5\tAlice\n")
    assert detect(load_sources([ann, ("a/notes.md", b"# notes")])) == "brat"  # issue 22: a README never blocks
    conversion = convert([ann, ("a/d.txt", b"Alice"), ("a/notes.md", b"# notes")])
    assert any("ignored 1 file(s)" in w and "a/notes.md" in w for w in conversion.warnings)
    assert "a/notes.md" not in conversion.sources
    assert detect(load_sources([ann, ("a/d.txt", b"Alice")])) == "brat"
    with pytest.raises(InputError, match=r"notes\.md: not a format agreekit reads"):
        detect(load_sources([("a/notes.md", b"# notes")]))


# ============================================================ command line

def _cli(*args):
    env = {"PYTHONPATH": str(ROOT / "pycore")}
    return subprocess.run([sys.executable, "-m", "agreekit", *args], capture_output=True, text=True, cwd=ROOT,
                          env=env)


CLI_CASES = [("prodigy", "spans", "prodigy/ner_news.jsonl", "item,annotator,start,end,label"),
             ("doccano", "spans", "doccano/approved", "item,annotator,start,end,label"),
             ("brat", "spans", "brat/corpus", "item,annotator,start,end,label"),
             ("potato", "spans", "potato/spans", "item,annotator,start,end,label")]


@pytest.mark.parametrize("name,kind,path,header", CLI_CASES)
def test_cli_report_and_convert(name, kind, path, header):
    report = _cli(kind, str(FIXTURES / path), "--json", "--bootstrap", "0")
    assert report.returncode == 0, report.stderr
    assert json.loads(report.stdout)["kind"] == kind
    assert f"imported {name}:" in report.stderr
    converted = _cli("convert", str(FIXTURES / path))
    assert converted.returncode == 0, converted.stderr
    assert converted.stdout.splitlines()[0] == header
    assert len(converted.stdout.splitlines()) == 1 + len(convert(FIXTURES / path).rows)


def test_cli_potato_boxes_and_a_refused_export():
    report = _cli("boxes", str(IMAGES), "--bootstrap", "0")
    assert report.returncode == 0, report.stderr
    assert "agreekit boxes: 2 comparable items, 3 annotators, 5 boxes" in report.stdout  # img_c: masks only
    refused = _cli("convert", str(FIXTURES / "doccano" / "collaborative"))
    assert refused.returncode == 2 and "all.jsonl" in refused.stderr


# ============================================================ round trips

def _write_brat(rows, texts):
    files = []
    for annotator in sorted({r["annotator"] for r in rows}):
        for item in texts:
            mine = [r for r in rows if r["annotator"] == annotator and r["item"] == item]
            if not mine:
                continue
            lines = [f"T{k}\t{r['label']} {r['start']} {r['end']}\t"
                     + texts[item][r["start"]:r["end"]].replace("\n", " ")
                     for k, r in enumerate((r for r in mine if r["start"] is not None), start=1)]
            files.append((f"{annotator}/{item}.ann", "".join(line + "\n" for line in lines).encode()))
            files.append((f"{annotator}/{item}.txt", texts[item].encode()))
    return files


def _write_doccano(rows, texts):
    files = []
    for annotator in sorted({r["annotator"] for r in rows}):
        records = [{"id": item, "text": texts[item],
                    "label": [[r["start"], r["end"], r["label"]] for r in rows
                              if r["annotator"] == annotator and r["item"] == item and r["start"] is not None]}
                   for item in texts if any(r["annotator"] == annotator and r["item"] == item for r in rows)]
        files.append((f"{annotator}.jsonl", jsonl(*records)))
    return files


def _write_prodigy(rows, texts):
    records = []
    for annotator in sorted({r["annotator"] for r in rows}):
        for item in texts:
            mine = [r for r in rows if r["annotator"] == annotator and r["item"] == item]
            if mine:
                spans = [{"start": r["start"], "end": r["end"], "label": r["label"],
                          "text": texts[item][r["start"]:r["end"]]} for r in mine if r["start"] is not None]
                records.append({"text": texts[item], "_input_hash": int(item), "_task_hash": 1, "spans": spans,
                                "answer": "accept", "_annotator_id": annotator})
    return [("db.jsonl", jsonl(*records))]


WRITERS = {"brat": _write_brat, "doccano": _write_doccano, "prodigy": _write_prodigy}
ALPHABET = st.sampled_from(list("ab c😀é\u0301\n"))


@st.composite
def span_corpora(draw):
    """Texts with emoji and combining marks, and each annotator's spans (or nothing) on some of them."""
    texts = {str(k): draw(st.text(ALPHABET, min_size=1, max_size=12)) for k in range(1, draw(st.integers(1, 3)) + 1)}
    rows = []
    for annotator in draw(st.sets(st.sampled_from(["ann1", "ann2", "ann3"]), min_size=1)):
        for item, text in texts.items():
            if not draw(st.booleans()):
                continue
            bounds = draw(st.lists(st.tuples(st.integers(0, len(text)), st.integers(0, len(text))), max_size=3))
            spans = sorted({(min(b), max(b)) for b in bounds if min(b) < max(b)})
            labels = draw(st.lists(st.sampled_from(["PER", "LOC"]), min_size=len(spans), max_size=len(spans)))
            rows += [span(item, annotator, s, e, label) for (s, e), label in zip(spans, labels)] or \
                [blank(item, annotator)]
    return rows, texts


def _ordered(rows):
    return sorted(rows, key=lambda r: (r["annotator"], r["item"], r["start"] is not None, r["start"] or 0,
                                       r["end"] or 0, r["label"] or ""))


@pytest.mark.parametrize("name", sorted(WRITERS))
@settings(max_examples=60, deadline=None)
@given(corpus=span_corpora())
def test_round_trip(name, corpus):
    rows, texts = corpus
    assume(rows)
    conversion = convert(WRITERS[name](rows, texts), format=name)
    assert _ordered(conversion.rows) == _ordered(rows)
    assert conversion.lengths == {item: text for item, text in texts.items() if any(r["item"] == item for r in rows)}
