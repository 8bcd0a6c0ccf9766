"""Every kind's reports have exactly the declared shape (agreekit.shapes), and docs/report.md is generated from it.

The reports checked are each kind's page example and degenerate variants of it: no
bootstrap, one item, one annotator (nothing to compare), one item with two annotators
(chance baselines undefined), nothing marked (on every item, or on the first), potato
mode, spans without item lengths; traces where every annotator gives the same label, and
traces with numbers for labels at the ordinal level; labels that all agree, numbers at the interval
level and label sets.
"""
import copy
import csv
import io
import sys
from pathlib import Path

import pytest

import agreekit
from agreekit.report_shape import (Estimate, ListOf, MapOf, Section, check, estimate, key, list_of, map_of,
                                   rows, section, tooltips)
from agreekit.shapes import kind_tooltips, shape_of, shapes

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import report_doc  # noqa: E402  (scripts/ is not a package)


def example_table(kind):
    """The kind's page example as a list of row dicts (boxes: the centred simulation)."""
    if kind == "boxes":
        return [{k: str(v) for k, v in row.items()} for row in report_doc.centred_corpus(20, seed=7)]
    return list(csv.DictReader(io.StringIO((report_doc.EXAMPLES / f"{kind}.csv").read_text(encoding="utf-8"))))


def as_csv(table):
    out = io.StringIO()
    writer = csv.DictWriter(out, list(table[0]))
    writer.writeheader()
    writer.writerows(table)
    return out.getvalue()


def variants(kind):
    """``{name: (rows, options)}``: the example and its degenerate variants."""
    table = example_table(kind)
    item = "trace" if kind == "traces" else "item"
    first_item, first_annotator = table[0][item], table[0]["annotator"]
    two = sorted({r["annotator"] for r in table if r[item] == first_item})[:2]
    options = {} if kind == "masks" else {"bootstrap": 20}
    if kind == "spans":
        options["lengths"] = (report_doc.EXAMPLES / "spans-lengths.csv").read_text(encoding="utf-8")
    out = {"example": (table, options),
           "no bootstrap": (table, {k: v for k, v in options.items() if k != "bootstrap"}),
           "one item": ([r for r in table if r[item] == first_item], options),
           "one annotator": ([r for r in table if r["annotator"] == first_annotator], options),
           "one item, two annotators": ([r for r in table if r[item] == first_item and r["annotator"] in two],
                                        options)}
    if kind == "traces":  # a label is required: instead, every annotator agrees (α undefined)
        out["all agree"] = ([{**r, "label": "same"} for r in table], options)
        ranks = {label: str(k) for k, label in enumerate(sorted({r["label"] for r in table}), start=1)}
        out["ordinal numbers"] = ([{**r, "label": ranks[r["label"]]} for r in table], {**options, "level": "ordinal"})
    elif kind == "labels":  # a label is required: every annotator agrees; numbers at the interval level; sets
        out["all agree"] = ([{**r, "label": "same"} for r in table], options)
        ranks = {label: str(k) for k, label in enumerate(sorted({r["label"] for r in table}), start=1)}
        numbers = [{**r, "label": ranks[r["label"]]} for r in table]
        out["interval numbers"] = (numbers, {**options, "level": "interval"})
        out["sets"] = (table, {**options, "level": "set"})
    else:  # the item and annotator (and a mask's size) kept, the annotation blank: "nothing marked"
        blank = [{k: v if k in (item, "annotator", "width", "height") else "" for k, v in r.items()} for r in table]
        out["nothing marked"] = (blank, options)
        out["first item unmarked"] = ([b if r[item] == first_item else r for r, b in zip(table, blank)], options)
    if "match" in [option.name for option in agreekit.KINDS[kind].options]:
        out["potato"] = (table, {**options, "match": "potato"})
    if "reference" in [option.name for option in agreekit.KINDS[kind].options]:  # scored against an annotator
        out["reference"] = (table, {**options, "reference": first_annotator})
        out["reference consensus"] = (table, {**options, "reference": "consensus"})
        if "label" in table[0]:  # one label changed: a conflict at least
            changed = next(k for k, r in enumerate(table) if r["annotator"] != first_annotator)
            relabelled = [{**r, "label": r["label"] + "_changed"} if k == changed else r for k, r in enumerate(table)]
            out["reference, a conflict"] = (relabelled, {**options, "reference": first_annotator})
        gold = [r for r in table if r["annotator"] == first_annotator]
        out["reference rows"] = ([r for r in table if r["annotator"] != first_annotator],
                                 {**options, "reference_rows": as_csv(gold)})
    if kind == "spans":
        out["no lengths"] = (table, {k: v for k, v in options.items() if k != "lengths"})
    return out


