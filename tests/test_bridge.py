"""web/bridge.py in CPython: reports, input errors and bugs all come back to the page as JSON data, in one shape.

Every entry point answers ``{"ok": true, "result": …}`` or ``{"ok": false, "error": {"type", "message", "where"}}``
(web/protocol.mjs).
"""
from __future__ import annotations

import csv
import dataclasses
import io
import json
from pathlib import Path

import pytest

import agreekit
from agreekit import registry
from web_modules import load_web_module

ROOT = Path(__file__).resolve().parents[1]
BOXES = "item,annotator,x,y,w,h,label\ni1,a,0,0,10,10,car\ni1,b,1,1,10,10,car\ni2,a,5,5,4,4,car\ni2,b,5,5,4,5,car\n"


@pytest.fixture(scope="module")
def bridge():
    return load_web_module("bridge.py", "agreekit_bridge")


def run(bridge, kind, rows, options=None, progress=None):
    return json.loads(bridge.run_report(kind, rows, json.dumps(options or {}), progress))


def break_kind(monkeypatch, kind, failure):
    """Replace ``kind``'s report function by one that fails like a bug would."""
    def broken(rows, **options):
        raise failure
    monkeypatch.setitem(registry.KINDS, kind, dataclasses.replace(registry.KINDS[kind], function=broken))


def test_a_report_comes_back_as_its_dict(bridge):
    outcome = run(bridge, "boxes", BOXES, {"bootstrap": 20, "seed": 3})
    assert outcome == {"ok": True, "result": agreekit.report("boxes", BOXES, bootstrap=20, seed=3).to_dict()}


def test_progress_reaches_kinds_that_report_it(bridge):
    calls = []
    run(bridge, "boxes", BOXES, {"bootstrap": 20}, progress=lambda done, total, stage: calls.append((done, total)))
    assert calls and all(done <= total for done, total in calls)


@pytest.mark.parametrize("kind, rows, options, column", [
    ("boxes", BOXES.replace("i1,b,1,", "i1,b,one,"), {}, "x"),
    ("boxes", BOXES, {"bootstrap": -1}, "bootstrap"),
    ("boxes", BOXES, {"no_such_option": 1}, "no_such_option"),
    ("voxels", BOXES, {}, "kind"),
])
def test_input_errors_name_where(bridge, kind, rows, options, column):
    outcome = run(bridge, kind, rows, options)
    assert outcome["ok"] is False
    error = outcome["error"]
    assert error["type"] == "input" and error["where"]["column"] == column
    with pytest.raises(agreekit.InputError) as caught:  # the API's own error, as data
        agreekit.report(kind, rows, **options)
    assert error["message"] == str(caught.value) and error["detail"] == caught.value.message


def test_a_bug_comes_back_as_one_line_without_paths(bridge, monkeypatch):
    break_kind(monkeypatch, "spans", RuntimeError("lost the span\n  File \"/lib/python3.12/site-packages/agreekit/"
                                                  "kinds/spans.py\", line 12, in spans"))
    outcome = run(bridge, "spans", "item,annotator,start,end,label\nd,a,0,1,X\n")
    assert outcome == {"ok": False, "error": {"type": "internal", "message":
                       'internal error: RuntimeError: lost the span File "spans.py", line 12, in spans '
                       "— please report it, with the input", "where": None}}


def test_a_bug_without_a_message_and_a_long_one(bridge, monkeypatch):
    break_kind(monkeypatch, "traces", KeyError())
    assert run(bridge, "traces", "x")["error"]["message"] == \
        "internal error: KeyError — please report it, with the input"
    break_kind(monkeypatch, "traces", ValueError("x" * 1000))
    message = run(bridge, "traces", "x")["error"]["message"]
    assert len(message) < bridge.MAX_MESSAGE_CHARS + 80 and "xxx…" in message


