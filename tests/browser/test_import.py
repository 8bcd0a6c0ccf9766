"""Dropping annotation-tool exports on the page, in real headless Chromium, against the CPython API.

Each import must land on its kind's tab with the rows ``agreekit.convert`` gives, show its summary
(counts, what was left out, warnings) as text above the paste box, and compute the report that
CPython computes on the conversion's rows and span texts.
"""
from __future__ import annotations

import base64
import json
import zipfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest

import agreekit
from agreekit.formats import READERS, load_sources
from agreekit.formats.base import detect

from conftest import COMPUTE_MS, LOAD_MS, assert_metrics_match, guard, sent_options, wait_ready, wait_result
from web_modules import load_web_module

ROOT = Path(__file__).resolve().parents[2]
FORMATS = ROOT / "tests" / "fixtures" / "formats"

# (fixture paths, how they reach the page, the kind they hold). "drop": a DataTransfer dropped on the
# paste box; "files": the file button; "folder": the folder button (a folder's files named by path).
IMPORTS = {
    "labelstudio-boxes": (["labelstudio/ls_boxes.json"], "drop", "boxes"),
    "labelstudio-spans": (["labelstudio/ls_spans.json"], "files", "spans"),
    "labelstudio-brush": (["labelstudio/ls_brush.json"], "drop", "masks"),
    "coco-two-files": (["coco/per_file/alice.json", "coco/per_file/bob.json"], "drop", "boxes"),
    "cvat": (["cvat/replicas/replica_alice.xml", "cvat/replicas/replica_bob.xml"], "files", "boxes"),
    "potato-folder": (["potato/spans"], "folder", "spans"),
    "prodigy": (["prodigy/ner_news.jsonl"], "drop", "spans"),
    "doccano": (["doccano/approved/alice.jsonl", "doccano/approved/bob.jsonl"], "files", "spans"),
    "brat-folder": (["brat/corpus"], "folder", "spans"),
    "rttm": (["rttm/alice.rttm", "rttm/bob.rttm"], "drop", "segments"),
    "textgrid": (["textgrid/rec1.TextGrid", "textgrid/rec2.TextGrid"], "files", "segments"),
    "elan": (["elan/session.eaf"], "drop", "segments"),
    "audacity-one-txt": (["audacity/c1_alice.txt"], "files", "segments"),  # a .txt: read as rows first, then claimed
}
COUNTS = ("n_items", "n_annotators", "n_annotations", "n_saw_nothing")


@pytest.fixture(scope="module")
def page(browser, site):
    """One page for the module (Python loads once), guarded like conftest's open_page."""
    context = browser.new_context(viewport={"width": 1280, "height": 1100})
    foreign = guard(context, "{0.scheme}://{0.netloc}".format(urlsplit(site.url)))
    dialogs, errors = [], []
    page = context.new_page()
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site.url)
    wait_ready(page)
    yield page
    context.close()
    assert foreign == [], f"requests left the local origin: {foreign}"
    assert dialogs == [], f"a dialog opened: {dialogs}"
    assert errors == [], f"uncaught page errors: {errors}"


def open_tab(page):
    """The kind of the selected tab."""
    return page.get_attribute('[role="tab"][aria-selected="true"]', "data-kind")


def start_on(page, kind):
    """Select ``kind``'s tab and forget every earlier run's end state, so the next waits see this one."""
    page.click(f"#tab-{kind}")
    page.evaluate("() => document.querySelectorAll('.results, .import').forEach((e) => delete e.dataset.state)")


def drop(page, kind, files):
    """Drop ``files`` ([(name, bytes)]) on ``kind``'s paste box, as a DataTransfer."""
    payload = [{"name": name, "b64": base64.b64encode(data).decode()} for name, data in files]
    page.evaluate("""({ selector, files }) => {
        const transfer = new DataTransfer();
        for (const f of files) {
            transfer.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name));
        }
        const event = new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true });
        document.querySelector(selector).dispatchEvent(event);
    }""", {"selector": f"#rows-{kind}", "files": payload})


