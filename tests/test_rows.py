"""Reading rows: line breaks, long fields, and telling a header from a data row."""
import pytest

import agreekit
from agreekit.rows import InputError, read_table

BOX_ROWS = "img1,a,0,0,1,1,x\nimg1,b,0,0,1,1,x\n"


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_every_line_break_reads_the_same_through_the_api(newline):
    report = agreekit.boxes(BOX_ROWS.replace("\n", newline), bootstrap=0).to_dict()
    assert report["n_boxes"] == 2 and report["mean_matched_iou"] == 1.0


def test_a_field_longer_than_the_csv_default_limit_is_read():
    text = "item,annotator,start,end,label\nd1,a,0,5," + "L" * 200_000 + "\nd1,b,0,5,L\n"
    report = agreekit.spans(text, bootstrap=0)
    assert report.n_spans == 2
    assert sorted(row["label"] for row in report.to_dict()["labels"]) == ["L", "L" * 200_000]


def test_a_headerless_first_row_whose_label_is_a_column_name_is_data():
    report = agreekit.boxes(BOX_ROWS, bootstrap=0).to_dict()
    assert report["n_boxes"] == 2 and report["labels"][0]["label"] == "x"
    spans = agreekit.spans("doc,user,0,5,tag\ndoc,rater,0,5,tag\n", bootstrap=0)  # synonyms, but numbers
    assert spans.n_spans == 2


def test_a_header_is_still_recognised_by_synonyms():
    rows = read_table("image,worker,left,top,right,bottom,class\nimg1,a,0,0,1,1,car\n",
                      ("item", "annotator", "x", "y", "w", "h", "label"),
                      {"item": ("image",), "annotator": ("worker",)}, alternatives=[("x1",)])
    assert len(rows) == 1 and rows[0].values["item"] == "img1"


def test_both_box_column_sets_are_an_error_naming_both():
    text = "item,annotator,x,y,w,h,x1,y1,x2,y2,label\nimg1,a,0,0,1,1,0,0,1,1,car\n"
    with pytest.raises(InputError, match="both x, y, w, h and x1, y1, x2, y2"):
        agreekit.boxes(text)
