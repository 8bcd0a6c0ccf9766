"""Reports, bootstrap intervals included, do not depend on row order or on the names of items and annotators.

For every kind's example (the page's examples: ``web/examples/*.csv``, the box example of
:func:`agreekit.simulate.centred_corpus_csv`, and a :func:`agreekit.simulate.span_corpus` of 12
documents, as the page's span example has two) the rows are shuffled, the items renamed (in an
order unrelated to the old one) and the annotators renamed; the report, its names mapped back,
must equal the original one.  What legitimately refers to the input's rows is left out of the
comparison: input line numbers (``line``/``lines``), and the order of per-item and per-trace tables
(items are listed in first-row order, traces by agreement with ties in first-row order; the test
sorts their rows).  Floats are compared to 1e-12, the
difference that summing the same numbers in another order can make (``tests/same_report.py``).

A renaming that changes the annotators' alphabetical order changes which annotator a report
lists first (pairs are ``a < b``); that test compares every corpus-level estimate instead.
"""
import csv
import io
import json
import random
from pathlib import Path

import pytest

import agreekit
from agreekit import simulate
from same_report import assert_same

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "web" / "examples"
RESAMPLES = 200
KINDS = ("boxes", "spans", "spans-lengths", "spans-corpus", "segments", "polygons", "masks", "cuboids", "traces",
         "labels")


def example(kind):
    """``(report kind, rows, options, item column)`` of the kind's example."""
    if kind == "boxes":
        return "boxes", simulate.centred_corpus_csv(n_images=20), {}, "item"
    if kind == "spans-corpus":   # the page's span example has two items only
        lengths = "item,length\n" + "".join(f"doc{d:02d},200\n" for d in range(12))
        return "spans", simulate.to_csv(simulate.span_corpus(n_docs=12)), {"lengths": lengths}, "item"
    if kind == "spans-lengths":
        lengths = (EXAMPLES / "spans-lengths.csv").read_text()
        return "spans", (EXAMPLES / "spans.csv").read_text(), {"lengths": lengths}, "item"
    return kind, (EXAMPLES / f"{kind}.csv").read_text(), {}, "trace" if kind == "traces" else "item"


def _table(text):
    rows = list(csv.reader(io.StringIO(text)))
    return rows[0], rows[1:]


def _csv(header, body):
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([header, *body])
    return out.getvalue()


def _new_names(names, prefix, rng, keep_order):
    """Fixed-width new names (none a substring of another or of anything else in a report)."""
    numbers = rng.sample(range(1000, 10000), len(names))
    numbers = sorted(numbers) if keep_order else numbers
    return {old: f"{prefix}{k}Q" for old, k in zip(sorted(names), numbers)}


def permuted(kind, seed, keep_annotator_order=True):
    """The example with rows shuffled, items and annotators renamed; and the new → old names."""
    name, text, options, item_column = example(kind)
    rng = random.Random(seed)
    header, body = _table(text)
    i, a = header.index(item_column), header.index("annotator")
    items = _new_names({r[i] for r in body}, "zitem", rng, keep_order=False)
    annotators = _new_names({r[a] for r in body}, "zann", rng, keep_order=keep_annotator_order)
    if list(items.values()) == sorted(items.values()):   # make sure the item order changes
        items = dict(zip(items, reversed(list(items.values()))))
    for row in body:
        row[i], row[a] = items[row[i]], annotators[row[a]]
    rng.shuffle(body)
    options = dict(options)
    if "lengths" in options:
        lengths_header, lengths_body = _table(options["lengths"])
        for row in lengths_body:
            row[0] = items.get(row[0], row[0])
        rng.shuffle(lengths_body)
        options["lengths"] = _csv(lengths_header, lengths_body)
    back = {new: old for old, new in {**items, **annotators}.items()}
    return name, _csv(header, body), options, back


def _normalized(value):
    """Line numbers dropped; per-item (per-trace) tables sorted, as their rows' order among equals is row order."""
    if isinstance(value, dict):
        return {k: _normalized(v) for k, v in value.items() if k not in ("line", "lines")}
    if isinstance(value, list):
        out = [_normalized(v) for v in value]
        if out and all(isinstance(v, dict) and ("item" in v or "trace" in v) for v in out):
            out.sort(key=lambda v: json.dumps(v, sort_keys=True))
        return out
    return value


