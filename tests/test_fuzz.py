"""Fuzzing every kind: any text gives a report or an InputError that says where, never a traceback
(issue 10).

For every kind in ``agreekit.KINDS``, hypothesis writes CSV-ish text: rows that mix valid values
with empty fields, huge and malformed numbers, unicode, quotes, brackets and wrong field counts,
under a header or without one.  ``agreekit.report(kind, text, **options)`` must then

* raise :class:`agreekit.InputError` whose ``line`` is set, or whose message names an option
  (or, with no line to name, says the input is empty) — never any other exception; or
* return a report whose dict is strict JSON, whose estimates (``{value, ci, ci_level, reason, n}``)
  are None or finite, at most 1, and within [0, 1] for rates (F1, IoU, Dice, percent agreement,
  sensitivity, specificity, KS), and which does not change when the data rows are shuffled
  (with ``bootstrap=0``; Potato modes keep row order on purpose and are not shuffled).
"""
from __future__ import annotations

import csv
import io
import json
import math
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agreekit
from agreekit.parse.rle import rle_to_string
from agreekit.report_shape import check as check_shape
from agreekit.shapes import shape_of

# A fixed set of examples, so the suite never flakes; AGREEKIT_FUZZ_EXAMPLES=2000 explores afresh.
EXPLORE = int(os.environ.get("AGREEKIT_FUZZ_EXAMPLES", 0))
FUZZ = settings(max_examples=EXPLORE or 150, deadline=None, derandomize=not EXPLORE, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# --------------------------------------------------------------------------- field values

WEIRD_NUMBERS = ["", " ", "nan", "NaN", "inf", "-inf", "1e308", "1e309", "-1e308", "-0", "-1", "1" * 400,
                 "9" * 5000, "9223372036854775808", "10000000000", "1e20", "0x10", "1_0", "٣", "1e-320",
                 "abc", "[1]", '"', "1,5", "½", "+2", ".5", "2.", "1e", "--1", "0.30000000000000004"]
WEIRD_TEXT = ["", " ", "é", '"q"', "a,b", "[", "]", "[[", "{}", "x y", "😀", "\t", "null", "x\ny", "ÿ" * 300,
              "[" * 3000 + "]" * 3000, "P" * 2000 + "0", "[[0, 0], [1, 0], [1, true]]", "0 0 1e308 0 1e308 1e308",
              "0 0 1e101 0 0 1", "[[0, 0], [1, 0], [1, 1e400]]", "0 0 1 0 1 " + "1" * 400, "[9223372036854775807, 5]"]
WEIRD = st.sampled_from(WEIRD_NUMBERS + WEIRD_TEXT)

ITEM = st.sampled_from(["i1", "i2", "i3"])
ANNOTATOR = st.sampled_from(["a", "b", "c"])
LABEL = st.sampled_from(["x", "y", "", "é"])
TRACE_LABELS = ["x", "y", "é", "1", "2", "3"]  # never blank; numbers for the ordinal level
MASK_SIZES = {"i1": (2, 2), "i2": (3, 2), "i3": (2, 3)}  # (width, height): one size per item


def _decimal(low, high, digits=2):
    return st.floats(low, high).map(lambda v: f"{v:.{digits}f}")


@st.composite
def _points(draw):
    """A simple polygon (a rectangle or a right triangle of small integers) in one of the forms."""
    x, y, a, b = (draw(st.integers(low, 3)) for low in (0, 0, 1, 1))
    vertices = [(x, y), (x + a, y), (x + a, y + b), (x, y + b)] if draw(st.booleans()) else \
        [(x, y), (x + a, y), (x, y + b)]
    form = draw(st.sampled_from(["spaces", "pairs", "json", "flat"]))
    if form == "spaces":
        return " ".join(f"{u} {v}" for u, v in vertices)
    if form == "pairs":
        return "; ".join(f"{u},{v}" for u, v in vertices)
    if form == "json":
        return json.dumps([list(v) for v in vertices])
    return json.dumps([c for v in vertices for c in v])


@st.composite
def _rle(draw, n_pixels):
    """Run lengths of a mask of ``n_pixels`` in one of COCO's forms, or blank (nothing marked)."""
    cuts = sorted(draw(st.lists(st.integers(0, n_pixels), max_size=4)))
    runs = [b - a for a, b in zip([0] + cuts, cuts + [n_pixels])]
    form = draw(st.sampled_from(["spaces", "json", "compressed", "blank"]))
    if form == "spaces":
        return " ".join(map(str, runs))
    if form == "json":
        return json.dumps(runs)
    if form == "compressed":
        return rle_to_string(runs)
    return ""


@st.composite
def _interval(draw, low, high, longest, integers):
    """``[start, end]`` as text, or both blank (read the item, marked nothing)."""
    if draw(st.integers(0, 6)) == 0:
        return ["", ""]
    if integers:
        start = draw(st.integers(low, high))
        return [str(start), str(start + draw(st.integers(0, longest)))]
    start = draw(st.floats(low, high))
    return [f"{start:.1f}", f"{start + draw(st.floats(0, longest)):.1f}"]


def _box(d):
    if d(st.integers(0, 8)) == 0:
        return ["", "", "", ""]
    return [d(_decimal(0, 1)), d(_decimal(0, 1)), d(_decimal(0, 0.6)), d(_decimal(0, 0.6))]


def _saw_nothing_unlabelled(fields, geometry):
    """A row whose geometry (the fields at ``geometry``) is blank says "saw it, drew nothing": no label."""
    if all(fields[k] == "" for k in geometry):
        fields[-1] = ""
    return fields


def _mask_row(d):
    item = d(ITEM)
    width, height = MASK_SIZES[item]
    return [item, d(ANNOTATOR), str(width), str(height), d(_rle(width * height)), d(LABEL)]


def _cuboid(d, quaternion):
    centre = [d(_decimal(-1, 1)) for _ in range(3)]
    size = [d(st.sampled_from(["0", "0.5", "1", "1.5"])) for _ in range(3)]
    turn = [d(_decimal(-1, 1)) for _ in range(4)] if quaternion else [d(_decimal(-3, 3))]
    return centre + size + turn


# Each kind: its header (canonical names) and a drawer of one plain data row (values that are valid
# one by one; rows may still clash).  Noisy tables then spoil some fields.
ROWS = {
    "boxes": (("item", "annotator", "x", "y", "w", "h", "label"),
              lambda d: _saw_nothing_unlabelled([d(ITEM), d(ANNOTATOR), *_box(d), d(LABEL)], range(2, 6))),
    "spans": (("item", "annotator", "start", "end", "label"),
              lambda d: _saw_nothing_unlabelled([d(ITEM), d(ANNOTATOR), *d(_interval(0, 12, 8, True)), d(LABEL)],
                                                (2, 3))),
    "segments": (("item", "annotator", "start", "end", "label"),
                 lambda d: _saw_nothing_unlabelled([d(ITEM), d(ANNOTATOR), *d(_interval(0, 4, 2, False)),
                                                    d(LABEL)], (2, 3))),
    "polygons": (("item", "annotator", "points", "label"),
                 lambda d: [d(ITEM), d(ANNOTATOR), d(_points()), d(LABEL)]),
    "masks": (("item", "annotator", "width", "height", "rle", "label"), _mask_row),
    "cuboids": (("item", "annotator", "cx", "cy", "cz", "sx", "sy", "sz", "yaw", "label"),
                lambda d: [d(ITEM), d(ANNOTATOR), *_cuboid(d, False), d(LABEL)]),
    "traces": (("trace", "step", "annotator", "label"),
               lambda d: [d(ITEM), str(d(st.integers(1, 3))), d(ANNOTATOR), d(st.sampled_from(TRACE_LABELS))]),
}


def test_every_kind_is_fuzzed():
    assert set(ROWS) == set(agreekit.KINDS)


# --------------------------------------------------------------------------- texts and options

@st.composite
def _table(draw, kind):
    """``(lines, has_header)``: the text's lines, header first when there is one.

    Half the tables are plain; in the others each row may have a field spoiled (a weird number or
    text) or a field too many or too few.  Quoting and delimiters vary, and unquoted fields may
    break their row (a quote or a line break inside).
    """
    header, row = ROWS[kind]
    header = list(header)
    quaternion = kind == "cuboids" and draw(st.booleans())
    if quaternion:
        header[-2:-1] = ["qx", "qy", "qz", "qw"]
    noisy = draw(st.booleans())
    rows = []
    for _ in range(draw(st.integers(1, 10))):
        fields = _cuboid_row(draw, quaternion) if kind == "cuboids" else row(draw)
        if noisy and draw(st.integers(0, 3)) == 0:
            fields[draw(st.integers(0, len(fields) - 1))] = draw(WEIRD)
        if noisy and draw(st.integers(0, 12)) == 0:
            fields = fields[:-1] if draw(st.booleans()) else fields + ["extra"]
        rows.append(fields)
    if kind == "traces" and not noisy:  # an annotator labels a step once: keep the first row of each
        rows = list({tuple(fields[:3]): fields for fields in reversed(rows)}.values())[::-1]
    has_header = draw(st.integers(0, 5)) > 0
    delimiter = draw(st.sampled_from([",", ",", "\t", ";"]))
    quoted = not noisy or draw(st.integers(0, 3)) > 0
    lines = [_line(fields, delimiter, quoted) for fields in ([header] if has_header else []) + rows]
    return lines, has_header


def _cuboid_row(draw, quaternion):
    return [draw(ITEM), draw(ANNOTATOR), *_cuboid(draw, quaternion), draw(LABEL)]


def _line(fields, delimiter, quoted):
    if not quoted:
        return delimiter.join(fields)
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator="").writerow(fields)
    return out.getvalue()


