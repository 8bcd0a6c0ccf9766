"""The compare-and-plan card (web/compare.mjs): the worker's agreekit.compare and agreekit.plan, drawn as text.

One warm page; the Labels tab: round A pasted in the form, round B in the card's own box. Every
difference shown is checked against CPython's ``agreekit.compare`` of the same inputs and options,
every predicted number of items against ``agreekit.plan``; an annotator named with markup is shown
as text.
"""
from __future__ import annotations

import agreekit

from conftest import COMPUTE_MS, paste

NAMES = ("ana", "<b>ben</b>", "chen")


def _rows(seed, accuracy):
    import random
    rng = random.Random(seed)
    lines = ["item,annotator,label"]
    for i in range(30):
        truth = rng.choice("xyz")
        lines += [f"u{i},{name},{truth if rng.random() < accuracy else rng.choice('xyz')}" for name in NAMES]
    return "\n".join(lines) + "\n"


def _open_card(page):
    page.eval_on_selector('details.compare[data-kind="labels"]', "(d) => { d.open = true; }")


def test_compare_card_shows_the_cpython_comparison(warm_page):
    page = warm_page
    a, b = _rows(1, 0.6), _rows(2, 0.9)
    paste(page, "labels", a, bootstrap=100)
    _open_card(page)
    page.eval_on_selector('details.compare[data-kind="labels"] textarea.rows-b', "(area, text) => { area.value = text; }", b)
    page.click('details.compare[data-kind="labels"] button.run-compare')
    page.wait_for_selector('details.compare[data-kind="labels"] .comparison', timeout=COMPUTE_MS)
    expected = agreekit.compare("labels", a, b, bootstrap=100)
    shown = page.eval_on_selector_all('details.compare[data-kind="labels"] .comparison table:first-of-type tbody tr',
                                      "trs => trs.map((tr) => [tr.dataset.metric, tr.children[3].dataset.value])")
    wanted = [(d.name, repr(d.delta)) for d in expected.coefficients if d.delta is not None]
    assert [name for name, _ in shown] == [name for name, _ in wanted]
    for (_, value), (_, delta) in zip(shown, wanted):
        assert float(value) == float(delta)
    headline = page.inner_text('details.compare[data-kind="labels"] .comparison .headline')
    assert headline == expected.summary
    captions = page.eval_on_selector_all('details.compare[data-kind="labels"] .comparison caption',
                                         "cs => cs.map((c) => c.textContent)")
    assert "Annotator <b>ben</b>" in captions  # markup in a name is text
    assert page.eval_on_selector_all('details.compare[data-kind="labels"] .comparison b', "bs => bs.length") == 0


def test_plan_card_shows_the_cpython_plan(warm_page):
    page = warm_page
    a = _rows(3, 0.7)
    paste(page, "labels", a, bootstrap=100)
    _open_card(page)
    page.fill('details.compare[data-kind="labels"] [name="half_width"]', "0.08")
    page.click('details.compare[data-kind="labels"] button.run-plan')
    page.wait_for_selector('details.compare[data-kind="labels"] .plan-table', timeout=COMPUTE_MS)
    expected = agreekit.plan("labels", a, half_width=0.08)
    shown = page.eval_on_selector_all('details.compare[data-kind="labels"] .plan-table tbody tr',
                                      "trs => trs.map((tr) => [tr.dataset.metric, tr.children[1].textContent])")
    assert [tuple(row) for row in shown] == [(c.name, f"{c.predicted_items:,}") for c in expected.coefficients]


def test_a_link_carries_both_inputs_both_ways(warm_page, site):
    page = warm_page
    a, b = _rows(5, 0.6), _rows(6, 0.8)
    paste(page, "labels", a, bootstrap=100)
    _open_card(page)
    page.eval_on_selector('details.compare[data-kind="labels"] textarea.rows-b', "(area, text) => { area.value = text; }", b)
    page.click('details.compare[data-kind="labels"] button.share-compare')
    link = page.get_attribute('details.compare[data-kind="labels"] input.compare-link', "value")
    kind, rows_a, rows_b, options = agreekit.read_compare_fragment(link)
    assert (kind, rows_a, rows_b, options["bootstrap"]) == ("labels", a, b, 100)
    python_link = agreekit.compare_link("labels", b, a, base_url=site.url, bootstrap=100)
    page.evaluate("(hash) => { location.hash = hash; }", "#" + python_link.split("#", 1)[1])
    page.wait_for_function("""(text) => document.querySelector('details.compare[data-kind="labels"]').open &&
        document.querySelector('details.compare[data-kind="labels"] textarea.rows-b').value === text""", arg=a,
                           timeout=10_000)
    assert page.input_value('form[data-kind="labels"] [name="rows"]') == b
