"""The page's kinds and option defaults live in the registry only: web/forms.py writes them, nothing hard-codes them."""
from __future__ import annotations

import copy
import html.parser
import re
from pathlib import Path

import pytest

import agreekit
from agreekit import registry
from web_modules import load_web_module

ROOT = Path(__file__).resolve().parents[1]
REGISTRY = registry.kinds_json()
NAMES = [kind["name"] for kind in REGISTRY["kinds"]]
# Each kind's page code is its module web/kinds/<kind>.mjs; no other module names a kind.
KIND_MODULES = ROOT / "web" / "kinds"


@pytest.fixture(scope="module")
def forms():
    return load_web_module("forms.py", "agreekit_forms")


def kind_lists(text):
    """Places where two kind names follow each other as quoted strings (a hand-written kind list)."""
    names = "|".join(NAMES)
    return re.findall(rf"""(["'`])({names})\1\s*,\s*(["'`])({names})\3""", text)


def kind_literals(text):
    """Kind names as string literals or object keys (``"boxes"``, ``boxes: …``).

    A literal compared with an option's type (``type === "labels"``) names the option type
    ``labels`` (:data:`agreekit.options.TYPES`), not the kind of the same name; so does a report
    key given to a card (``recordsTable(report, "labels", …)``: spans' and boxes' per-label table)
    and a picture's noun (``noun: "labels"``).
    """
    names = "|".join(NAMES)
    return re.findall(rf"""(?<!type === )(?<!report, )(?<!noun: )["'`]({names})["'`]|(?<![\w.$-])({names})\s*:(?!//)""", text)


def default_literals(text):
    """An option name next to its registry default (``bootstrap: 1000``, ``threshold = 0.5``, ``value="1000"``)."""
    found = set()
    for kind in registry.KINDS.values():
        for option in kind.options:
            default = kind.defaults()[option.name]
            if default is None or isinstance(default, tuple):
                continue
            literal = re.escape(str(default) if isinstance(default, str) else format_number(default))
            quoted = rf"""["'`]{literal}["'`]""" if isinstance(default, str) else rf"{literal}(?![\w.])"
            found.update(re.findall(rf"""\b{option.name}["']?\s*[:=]\s*{quoted}""", text))
            if not isinstance(default, str):
                found.update(re.findall(rf"""value="{literal}\"""", text))
    return sorted(found)


def format_number(value):
    return str(int(value)) if float(value).is_integer() else repr(value)


def template_without_prose(text):
    """index.html without its per-kind prose blocks (each kind's hint and example buttons may name it)."""
    return re.sub(r'<template data-kind="\w+" data-part="\w+"[^>]*>.*?</template>', "", text, flags=re.S)


def test_the_checks_catch_what_they_look_for():
    old_share = 'export const KINDS = ["boxes", "spans", "segments"];'
    old_app = 'const EXAMPLES = {\n  boxes: { rows: "examples/boxes.csv" },\n};'
    old_page = ('<input name="bootstrap" data-type="int" type="number" min="0" step="1" value="1000">'
                '<input name="threshold" value="0.5"> const BOOT = { bootstrap: 1000 }; seed = 20260813')
    assert kind_lists(old_share) and kind_literals(old_share) and kind_literals(old_app)
    assert default_literals(old_page) == ['bootstrap: 1000', 'seed = 20260813', 'value="0.5"', 'value="1000"']
    assert kind_literals('if (kind === "labels")') and not kind_literals('if (type === "labels")')
    assert kind_literals('cards("labels", report)') and not kind_literals('recordsTable(report, "labels", "Per label")') \
        and not kind_literals('noun: "labels"')
    assert not kind_literals("const kind = tab.dataset.kind; `${kind} report`; x.boxesView") \
        and not default_literals("incrs: [1, 2, 5, 10, 20, 50, 100, 1000]; threshold: 0.3")


