"""The page's tabs and option forms are the registry of kinds (dist/kinds.json), and a bug shows as one line."""
from __future__ import annotations

import json

import pytest

from conftest import ROOT, wait_ready, wait_result
from web_modules import load_web_module

FIELD_STATE = """f => ({
    tag: f.tagName.toLowerCase(), type: f.type, dataType: f.dataset.type, value: f.value,
    min: f.getAttribute("min"), max: f.getAttribute("max"),
    choices: f.tagName === "SELECT" ? [...f.options].map(o => [o.value, o.textContent, o.defaultSelected]) : null,
    label: (f.closest("label") || document.querySelector(`label[for="${f.id}"]`)).textContent,
})"""
TAG = {"float": ("input", "number"), "int": ("input", "number"), "choice": ("select", "select-one"),
       "table": ("textarea", "textarea"), "text": ("input", "text"), "floats": ("input", "text"),
       "labels": ("input", "text")}


@pytest.fixture(scope="module")
def registry(dist_dir):
    return json.loads((dist_dir / "kinds.json").read_text(encoding="utf-8"))["kinds"]


def same_number(text, number, kind_of):
    """A form's number text against the registry's number: exact for integers, float-exact otherwise."""
    if number is None:
        return text in (None, "")
    if kind_of == "int":
        return int(text) == number
    return float(text) == number


def check_field(state, option):
    kind_of, default = option["type"], option["default"]
    assert (state["tag"], state["type"]) == TAG[kind_of], (option["name"], state)
    assert state["dataType"] == kind_of
    assert option["label"] in state["label"]
    if kind_of in ("float", "int"):
        assert same_number(state["value"], default, kind_of), (option["name"], state["value"], default)
        assert same_number(state["min"], option["minimum"], kind_of) and same_number(state["max"], option["maximum"], kind_of)
    elif kind_of == "choice":
        assert state["value"] == default
        assert state["choices"] == [[c["value"], c["label"], c["value"] == default] for c in option["choices"]]
    elif kind_of == "floats":
        assert [float(v) for v in state["value"].split(",")] == default
    elif kind_of == "labels":
        assert state["value"] == ("" if default is None else ", ".join(default))
    else:  # text, table
        assert state["value"] == ("" if default is None else default)


@pytest.mark.parametrize("scripts", [True, False], ids=["scripts", "no-scripts"])
def test_tabs_and_option_fields_are_the_registry(open_page, site, registry, scripts):
    """Every kind of kinds.json has its tab, in order, and every option its field with the registry's
    type, default, range and choices, written into the page before any script runs."""
    page = open_page(site.url, java_script_enabled=scripts)
    tabs = page.eval_on_selector_all('[role="tab"]', "ts => ts.map(t => [t.dataset.kind, t.textContent.trim(), "
                                                    "t.getAttribute('aria-controls')])")
    assert tabs == [[k["name"], k["title"], f"panel-{k['name']}"] for k in registry]
    for kind in registry:
        form = f'form[data-kind="{kind["name"]}"]'
        names = page.eval_on_selector_all(f"{form} .options [name]", "fs => fs.map(f => f.name)")
        assert names == [o["name"] for o in kind["options"]], kind["name"]
        for option in kind["options"]:
            check_field(page.eval_on_selector(f'{form} .options [name="{option["name"]}"]', FIELD_STATE), option)
        assert page.get_attribute(f"#rows-{kind['name']}", "placeholder") == ",".join(kind["columns"])
    if not scripts:  # the first panel's fields are reachable by keyboard with no script at all
        reached = set()
        for _ in range(12 + 2 * len(registry[0]["options"])):
            page.keyboard.press("Tab")
            reached.add(page.evaluate("document.activeElement.name || document.activeElement.id"))
        assert {o["name"] for o in registry[0]["options"]} <= reached, reached


def load_bridge():
    return load_web_module("bridge.py", "agreekit_bridge")


FAILURE = "deliberate failure\nin /lib/python3.12/site-packages/agreekit/objects.py, line 3"
BREAK_FIRST_KIND = f"""
import dataclasses
from agreekit import registry as _registry

def _broken(rows, **options):
    raise RuntimeError({FAILURE!r})

_first = next(iter(_registry.KINDS))
_registry.KINDS[_first] = dataclasses.replace(_registry.KINDS[_first], function=_broken)
"""


def test_a_bug_in_the_core_shows_as_one_line(open_page, site, registry, dist_dir):
    """A kind that raises (a bug, not bad input) gives the bridge's one-line message next to the paste area."""
    kind = registry[0]["name"]
    page = open_page(site.url)
    bridge = (dist_dir / "web" / "bridge.py").read_text(encoding="utf-8")
    page.route("**/web/bridge.py", lambda route: route.fulfill(
        status=200, content_type="text/plain; charset=utf-8", body=bridge + BREAK_FIRST_KIND))
    page.reload()
    wait_ready(page)
    page.click(f'form[data-kind="{kind}"] button[data-action="example"]')
    wait_result(page, kind, state="error")
    shown = page.inner_text(f"#error-{kind}").strip()
    assert shown == load_bridge().internal_error(RuntimeError(FAILURE))["message"]
    assert shown == ("internal error: RuntimeError: deliberate failure in objects.py, line 3 "
                     "— please report it, with the input")
    assert "Traceback" not in shown and "/lib/" not in shown and "\n" not in shown
    # the worker survived: another kind still computes
    other = registry[1]["name"]
    page.click(f"#tab-{other}")
    page.click(f'form[data-kind="{other}"] button[data-action="example"]')
    wait_result(page, other)
    assert page.locator(f"#results-{other} [data-metric]").count() > 0