def bring(page, kind, paths, how):
    """Bring the fixture ``paths`` to ``kind``'s tab by drop, file button or folder button."""
    if how == "drop":
        drop(page, kind, [(path.name, path.read_bytes()) for path in paths])
    elif how == "files":
        page.set_input_files(f'form[data-kind="{kind}"] input[name="file"]', [str(p) for p in paths])
    else:
        (folder,) = paths
        page.set_input_files(f'form[data-kind="{kind}"] input[name="folder"]', str(folder))


def imported(page, kind, state="done", timeout=LOAD_MS):
    """Wait until ``kind``'s import box ends in ``state``; its text."""
    page.wait_for_selector(f'#import-{kind}[data-state="{state}"]', state="attached", timeout=timeout)
    return page.inner_text(f"#import-{kind}")


def assert_imported_like_cpython(page, conversion):
    """The tab of ``conversion.kind`` holds its rows and span texts, its summary, and CPython's report."""
    kind = conversion.kind
    wait_result(page, kind)
    assert open_tab(page) == kind
    assert page.input_value(f"#rows-{kind}") == conversion.to_csv()
    summary = conversion.summary()
    for key in COUNTS:
        assert page.inner_text(f'#import-{kind} [data-count="{key}"]') == f"{summary[key]:,}", key
    text = page.inner_text(f"#import-{kind}")
    for line in summary["warnings"] + [f"{n:,} × {reason}" for reason, n in summary["skipped"].items()]:
        assert line in text
    options = sent_options(page, kind)
    tables = conversion.option_tables()  # span texts, clip durations: in their option fields
    assert options.get("lengths") == tables.get("lengths") and options.get("durations") == tables.get("durations")
    options = {name: value for name, value in options.items() if name not in ("lengths", "durations")}
    report = agreekit.report(kind, conversion.rows, **options, **conversion.options()).to_dict()
    return assert_metrics_match(page, kind, with_header_line(report), minimum=5)


def with_header_line(value):
    """``value`` with each ``line`` (a row's place in the input) one further: the box's CSV starts with a header."""
    if isinstance(value, dict):
        return {k: v + 1 if k == "line" and isinstance(v, int) else with_header_line(v) for k, v in value.items()}
    return [with_header_line(v) for v in value] if isinstance(value, list) else value


@pytest.mark.parametrize("case", sorted(IMPORTS))
def test_an_export_fills_its_tab_and_computes_like_cpython(page, case):
    relative, how, kind = IMPORTS[case]
    paths = [FORMATS / p for p in relative]
    elsewhere = "cuboids" if open_tab(page) != "cuboids" else "traces"  # kinds no format holds
    start_on(page, elsewhere)
    bring(page, elsewhere, paths, how)
    imported(page, kind)
    conversion = agreekit.convert(paths)
    assert conversion.kind == kind
    assert_imported_like_cpython(page, conversion)
    assert page.is_hidden(f"#import-{elsewhere}")


def test_a_zip_of_exports(page, tmp_path):
    archive = tmp_path / "per_file.zip"
    with zipfile.ZipFile(archive, "w") as out:
        for path in sorted((FORMATS / "coco" / "per_file").glob("*.json")):
            out.write(path, path.name)
    start_on(page, "spans")
    page.set_input_files('form[data-kind="spans"] input[name="file"]', str(archive))
    text = imported(page, "boxes")
    assert "from per_file/alice.json, per_file/bob.json:" in text
    assert_imported_like_cpython(page, agreekit.convert(archive))


SHAPES = FORMATS / "labelstudio" / "ls_shapes.json"  # rectangles and polygons


def test_several_kinds_read_the_open_tabs_kind_and_offer_the_others(page):
    start_on(page, "boxes")
    drop(page, "boxes", [(SHAPES.name, SHAPES.read_bytes())])
    text = imported(page, "boxes")
    assert "The files hold more than one kind: boxes (1 annotation), polygons (4 annotations), labels " \
           "(1 annotation). Read as boxes, the kind of the open tab" in text
    assert_imported_like_cpython(page, agreekit.convert(SHAPES, kind="boxes"))
    start_on(page, "boxes")
    page.click('#import-boxes button[data-import-kind="polygons"]')
    assert "Read as polygons, as chosen" in imported(page, "polygons")
    assert_imported_like_cpython(page, agreekit.convert(SHAPES, kind="polygons"))
    assert "Imported Label Studio JSON" in page.inner_text("#import-boxes")  # the boxes import still stands