@pytest.fixture(scope="module")
def reports():
    """``{kind: {variant: report dict}}`` for every registered kind."""
    return {kind: {name: agreekit.report(kind, as_csv(table), **options).to_dict()
                   for name, (table, options) in variants(kind).items()}
            for kind in agreekit.KINDS}


def present_paths(shape, value, path="", out=None):
    """Declared paths (as :func:`rows` spells them) that ``value`` carries."""
    out = set() if out is None else out
    if isinstance(shape, (Section, Estimate)) and isinstance(value, dict):
        keys = shape.keys if isinstance(shape, Section) else shape.extra
        for k in keys:
            if k.name in value:
                sub = f"{path}.{k.name}" if path else k.name
                out.add(sub)
                present_paths(k.type, value[k.name], sub, out)
    elif isinstance(shape, ListOf) and isinstance(value, list):
        for entry in value:
            present_paths(shape.entry, entry, path + "[]", out)
    elif isinstance(shape, MapOf) and isinstance(value, dict):
        for entry in value.values():
            present_paths(shape.value, entry, path + "{name}", out)
    return out


def test_every_kind_has_a_declared_shape():
    assert list(shapes()) == sorted(agreekit.KINDS, key=lambda name: agreekit.KINDS[name].position)
    assert all(isinstance(shape, Section) for shape in shapes().values())


def test_every_report_of_every_kind_has_exactly_the_declared_shape(reports):
    problems = [f"{kind} ({name}): {problem}" for kind, by_variant in reports.items()
                for name, report in by_variant.items() for problem in check(shape_of(kind), report)]
    assert not problems, "\n".join(list(dict.fromkeys(problems))[:20])


def test_the_degenerate_reports_are_degenerate(reports):
    """The variants do reach the degenerate cases: nothing compared, undefined coefficients."""
    assert reports["boxes"]["one annotator"]["pairs"] == []
    assert reports["boxes"]["one item, two annotators"]["localization"]["sigma"]["value"] is None
    assert reports["spans"]["no lengths"]["unitizing_alpha"]["value"] is None
    assert reports["traces"]["one annotator"]["alpha"]["value"] is None
    assert reports["traces"]["all agree"]["alpha"]["value"] is None
    assert reports["traces"]["ordinal numbers"]["categories"][0] == 1
    assert any(isinstance(label, int) for unit in reports["traces"]["ordinal numbers"]["units"]
               for label in unit["labels"].values())
    assert None in reports["masks"]["nothing marked"]["items"][0]["sensitivity"]
    assert reports["boxes"]["nothing marked"]["n_boxes"] == 0
    assert reports["labels"]["all agree"]["coefficients"]["alpha"]["value"] is None
    assert reports["labels"]["interval numbers"]["coefficients"]["icc_2_1"]["value"] is not None
    assert reports["labels"]["sets"]["coefficients"]["alpha_jaccard"]["value"] is not None


def test_every_declared_key_occurs_in_some_report(reports):
    for kind, by_variant in reports.items():
        present = set().union(*(present_paths(shape_of(kind), r) for r in by_variant.values()))
        never = sorted({row.path for row in rows(shape_of(kind))} - present)
        assert not never, f"{kind}: declared but in no report: {never}"


def test_empty_input_is_refused_not_reported():
    for kind in agreekit.KINDS:
        with pytest.raises(agreekit.InputError, match="no data rows"):
            agreekit.report(kind, ",".join(agreekit.KINDS[kind].columns) + "\n")


@pytest.mark.parametrize("kind", ["boxes", "spans", "masks", "traces", "labels"])
def test_an_undeclared_a_missing_or_a_mistyped_key_is_a_problem(reports, kind):
    report = reports[kind]["example"]
    extra = {**report, "extra_key": 1}
    assert check(shape_of(kind), extra) == ["extra_key: present but not declared"]
    missing = {k: v for k, v in report.items() if k != "n_annotators"}
    assert check(shape_of(kind), missing) == ["n_annotators: declared but missing"]
    mistyped = {**report, "n_annotators": "3"}
    assert check(shape_of(kind), mistyped) == ["n_annotators: text where integer is declared"]
    nested = copy.deepcopy(report)
    nested["settings"]["surprise"] = True
    assert check(shape_of(kind), nested) == ["settings.surprise: present but not declared"]


