"""The spans kind's command-line text (kinds/spans/text.py): every number labelled, the five-way rows
adding up as the report's note says, the one-sided spans named from the reader's side, and the
columns against a reference in the kind's words (issue 26)."""
import csv
import io
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

import agreekit
from agreekit.text import fixed

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "web" / "examples" / "spans.csv"
LENGTHS = ROOT / "web" / "examples" / "spans-lengths.csv"
HOSTILE = ['<b>x</b> "quoted", {0} %s', "ann\u202eb", "comma, quote \" and; semicolon", "𝔄nnotator ☃", "0.5"]


def _cli(*args, stdin=None):
    done = subprocess.run([sys.executable, "-m", "agreekit", *map(str, args)], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT / "pycore")})
    assert done.returncode == 0, done.stderr
    return done.stdout


def _text(report):
    return agreekit.KINDS["spans"].text(report)


def _rows_csv(rows):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["item", "annotator", "start", "end", "label"])
    writer.writerows(rows)
    return out.getvalue()


def _random_rows(seed, annotators, n_items=6):
    """Spans of ``annotators`` on ``n_items`` items, near one another so that every outcome occurs."""
    rng = random.Random(seed)
    rows = []
    for item in range(n_items):
        anchors = [(rng.randrange(0, 40), rng.randrange(2, 8)) for _ in range(3)]
        for annotator in annotators:
            for start, width in anchors:
                if rng.random() < 0.8:
                    shift = rng.choice([0, 0, 1, -1])
                    rows.append((f"doc{item}", annotator, max(0, start + shift), start + width + shift,
                                 rng.choice(["PER", "PER", "ORG"])))
    return rows


def _total_table(text):
    """The rows of the total five-way table: {outcome: (spans, share, matched pairs)}."""
    lines = text.splitlines()
    start = lines.index(next(line for line in lines if line.startswith("five-way disagreement, all"))) + 2
    rows = {}
    for line in lines[start:]:
        if line.startswith("  "):
            break
        match = re.match(r"(.+?)\s{2,}(\d+)\s+(\S+)(?:\s+(\d+))?", line)
        rows[match.group(1)] = (int(match.group(2)), match.group(3), match.group(4) and int(match.group(4)))
    return rows


def test_every_coefficient_is_named_with_its_value():
    report = agreekit.spans(EXAMPLE.read_text(), lengths=LENGTHS.read_text(), bootstrap=50)
    d = report.to_dict()
    text = _text(report)
    for name, key in [("exact F1", "exact_f1"), ("partial F1", "partial_f1"),
                      ("character-level alpha", "char_alpha"), ("unitizing alpha (α_U)", "unitizing_alpha")]:
        line = next(line for line in text.splitlines() if line.startswith(name + " "))
        e = d[key]
        assert f"{fixed(e['value'])}  [{fixed(e['ci'][0])}, {fixed(e['ci'][1])}]" in line, line
    assert text.startswith(f"agreekit spans: {d['n_items']} items ({d['n_items_scored']} scored")
    assert f"{d['n_annotators']} annotators, {d['n_spans']} spans" in text.splitlines()[0]
    settings = text.splitlines()[1]
    for word in ("match optimal", d["settings"]["partial_rule"], "lengths: texts", "50 bootstrap resamples",
                 f"seed {d['settings']['seed']}", "95% intervals"):
        assert word in settings
    assert not re.search(r"\b\w+\.(value|ci|n|total|missed_a)\b", text), "a dotted report key is printed"
    assert "missed_a" not in text and "-0.0000" not in text


def test_an_undefined_alpha_u_says_what_to_give():
    text = _text(agreekit.spans(EXAMPLE.read_text(), bootstrap=0))
    line = next(line for line in text.splitlines() if line.startswith("unitizing alpha"))
    assert "undefined (item lengths are needed: give --lengths)" in line


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("annotators", [("ann_a", "ann_b"), ("p", "q", "r", "s")])
def test_the_five_way_rows_sum_as_the_note_says(seed, annotators):
    report = agreekit.spans(_rows_csv(_random_rows(seed, annotators)), bootstrap=0)
    d = report.to_dict()["disagreement"]
    text = _text(report)
    rows = _total_table(text)
    total_spans = rows.pop("all compared spans")[0]
    assert total_spans == d["spans"]["n_spans"] == d["total"]["n_spans"]
    assert sum(spans for spans, _, _ in rows.values()) == total_spans
    matched = [(spans, pairs) for spans, _, pairs in rows.values() if pairs is not None]
    assert len(matched) == 4 and all(spans == 2 * pairs for spans, pairs in matched)
    note = next(line for line in text.splitlines() if line.startswith("  a matched pair is two spans"))
    terms = [int(t) for t in re.search(r": ([\d + ]+) = (\d+) spans", note).group(1).split(" + ")]
    assert sum(terms) == total_spans and f"= {total_spans} spans" in note
    for spans, share, _ in rows.values():
        assert share == fixed(spans / total_spans)
    one_sided = [name for name in rows if name.startswith("found by")]
    if len(annotators) == 2:
        assert one_sided == [f"found by {annotators[0]} only", f"found by {annotators[1]} only"]
        assert [rows[name][0] for name in one_sided] == [d["total"]["missed_a"], d["total"]["missed_b"]]
    else:
        assert [rows[name][0] for name in one_sided] == [d["spans"]["missed"]]
        assert one_sided[0].startswith("found by one annotator of a pair only")