def test_several_kinds_on_another_tab_are_a_choice(page):
    start_on(page, "segments")
    page.set_input_files('form[data-kind="segments"] input[name="file"]', str(SHAPES))
    text = imported(page, "segments", state="error")
    assert "the files hold more than one kind of annotation: boxes (1), polygons (4), labels (1) annotations" in text
    assert page.eval_on_selector_all("#import-segments button", "bs => bs.map((b) => b.dataset.importKind)") == \
        ["boxes", "polygons", "labels"]
    page.click('#import-segments button[data-import-kind="polygons"]')
    imported(page, "polygons")
    assert_imported_like_cpython(page, agreekit.convert(SHAPES, kind="polygons"))
    assert page.is_hidden("#import-segments")  # the choice is made: its message goes


LABEL_ANSWERS = FORMATS / "labels" / "labelstudio_answers.json"  # a rectangle each, and answers to 5 questions


def test_on_the_labels_tab_the_question_is_chosen_with_a_button(page, tmp_path):
    hostile = "<b>mood</b>"
    path = tmp_path / "answers.json"
    path.write_bytes(LABEL_ANSWERS.read_bytes().replace(b'"from_name": "count"', f'"from_name": "{hostile}"'.encode()))
    start_on(page, "labels")
    drop(page, "labels", [(path.name, path.read_bytes())])
    text = imported(page, "labels", state="error")
    assert "the files answer 5 questions" in text and "choose the one to read" in text
    buttons = page.eval_on_selector_all("#import-labels button", "bs => bs.map((b) => [b.dataset.importQuestion ?? null, "
                                        "b.dataset.importKind ?? null, b.textContent])")
    assert [tuple(b) for b in buttons] == [
        ("blurry", None, "Read “blurry” (5 answers)"), ("topics", None, "Read “topics” (2 answers)"),
        ("quality", None, "Read “quality” (3 answers)"), ("species", None, "Read “species” (2 answers)"),
        (hostile, None, f"Read “{hostile}” (2 answers)"), (None, "boxes", "Read boxes (2 annotations)")]
    assert page.eval_on_selector_all("#import-labels b", "els => els.length") == 0  # the name is text
    page.click('#import-labels button[data-import-question="quality"]')
    imported(page, "labels")
    conversion = agreekit.convert(path, kind="labels", question="quality")
    assert_imported_like_cpython(page, conversion)
    assert "the files also hold 2 region(s) of kind boxes: convert with --kind boxes" in page.inner_text("#import-labels")
    # the question travels as the format's option: the summary names it, as the share link's import record does
    assert "Read with the options question = quality." in page.inner_text("#import-labels")


def test_a_file_in_no_format_says_what_was_tried(page):
    start_on(page, "boxes")
    rows_before = page.input_value("#rows-boxes")
    drop(page, "boxes", [("notes.bin", b"\x00\x01 nothing to see\n")])
    text = imported(page, "boxes", state="error")
    assert text.startswith("notes.bin: not a format agreekit reads. Tried Label Studio JSON: not a .json file; ")
    assert "Audacity labels: " in text
    assert page.input_value("#rows-boxes") == rows_before


def test_a_plain_table_is_read_into_the_box_as_before(page, tmp_path):
    table = tmp_path / "my rows.csv"
    table.write_text("item,annotator,x,y,w,h,label\ni1,a,0,0,10,10,car\ni1,b,1,1,10,10,car\n")
    start_on(page, "boxes")
    page.set_input_files('form[data-kind="boxes"] input[name="file"]', str(table))
    page.wait_for_function("() => document.querySelector('#rows-boxes').value.startsWith('item,annotator,x')")
    page.click('form[data-kind="boxes"] button[type="submit"]')  # answered after the worker's look at the file
    wait_result(page, "boxes")
    assert page.input_value("#rows-boxes") == table.read_text()
    assert page.is_hidden("#import-boxes")


HOSTILE = '<img src=x onerror="alert(1)">'


