"""Exports that were read without an error but gave wrong numbers (issue 22), one regression test each.

Every fixture under tests/fixtures/formats/ used here was written for these tests in the
shape the tool exports (see docs/import.md); each test fails on the misreading it guards.
"""
import io
import json
import zipfile
from pathlib import Path

import pytest

import agreekit

from agreekit.formats import convert
from agreekit.rows import InputError

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "formats"


def annotators(conversion):
    return sorted({row["annotator"] for row in conversion.rows})


# ----------------------------------------------------------------- hidden folders

def test_hidden_folders_of_a_folder_are_not_annotators():
    conversion = convert(FIXTURES / "misreads" / "coco" / "hidden_folders")
    assert annotators(conversion) == ["alice", "bob"]
    assert not any(".ipynb_checkpoints" in name or "__MACOSX" in name for name in conversion.sources)


def test_hidden_folders_of_a_zip_are_not_annotators():
    folder = FIXTURES / "misreads" / "coco" / "hidden_folders"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in ("alice.json", "bob.json"):
            archive.writestr(f"export/{name}", (folder / name).read_bytes())
            checkpoint = (folder / ".ipynb_checkpoints" / "alice-checkpoint.json").read_bytes()
            archive.writestr(f"export/.git/{name}", checkpoint)
        archive.writestr("export/.ipynb_checkpoints/alice-checkpoint.json",
                         (folder / ".ipynb_checkpoints" / "alice-checkpoint.json").read_bytes())
        archive.writestr("__MACOSX/export/._alice.json", (folder / "__MACOSX" / "._bob.json").read_bytes())
    conversion = convert([("export.zip", buffer.getvalue())])
    assert annotators(conversion) == ["alice", "bob"]
    assert conversion.summary()["n_saw_nothing"] == 0


# ----------------------------------------------------------------- COCO

COCO = FIXTURES / "misreads" / "coco"


def test_coco_iscrowd_written_as_a_string_is_read_as_its_value():
    conversion = convert(COCO / "iscrowd_strings.json", kind="boxes")
    assert [(r["annotator"], r["x"]) for r in conversion.rows] == [("alice", 20), ("bob", 22)]
    assert conversion.summary()["skipped"] == {"crowd region (iscrowd 1)": 1}


def test_coco_iscrowd_that_is_no_flag_is_an_error_naming_it():
    data = (COCO / "iscrowd_strings.json").read_text().replace('"iscrowd": "false"', '"iscrowd": "maybe"')
    with pytest.raises(InputError, match=r"annotations\[1\].*'iscrowd' must be 0 or 1, found 'maybe'"):
        convert([("iscrowd.json", data.encode())], kind="boxes")


def test_coco_mask_without_counts_is_an_error_not_an_empty_mask():
    with pytest.raises(InputError, match=r"annotations\[1\] \(id 2\).*needs 'counts'"):
        convert(COCO / "mask_without_counts.json", kind="masks")


def test_coco_flat_segmentation_is_one_polygon():
    conversion = convert(COCO / "flat_segmentation.json", kind="polygons")
    assert [(r["annotator"], r["points"]) for r in conversion.rows] == [
        ("alice", "20 20 80 20 80 60 20 60"), ("bob", "22 20 82 20 82 60 22 60")]
    assert conversion.skipped == []


# ----------------------------------------------------------------- TextGrid: the clip's length

TEXTGRID = FIXTURES / "misreads" / "textgrid" / "trailing_silence"


def test_textgrid_xmax_is_the_clip_duration_given_to_the_report():
    import agreekit

    conversion = convert(TEXTGRID)
    assert conversion.durations == {"clip7": 10.0}
    assert conversion.options() == {"durations": {"clip7": 10.0}}
    report = agreekit.KINDS["segments"].function(conversion.rows, bootstrap=0, **conversion.options()).to_dict()
    assert report["unitizing_alpha"]["length"] == 10.0  # not 3.5, the last segment end
    assert report["unitizing_alpha"]["assumption"] is None