@st.composite
def _options(draw, kind):
    """Options of ``kind``, drawn from its declared ones (read from the registry, not hard-coded)."""
    options = {}
    for option in agreekit.KINDS[kind].options:
        if draw(st.booleans()):
            continue  # the default
        if option.type == "choice":
            options[option.name] = draw(st.sampled_from([c.value for c in option.choices]))
        elif option.name == "bootstrap":
            options[option.name] = draw(st.sampled_from([0, 3]))
        elif option.type == "int":
            options[option.name] = draw(st.integers(option.minimum, min(option.maximum, option.minimum + 5)))
        elif option.type == "float":
            options[option.name] = draw(st.sampled_from([option.minimum, 0.1, 0.5, option.maximum]))
        elif option.type == "floats":
            options[option.name] = draw(st.lists(st.sampled_from([0.0, 0.1, 1.0, 5.0]), min_size=1, max_size=3))
        elif option.type == "table":
            options[option.name] = draw(st.sampled_from(["item,length\ni1,10\ni2,25", "item,text\ni1,abc é",
                                                         {"i1": 30}, "item,length\ni1,-1", "item\ni1"]))
        elif option.type in ("text", "labels"):
            options[option.name] = draw(st.sampled_from(["x", "x,y,é", "y,x,é", "x,x"]))
    return options