def test_a_problem_deep_in_lists_and_estimates_is_named_by_its_path(reports):
    report = copy.deepcopy(reports["boxes"]["example"])
    del report["pairs"][0]["sigma"]["reason"]
    report["items"][0]["objects_per_annotator"]["x"] = 1.5
    assert sorted(check(shape_of("boxes"), report)) == [
        "items[].objects_per_annotator{name}: number where integer is declared",
        "pairs[].sigma.reason: declared but missing"]


def test_an_estimate_breaking_its_own_rules_is_a_problem():
    shape = section(key("e", estimate(key("level", "text", "The metric.")), "A coefficient."))
    fine = {"e": {"value": 0.5, "ci": [0.4, 0.6], "ci_level": 0.95, "reason": None, "n": 3, "level": "nominal"}}
    assert check(shape, fine) == []
    assert check(shape, {"e": {**fine["e"], "ci_level": None}}) == ["e: `ci_level` must be null exactly when `ci` is"]
    assert check(shape, {"e": {**fine["e"], "value": None}}) == [
        "e: `reason` must be given exactly when `value` is null"]
    assert check(shape, {"e": {**fine["e"], "ci": [0.4]}}) == ["e.ci: 1 numbers where [low, high] is declared"]


def test_null_and_optional_are_honoured_only_where_declared():
    shape = section(key("a", "number", "May be null.", null=True), key("b", "number", "Never null."),
                    key("c", list_of("text"), "May be absent.", optional=True), key("m", map_of("integer"), "Counts."))
    assert check(shape, {"a": None, "b": 1.0, "m": {"x": 1}}) == []
    either = section(key("e", list_of(("text", "integer")), "Labels or ranks."))
    assert check(either, {"e": ["x", 2]}) == []
    assert check(either, {"e": ["x", 2.5]}) == ["e[]: number where text or integer is declared"]
    assert check(shape, {"a": 1, "b": None, "c": ["x", 2], "m": {"x": True}}) == [
        "b: null where number is declared", "c[]: integer where text is declared",
        "m{name}: boolean where integer is declared"]


def test_a_bad_declaration_is_refused():
    with pytest.raises(ValueError, match="float"):
        key("a", "float", "A number.")
    with pytest.raises(ValueError, match="one line"):
        key("a", "text", "a | b")
    with pytest.raises(ValueError, match="declared twice"):
        section(key("a", "text", "A."), key("a", "text", "A again."))


def test_tooltips_give_one_line_per_declared_key():
    tips = kind_tooltips()
    assert sorted(tips) == sorted(agreekit.KINDS)
    for kind, by_path in tips.items():
        assert list(by_path) == [row.path for row in rows(shape_of(kind))]
        assert all(text and "\n" not in text for text in by_path.values()), kind
    assert tips["boxes"]["pairs[].a"] == tooltips(shape_of("boxes"))["pairs[].a"]
    assert "items[].objects_per_annotator" in tips["boxes"]


def test_docs_report_md_is_generated_from_the_declarations():
    assert (ROOT / "docs" / "report.md").read_text(encoding="utf-8") == report_doc.document(), \
        "docs/report.md is stale: run PYTHONPATH=pycore python scripts/report_doc.py"


def test_the_document_lists_every_declared_key_of_every_kind():
    text = report_doc.document()
    for kind, shape in shapes().items():
        section_text = text.split(f"\n## {kind}\n", 1)[1].split("\n## ", 1)[0]
        for row in rows(shape):
            assert f"| `{row.path}` | {row.type} | {row.description} |" in section_text, (kind, row.path)


def test_the_estimate_shape_is_the_shape_of_results_estimate():
    from agreekit.report_shape import ESTIMATE_FIELDS
    from agreekit.results import estimate as make_estimate
    assert [k.name for k in ESTIMATE_FIELDS.keys] == list(make_estimate(0.5))
    with_counts = estimate(key("n_units", "integer", "Units."))
    assert check(with_counts, make_estimate(0.5, [0.4, 0.6], n=3, n_units=7)) == []
    assert check(with_counts, make_estimate(float("nan"), [0.4, 0.6], reason="no units", n_units=0)) == []
    assert check(with_counts, make_estimate(0.5, n=3)) == ["n_units: declared but missing"]
