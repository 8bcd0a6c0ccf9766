"""The core's side of the page's hardening (issue 10), in CPython.

Progress while the rows are read and per STAPLE item, and input errors that name the input
(the ``field``) they come from; the share-link cap is in tests/test_share.py.
"""
from __future__ import annotations

import inspect
import json
from pathlib import Path

import pytest

import agreekit
from agreekit import registry
from agreekit.kinds.spans.rows import read_lengths
from agreekit.rows import PROGRESS_EVERY, READING_STAGE, InputError, read_table
from agreekit.simulate import centred_corpus_csv
from web_modules import load_web_module

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "web" / "examples"  # the page's hand-made examples (the box example is generated)
COLUMNS = ("item", "annotator", "x")


def recorder():
    calls = []
    return calls, lambda done, total, stage="": calls.append((done, total, stage))


def box_text(n_rows):
    return "item,annotator,x\n" + "".join(f"i{k // 2},a{k % 2},{k}\n" for k in range(n_rows))


# --------------------------------------------------------------------------- reading rows

@pytest.mark.parametrize("n_rows", [1, PROGRESS_EVERY - 1, 3 * PROGRESS_EVERY + 5])
def test_read_table_reports_lines_read(n_rows):
    text = box_text(n_rows)
    calls, progress = recorder()
    rows = read_table(text, COLUMNS, progress=progress)
    assert rows == read_table(text, COLUMNS)  # the same rows with or without progress
    n_lines = n_rows + 1  # the header counts
    assert {stage for _, _, stage in calls} == {READING_STAGE}
    assert calls[0] == (0, n_lines, READING_STAGE) and calls[-1] == (n_lines, n_lines, READING_STAGE)
    assert len(calls) == n_rows // PROGRESS_EVERY + 2  # every few thousand rows, never per row
    done = [d for d, _, _ in calls]
    assert done == sorted(done) and all(total == n_lines for _, total, _ in calls)


def test_read_table_counts_physical_lines():
    """Quoted line breaks, blank lines, CRLF and a missing final newline: done never passes total."""
    text = 'item,annotator,x\r\n\r\n"i\r\n1",a,1\r\ni2,b,2'
    calls, progress = recorder()
    rows = read_table(text, COLUMNS, progress=progress)
    assert [row.line for row in rows] == [4, 5]
    assert calls == [(0, 5, READING_STAGE), (5, 5, READING_STAGE)]


def test_read_table_reports_list_positions():
    records = [{"item": f"i{k}", "annotator": "a", "x": k} for k in range(PROGRESS_EVERY + 1)]
    calls, progress = recorder()
    read_table(records, COLUMNS, progress=progress)
    n = len(records)
    assert calls == [(0, n, READING_STAGE), (PROGRESS_EVERY, n, READING_STAGE), (n, n, READING_STAGE)]
    calls.clear()
    read_table(iter(records), COLUMNS, progress=progress)  # no total to report against
    assert calls == []


def test_errors_are_the_same_with_progress():
    text = box_text(10).replace("i2,a0,4", "i2,a0,4,extra")
    with pytest.raises(InputError) as plain:
        read_table(text, COLUMNS)
    calls, progress = recorder()
    with pytest.raises(InputError) as reported:
        read_table(text, COLUMNS, progress=progress)
    assert str(reported.value) == str(plain.value) and reported.value.line == 6


PROGRESS_KINDS = [name for name, kind in registry.KINDS.items()
                  if "progress" in inspect.signature(kind.function).parameters]


def test_every_kind_reports_progress():
    assert set(PROGRESS_KINDS) == set(registry.KINDS)


@pytest.mark.parametrize("kind", PROGRESS_KINDS)
def test_each_kind_reports_reading_rows_first(kind):
    rows = centred_corpus_csv(20) if kind == "boxes" else (EXAMPLES / f"{kind}.csv").read_text()
    options = {"bootstrap": 0} if "bootstrap" in registry.KINDS[kind].defaults() else {}
    calls, progress = recorder()
    report = agreekit.report(kind, rows, progress=progress, **options).to_dict()
    assert report == agreekit.report(kind, rows, **options).to_dict()
    n_lines = rows.count("\n") + (not rows.endswith("\n"))
    assert calls[:2] == [(0, n_lines, READING_STAGE), (n_lines, n_lines, READING_STAGE)], calls[:3]
    assert all(done <= total for done, total, _ in calls)


# --------------------------------------------------------------------------- masks: STAPLE per item

def test_masks_report_staple_progress_per_item():
    rows = (EXAMPLES / "masks.csv").read_text()
    calls, progress = recorder()
    report = agreekit.masks(rows, progress=progress).to_dict()
    staple = [(done, total) for done, total, stage in calls if stage == "STAPLE"]
    n_items = report["n_items"]
    assert n_items >= 2
    assert staple == [(k, n_items) for k in range(1, n_items + 1)]


# --------------------------------------------------------------------------- errors name their input

SPAN_ROWS = "item,annotator,start,end,label\nd1,a,0,3,PER\nd1,b,0,3,PER\n"


@pytest.mark.parametrize("lengths, line, column", [
    ("item,length\nd1,12\nd1,13\n", 3, "item"),
    ("item,length\nd1,12\nd2,-4\n", 3, "length"),
    ("item,length\nd1,twelve\n", 2, "length"),
    ({"d1": 2.5}, 1, "length"),
])
def test_length_errors_name_the_lengths_field(lengths, line, column):
    with pytest.raises(InputError) as caught:
        read_lengths(lengths)
    error = caught.value
    assert (error.field, error.line, error.column) == ("lengths", line, column)
    assert error.to_dict()["field"] == "lengths"
    with pytest.raises(InputError) as through_report:
        agreekit.spans(SPAN_ROWS, lengths=lengths, bootstrap=0)
    assert through_report.value.field == "lengths"


def test_row_errors_name_no_field():
    with pytest.raises(InputError) as caught:
        agreekit.spans(SPAN_ROWS.replace("d1,b,0,3", "d1,b,zero,3"), lengths="item,length\nd1,12\n")
    assert caught.value.field is None and caught.value.to_dict()["field"] is None
    assert caught.value.line == 3


def test_the_page_receives_the_field():
    bridge = load_web_module("bridge.py", "agreekit_bridge")
    outcome = json.loads(bridge.run_report("spans", SPAN_ROWS, json.dumps({"lengths": "item,length\nd1,x\n"})))
    assert outcome["ok"] is False
    assert outcome["error"]["where"]["field"] == "lengths" and outcome["error"]["where"]["line"] == 2