# --------------------------------------------------------------------------- what a report must satisfy

ESTIMATE_KEYS = {"value", "ci", "ci_level", "reason", "n"}
# Words of a key that name a rate in [0, 1] ("mean_matched_iou", "detection_f1", "shares", ...).
RATE_WORDS = {"f1", "iou", "dice", "agreement", "sensitivity", "specificity", "ks", "precision", "recall",
              "share", "shares"}
TOLERANCE = 1e-12


def _is_rate(key):
    return bool(RATE_WORDS & set(key.split("_")))


def _check_numbers(value, key=""):
    """Every estimate is None (with a reason) or finite and ≤ 1; every rate, estimate or not, in [0, 1]."""
    if isinstance(value, dict):
        if ESTIMATE_KEYS <= set(value):
            assert value["value"] is not None or value["reason"], (key, value)
            for number in [value["value"]] + list(value["ci"] or []):
                assert number is None or (math.isfinite(number) and number <= 1 + TOLERANCE), (key, value)
                assert number is None or not _is_rate(key) or number >= -TOLERANCE, (key, value)
        for sub_key, sub in value.items():
            _check_numbers(sub, str(sub_key))
    elif isinstance(value, list):
        for sub in value:
            _check_numbers(sub, key)
    elif isinstance(value, float) and _is_rate(key):
        assert -TOLERANCE <= value <= 1 + TOLERANCE, (key, value)


# Lists whose order among equals is the input's, by documentation: compared as multisets.
#   items (every kind): "most disagreement first" (docs/report.md); equally disagreeing items keep
#   their order of first appearance.  traces.traces and traces.units: "ties keep input order".
UNORDERED = {"items", "traces", "units"}
LINE_KEYS = {"line", "lines", "warnings"}  # lines move when rows are shuffled; warnings name lines


def _normal(value, key=None):
    """``value`` without lines and with the lists of ``UNORDERED`` sorted (by their rounded JSON)."""
    if isinstance(value, dict):
        return {k: _normal(v, k) for k, v in value.items() if k not in LINE_KEYS}
    if isinstance(value, list):
        items = [_normal(v) for v in value]
        return sorted(items, key=_sort_key) if key in UNORDERED else items
    return value


def _sort_key(value):
    def rounded(v):
        if isinstance(v, float):
            return float(f"{v:.6g}")
        if isinstance(v, dict):
            return {k: rounded(x) for k, x in v.items()}
        return [rounded(x) for x in v] if isinstance(v, list) else v
    return json.dumps(rounded(value), sort_keys=True)


