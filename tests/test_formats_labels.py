"""Answers about whole items read as ``labels`` rows from the tools' exports (issue 23).

Fixtures (tests/fixtures/formats/labels/) are hand-made in each tool's export shape; each test names
the rows the shape must give, the question chosen, and what the other reading would find.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import agreekit
from agreekit.formats import convert
from agreekit.rows import InputError
from test_formats_fuzz import FUZZ, _converted, _mutated_sources

LABELS = Path(__file__).resolve().parent / "fixtures" / "formats" / "labels"
LS = LABELS / "labelstudio_answers.json"
POTATO = LABELS / "potato"


def triples(conversion):
    return sorted((r["item"], r["annotator"], r["label"]) for r in conversion.rows)


# ----------------------------------------------------------------- Label Studio

@pytest.mark.parametrize("question, expected", [
    ("blurry", [("img_a.jpg", "1", "yes"), ("img_a.jpg", "2", "yes"), ("img_b.jpg", "1", "no"),
                ("img_c.jpg", "1", "no"), ("img_c.jpg", "2", "yes")]),
    ("topics", [("img_a.jpg", "1", "dog"), ("img_a.jpg", "1", "park"), ("img_a.jpg", "2", "dog")]),
    ("quality", [("img_a.jpg", "1", "4"), ("img_a.jpg", "2", "5"), ("img_b.jpg", "1", "2")]),
    ("species", [("img_a.jpg", "1", "Animal/Mammal/Dog"), ("img_a.jpg", "2", "Animal/Mammal/Dog"),
                 ("img_a.jpg", "2", "Animal/Mammal/Wolf")]),
    ("count", [("img_a.jpg", "1", "2"), ("img_a.jpg", "2", "2")]),  # 2 and 2.0: one label
])
def test_labelstudio_choices_rating_taxonomy_number_are_labels_of_the_chosen_control(question, expected):
    conversion = convert(LS, kind="labels", question=question)
    assert conversion.kind == "labels" and triples(conversion) == expected
    summary = conversion.summary()
    assert summary["n_annotations"] == len(expected) and summary["n_saw_nothing"] == 0
    assert summary["also_holds"] == ["the files also hold 2 region(s) of kind boxes: convert with --kind boxes"]
    # the per-region choice (same id as the rectangle), the TextArea and the Skip are left out, each said why
    assert summary["skipped"] == {"cancelled (the annotator pressed Skip)": 1,
                                  "a per-region answer (about one region, not the whole task)": 1,
                                  "a free-text answer (TextArea), not a label": 1}


def test_labelstudio_several_controls_and_none_chosen_is_refused_listing_them():
    with pytest.raises(InputError, match=r"5 questions: 'blurry' \(5 answers\), 'topics' \(2 answers\), "
                                         r"'quality' \(3 answers\).*question=blurry") as error:
        convert(LS, kind="labels")
    assert error.value.column == "question"


def test_labelstudio_unknown_question_lists_the_questions():
    with pytest.raises(InputError, match=r"no question 'mood'; the files answer 'blurry'"):
        convert(LS, kind="labels", question="mood")


def test_labelstudio_geometry_reading_says_the_file_also_holds_answers():
    conversion = convert(LS)
    assert conversion.kind == "boxes" and conversion.summary()["n_annotations"] == 2  # the two rectangles
    assert conversion.summary()["also_holds"] == [
        "the files also hold 14 Choices/Rating/Taxonomy/Number answers to 5 question(s) about whole items "
        "(blurry (5), topics (2), quality (3), species (2), count (2)): convert with --kind labels"]


def test_labelstudio_multiple_choice_reads_as_a_set_and_the_report_runs():
    conversion = convert(LS, kind="labels", question="topics")
    assert any("read them with level set" in w for w in conversion.warnings)
    report = agreekit.labels(conversion.rows, level="set", bootstrap=0)
    assert report["n_items"] == 1 and report["n_ratings"] == 2  # one set per annotator


def test_labelstudio_answers_alone_read_as_labels_without_kind():
    only = [(LS.name, LS.read_bytes().replace(b'"rectanglelabels"', b'"textarea"'))]
    conversion = convert(only, question="blurry")
    assert conversion.kind == "labels" and len(conversion.rows) == 5


def test_labelstudio_a_rating_that_is_not_a_number_names_the_field():
    bad = LS.read_bytes().replace(b'{"rating": 4}', b'{"rating": "four"}')
    with pytest.raises(InputError, match=r"labelstudio_answers.json: task 1, annotation 11, result r1: 'rating' must "
                                         r"be a finite number"):
        convert([(LS.name, bad)], kind="labels", question="quality")


# ----------------------------------------------------------------- Potato

@pytest.mark.parametrize("question, expected", [
    ("sentiment", [("post_1", "ann_a", "positive"), ("post_1", "ann_b", "positive"), ("post_2", "ann_a", "negative"),
                   ("post_2", "ann_b", "neutral"), ("post_3", "ann_a", "neutral")]),
    ("topics", [("post_1", "ann_a", "politics"), ("post_1", "ann_a", "sports"), ("post_1", "ann_b", "sports"),
                ("post_2", "ann_a", "politics"), ("post_2", "ann_b", "politics")]),  # "false" is not chosen
    ("agreement", [("post_1", "ann_a", "4"), ("post_1", "ann_b", "5"), ("post_2", "ann_a", "2"),
                   ("post_2", "ann_b", "2")]),  # likert: the scale point's value, not "scale_4"
    ("confidence", [("post_1", "ann_a", "70"), ("post_1", "ann_b", "80"), ("post_2", "ann_a", "35.5")]),
])
def test_potato_radio_multiselect_likert_slider_are_labels(question, expected):
    conversion = convert(POTATO, kind="labels", question=question)
    assert triples(conversion) == expected
    assert conversion.summary()["also_holds"] == ["the files also hold 1 span(s): convert with --kind spans"]
    assert conversion.summary()["skipped"] == {}


def test_potato_text_box_is_skipped_not_read_as_a_label():
    with pytest.raises(InputError, match=r"no labels annotations .*a free-text answer \(text_box\)"):
        convert(POTATO, kind="labels", question="comment")


def test_potato_spans_reading_says_the_files_also_hold_answers():
    conversion = convert(POTATO)
    assert conversion.kind == "spans"
    assert "answers to 5 question(s) about whole items (sentiment (5), topics (4), agreement (4), confidence (3), " \
           "comment (1)): convert with --kind labels" in conversion.summary()["also_holds"][0]


def test_potato_jsonl_export_gives_the_same_labels_as_the_user_states():
    exported = convert(LABELS / "potato_export.jsonl", kind="labels", question="topics")
    states = convert(POTATO, kind="labels", question="topics")
    assert triples(exported) == triples(states)


# ----------------------------------------------------------------- Prodigy

def test_prodigy_binary_textcat_accept_is_the_label_and_reject_is_not_the_label():
    conversion = convert(LABELS / "prodigy_textcat.jsonl", kind="labels", question="SPORTS")
    assert triples(conversion) == [("101", "news-alice", "SPORTS"), ("101", "news-bob", "SPORTS"),
                                   ("102", "news-alice", "not SPORTS"), ("102", "news-bob", "SPORTS"),
                                   ("103", "news-bob", "not SPORTS")]  # alice ignored 103: not rated
    assert conversion.summary()["skipped"] == {"ignored in Prodigy (counted as never seen)": 1}


def test_prodigy_each_binary_label_is_a_question_and_none_chosen_is_refused():
    with pytest.raises(InputError, match=r"2 questions: 'SPORTS' \(5 answers\), 'POLITICS' \(1 answer\)"):
        convert(LABELS / "prodigy_textcat.jsonl")  # binary tasks only: labels without asking
    assert triples(convert(LABELS / "prodigy_textcat.jsonl", question="POLITICS")) == [
        ("102", "news-alice", "POLITICS")]


def test_prodigy_binary_task_read_as_spans_points_to_labels():
    with pytest.raises(InputError, match="binary 'classification' task .*convert with --kind labels"):
        convert(LABELS / "prodigy_textcat.jsonl", kind="spans")


def test_prodigy_choice_tasks_accepted_ids_are_a_label_set_latest_answer_kept():
    conversion = convert(LABELS / "prodigy_choice.jsonl")
    assert conversion.kind == "labels"
    assert triples(conversion) == [("301", "asp-alice", "FOOD"), ("301", "asp-alice", "SERVICE"),
                                   ("301", "asp-bob", "FOOD"), ("302", "asp-alice", "PRICE"),
                                   ("302", "asp-alice", "SERVICE")]
    assert conversion.summary()["skipped"] == {"rejected in Prodigy, a bad example (counted as never seen)": 1,
                                               "an earlier answer by the same annotator": 1}


def test_prodigy_entity_linking_choice_is_about_a_span_not_the_item():
    with pytest.raises(InputError, match="no accepted answer about whole items"):
        convert(LABELS.parent / "misreads" / "prodigy" / "entity_links.jsonl", kind="labels")


# ----------------------------------------------------------------- doccano

def test_doccano_categories_per_member_file_are_labels_empty_is_not_rated():
    conversion = convert(LABELS / "doccano_categories")
    assert conversion.kind == "labels"
    assert triples(conversion) == [("21", "maria", "negative"), ("21", "tomas", "negative"),
                                   ("22", "maria", "negative"), ("22", "maria", "positive"),
                                   ("22", "tomas", "positive"), ("23", "tomas", "neutral")]
    assert conversion.summary()["skipped"] == {"an empty answer (no label chosen: not rated)": 1}
    assert any("read them with level set (maria on 22)" in w for w in conversion.warnings)


def test_doccano_cats_object_keeps_the_true_and_high_scored_categories():
    assert triples(convert(LABELS / "doccano_cats.jsonl")) == [("31", "doccano_cats", "WEATHER"),
                                                               ("32", "doccano_cats", "SPORTS")]


def test_doccano_spans_read_as_labels_say_so():
    with pytest.raises(InputError, match="'label' holds spans, not categories .*--kind spans"):
        convert(LABELS.parent / "doccano" / "all_documents", kind="labels")


def test_doccano_collaborative_all_jsonl_is_refused_for_labels_too():
    data = (LABELS / "doccano_categories" / "maria.jsonl").read_bytes()
    with pytest.raises(InputError, match="all.jsonl"):
        convert([("export/all.jsonl", data)], kind="labels")


# ----------------------------------------------------------------- CVAT

def test_cvat_image_tags_are_labels_of_the_jobs_assignee():
    conversion = convert(LABELS / "cvat_tags", kind="labels")
    assert triples(conversion) == [("img_a.jpg", "alice", "blurry"), ("img_a.jpg", "alice", "outdoor"),
                                   ("img_a.jpg", "bob", "outdoor"), ("img_b.jpg", "alice", "indoor"),
                                   ("img_b.jpg", "bob", "outdoor"), ("img_c.jpg", "bob", "indoor")]
    assert conversion.summary()["skipped"] == {"an empty answer (no label chosen: not rated)": 1}  # alice, img_c
    assert conversion.summary()["also_holds"] == ["the files also hold 1 shape(s) of kind boxes: convert with "
                                                  "--kind boxes"]


def test_cvat_boxes_reading_says_the_files_also_hold_tags():
    conversion = convert(LABELS / "cvat_tags")
    assert conversion.kind == "boxes"
    assert conversion.summary()["also_holds"] == ["the files also hold 6 image tag(s) (<tag>): convert with "
                                                  "--kind labels"]


def test_cvat_tags_alone_read_as_labels_and_a_tag_without_label_is_named():
    source = (LABELS / "cvat_tags" / "replica_bob.xml")
    assert convert(source).kind == "labels"
    bad = source.read_bytes().replace(b'<tag label="indoor"', b'<tag label=""')
    with pytest.raises(InputError, match=r"replica_bob.xml: image 2 \(img_c.jpg\) <tag> 0: a tag needs a 'label'"):
        convert([("replica_bob.xml", bad)])


def test_coco_has_no_image_level_label_shape_to_read():
    from agreekit.formats import READERS
    assert "labels" not in READERS["coco"].kinds  # COCO's categories name objects' classes, not answers about images


# ----------------------------------------------------------------- fuzz: rows or an InputError, never a traceback

LABEL_EXPORTS = [("labelstudio", "labelstudio_answers.json", "blurry"), ("potato", "potato", "topics"),
                 ("potato", "potato_export.jsonl", "agreement"), ("prodigy", "prodigy_textcat.jsonl", "SPORTS"),
                 ("prodigy", "prodigy_choice.jsonl", None), ("doccano", "doccano_categories", None),
                 ("doccano", "doccano_cats.jsonl", None), ("cvat", "cvat_tags", None)]


@pytest.mark.parametrize("format, fixture, question", LABEL_EXPORTS, ids=[f"{f}:{p}" for f, p, _ in LABEL_EXPORTS])
@FUZZ
@given(data=st.data())
def test_any_mutation_of_a_label_export_gives_rows_or_an_input_error(format, fixture, question, data):
    sources = _mutated_sources(LABELS / fixture, data.draw)
    try:
        convert(sources, format=format, kind="labels", question=question)
    except InputError as error:
        assert str(error)
    _converted(sources, format)  # the default reading of the same bytes: rows or an InputError too


# ----------------------------------------------------------------- command line

def test_the_labels_command_reads_an_export_with_the_question_chosen(capsys):
    from agreekit.cli import main

    assert main(["labels", str(LS), "--option", "question=quality", "--level", "ordinal", "--bootstrap", "0",
                 "--json"]) == 0
    out, err = capsys.readouterr()
    import json
    report = json.loads(out)
    assert report["n_ratings"] == 3 and report["settings"]["level"] == "ordinal"
    assert "note: the files also hold 2 region(s) of kind boxes: convert with --kind boxes" in err
    assert main(["labels", str(LS), "--bootstrap", "0"]) == 2
    assert "choose one with --option question=NAME" in capsys.readouterr().err


def test_a_format_option_on_a_plain_table_is_refused(tmp_path, capsys):
    from agreekit.cli import main

    table = tmp_path / "rows.csv"
    table.write_text("item,annotator,label\na,1,x\na,2,x\n")
    assert main(["labels", str(table), "--option", "question=q"]) == 2
    assert "is an option of an export format" in capsys.readouterr().err


def test_every_format_reading_labels_declares_the_option_question(capsys):
    from agreekit.cli import main
    from agreekit.formats import READERS
    from agreekit.formats.format_options import reader_options

    readers = {name for name, reader in READERS.items() if "labels" in reader.kinds}
    assert readers == {name for name, reader in READERS.items() if "question" in reader_options(reader)}
    assert readers == {"labelstudio", "potato", "prodigy", "doccano", "cvat"}
    with pytest.raises(SystemExit):
        main(["convert", "--help"])
    assert "question: Question read as labels" in capsys.readouterr().out
