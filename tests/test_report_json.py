"""Report.to_json / to_dict against the recursive definition they replaced (kept here as the oracle).

``Report.to_json`` lets ``json.dumps`` write the report's own data and nulls the non-finite
numbers in the text afterwards; the oracle converts every value first.  The texts must be
byte-identical, whatever the values, keys and strings (quotes, backslashes, "NaN" inside strings).
"""
import json
import random
import sys
from pathlib import Path

import numpy as np
import pytest

import agreekit
from agreekit.results import Report, Section, json_safe, to_json_text

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import report_doc  # noqa: E402  (scripts/ is not a package)


# The oracle: results.json_safe, the recursive conversion that was Report.to_json's whole path at
# 2a228c3 and is still its fallback (a key that is not a str), unchanged.
oracle_safe = json_safe


def oracle_json(value, **kwargs):
    """``Report.to_json`` before the fast path."""
    return json.dumps(oracle_safe(value), allow_nan=False, **kwargs)


TRICKY_STRINGS = ["NaN", "Infinity", "-Infinity", "a, NaN]", '"NaN"', 'x\\"NaN', "\\", "\\\\", 'q"',
                  "\\NaN", "é NaN ☃", "NaN\\", "-", "Infinity\\\\", '\\"Infinity\\"', ""]
NUMBERS = [0.5, -0.0, float("nan"), float("inf"), -float("inf"), np.float64("nan"), np.float64(-np.inf),
           np.float64(0.1), np.float32(0.1), np.float32("nan"), np.float16(2.5), np.int64(-7), np.int32(3),
           np.uint8(255), np.bool_(True), np.bool_(False), True, False, None, 12, 10 ** 20, 1e300, 5e-324]


def mixed_report():
    """A report holding each kind of value reports can hold, and strings that look like numbers."""
    inner = Section({"value": np.float64("nan"), "ci": (np.float64(0.1), float("inf")), "label": "NaN"})
    return Report("test", {
        "numbers": NUMBERS,
        "strings": TRICKY_STRINGS,
        "by_string": {text: number for text, number in zip(TRICKY_STRINGS, NUMBERS)},
        "arrays": [np.array([1.0, np.nan, -np.inf]), np.array([[1, 2], [3, 4]], dtype=np.int64),
                   np.array([True, False]), np.array([np.float32(0.1), np.inf], dtype=np.float32),
                   np.zeros((0, 3)), np.array(["NaN", 'a"b'])],
        "tuples": (1, (2.5, float("nan")), ("Infinity", -np.inf)),
        "nested": {"section": inner, "list": [inner, {"report": Report("inner", {"x": np.nan})}]},
    })


def test_mixed_values_give_the_text_and_dict_of_the_definition():
    report = mixed_report()
    text = report.to_json()
    assert text == oracle_json(report._data)
    assert "NaN" in text and "Infinity" in text  # kept inside strings, nulled as numbers
    assert json.dumps(report.to_dict()) == json.dumps(oracle_safe(report._data))
    assert report.to_dict() == oracle_safe(report._data)
    assert report.to_dict() == json_safe(report._data)


@pytest.mark.parametrize("kwargs", [{"indent": 2}, {"sort_keys": True}, {"ensure_ascii": False},
                                    {"separators": (",", ":")}])
def test_keyword_options_of_json_dumps_give_the_same_text(kwargs):
    report = mixed_report()
    assert report.to_json(**kwargs) == oracle_json(report._data, **kwargs)


@pytest.mark.parametrize("data", [
    {1: "one", "1": "string one"},  # the definition keeps one key "1"; json.dumps would write two
    {True: 1, None: 2, 2.5: 3, float("nan"): 4, -float("inf"): 5},  # str(k), not json's true/null/NaN
    {np.int64(3): 1, np.float64(0.5): 2, ("a", 1): 3, np.bool_(True): 4},  # keys json.dumps refuses
    {"outer": [{"inner": {10: [np.nan], 9: "x"}}]},
    {"section": Section({2: np.inf})},
])
def test_keys_that_are_not_str_come_out_as_the_definition_writes_them(data):
    for kwargs in ({}, {"sort_keys": True}):
        assert to_json_text(data, **kwargs) == oracle_json(data, **kwargs)


def test_values_the_definition_refuses_are_refused_alike():
    for value in ({"a": {1, 2}}, {"a": np.array(1.5)}, {"a": object()}):
        with pytest.raises(TypeError):
            oracle_json(value)
        with pytest.raises(TypeError):
            to_json_text(value)
    zero_d_text = np.array("ab")  # the definition walks a 0-d text array's characters
    assert to_json_text({"a": zero_d_text}) == oracle_json({"a": zero_d_text}) == '{"a": ["a", "b"]}'


def random_value(rng, depth):
    """A random nested value: dicts with tricky string keys, lists, tuples, Sections and arrays of numbers."""
    pick = rng.random()
    if depth == 0 or pick < 0.4:
        return rng.choice(NUMBERS + TRICKY_STRINGS)
    children = [random_value(rng, depth - 1) for _ in range(rng.randrange(4))]
    if pick < 0.6:
        return {rng.choice(TRICKY_STRINGS) + str(k): child for k, child in enumerate(children)}
    if pick < 0.7:
        return Section({rng.choice(TRICKY_STRINGS): child for child in children})
    if pick < 0.8:
        return tuple(children)
    if pick < 0.9:
        return np.array([rng.choice([0.5, np.nan, np.inf, -np.inf, 3.0]) for _ in children])
    return children


def test_random_nested_values_give_the_text_of_the_definition():
    rng = random.Random(20261201)
    for _ in range(500):
        value = random_value(rng, 4)
        assert to_json_text(value) == oracle_json(value)


def example_reports():
    """Each kind's page example report (as scripts/report_doc.py makes them), and a small crowd."""
    reports = {}
    for name in agreekit.KINDS:
        options = {} if name == "masks" else {"bootstrap": 20}
        if name == "boxes":
            rows = report_doc.centred_corpus(20, seed=7)
        else:
            rows = (report_doc.EXAMPLES / f"{name}.csv").read_text(encoding="utf-8")
        if name == "spans":
            options["lengths"] = (report_doc.EXAMPLES / "spans-lengths.csv").read_text(encoding="utf-8")
        reports[name] = agreekit.report(name, rows, **options)
    reports["crowd"] = agreekit.boxes(agreekit.simulate.crowd_corpus(30), bootstrap=20)
    return reports


def test_every_kinds_example_report_gives_the_text_and_dict_of_the_definition():
    for name, report in example_reports().items():
        text = report.to_json()
        assert text == oracle_json(report._data), name
        assert json.dumps(report.to_dict()) == json.dumps(oracle_safe(report._data)), name