def test_a_report_that_is_not_json_is_a_bug_not_a_crash(bridge, monkeypatch):
    class NotJson:
        def to_dict(self):
            return {"value": float("nan")}

        def to_json(self):  # what the bridge sends: strict JSON, or an exception as here
            return json.dumps(self.to_dict(), allow_nan=False)
    kind = registry.KINDS["masks"]
    monkeypatch.setitem(registry.KINDS, "masks", dataclasses.replace(kind, function=lambda rows, **o: NotJson()))
    error = run(bridge, "masks", "x")["error"]
    assert error["type"] == "internal" and error["message"].startswith("internal error: ValueError: Out of range float")


# ----------------------------------------------------------------- run_convert: dropped files to rows

FORMATS = ROOT / "tests" / "fixtures" / "formats"
# One fixture set per format, as the page receives it: files by name, a folder by its paths.
DROPS = {
    "labelstudio": ["labelstudio/ls_boxes.json"], "coco": ["coco/per_file/alice.json", "coco/per_file/bob.json"],
    "cvat": ["cvat/replicas"], "potato": ["potato/spans"], "prodigy": ["prodigy/ner_news.jsonl"],
    "doccano": ["doccano/approved"], "brat": ["brat/corpus"], "rttm": ["rttm"], "textgrid": ["textgrid"],
    "elan": ["elan/session.eaf"], "audacity": ["audacity/c1_alice.txt"],
}


def dropped(*paths):
    """``(name, bytes)`` pairs as the page sends them: a file by its name, a folder's files by their paths."""
    pairs = []
    for path in map(FORMATS.joinpath, paths):
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        pairs += [(p.relative_to(path.parent).as_posix(), p.read_bytes()) for p in files]
    return pairs


def run_convert(bridge, pairs, kind_hint="", exact=False, progress=None, format="auto", options=None):
    return json.loads(bridge.run_convert(pairs, kind_hint, exact, progress, format, json.dumps(options or {})))


@pytest.mark.parametrize("format", sorted(DROPS))
def test_a_conversion_comes_back_as_the_rows_the_page_computes(bridge, format):
    pairs = dropped(*DROPS[format])
    outcome = run_convert(bridge, list(reversed(pairs)))  # the page's order does not matter: read as a folder is
    conversion = agreekit.convert([FORMATS / path for path in DROPS[format]])
    assert outcome == {"ok": True, "result": {
        "plain": False, "format": format, "format_title": agreekit.formats.READERS[format].title,
        "format_options": {}, "kind": conversion.kind,
        "kinds": [], "rows_csv": conversion.to_csv(), "option_tables": expected_tables(conversion),
        "summary": conversion.summary()}}
    outcome = outcome["result"]
    # The page computes on the CSV texts: the same report as on the conversion's rows and span texts
    # (but for the line numbers of example spans: the CSV's header is line 1).
    tables = {name: text for name, text in outcome["option_tables"].items() if text is not None}
    page_report = agreekit.report(outcome["kind"], outcome["rows_csv"], bootstrap=0, **tables)
    report = agreekit.report(conversion.kind, conversion.rows, bootstrap=0, **conversion.options())
    assert without_lines(page_report.to_dict(), -1) == without_lines(report.to_dict(), 0)


def expected_tables(conversion):
    """Every table option of the kind, with the CSV text of the lengths or durations the export holds."""
    def two_columns(column, values, text):
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows([("item", column), *((k, text(v)) for k, v in values.items())])
        return out.getvalue()

    texts = {"lengths": conversion.lengths and two_columns("text", conversion.lengths, str),
             "durations": conversion.durations and two_columns("duration", conversion.durations, repr)}
    return {option.name: texts.get(option.name) if option.name in conversion.options() else None
            for option in registry.KINDS[conversion.kind].options if option.type == "table"}


