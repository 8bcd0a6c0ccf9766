"""parse_boxes: the shortcut for plain rows gives exactly what the checks cell by cell give.

``kinds.boxes.rows._plain_record`` reads a row whose fields are plain text and finite numbers;
any other row goes to ``_checked_record``, the checks in their order.  Every row below must
come out of parse_boxes as ``_checked_record`` alone makes it: the same record, or the same
error (message, line, column, value).
"""
import numpy as np
import pytest

from agreekit.kinds.boxes import rows as kind
from agreekit.rows import InputError, read_table

ODD_VALUES = [0.5, "0.5", " 0.5 ", 3, 10 ** 400, "1e400", "nan", float("nan"), float("inf"), "-inf", True,
              np.float64(0.25), np.float32(0.25), np.int64(2), "", "  ", None, "abc", "1_0", 1e151, -1e151,
              1e-160, "1e-160", 0, -2.0, [1], 1e12]
ODD_TEXT = ["img", " img ", "", "  ", None, 3, 2.0, 2.5, True, "NaN"]


def checked(rows, corner=False, keep_none_labels=False):
    """parse_boxes' records with every row through ``_checked_record`` (the definition), or its error."""
    table = read_table(rows, kind.COLUMNS, kind.SYNONYMS, alternatives=(kind.CORNERS,),
                       required=("item", "annotator"))
    columns = ("x1", "y1", "x2", "y2") if corner else ("x", "y", "w", "h")
    return [kind._checked_record(row, columns, corner, keep_none_labels) for row in table]


def outcome(function, *args, **kwargs):
    try:
        return function(*args, **kwargs)
    except InputError as error:
        return ("error", str(error), error.to_dict())


def row_variants(corner):
    names = ("x1", "y1", "x2", "y2") if corner else ("x", "y", "w", "h")
    base = {"item": "img", "annotator": "ann", **dict(zip(names, (1.0, 2.0, 5.0, 6.0))), "label": "car"}
    yield base
    for name in names:
        for value in ODD_VALUES:
            yield {**base, name: value}
    for name in ("item", "annotator", "label"):
        for value in ODD_TEXT:
            yield {**base, name: value}
    yield {key: value for key, value in base.items() if key != "label"}
    yield {**base, **dict.fromkeys(names, "")}
    yield {**base, **dict.fromkeys(names, ""), "label": ""}


@pytest.mark.parametrize("corner", [False, True])
@pytest.mark.parametrize("keep_none_labels", [False, True])
def test_each_odd_row_reads_as_the_checks_cell_by_cell_read_it(corner, keep_none_labels):
    for row in row_variants(corner):
        rows = [row]
        expected = outcome(checked, rows, corner, keep_none_labels)
        got = outcome(lambda: kind.parse_boxes(rows, keep_none_labels=keep_none_labels)[0])
        assert repr(got) == repr(expected), row


def test_text_rows_read_as_the_checks_cell_by_cell_read_them():
    text = ("item,annotator,x,y,w,h,label\nimg1,a,0,0,10,10,car\n img1 , b ,1,1,10,10, car \n"
            "img2,a,5,5,10,10,\nimg2,b,,,,,\nimg3,a,1e-3,2,3,4,x\n")
    assert repr(kind.parse_boxes(text)[0]) == repr(checked(text))
    for bad in ("img4,a,nan,1,1,1,car", "img4,a,1,1,1e-200,1,car", "img4,a,1e200,1,1,1,car", "img4,a,1,1,,1,car",
                "img4,,1,1,1,1,car", "img4,a,1,1,x,1,car", "img4,a,,,,,car", "img4,a,1e15,1,1e-3,1,car"):
        expected, got = outcome(checked, text + bad + "\n"), outcome(kind.parse_boxes, text + bad + "\n")
        assert expected[0] == "error" and repr(got) == repr(expected), bad