def _assert_same(a, b, path="report"):
    """Equal, floats within 1e-9 (a sum in another order may differ in its last bits)."""
    if isinstance(a, float) and isinstance(b, float):
        assert math.isclose(a, b, rel_tol=1e-9, abs_tol=TOLERANCE), (path, a, b)
    elif isinstance(a, dict) and isinstance(b, dict):
        assert a.keys() == b.keys(), (path, a.keys() ^ b.keys())
        for key in a:
            _assert_same(a[key], b[key], f"{path}.{key}")
    elif isinstance(a, list) and isinstance(b, list):
        assert len(a) == len(b), (path, len(a), len(b))
        for k, (x, y) in enumerate(zip(a, b)):
            _assert_same(x, y, f"{path}[{k}]")
    else:
        assert a == b, (path, a, b)


def _shuffled(lines, seed):
    """The text with every line but the first shuffled (the header, or a headerless first row)."""
    body = lines[1:]
    random.Random(seed).shuffle(body)
    return "\n".join(lines[:1] + body) + "\n"


def _run(kind, text, options):
    """The report's dict, or the InputError (checked to say where)."""
    try:
        report = agreekit.report(kind, text, **options)
    except agreekit.InputError as error:
        names_option = any(option.name in error.message for option in agreekit.KINDS[kind].options)
        assert error.line is not None or names_option or "empty" in error.message, repr(error)
        json.dumps(error.to_dict())
        return error
    data = report.to_dict()
    json.dumps(data, allow_nan=False)
    _check_numbers(data)
    problems = check_shape(shape_of(kind), data)
    assert not problems, f"{kind} {options}: " + "; ".join(dict.fromkeys(problems))
    return data


def _fuzz(kind, table, options, seed):
    lines, has_header = table
    text = "\n".join(lines) + "\n"
    _run(kind, text, options)
    if options.get("match") == "potato":
        return  # Potato's first-fit keeps row order on purpose
    # No bootstrap, and the exact chance baseline: a sampled one (pair_budget below the pairs) draws
    # pairs of items by their position, and items are numbered in order of first appearance.
    # And every disputed unit listed (top_units): a cut among equally disputed units falls by input order.
    fixed = {k: v for k, v in options.items() if k not in ("bootstrap", "pair_budget", "top_units")}
    if "bootstrap" in {option.name for option in agreekit.KINDS[kind].options}:
        fixed["bootstrap"] = 0
    first = _run(kind, text, fixed)
    second = _run(kind, _shuffled(lines, seed), fixed)
    if isinstance(first, Exception) or isinstance(second, Exception):
        assert isinstance(first, Exception) and isinstance(second, Exception), (first, second)
        return
    _assert_same(_normal(first), _normal(second))


@pytest.mark.parametrize("kind", sorted(ROWS))
def test_any_text_gives_a_report_or_a_located_error(kind):
    @FUZZ
    @given(table=_table(kind), options=_options(kind), seed=st.integers(0, 2 ** 16))
    def check(table, options, seed):
        _fuzz(kind, table, options, seed)

    check()


# --------------------------------------------------------------------------- row-order findings, pinned

def test_segments_matching_tie_break_does_not_follow_row_order():
    """Found by the fuzz: b's unlabelled instant ties between a's x and y; the canonical segment
    order (start, end, label) now breaks the tie, as for boxes, not the order of the rows."""
    rows = ["item,annotator,start,end,label", "i1,a,0,0,x", "i1,a,0,0,y", "i1,b,0,0,"]
    reports = [agreekit.segments("\n".join(rows[:1] + body), threshold=0.0, bootstrap=0).to_dict()
               for body in (rows[1:], rows[1:][::-1])]
    assert reports[0]["labels"] == reports[1]["labels"]
    assert [row["n_matched"] for row in reports[0]["labels"]] == [1, 1, 0]  # "", x, y: x wins the tie


def test_span_examples_do_not_follow_row_order():
    """Found by the fuzz: two missed spans of b at the same place were listed in row order."""
    rows = ["item,annotator,start,end,label", "i2,a,,,", "i2,b,0,0,x", "i2,b,0,0,y"]
    examples = [agreekit.spans("\n".join(rows[:1] + body), bootstrap=0).to_dict()["items"][0]["examples"]
                for body in (rows[1:], rows[1:][::-1])]
    assert [e["span_b"]["label"] for e in examples[0]] == [e["span_b"]["label"] for e in examples[1]] == ["x", "y"]