def test_hostile_names_and_labels_stay_text(page, tmp_path):
    export = json.loads((FORMATS / "labelstudio" / "ls_boxes.json").read_text())
    for task in export:
        task["data"]["image"] = f"/data/upload/1/{HOSTILE}.jpg"
        for annotation in task["annotations"]:
            for region in annotation["result"]:
                region["value"]["rectanglelabels"] = [f"<b>{HOSTILE}</b>"]
    path = tmp_path / f"{HOSTILE}.json"
    path.write_text(json.dumps(export))
    start_on(page, "boxes")
    page.set_input_files('form[data-kind="boxes"] input[name="file"]', str(path))
    assert f"from {path.name}:" in imported(page, "boxes")
    assert_imported_like_cpython(page, agreekit.convert(path))
    assert f"<b>{HOSTILE}</b>" in page.inner_text("#results-boxes")  # the label, as text
    drop(page, "boxes", [(f"{HOSTILE}.bin", b"garbage")])
    assert imported(page, "boxes", state="error").startswith(f"{HOSTILE}.bin: not a format")
    for where in ("#import-boxes", "#results-boxes", ".share"):
        assert page.eval_on_selector_all(f"{where} img, {where} b", "els => els.length") == 0


def test_a_share_link_says_it_carries_the_converted_rows(page):
    start_on(page, "cuboids")
    bring(page, "cuboids", [FORMATS / "rttm" / "alice.rttm", FORMATS / "rttm" / "bob.rttm"], "files")
    imported(page, "segments")
    wait_result(page, "segments")
    page.click('form[data-kind="segments"] button[data-action="share"]')
    page.wait_for_selector('form[data-kind="segments"] .share[data-state="ok"]')
    assert "This link carries the rows converted from your RTTM files" in \
        page.inner_text('form[data-kind="segments"] .share')
    start_on(page, "boxes")
    page.click('form[data-kind="boxes"] button[data-example="boxes"]')  # an example: rows not imported
    wait_result(page, "boxes")
    page.click('form[data-kind="boxes"] button[data-action="share"]')
    page.wait_for_selector('form[data-kind="boxes"] .share[data-state="ok"]')
    assert "converted" not in page.inner_text('form[data-kind="boxes"] .share')
    assert page.is_hidden("#import-boxes")


def big_label_studio_export(n_tasks, boxes=5):
    """A Label Studio JSON export of ``n_tasks`` images, two annotators drawing ``boxes`` boxes on each."""
    def region(task, annotator, index):
        return {"id": f"r{task}-{annotator}-{index}", "type": "rectanglelabels", "from_name": "label",
                "to_name": "image", "original_width": 640, "original_height": 480,
                "value": {"x": 5.0 + 15 * index + annotator, "y": 10.0 + annotator, "width": 10.0, "height": 20.0,
                          "rotation": 0, "rectanglelabels": ["car"]}}
    tasks = [{"id": task, "data": {"image": f"/data/upload/1/img{task}.jpg"},
              "annotations": [{"id": 2 * task + annotator, "completed_by": annotator + 1, "was_cancelled": False,
                               "result": [region(task, annotator, i) for i in range(boxes)]}
                              for annotator in (0, 1)]}
             for task in range(n_tasks)]
    return json.dumps(tasks, indent=1).encode()


def test_a_large_export_converts_in_the_worker_with_progress(open_page, site, tmp_path):
    path = tmp_path / "large.json"
    path.write_bytes(big_label_studio_export(2500))  # about 7 MB, 25,000 boxes
    page = open_page(site.url)
    wait_ready(page)
    page.fill('form[data-kind="boxes"] [name="bootstrap"]', "0")
    page.evaluate("""() => {
        window.stages = [];
        const text = document.querySelector("#progress-text");
        new MutationObserver(() => window.stages.push([performance.now(), text.textContent]))
          .observe(document.querySelector("#progress"), { subtree: true, childList: true, characterData: true });
    }""")
    page.set_input_files('form[data-kind="boxes"] input[name="file"]', str(path))
    imported(page, "boxes", timeout=COMPUTE_MS)
    stages = dict((text, at) for at, text in page.evaluate("window.stages"))
    page.click("#cancel")  # the report on 25,000 boxes is not this test's subject
    # The worker reads, then the page writes the rows (the page's longest task meanwhile is
    # benchmarks/page_responsiveness.py's).
    assert stages["Importing large.json (reading Label Studio JSON)…"] < stages["Importing large.json (writing the rows)…"]
    assert page.inner_text('#import-boxes [data-count="n_annotations"]') == "25,000"
    # The rows are in the box, folded away (laying out 0.8 MB of text would block the page for seconds).
    assert page.is_hidden("#rows-boxes")
    assert page.input_value("#rows-boxes") == agreekit.convert(path).to_csv()
    assert "The 25,000 rows (0.8 MB) are in the box, folded away" in page.inner_text("#import-boxes")
    page.click('#import-boxes button:text("Show the rows")')
    assert page.is_visible("#rows-boxes")