def test_the_import_forms_options_of_the_format_read_are_passed_to_it(bridge):
    # The page sends every format's options of the tab; only those of the format read apply, as texts.
    options = {"elan": {"tier_pattern": "_(?P<annotator>[^_]+)$", "tiers": "gesture_A, gesture_B",
                        "duration": "last_time_slot"}, "textgrid": {"annotator": "file"}}
    outcome = run_convert(bridge, dropped("elan/session.eaf"), options=options)["result"]
    expected = agreekit.convert(FORMATS / "elan/session.eaf", tier_pattern="_(?P<annotator>[^_]+)$",
                                tiers=["gesture_A", "gesture_B"], duration="last_time_slot")
    assert outcome["format_options"] == expected.format_options == {
        "tier_pattern": "_(?P<annotator>[^_]+)$", "tiers": ["gesture_A", "gesture_B"], "duration": "last_time_slot"}
    assert outcome["rows_csv"] == expected.to_csv() and outcome["summary"] == expected.summary()
    assert outcome["option_tables"]["durations"] == expected.option_tables()["durations"]


def test_a_chosen_format_is_read_without_detection_and_its_options_checked(bridge):
    pairs = dropped("audacity/c1_alice.txt")
    outcome = run_convert(bridge, pairs, format="audacity", options={"audacity": {"item": "clip9"}})["result"]
    assert outcome["format"] == "audacity" and outcome["format_options"] == {"item": "clip9"}
    assert {row.split(",")[0] for row in outcome["rows_csv"].splitlines()[1:]} == {"clip9"}
    error = run_convert(bridge, pairs, format="audacity", options={"audacity": {"tiers": "x"}})["error"]
    assert error["type"] == "input" and "unknown option 'tiers'; its options are item, separator" in error["message"]
    error = run_convert(bridge, pairs, format="nosuch")["error"]
    assert error["type"] == "input" and "unknown format 'nosuch'" in error["message"]


def test_textgrid_clip_durations_reach_the_page_as_the_durations_field(bridge):
    outcome = run_convert(bridge, dropped("textgrid"))["result"]
    durations = outcome["option_tables"]["durations"]
    assert outcome["kind"] == "segments" and durations.startswith("item,duration\n")
    assert len(durations.splitlines()) - 1 == len(agreekit.convert([FORMATS / "textgrid"]).durations) > 0


def without_lines(value, shift):
    """``value`` with each ``line`` (a row's position in its input) moved by ``shift``."""
    if isinstance(value, dict):
        return {k: v + shift if k == "line" and isinstance(v, int) else without_lines(v, shift)
                for k, v in value.items()}
    return [without_lines(v, shift) for v in value] if isinstance(value, list) else value


def test_each_step_is_reported(bridge):
    stages = []
    run_convert(bridge, dropped("rttm"), progress=lambda done, total, stage: stages.append((done, total, stage)))
    assert stages == [(0, 0, "opening 2 files"), (0, 0, "detecting the format"), (0, 0, "reading RTTM"),
                      (0, 0, "writing the rows")]


def test_a_table_no_format_claims_is_read_as_rows_by_the_page(bridge):
    assert run_convert(bridge, [("boxes.CSV", BOXES.encode())]) == {"ok": True, "result": {"plain": True}}
    for pairs in ([("boxes.json", BOXES.encode())], [("a.csv", b"x"), ("b.csv", b"y")]):  # not one plain table
        error = run_convert(bridge, pairs)["error"]
        assert error["type"] == "input" and "not a format agreekit reads. Tried Label Studio JSON: " in error["message"]


def test_a_broken_record_names_the_file(bridge):
    outcome = run_convert(bridge, [("ls.json", b'[{"id": 7, "annotations": [{"result": 5}]}]')])
    with pytest.raises(agreekit.InputError) as caught:
        agreekit.convert([("ls.json", b'[{"id": 7, "annotations": [{"result": 5}]}]')])
    error = caught.value
    assert outcome == {"ok": False, "error": {"type": "input", "message": str(error), "where": {
        "line": error.line, "column": error.column, "value": error.value, "field": error.field}, "detail": error.message}}
    assert "ls.json" in outcome["error"]["message"]


SHAPES = dropped("labelstudio/ls_shapes.json")  # rectangles (one rotated) and polygons


