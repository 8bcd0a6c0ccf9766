"""Fuzzing every importer (issue 22): any mutation of a real-shaped export gives rows or an InputError,
never another exception, and within bounded memory.

Each reader gets one of its fixtures (tests/fixtures/formats/), mutated by hypothesis: for JSON and
JSON Lines, one value anywhere in a record replaced by a value of another JSON type (huge and
non-finite numbers, deep nesting, text, null, lists, objects); for every file, a cut at any byte, or a
number replaced by a huge or non-finite one.  Runs in a few seconds with a fixed set of examples;
AGREEKIT_FUZZ_EXAMPLES=2000 explores afresh.
"""
from __future__ import annotations

import json
import os
import re
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agreekit.formats import convert, load_sources
from agreekit.rows import InputError

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "formats"
EXPLORE = int(os.environ.get("AGREEKIT_FUZZ_EXAMPLES", 0))
FUZZ = settings(max_examples=EXPLORE or 40, deadline=None, derandomize=not EXPLORE, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
MEMORY = 200 * 2 ** 20  # bytes a conversion of these small files may allocate at its peak

# (format, fixture folder or file): every reader, its files read as the user would drop them in
EXPORTS = [("labelstudio", "labelstudio"), ("coco", "coco/per_file"), ("cvat", "cvat/shapes"),
           ("prodigy", "prodigy/ner_news.jsonl"), ("prodigy", "prodigy/images.jsonl"),
           ("doccano", "doccano/all_documents"), ("potato", "potato/spans"), ("potato", "potato/images"),
           ("potato", "potato/export"),
           ("brat", "brat/corpus"), ("rttm", "rttm"), ("textgrid", "textgrid"), ("elan", "elan"),
           ("audacity", "audacity")]

ODD_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10 ** 30), max_value=10 ** 30),
    st.sampled_from([1e308, -1e308, 5e-324, float("inf"), float("-inf"), float("nan"), 99_999_999_999]),
    st.text(max_size=8), st.just("9e999999"), st.just([]), st.just({}), st.just([[1, 2], [3]]),
    st.integers(min_value=1, max_value=100_000).map(lambda depth: f"{DEEP}{depth}"),
)
DEEP = "__deep__"  # replaced in the text by arrays nested that deep (too deep to build as Python lists)


def _paths(value, path=()):
    """Every path (tuple of keys and indices) into a JSON value, the root included."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, path + (index,))


def _replaced(value, path, new):
    if not path:
        return new
    copy = list(value) if isinstance(value, list) else dict(value)
    copy[path[0]] = _replaced(value[path[0]], path[1:], new)
    return copy


def _json_mutation(data, name, draw):
    """``data`` (a JSON file or JSON Lines) with one value replaced, or None when it is neither."""
    lines = data.decode("utf-8-sig").split("\n")
    try:
        records = [json.loads(line) for line in lines if line.strip()] if name.endswith(".jsonl") \
            else [json.loads(data.decode("utf-8-sig"))]
    except ValueError:
        return None
    which = draw(st.integers(0, len(records) - 1))
    paths = list(_paths(records[which]))
    path = paths[draw(st.integers(0, len(paths) - 1))]
    records[which] = _replaced(records[which], path, draw(ODD_VALUES))
    text = "\n".join(json.dumps(record) for record in records)
    return re.sub(rf'"{DEEP}(\d+)"', lambda m: "[" * int(m.group(1)) + "]" * int(m.group(1)), text).encode()


def _byte_mutation(data, draw):
    """``data`` cut at a byte, or with one number replaced by a huge or non-finite one."""
    numbers = [m.span() for m in re.finditer(rb"\d+(?:\.\d+)?", data)]
    if numbers and draw(st.booleans()):
        start, end = numbers[draw(st.integers(0, len(numbers) - 1))]
        new = draw(st.sampled_from([b"9e999999", b"1e400", b"NaN", b"-1", b"99999999999999", b"0.0000001"]))
        return data[:start] + new + data[end:]
    return data[:draw(st.integers(0, len(data)))]


def _mutated_sources(path, draw):
    """The files of the export at ``path`` as (name, bytes), one of them mutated (JSON value or bytes)."""
    sources = [(s.name, s.data) for s in load_sources(path)]
    index = draw(st.integers(0, len(sources) - 1))
    name, content = sources[index]
    mutated = None
    if name.endswith((".json", ".jsonl")) and draw(st.booleans()):
        mutated = _json_mutation(content, name, draw)
    if mutated is None:
        mutated = _byte_mutation(content, draw)
    sources[index] = (name, mutated)
    return sources


def _converted(sources, format):
    """Convert, and the peak of memory it took; an InputError is an answer too."""
    tracemalloc.start()
    try:
        convert(sources, format=format)
    except InputError as error:
        assert str(error)  # a readable line, whatever went wrong
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


@pytest.mark.parametrize("format, fixture", EXPORTS, ids=[f"{f}:{p}" for f, p in EXPORTS])
@FUZZ
@given(data=st.data())
def test_any_mutation_gives_rows_or_an_input_error_in_bounded_memory(format, fixture, data):
    sources = _mutated_sources(FIXTURES / fixture, data.draw)
    assert _converted(sources, format) < MEMORY