def test_textgrid_files_that_disagree_on_the_duration_keep_the_longest_and_say_so():
    text = (TEXTGRID / "clip7.TextGrid").read_text()
    shorter = text.replace("xmax = 10 ", "xmax = 8 ").replace("xmin = 3.5 \n            xmax = 8",
                                                              "xmin = 3.5 \n            xmax = 8")
    conversion = convert([("a/clip7_alice.TextGrid", text.encode()), ("b/clip7_bob.TextGrid", shorter.encode())],
                         annotator="file")
    assert conversion.durations == {"clip7": 10.0}
    assert any("different durations" in w and "clip7_bob.TextGrid: 8 s" in w for w in conversion.warnings)


def test_convert_json_carries_the_durations(capsys):
    import json

    from agreekit.cli import main

    assert main(["convert", str(TEXTGRID), "--to", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["durations"] == {"clip7": 10.0}


# ----------------------------------------------------------------- Prodigy

PRODIGY = FIXTURES / "misreads" / "prodigy"


def test_prodigy_task_with_only_polygons_is_not_a_saw_nothing_box_row():
    conversion = convert(PRODIGY / "polygons_and_boxes.jsonl", kind="boxes")
    pairs = {(r["item"], r["annotator"]) for r in conversion.rows}
    assert ("12", "yard-alice") not in pairs  # drew a polygon: not "looked and drew nothing"
    assert {("13", "yard-alice"), ("13", "yard-bob")} <= pairs  # empty spans: saw nothing, as exported
    assert conversion.summary()["n_saw_nothing"] == 2
    assert conversion.summary()["skipped"] == {"polygon: read with kind polygons": 1}
    assert any("yard-alice on 12" in w and "left out" in w for w in conversion.warnings)


def test_prodigy_relations_are_counted_as_skipped():
    conversion = convert(PRODIGY / "relations.jsonl")
    assert len(conversion.rows) == 4
    assert [(s.where, s.reason) for s in conversion.skipped] == [
        ("relations.jsonl line 1, relation 1", "a relation between spans (relations are not read)")]


@pytest.mark.parametrize("name", ["textcat_choice.jsonl", "entity_links.jsonl"])
def test_prodigy_choice_answers_are_refused_as_spans(name):
    with pytest.raises(InputError, match="no spans annotations.*choice answer"):
        convert(PRODIGY / name, kind="spans")


def test_prodigy_choice_answers_alone_read_as_labels():
    # A choice task answers the question "choice" about its input (_input_hash), its accepted options the labels.
    textcat = convert(PRODIGY / "textcat_choice.jsonl")
    assert textcat.kind == "labels"
    assert [(r["item"], r["annotator"], r["label"]) for r in textcat.rows] == [
        ("31", "tc-alice", "POSITIVE"), ("31", "tc-bob", "POSITIVE"), ("32", "tc-alice", "NEGATIVE")]
    assert textcat.summary()["skipped"] == {"an empty answer (no label chosen: not rated)": 1}  # bob on 32
    report = agreekit.report("labels", textcat.rows, bootstrap=0).to_dict()
    assert report == agreekit.report("labels", "item,annotator,label\n31,tc-alice,POSITIVE\n31,tc-bob,POSITIVE\n"
                                     "32,tc-alice,NEGATIVE\n", bootstrap=0).to_dict()


def test_prodigy_entity_linking_choices_are_about_a_span_not_read_as_labels():
    # An entity-linking choice answers about one mention, not the whole input: not a label of the item.
    with pytest.raises(InputError, match="no accepted answer about whole items"):
        convert(PRODIGY / "entity_links.jsonl", kind="labels")


# ----------------------------------------------------------------- Label Studio: regions skipped are not "saw nothing"

def test_labelstudio_rotated_rectangle_read_as_boxes_is_left_out_not_saw_nothing():
    conversion = convert(FIXTURES / "misreads" / "labelstudio" / "rotated_boxes.json", kind="boxes")
    pairs = {(r["item"], r["annotator"]): r["x"] for r in conversion.rows}
    assert ("dock_02.jpg", "7") not in pairs  # drew a rotated rectangle
    assert pairs[("dock_02.jpg", "9")] is None  # submitted an empty result: saw nothing, as exported
    assert pairs[("dock_03.jpg", "7")] is None  # only a whole-image choice, no region: saw nothing
    assert conversion.summary()["n_saw_nothing"] == 2
    assert any("not counted as saw nothing (task 102 annotation 4)" in w for w in conversion.warnings)


def test_elan_annotator_whose_annotations_are_all_unaligned_is_left_out_not_saw_nothing():
    conversion = convert(FIXTURES / "misreads" / "elan" / "unaligned.eaf")
    assert annotators(conversion) == ["ana", "cy", "dee"]  # ben's one annotation has no time: not "saw nothing"
    assert [r["annotator"] for r in conversion.rows if r["start"] is None] == ["dee"]  # an empty tier is
    assert conversion.summary()["skipped"] == {"unaligned time slot with no aligned slot on one side": 1}
    assert any("ben on interview_4" in w and "not counted as saw nothing" in w for w in conversion.warnings)


# ----------------------------------------------------------------- Potato: answers that are not spans

def test_potato_classification_only_export_is_refused_as_spans_saying_what_it_holds():
    with pytest.raises(InputError, match=r"label answers \(schemas agreement, sentiment, on 4 .*no spans: convert "
                                         r"with --kind labels"):
        convert(FIXTURES / "misreads" / "potato" / "classification", kind="spans")


def test_potato_classification_only_export_reads_as_labels_one_question_at_a_time():
    with pytest.raises(InputError, match=r"2 questions: 'sentiment' \(4 answers\), 'agreement' \(4 answers\).*"
                                         r"--option question=NAME"):
        convert(FIXTURES / "misreads" / "potato" / "classification")
    sentiment = convert(FIXTURES / "misreads" / "potato" / "classification", question="sentiment")
    assert sentiment.kind == "labels"
    assert [(r["item"], r["annotator"], r["label"]) for r in sentiment.rows] == [
        ("tweet_1", "ann_a", "positive"), ("tweet_2", "ann_a", "negative"),
        ("tweet_1", "ann_b", "neutral"), ("tweet_2", "ann_b", "negative")]
    summary = sentiment.summary()
    assert summary["n_annotations"] == 4 and summary["n_saw_nothing"] == 0 and summary["skipped"] == {}
    likert = convert(FIXTURES / "misreads" / "potato" / "classification", question="agreement")
    assert [r["label"] for r in likert.rows] == ["4", "2", "3", "1"]  # the likert value, not its option name
    rows = "item,annotator,label\ntweet_1,ann_a,4\ntweet_2,ann_a,2\ntweet_1,ann_b,3\ntweet_2,ann_b,1\n"
    assert agreekit.report("labels", likert.rows, level="ordinal", bootstrap=0).to_dict() == \
        agreekit.report("labels", rows, level="ordinal", bootstrap=0).to_dict()
    with pytest.raises(InputError, match=r"no question 'mood'; the files answer 'sentiment' \(4 answers\), "
                                         r"'agreement'"):
        convert(FIXTURES / "misreads" / "potato" / "classification", question="mood")


def _potato_state(user, answers):
    return json.dumps({"user_id": user, "instance_id_ordering": list(answers), "current_instance_index": 0,
                       "instance_id_to_label_to_value": answers, "instance_id_to_span_to_value": {}}).encode()


def test_potato_multiselect_answers_are_a_label_set_and_unticked_boxes_no_label():
    a = {"t1": [[{"schema": "topics", "name": "sport"}, "true"], [{"schema": "topics", "name": "money"}, "true"]],
         "t2": [[{"schema": "topics", "name": "sport"}, "true"], [{"schema": "topics", "name": "money"}, "false"]]}
    b = {"t1": {"topics": {"sport": "true"}}, "t2": {"topics": {"sport": "true"}}}  # the older {schema: {name}} shape
    conversion = convert([("out/a/user_state.json", _potato_state("a", a)),
                          ("out/b/user_state.json", _potato_state("b", b))])
    assert [(r["item"], r["annotator"], r["label"]) for r in conversion.rows] == [
        ("t1", "a", "sport"), ("t1", "a", "money"), ("t2", "a", "sport"), ("t1", "b", "sport"), ("t2", "b", "sport")]
    assert any("1 answer(s) hold several labels" in w and "level set" in w
               for w in conversion.warnings)
    report = agreekit.report("labels", conversion.rows, level="set", bootstrap=0).to_dict()
    rows = "item,annotator,label\nt1,a,sport\nt1,a,money\nt2,a,sport\nt1,b,sport\nt2,b,sport\n"
    assert report == agreekit.report("labels", rows, level="set", bootstrap=0).to_dict()


def test_potato_spans_beside_label_answers_are_still_read():
    conversion = convert(FIXTURES / "potato" / "spans")  # one item holds a 'quality' answer, others spans
    assert conversion.kind == "spans" and conversion.summary()["n_annotations"] > 0


# ----------------------------------------------------------------- dict rows: the order does not decide

BOX = {"item": "i", "annotator": "a", "x": 1, "y": 1, "w": 2, "h": 2, "label": "c"}
CUBOID = {"item": "i", "annotator": "a", "cx": 0, "cy": 0, "cz": 0, "sx": 1, "sy": 1, "sz": 1,
          "qx": 0, "qy": 0, "qz": 0, "qw": 1, "label": "c"}


@pytest.mark.parametrize("kind, full, first_column", [("boxes", BOX, "x"), ("cuboids", CUBOID, "cx")])
def test_dict_row_without_geometry_is_the_same_error_in_any_order(kind, full, first_column):
    import itertools

    import agreekit

    rows = [full, {"item": "i", "annotator": "b"}, {**full, "annotator": "c"}]
    for order in itertools.permutations(range(3)):
        with pytest.raises(InputError, match="missing column") as error:
            agreekit.report(kind, [rows[k] for k in order], bootstrap=0)
        assert error.value.column == first_column and error.value.line == order.index(1) + 1


# ----------------------------------------------------------------- readable data refused before

def test_doccano_1x_export_with_data_instead_of_text_is_read():
    conversion = convert(FIXTURES / "misreads" / "doccano" / "version1")
    assert conversion.format == "doccano"
    assert {(r["item"], r["annotator"], r["start"], r["end"], r["label"]) for r in conversion.rows} == {
        ("11", "maria", 0, 6, "ORG"), ("11", "maria", 16, 22, "LOC"), ("11", "tomas", 0, 6, "ORG"),
        ("12", "maria", None, None, None), ("12", "tomas", None, None, None)}
    assert conversion.lengths == {"11": "Globex opened in Lisbon.", "12": "No names here."}


def test_a_folder_with_a_readme_license_and_uem_is_detected_and_they_are_named():
    conversion = convert(FIXTURES / "misreads" / "coco" / "with_readme")
    assert conversion.format == "coco" and annotators(conversion) == ["alice", "bob"]
    [warning] = [w for w in conversion.warnings if w.startswith("ignored")]
    assert all(name in warning for name in ("README.md", "LICENSE", "all.uem"))


def test_files_in_two_formats_are_named_in_the_error():
    coco = (FIXTURES / "misreads" / "coco" / "with_readme" / "alice.json").read_bytes()
    rttm = b"SPEAKER rec 1 0.5 1.0 <NA> <NA> alice <NA> <NA>\n"
    with pytest.raises(InputError, match=r"different formats \(coco: x/alice\.json; rttm: x/rec\.rttm\)"):
        convert([("x/alice.json", coco), ("x/rec.rttm", rttm)])


def test_cvat_project_subsets_sharing_an_image_name_are_items_of_their_subset():
    conversion = convert(FIXTURES / "misreads" / "cvat" / "project_subsets.xml")
    assert [(r["item"], r["x"]) for r in conversion.rows] == [
        ("Train/frame_001.jpg", 4.0), ("Validation/frame_001.jpg", 30.0), ("frame_002.jpg", None)]


def test_labelstudio_csv_export_is_detected_and_read_as_its_json_min():
    import csv

    path = FIXTURES / "misreads" / "labelstudio" / "project_export.csv"
    conversion = convert(path)
    assert conversion.format == "labelstudio" and conversion.kind == "boxes"
    with path.open(newline="") as handle:  # the same records as JSON_MIN: empty cells left out, lists parsed
        records = [{k: json.loads(v) if v.startswith("[") else v for k, v in row.items() if v}
                   for row in csv.DictReader(handle)]
    as_min = convert([("project_export.json", json.dumps(records).encode())])
    assert conversion.rows == as_min.rows
    assert [(r["item"], r["annotator"], r["x"]) for r in conversion.rows] == [
        ("dock_01.jpg", "ines@example.org", 40), ("dock_01.jpg", "omar@example.org", 44),
        ("dock_02.jpg", "ines@example.org", 120), ("dock_02.jpg", "omar@example.org", None)]