def test_several_kinds_take_the_open_tabs_kind_and_list_the_others(bridge):
    outcome = run_convert(bridge, SHAPES, "boxes")["result"]
    # the rectangles, the polygons, and (read as labels) the task-level Choices of one annotation
    held = [{"kind": kind, "n_annotations": agreekit.convert(SHAPES, kind=kind).summary()["n_annotations"]}
            for kind in ("boxes", "polygons", "labels")]
    assert outcome["kind"] == "boxes" and outcome["kinds"] == held
    assert outcome["rows_csv"] == agreekit.convert(SHAPES, kind="boxes").to_csv()


def test_several_kinds_and_another_tab_offer_the_choice(bridge):
    for hint in ("", "segments", "traces"):
        outcome = run_convert(bridge, SHAPES, hint)
        assert outcome["ok"] is False and outcome["error"]["type"] == "kind"
        assert [k["kind"] for k in outcome["error"]["kinds"]] == ["boxes", "polygons", "labels"]
        assert outcome["error"]["message"].startswith("Label Studio JSON: the files hold more than one kind")
    chosen = run_convert(bridge, SHAPES, "polygons", exact=True)["result"]
    assert chosen["kind"] == "polygons" and chosen["kinds"] == []
    assert chosen["rows_csv"] == agreekit.convert(SHAPES, kind="polygons").to_csv()
    error = run_convert(bridge, dropped("rttm"), "boxes", exact=True)["error"]
    assert error["type"] == "input" and error["where"]["column"] == "kind"


def test_a_bug_in_a_reader_comes_back_as_one_line(bridge, monkeypatch):
    reader = agreekit.formats.READERS["rttm"]

    def broken(sources, kind, **options):
        raise ZeroDivisionError("lost the speaker")
    monkeypatch.setitem(agreekit.formats.READERS, "rttm", dataclasses.replace(reader, read=broken))
    assert run_convert(bridge, dropped("rttm")) == {"ok": False, "error": {
        "type": "internal", "message": "internal error: ZeroDivisionError: lost the speaker — please report it, with "
                                       "the input", "where": None}}


# ----------------------------------------------------------------- one answer shape

def test_every_entry_point_answers_in_one_shape(bridge, monkeypatch):
    """ok: exactly {ok, result}; not ok: exactly {ok, error}, the error with a type, a one-line message and where."""
    answers = [bridge.run_report("boxes", BOXES, "{}"), bridge.run_item_detail("boxes", "i1"),
               bridge.run_convert([("boxes.csv", BOXES.encode())]), bridge.run_report("boxes", "item\n", "{}"),
               bridge.run_item_detail("boxes", "no such item"), bridge.run_convert(SHAPES),
               bridge.run_convert([("a.json", b"[]")])]
    break_kind(monkeypatch, "spans", RuntimeError("lost"))
    answers.append(bridge.run_report("spans", "x", "{}"))
    parsed = [json.loads(text) for text in answers]
    assert [outcome["ok"] for outcome in parsed] == [True] * 3 + [False] * 5
    for outcome in parsed:
        assert set(outcome) == ({"ok", "result"} if outcome["ok"] else {"ok", "error"})
        if not outcome["ok"]:
            error = outcome["error"]
            assert {"type", "message", "where"} <= set(error) and "\n" not in error["message"]
    assert [o["error"]["type"] for o in parsed[3:]] == ["input", "input", "kind", "input", "internal"]


# ----------------------------------------------------------------- labels: the question is chosen in the page

LABELS_FIXTURE = dropped("labels/labelstudio_answers.json")  # one rectangle each, and answers to 5 questions


def test_answers_to_several_questions_are_a_question_choice(bridge):
    error = run_convert(bridge, LABELS_FIXTURE, "labels", exact=True)["error"]
    assert error["type"] == "question" and error["kind"] == "labels" and error["format"] == "labelstudio"
    assert error["questions"] == [{"question": "blurry", "n_answers": 5}, {"question": "topics", "n_answers": 2},
                                  {"question": "quality", "n_answers": 3}, {"question": "species", "n_answers": 2},
                                  {"question": "count", "n_answers": 2}]
    # the page's question button: the format's option question, beside the import form's options
    chosen = run_convert(bridge, LABELS_FIXTURE, "labels", True, options={"labelstudio": {"question": "quality"}})[
        "result"]
    expected = agreekit.convert(LABELS_FIXTURE, kind="labels", question="quality")
    assert chosen["kind"] == "labels" and chosen["rows_csv"] == expected.to_csv()
    assert chosen["summary"]["also_holds"] == expected.summary()["also_holds"]
    assert chosen["format_options"] == {"question": "quality"}  # a share link's import record carries it


