"""Errors that help (issue 26): a row error names its line, column and value, and the row readers
read on past a bad row, so that all bad rows are reported at once (the first 20, with a count)."""
from __future__ import annotations

import pytest

import agreekit
from agreekit.errors import InputError, InputErrors
from agreekit.rows import MAX_ROW_ERRORS, RowErrors

# Per kind: a header, a good row and a row whose numeric column holds "bad{k}" (that column's name).
ROWS = {
    "boxes": ("item,annotator,x,y,w,h,label", "i{k},a,1,2,3,4,car", "i{k},b,bad{k},2,3,4,car", "x"),
    "cuboids": ("item,annotator,cx,cy,cz,sx,sy,sz,yaw,label", "s{k},a,0,0,0,1,1,1,0,car",
                "s{k},b,0,bad{k},0,1,1,1,0,car", "cy"),
    "segments": ("item,annotator,start,end,label", "c{k},a,0,1,x", "c{k},b,0,bad{k},x", "end"),
    "spans": ("item,annotator,start,end,label", "d{k},a,0,3,PER", "d{k},b,bad{k},3,PER", "start"),
    "traces": ("trace,step,annotator,label", "t{k},1,a,ok", "t{k},bad{k},b,ok", "step"),
    "labels": ("item,annotator,label", "r{k},a,pos", "r{k},,pos", "annotator"),
}


def corpus(kind, n_bad, n_good=30):
    header, good, bad, _ = ROWS[kind]
    lines = [header]
    for k in range(n_good):
        lines.append(good.format(k=k))
        if k < n_bad:
            lines.append(bad.format(k=k))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("kind", list(ROWS))
def test_every_bad_row_is_reported_up_to_twenty(kind):
    column = ROWS[kind][3]
    with pytest.raises(InputErrors) as caught:
        agreekit.report(kind, corpus(kind, 25), bootstrap=0)
    error = caught.value
    assert error.total == 25 and len(error.errors) == MAX_ROW_ERRORS
    assert [e.line for e in error.errors] == [2 * k + 3 for k in range(MAX_ROW_ERRORS)]  # in input order
    assert all(e.column == column for e in error.errors)
    if kind != "labels":  # an empty annotator has no value to name
        assert [e.value for e in error.errors] == [f"bad{k}" for k in range(MAX_ROW_ERRORS)]
        assert error.errors[0].message == "'bad0' is not a number"
    text = str(error)
    assert "\n" not in text and text.startswith(f"line 3, column '{column}': ") and "(and 24 more: line 5," in text
    assert text.endswith("; …)")  # five more than listed


@pytest.mark.parametrize("kind", list(ROWS))
def test_one_bad_row_is_one_plain_error(kind):
    with pytest.raises(InputError) as caught:
        agreekit.report(kind, corpus(kind, 1), bootstrap=0)
    assert type(caught.value) is InputError and caught.value.line == 3


def test_row_errors_collect_input_errors_only():
    errors = RowErrors(limit=2)
    for line in range(1, 5):
        with errors:
            raise InputError("wrong", line=line, column="x", value=line)
    assert errors.total == 4 and [e.line for e in errors.errors] == [1, 2]
    with pytest.raises(InputErrors, match=r"^line 1, column 'x': wrong \(and 3 more: line 2, column 'x'; …\)$"):
        errors.check()
    with pytest.raises(ZeroDivisionError):  # a bug is not a row error: it goes through
        with RowErrors():
            1 / 0
    RowErrors().check()  # nothing collected: nothing raised


def test_the_page_gets_every_error_with_its_place():
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
    import json

    import bridge
    answer = json.loads(bridge.run_report("segments", corpus("segments", 3), json.dumps({"bootstrap": 0})))
    error = answer["error"]
    assert error["total"] == 3 and [e["where"]["line"] for e in error["errors"]] == [3, 5, 7]
    assert [e["detail"] for e in error["errors"]] == [f"'bad{k}' is not a number" for k in range(3)]