def test_the_pair_table_names_both_sides_and_counts_what_it_does_not_show():
    annotators = [f"ann{k}" for k in range(6)]  # 15 pairs, 10 shown
    report = agreekit.spans(_rows_csv(_random_rows(7, annotators)), bootstrap=0)
    pairs = report.to_dict()["disagreement"]["pairs"]
    text = _text(report)
    for pair in pairs[:10]:
        line = next(line for line in text.splitlines() if line.startswith(f"{pair['a']} vs {pair['b']} "))
        assert f"{pair['missed_a']} ({pair['a']})" in line and f"{pair['missed_b']} ({pair['b']})" in line
    assert f"{pairs[10]['a']} vs {pairs[10]['b']}" not in text
    assert f"... {len(pairs) - 10} more (use --json)" in text


def test_the_text_does_not_depend_on_row_order():
    rows = _random_rows(3, ("x", "y", "z"))
    shuffled = rows[:]
    random.Random(1).shuffle(shuffled)
    assert _text(agreekit.spans(_rows_csv(rows), bootstrap=20)) == _text(agreekit.spans(_rows_csv(shuffled),
                                                                                       bootstrap=20))


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_annotator_name_is_printed_as_given(name):
    rows = [(item, who, start, end, label) for item, who, start, end, label
            in _random_rows(2, ("first", "second"))]
    rows = [(item, name if who == "second" else who, start, end, label) for item, who, start, end, label in rows]
    text = _cli("spans", "-", "--bootstrap", "0", stdin=_rows_csv(rows))
    assert f"found by {name} only" in text
    assert f"first vs {name}" in text or f"{name} vs first" in text


def test_against_a_reference_the_five_way_columns_are_in_the_readers_words():
    text = _cli("spans", EXAMPLE, "--reference", "ann_a", "--bootstrap", "0")
    data = agreekit.spans(EXAMPLE.read_text(), reference="ann_a", bootstrap=0).to_dict()["reference"]
    lines = text.splitlines()
    head = lines.index("annotators against the reference:") + 1
    assert "found by reference only" in lines[head] and "found by annotator only" in lines[head]
    assert "outcomes" not in text and "missed" not in lines[head]
    headings = re.split(r"\s{2,}", lines[head])
    for row, source in zip(lines[head + 1:head + 3], [data["annotators"][0], data["total"]]):
        cells = dict(zip(headings, re.split(r"\s{2,}", row)))
        assert cells["found by reference only"] == str(source["outcomes"]["missed_a"])
        assert cells["found by annotator only"] == str(source["outcomes"]["missed_b"])
        assert cells["label only"] == str(source["outcomes"]["label_only"])


def test_other_kinds_add_no_spans_columns_against_a_reference():
    assert agreekit.KINDS["boxes"].reference_columns == ()
    assert all(key.startswith("outcomes.") for key, _ in agreekit.KINDS["spans"].reference_columns)


def test_the_docs_example_is_what_the_command_line_prints():
    # docs/spans.md shows the start of the text; the lines shown are the command line's, word for word.
    docs = (ROOT / "docs" / "spans.md").read_text(encoding="utf-8")
    command = ("$ PYTHONPATH=pycore python -m agreekit spans web/examples/spans.csv "
               "--lengths web/examples/spans-lengths.csv\n")
    shown = docs.split(command, 1)[1].split("\n...\n", 1)[0].splitlines()
    printed = _cli("spans", "web/examples/spans.csv", "--lengths", "web/examples/spans-lengths.csv").splitlines()
    assert len(shown) > 10 and shown == printed[:len(shown)]