def test_on_the_labels_tab_the_answers_are_read_and_the_regions_offered(bridge):
    error = run_convert(bridge, LABELS_FIXTURE, "labels")["error"]  # the reader alone would read the boxes
    assert error["type"] == "question" and error["kinds"] == [{"kind": "boxes", "n_annotations": 2},
                                                              {"kind": "labels", "n_annotations": 14}]
    boxes = run_convert(bridge, LABELS_FIXTURE, "boxes")["result"]  # elsewhere the reader's choice stands
    assert boxes["kind"] == "boxes" and boxes["kinds"] == []


def test_compare_and_plan_come_back_as_data(bridge):
    other = BOXES.replace("i2,b,5,5,4,5,car", "i2,b,6,6,4,5,car")
    outcome = json.loads(bridge.run_compare("boxes", BOXES, other, json.dumps({"bootstrap": 50})))
    assert outcome["ok"] and outcome["result"]["resampling"]["method"] == "paired"
    sigma = next(d for d in outcome["result"]["coefficients"] if d["name"] == "localization.sigma")
    assert sigma["delta"] == pytest.approx(agreekit.boxes(other, bootstrap=0).localization.sigma.value
                                           - agreekit.boxes(BOXES, bootstrap=0).localization.sigma.value)
    bad = json.loads(bridge.run_compare("boxes", BOXES, "item,annotator,x,y,w,h\ni1,a,x,0,1,1\n", "{}"))
    assert not bad["ok"] and bad["error"]["type"] == "input" and bad["error"]["message"].startswith("line 2")
    assert "B:" in bad["error"]["detail"]
    labels = "item,annotator,label\n" + "".join(f"u{i},r{j},{'xy'[(i * j) % 2]}\n" for i in range(12) for j in range(3))
    planned = json.loads(bridge.run_plan("labels", labels, json.dumps({"half_width": 0.1})))
    assert planned["ok"] and planned["result"]["coefficients"][0]["predicted_items"] >= 2


def test_a_round_of_the_last_comparison_answers_its_items(bridge):
    """run_round_item: each round's own shapes (a kind with a picture) or its item row (labels), never the other's."""
    other = BOXES.replace("i2,b,5,5,4,5,car", "i2,b,6,6,4,5,car")
    assert json.loads(bridge.run_compare("boxes", BOXES, other, json.dumps({"bootstrap": 0})))["ok"]
    for round_name, rows in (("A", BOXES), ("B", other)):
        item = json.loads(bridge.run_round_item("boxes", round_name, "i2"))["result"]
        assert item["detail"] == agreekit.item_detail.ItemDetails("boxes", rows, {"bootstrap": 0}).detail("i2")
    labels_a = "item,annotator,label\nu1,a,x\nu1,b,x\nu2,a,x\nu2,b,y\n"
    labels_b = labels_a.replace("u2,a,x", "u2,a,z")  # u2 disputed in both: the labels report lists disputed items
    assert json.loads(bridge.run_compare("labels", labels_a, labels_b, json.dumps({"bootstrap": 0})))["ok"]
    ratings = {name: json.loads(bridge.run_round_item("labels", name, "u2"))["result"]["entry"]["ratings"]
               for name in ("A", "B")}
    assert ratings == {"A": [{"annotator": "a", "label": "x"}, {"annotator": "b", "label": "y"}],
                       "B": [{"annotator": "a", "label": "z"}, {"annotator": "b", "label": "y"}]}
    missing = json.loads(bridge.run_round_item("spans", "A", "u1"))
    assert not missing["ok"] and "no spans comparison" in missing["error"]["message"]
