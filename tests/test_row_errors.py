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


# ----------------------------------------------------------------- the readers of other tables

def assert_every_bad_row(error, places, values, field=None):
    """``error`` holds the bad rows in input order: (line, column) ``places`` and their ``values``."""
    errors = error.errors if isinstance(error, InputErrors) else (error,)
    assert [(e.line, e.column) for e in errors] == places[:MAX_ROW_ERRORS]
    assert [e.value for e in errors] == values[:MAX_ROW_ERRORS]
    assert getattr(error, "total", 1) == len(places)
    assert all(e.field == field for e in errors)


def test_a_reliability_matrix_names_every_bad_row():
    lines = ["item,ann,ben,cy"]
    places, values = [], []
    for k in range(30):
        line = len(lines) + 1
        if k % 3 == 0:  # an item named twice: its second row
            lines += [f"u{k},a||b,b,", f"u{k},a,b,b"]
            places += [(line, "ann"), (line + 1, "item")]
            values += ["", f"u{k}"]
        else:
            lines.append(f"u{k},a,b,{'c||' if k % 3 == 1 else 'c'}")
            if k % 3 == 1:
                places.append((line, "cy"))
                values.append("")
    with pytest.raises(InputErrors) as caught:
        agreekit.report("labels", "\n".join(lines) + "\n", level="set", bootstrap=0)
    assert_every_bad_row(caught.value, places, values)
    assert caught.value.total == 30 and len(caught.value.errors) == MAX_ROW_ERRORS
    assert str(caught.value).startswith("line 2, column 'ann': the label is empty")


def test_a_reliability_matrix_with_blank_item_names_is_read_on():
    text = "item,ann,ben\n,a,b\nu1,a,b\n ,a,a\nu2,b,b\n"
    with pytest.raises(InputErrors) as caught:
        agreekit.report("labels", text, bootstrap=0)
    assert_every_bad_row(caught.value, [(2, "item"), (4, "item")], ["", ""])


def test_rows_of_the_wrong_width_are_all_named():
    text = "item,ann,ben,cy\nu1,a,b,c\nu2,a,b\nu3,a,b,c\nu4,a,b,c,d\n"
    with pytest.raises(InputErrors) as caught:
        agreekit.report("labels", text, bootstrap=0)
    assert_every_bad_row(caught.value, [(3, None), (5, None)], ["u2,a,b", "u4,a,b,c,d"])
    assert caught.value.errors[1].message == "expected 4 fields, got 5"


SPANS = "item,annotator,start,end,label\n" + "".join(f"d{k},a,0,2,X\nd{k},b,0,2,X\n" for k in range(25))


def test_span_lengths_name_every_bad_row():
    lines = ["item,length"]
    places, values = [], []
    for k in range(25):
        bad = ["-1", "abc", "2.5", "3", "4"][k % 5]
        lines.append(f"d{k},{bad}")
        if k % 5 < 3:
            places.append((len(lines), "length"))
            values.append(bad)
    lines.append("d0,4")  # d0 given twice
    places.append((len(lines), "item"))
    values.append("d0")
    with pytest.raises(InputErrors) as caught:
        agreekit.report("spans", SPANS, lengths="\n".join(lines) + "\n", bootstrap=0)
    assert_every_bad_row(caught.value, places, values, field="lengths")
    assert caught.value.total == 16 and len(caught.value.errors) == 16


def test_span_texts_name_every_bad_row():
    text = "item,text\nd0,abcdef\nd1,xyz\nd0,again\n,orphan\nd2,ok\n"
    with pytest.raises(InputErrors) as caught:
        agreekit.report("spans", SPANS, lengths=text, bootstrap=0)
    assert_every_bad_row(caught.value, [(4, "item"), (5, "item")], ["d0", ""], field="lengths")


def test_clip_durations_name_every_bad_row():
    rows = "item,annotator,start,end,label\n" + "".join(f"c{k},a,0,1,x\nc{k},b,0,1,x\n" for k in range(30))
    lines, places, values = ["item,duration"], [], []
    for k in range(30):
        bad = ["-2", "soon", "inf", "5"][k % 4]
        lines.append(f"c{k},{bad}")
        if k % 4 < 3:
            places.append((len(lines), "duration"))
            values.append(bad)
    with pytest.raises(InputErrors) as caught:
        agreekit.report("segments", rows, durations="\n".join(lines) + "\n", bootstrap=0)
    assert_every_bad_row(caught.value, places, values, field="durations")
    assert caught.value.total == 23 and len(caught.value.errors) == MAX_ROW_ERRORS
    assert "(and 22 more: line 3, column 'duration';" in str(caught.value)


@pytest.mark.parametrize("kind,option,table", [("spans", "lengths", "item,length\nd0,-1\nd1,2\n"),
                                               ("segments", "durations", "item,duration\nc0,-1\nc1,2\n")])
def test_one_bad_row_of_a_table_is_one_plain_error(kind, option, table):
    rows = SPANS if kind == "spans" else "item,annotator,start,end\nc0,a,0,1\nc0,b,0,1\n"
    with pytest.raises(InputError) as caught:
        agreekit.report(kind, rows, bootstrap=0, **{option: table})
    assert type(caught.value) is InputError and (caught.value.line, caught.value.field) == (2, option)


def test_the_page_gets_every_error_of_a_table_by_its_field():
    import json
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
    import bridge
    options = {"bootstrap": 0, "lengths": "item,length\nd0,-1\nd1,x\nd2,5\nd1,4\n"}
    error = json.loads(bridge.run_report("spans", SPANS, json.dumps(options)))["error"]
    assert error["total"] == 3 and error["where"]["field"] == "lengths"
    assert [(e["where"]["line"], e["where"]["column"], e["where"]["value"], e["where"]["field"]) for e in error["errors"]] \
        == [(2, "length", "-1", "lengths"), (3, "length", "x", "lengths"), (5, "item", "d1", "lengths")]


def test_tables_given_as_dicts_name_every_bad_entry():
    with pytest.raises(InputErrors) as caught:
        agreekit.report("spans", SPANS, lengths={"d0": -1, "d1": 4, "d2": 2.5, "d3": "abc"}, bootstrap=0)
    assert_every_bad_row(caught.value, [(1, "length"), (3, "length")], ["-1", "2.5"], field="lengths")
    rows = "item,annotator,start,end\nc0,a,0,1\nc0,b,0,1\n"
    with pytest.raises(InputErrors) as caught:
        agreekit.report("segments", rows, durations={"c0": "1", "c1": 2.0, "c2": float("inf")}, bootstrap=0)
    assert_every_bad_row(caught.value, [(1, "duration"), (3, "duration")], ["1", float("inf")], field="durations")
