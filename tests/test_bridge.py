"""web/bridge.py in CPython: reports, input errors and bugs all come back to the page as JSON data."""
from __future__ import annotations

import dataclasses
import importlib.util
import json
from pathlib import Path

import pytest

import agreekit
from agreekit import registry

ROOT = Path(__file__).resolve().parents[1]
BOXES = "item,annotator,x,y,w,h,label\ni1,a,0,0,10,10,car\ni1,b,1,1,10,10,car\ni2,a,5,5,4,4,car\ni2,b,5,5,4,5,car\n"


@pytest.fixture(scope="module")
def bridge():
    spec = importlib.util.spec_from_file_location("agreekit_bridge", ROOT / "web" / "bridge.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(bridge, kind, rows, options=None, progress=None):
    return json.loads(bridge.run_report(kind, rows, json.dumps(options or {}), progress))


def break_kind(monkeypatch, kind, failure):
    """Replace ``kind``'s report function by one that fails like a bug would."""
    def broken(rows, **options):
        raise failure
    monkeypatch.setitem(registry.KINDS, kind, dataclasses.replace(registry.KINDS[kind], function=broken))


def test_a_report_comes_back_as_its_dict(bridge):
    outcome = run(bridge, "boxes", BOXES, {"bootstrap": 20, "seed": 3})
    assert outcome == {"ok": True, "report": agreekit.report("boxes", BOXES, bootstrap=20, seed=3).to_dict()}


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
    assert error["type"] == "input" and error["column"] == column
    with pytest.raises(agreekit.InputError) as caught:  # the API's own error, as data
        agreekit.report(kind, rows, **options)
    assert error["message"] == str(caught.value) and error["detail"] == caught.value.message


def test_a_bug_comes_back_as_one_line_without_paths(bridge, monkeypatch):
    break_kind(monkeypatch, "spans", RuntimeError("lost the span\n  File \"/lib/python3.12/site-packages/agreekit/"
                                                  "kinds/spans.py\", line 12, in spans"))
    outcome = run(bridge, "spans", "item,annotator,start,end,label\nd,a,0,1,X\n")
    assert outcome == {"ok": False, "error": {"type": "internal", "message":
                       'internal error: RuntimeError: lost the span File "spans.py", line 12, in spans '
                       "— please report it, with the input"}}


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
    kind = registry.KINDS["masks"]
    monkeypatch.setitem(registry.KINDS, "masks", dataclasses.replace(kind, function=lambda rows, **o: NotJson()))
    error = run(bridge, "masks", "x")["error"]
    assert error["type"] == "internal" and error["message"].startswith("internal error: ValueError: Out of range float")
