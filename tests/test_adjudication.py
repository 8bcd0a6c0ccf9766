"""The adjudication list from a report's reference conflicts (agreekit.reference_conflicts, CLI --adjudication)."""
import csv
import io

import pytest

import agreekit
from agreekit.cli import main

BOX1, BOX2, BOX3 = (0.0, 0.0, 10.0, 10.0), (20.0, 20.0, 10.0, 10.0), (50.0, 50.0, 10.0, 10.0)
SHIFTED1 = (6.0, 0.0, 10.0, 10.0)   # IoU with BOX1 = 40 / 160 = 0.25: a low overlap (0.1 ≤ IoU < 0.5)


def box(item, annotator, geometry, label="cat"):
    x, y, w, h = geometry
    return {"item": item, "annotator": annotator, "x": x, "y": y, "w": w, "h": h, "label": label}


def hand_made():
    """E is the expert.  i1: B labels box 1 a dog, misses box 2, draws box 3; i2: A's box overlaps little;
    i3: A misses both boxes, B one; i4: everyone agrees."""
    return [box("i1", "E", BOX1), box("i1", "E", BOX2), box("i1", "A", BOX1), box("i1", "A", BOX2),
            box("i1", "B", BOX1, "dog"), box("i1", "B", BOX3),
            box("i2", "E", BOX1), box("i2", "A", SHIFTED1), box("i2", "B", BOX1),
            box("i3", "E", BOX1), box("i3", "E", BOX2), box("i3", "B", BOX1), box("i3", "A", BOX3, "x"),
            box("i4", "E", BOX1), box("i4", "A", BOX1), box("i4", "B", BOX1)]


# (rank, item, item weight, item conflicts, conflict, annotators, weight, detail)
EXPECTED = [
    ("1", "i3", "4", "2", "missing", "A; B; E", "3", "A: 2, B: 1 (against E)"),
    ("1", "i3", "4", "2", "extra", "A; E", "1", "A: 1 (against E)"),
    ("2", "i1", "3", "3", "extra", "B; E", "1", "B: 1 (against E)"),
    ("2", "i1", "3", "3", "missing", "B; E", "1", "B: 1 (against E)"),
    ("2", "i1", "3", "3", "wrong label", "B; E", "1", "B: 1 (against E)"),
    ("3", "i2", "1", "1", "low overlap", "A; E", "1", "A: 1 (against E)"),
]


def rows_of(text):
    table = list(csv.reader(io.StringIO(text)))
    assert table[0] == ["rank", "item", "item_weight", "item_conflicts", "conflict", "annotators", "weight",
                        "detail", "link"]
    return [tuple(row[:8]) for row in table[1:]]


def test_the_list_holds_exactly_the_conflicts_in_order():
    report = agreekit.boxes(hand_made(), reference="E", bootstrap=0)
    assert rows_of(agreekit.adjudication_csv(agreekit.reference_conflicts(report))) == EXPECTED


def test_the_list_is_invariant_to_row_order():
    report = agreekit.boxes(hand_made()[::-1], reference="E", bootstrap=0)
    assert rows_of(agreekit.adjudication_csv(agreekit.reference_conflicts(report.to_dict()))) == EXPECTED


def test_the_cli_writes_the_list(tmp_path):
    rows = hand_made()
    source = io.StringIO()
    writer = csv.DictWriter(source, list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    (tmp_path / "rows.csv").write_text(source.getvalue())
    out = tmp_path / "adjudication.csv"
    assert main(["boxes", str(tmp_path / "rows.csv"), "--reference", "E", "--bootstrap", "0",
                 "--adjudication", str(out)]) == 0
    assert rows_of(out.read_text()) == EXPECTED


def test_a_report_without_reference_is_an_input_error():
    with pytest.raises(agreekit.InputError, match="needs a report with a reference"):
        agreekit.reference_conflicts(agreekit.boxes(hand_made(), bootstrap=0))


def test_a_consensus_reference_is_named():
    conflicts = agreekit.reference_conflicts(agreekit.boxes(hand_made(), reference="consensus", bootstrap=0))
    assert conflicts and all("consensus" in c.annotators for c in conflicts)