def report_json(name, rows, options, back=None):
    text = agreekit.report(name, rows, **options, **({} if name == "masks" else {"bootstrap": RESAMPLES})).to_json()
    for new, old in (back or {}).items():
        text = text.replace(new, old)
    return _normalized(json.loads(text))


def _intervals(value, path=""):
    """Every ``ci`` in ``value``, by path."""
    if isinstance(value, dict):
        found = {path: value["ci"]} if "ci" in value else {}
        for k, v in value.items():
            found.update(_intervals(v, f"{path}.{k}"))
        return found
    if isinstance(value, list):
        return {p: ci for k, v in enumerate(value) for p, ci in _intervals(v, f"{path}.{k}").items()}
    return {}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", [1, 2])
def test_shuffled_and_renamed_rows_give_the_same_report(kind, seed):
    name, rows, options, _ = example(kind)
    original = report_json(name, rows, options)
    if name != "masks":
        assert any(ci is not None for ci in _intervals(original).values()), "the example has no interval to test"
    name, rows, options, back = permuted(kind, seed)
    assert_same(report_json(name, rows, options, back), original)


def _corpus_estimates(report):
    """The estimates outside per-pair, per-annotator and per-item tables (paths without a list index)."""
    found = {}

    def walk(value, path):
        if isinstance(value, dict):
            if "value" in value and "ci" in value:
                found[path] = {"value": value["value"], "ci": value["ci"]}
            for k, v in value.items():
                walk(v, f"{path}.{k}")
    walk(report, "")
    return found


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "masks"])
def test_annotators_renamed_out_of_order_give_the_same_corpus_estimates(kind):
    name, rows, options, _ = example(kind)
    original = _corpus_estimates(report_json(name, rows, options))
    assert original
    name, rows, options, back = permuted(kind, 3, keep_annotator_order=False)
    assert_same(_corpus_estimates(report_json(name, rows, options, back)), original)


def test_the_renaming_changes_the_item_order():
    """The test above would prove nothing if the renamed items kept their order."""
    name, rows, _, back = permuted("segments", 1)
    _, body = _table(rows)
    first_seen = list(dict.fromkeys(back[r[0]] for r in body))
    _, original = _table(example("segments")[1])
    assert first_seen != list(dict.fromkeys(r[0] for r in original))


def test_a_sampled_between_baseline_is_the_same_sample(monkeypatch):
    """Above the pair budget the between pairs are a seeded sample of objects (drawn in content order);
    above ``DENSE_ITEMS`` items the item-pair sums a seeded sample of item pairs (hashed by content rank)."""
    from agreekit.measures import chance
    for options in ({"pair_budget": 500}, {}):
        if not options:
            monkeypatch.setattr(chance, "DENSE_ITEMS", 10)
            monkeypatch.setattr(chance, "ITEM_PAIR_SAMPLE", 100)
        original = report_json("boxes", example("boxes")[1], options)
        localization = original["localization"]
        assert (not localization["between_exact"]) if options else "sample" in localization["baseline_interval"]
        name, rows, _, back = permuted("boxes", 4)
        assert_same(report_json(name, rows, options, back), original)


def _labels_with_equal_counts(first, second):
    """Labels rows where annotators ``first`` and ``second`` give each category equally often but
    agree with ``c`` unequally: swapping their names is no symmetry of the data."""
    patterns = [("x", "y", "x"), ("y", "x", "y"), ("x", "x", "x"), ("y", "y", "x"), ("x", "y", "y")]
    copies = [2, 3, 4, 2, 1]
    rows, item = ["item,annotator,label"], 0
    for pattern, n in zip(patterns, copies):
        for _ in range(n):
            item += 1
            rows += [f"i{item:02d},{who},{label}" for who, label in zip((first, second, "c"), pattern)]
    return "\n".join(rows) + "\n"


def test_labels_annotators_with_equal_counts_swapped_give_the_same_intervals():
    """Two annotators with the same category counts are told apart by whom they agree with
    (patterns.annotator_classes); ordering rows by the counts alone moved Conger's κ interval by 0.01."""
    original = _corpus_estimates(report_json("labels", _labels_with_equal_counts("a", "b"), {}))
    swapped = _corpus_estimates(report_json("labels", _labels_with_equal_counts("b", "a"), {}))
    assert original[".coefficients.conger_kappa"]["ci"] is not None
    assert_same(swapped, original)