@pytest.mark.parametrize("path", sorted((ROOT / "web").rglob("*.mjs")) + [ROOT / "index.html"],
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_kind_list_or_default_is_hand_written(path):
    text = path.read_text(encoding="utf-8")
    assert not kind_lists(text), f"{path.name} lists kinds by hand: {kind_lists(text)}"
    assert not default_literals(text), f"{path.name} repeats registry defaults: {default_literals(text)}"
    if path.suffix == ".mjs" and KIND_MODULES not in path.parents:  # index.html: its own test below
        assert not kind_literals(text), f"{path.name} names kinds: {kind_literals(text)}"


def test_only_a_kinds_own_module_names_it():
    """web/kinds/<kind>.mjs names no other kind, and there is no module for a kind the registry lacks."""
    modules = sorted(KIND_MODULES.glob("*.mjs"))
    assert modules, "web/kinds/ has no kind modules"
    for path in modules:
        assert path.stem in NAMES, f"web/kinds/{path.name} is the module of a kind the registry does not have"
        others = {name for pair in kind_literals(path.read_text(encoding="utf-8")) for name in pair if name} - {path.stem}
        assert not others, f"web/kinds/{path.name} names other kinds: {sorted(others)}"


def test_the_template_has_no_kind_markup_or_option_fields():
    page = template_without_prose((ROOT / "index.html").read_text(encoding="utf-8"))
    names = "|".join(NAMES)
    assert not re.findall(rf'="[^"]*\b({names})\b[^"]*"', page), "index.html names a kind in its markup"
    options = "|".join({o.name for kind in registry.KINDS.values() for o in kind.options})
    assert not re.findall(rf'name="({options})"', page), "index.html has hand-written option fields"
    assert "placeholder=\"default" not in page and "<option" not in page


class Fields(html.parser.HTMLParser):
    """(tag, attributes) of every form field and choice in a page."""

    def __init__(self):
        super().__init__()
        self.fields = []

    def handle_starttag(self, tag, attrs):
        if tag in ("input", "select", "textarea", "option", "button", "section"):
            self.fields.append((tag, dict(attrs)))


def fields_of(page):
    parser = Fields()
    parser.feed(page)
    return parser.fields


def test_every_option_type_has_its_field(forms):
    kind = {"name": "widgets", "title": "Widgets <new>", "summary": "widgets: item, annotator, size",
            "columns": ["item", "annotator", "size"], "alternatives": [["item", "annotator", "area"]],
            "synonyms": {}, "count_key": "n_widgets", "options": [
                {"name": "cut", "type": "float", "label": 'Cut "c"', "help": "h<1>", "default": 1e-10,
                 "minimum": 0.0, "maximum": 1.0},
                {"name": "n", "type": "int", "label": "N", "help": "", "default": 2 ** 63 - 1, "minimum": 1,
                 "maximum": None},
                {"name": "way", "type": "choice", "label": "Way", "help": "", "default": "b", "minimum": None,
                 "maximum": None, "choices": [{"value": "a", "label": "A & a"}, {"value": "b", "label": "B"}]},
                {"name": "note", "type": "text", "label": "Note", "help": "free text", "default": None,
                 "minimum": None, "maximum": None},
                {"name": "steps", "type": "floats", "label": "Steps", "help": "comma-separated", "default": [0.5, 2.0],
                 "minimum": 0.0, "maximum": None},
                {"name": "rows2", "type": "table", "label": "Table", "help": "item,x rows", "default": None,
                 "minimum": None, "maximum": None},
                {"name": "order", "type": "labels", "label": "Order", "help": "lowest first", "default": ["lo", "hi"],
                 "minimum": None, "maximum": None}]}
    extended = copy.deepcopy(REGISTRY)
    extended["kinds"].append(kind)
    page = forms.render_page((ROOT / "index.html").read_text(encoding="utf-8"), extended)
    fields = {a["name"]: (tag, a) for tag, a in fields_of(page) if a.get("id", "").startswith("option-widgets-")}
    assert list(fields) == [o["name"] for o in kind["options"]]
    assert fields["cut"] == ("input", {**fields["cut"][1], "type": "number", "data-type": "float", "min": "0", "max": "1",
                                       "step": "any", "value": "1e-10", "title": "h<1>", "data-label": 'Cut "c"'})
    assert fields["n"][1]["value"] == "9223372036854775807" and "max" not in fields["n"][1]
    assert fields["n"][1]["step"] == "1"
    assert fields["way"][0] == "select"
    choices = [(a["value"], "selected" in a) for tag, a in fields_of(page) if tag == "option"][-2:]
    assert choices == [("a", False), ("b", True)] and "A &amp; a" in page
    assert fields["note"][1]["type"] == "text" and "value" not in fields["note"][1]
    assert fields["steps"][1]["value"] == "0.5, 2" and fields["steps"][1]["inputmode"] == "decimal"
    assert fields["rows2"][0] == "textarea"
    assert fields["order"][1]["value"] == "lo, hi"
    assert 'id="option-widgets-order-help">lowest first</span>' in page  # free-text formats are spelled out
    # no prose in the template: the paste label and hint come from the title and columns
    assert "Widgets &lt;new&gt; rows (CSV or TSV" in page
    assert "Columns <code>item, annotator, size</code> or <code>item, annotator, area</code>" in page
    tabs = [a["data-kind"] for tag, a in fields_of(page) if tag == "button" and a.get("role") == "tab"]
    assert tabs == [*NAMES, "widgets"]
    hidden = [("hidden" in a) for tag, a in fields_of(page) if tag == "section" and a.get("role") == "tabpanel"]
    assert hidden == [False] + [True] * len(NAMES)
    assert "<template" not in page and "<!-- agreekit:" not in page


def test_prose_for_an_unknown_kind_or_a_missing_marker_is_an_error(forms):
    template = (ROOT / "index.html").read_text(encoding="utf-8")
    fewer = {"kinds": REGISTRY["kinds"][1:]}
    with pytest.raises(ValueError, match=f"prose for kinds the registry does not have: {NAMES[0]}"):
        forms.render_page(template, fewer)
    with pytest.raises(ValueError, match="lacks tabs"):
        forms.render_page(template.replace("<!-- agreekit:tabs -->", ""), REGISTRY)


def test_the_built_page_is_the_registry(forms):
    dist = ROOT / "dist"
    if not (dist / "kinds.json").exists():
        pytest.skip("dist/ not built (python3 build.py builds it)")
    import json
    assert json.loads((dist / "kinds.json").read_text(encoding="utf-8")) == REGISTRY
    template = (ROOT / "index.html").read_text(encoding="utf-8")
    from agreekit.formats.base import formats_json
    assert (dist / "index.html").read_text(encoding="utf-8") == forms.render_page(template, REGISTRY, formats_json())
    assert not (dist / "web" / "forms.py").exists()


@pytest.mark.parametrize("value, text", [(1000, "1000"), (0.5, "0.5"), (1e-10, "1e-10"), (2.0, "2"),
                                         (2 ** 63 - 1, "9223372036854775807"), (1e6, "1000000"), (0.1, "0.1")])
def test_numbers_are_written_exactly(forms, value, text):
    assert forms.number_text(value) == text
    assert (int(text) if isinstance(value, int) else float(text)) == value


def test_kinds_in_the_registry_are_the_package_kinds():
    assert NAMES == list(agreekit.KINDS)