# Every fixture set of the importers' tests, read in Pyodide as every kind its format has.
FIXTURE_SETS = [
    "labelstudio/ls_boxes.json", "labelstudio/ls_shapes.json", "labelstudio/ls_spans.json",
    "labelstudio/ls_audio.json", "labelstudio/ls_brush.json", "labelstudio/ls_min.json",
    "labelstudio/ls_percent.json", "labelstudio/ls_timeseries.json", "labelstudio/projects",
    "coco/per_file", "coco/segmentation", "coco/rater_field.json", "coco/image_annotator.json",
    "coco/ls_annotator.json", "cvat/replicas", "cvat/shapes", "potato/images/annotation_output", "potato/spans",
    "potato/export/annotations.jsonl", "prodigy/ner_news.jsonl", "prodigy/images.jsonl", "doccano/approved",
    "doccano/all_documents", "doccano/relations", "doccano/collaborative/all.jsonl", "brat/corpus", "rttm",
    "textgrid", "elan/session.eaf", "audacity",
    "labels/labelstudio_answers.json", "labels/potato", "labels/potato_export.jsonl", "labels/prodigy_textcat.jsonl",
    "labels/prodigy_choice.jsonl", "labels/doccano_categories", "labels/doccano_cats.jsonl", "labels/cvat_tags",
    # answers read as the labels kind, or refused saying why (several questions; entity linking: about a span)
    "misreads/potato/classification", "misreads/prodigy/textcat_choice.jsonl", "misreads/prodigy/entity_links.jsonl",
]


@pytest.fixture(scope="module")
def bridge():
    return load_web_module("bridge.py", "agreekit_bridge")


def fixture_files(path):
    """``(name, bytes)`` as the page names them: a file by its name, a folder's files by their paths."""
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    return [(p.relative_to(path.parent).as_posix(), p.read_bytes()) for p in files]


# The worker's answer in the protocol's shape (web/protocol.mjs), as bridge.py writes it.
CONVERT_IN_THE_WORKER = """({ files, kind, exact }) => window.agreekit.engine.convert(files.map((f) => ({
    name: f.name, buffer: Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0)).buffer })), kind, exact, null)
    .then((result) => ({ ok: true, result }), (error) => ({ ok: false, error: error.data }))"""


def test_every_fixture_converts_in_pyodide_as_in_cpython(page, bridge):
    """Each fixture set, as every kind its format reads, through the worker: run_convert's answer as in CPython.

    The readers run on wasm32 here (32-bit ``np.intp``), where only running them shows their bugs.
    """
    checked, formats, mismatches = 0, set(), []
    for relative in FIXTURE_SETS:
        files = fixture_files(FORMATS / relative)
        payload = [{"name": name, "b64": base64.b64encode(data).decode()} for name, data in files]
        format = detect(load_sources(files))
        formats.add(format)
        for kind in ("", *READERS[format].kinds):
            expected = json.loads(bridge.run_convert(files, kind, bool(kind)))
            answer = page.evaluate(CONVERT_IN_THE_WORKER, {"files": payload, "kind": kind, "exact": bool(kind)})
            checked += 1
            if answer != expected:
                mismatches.append((relative, kind, (answer.get("error") or {}).get("message")))
    assert not mismatches, mismatches
    assert formats == set(READERS) and checked > 80
