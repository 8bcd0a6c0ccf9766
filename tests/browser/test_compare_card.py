"""The compare card's chart, item links and stale marking (web/compare.mjs, web/plan_chart.mjs).

One warm page. The "How many items?" chart is read back in data units through the scales its SVG
carries: its points must be the plan's check points, its lines the fitted c · n^(−½), its dashed
line the half-width asked for and its diamonds the predicted n (all from CPython's ``agreekit.plan``
of the same input). An item whose agreement changed opens its view in round A and in round B, each
drawing that round's rows. A result whose inputs change afterwards is marked stale.
"""
from __future__ import annotations

import math
import random
import re

import pytest

import agreekit

from conftest import COMPUTE_MS, paste

CARD = 'details.compare[data-kind="{}"]'
NAMES = ("ana", "<b>ben</b>", "chen")


def _labels(seed, accuracy, items=30):
    rng = random.Random(seed)
    lines = ["item,annotator,label"]
    for i in range(items):
        truth = rng.choice("xyz")
        lines += [f"u{i},{name},{truth if rng.random() < accuracy else rng.choice('xyz')}" for name in NAMES]
    return "\n".join(lines) + "\n"


def _boxes(seed, noise):
    rng = random.Random(seed)
    lines = ["image_id,annotator,x,y,w,h,label"]
    for i in range(12):
        x, y = rng.uniform(0, 400), rng.uniform(0, 300)
        for name in ("p", "q", "r"):
            lines.append(f"im{i},{name},{x + rng.gauss(0, noise):.2f},{y + rng.gauss(0, noise):.2f},40,30,car")
    return "\n".join(lines) + "\n"


def _open(page, kind, rows_a, rows_b=None):
    paste(page, kind, rows_a, bootstrap=100)
    page.eval_on_selector(CARD.format(kind), "(d) => { d.open = true; }")
    if rows_b is not None:
        page.eval_on_selector(f"{CARD.format(kind)} textarea.rows-b", "(area, text) => { area.value = text; }", rows_b)


def _compare(page, kind):
    page.click(f"{CARD.format(kind)} button.run-compare")
    page.wait_for_selector(f"{CARD.format(kind)} .comparison", timeout=COMPUTE_MS)


CHART = """(svg) => {
  const numbers = (name) => svg.dataset[name].split(" ").map(Number);
  const [x0, x1] = numbers("xDomain"), [y0, y1] = numbers("yDomain"), [left, top, right, bottom] = numbers("plot");
  const n = (px) => Math.exp(Math.log(x0) + (px - left) / (right - left) * (Math.log(x1) - Math.log(x0)));
  const h = (py) => y0 + (bottom - py) / (bottom - top) * (y1 - y0);
  const series = [...svg.querySelectorAll("g.plan-series")].map((g) => ({
    metric: g.dataset.metric,
    points: [...g.querySelectorAll("circle.check-point")].map((c) => [n(+c.getAttribute("cx")), h(+c.getAttribute("cy"))]),
    curve: [...g.querySelector("path.fit").getAttribute("d").matchAll(/[ML]([-\\d.]+),([-\\d.]+)/g)].map((m) => [n(+m[1]), h(+m[2])]),
    predicted: [...g.querySelectorAll("path.predicted")].map((p) => [n(+p.dataset.x), h(+p.dataset.y)]),
  }));
  const line = svg.querySelector("line.requested");
  return { series, requested: h(+line.getAttribute("y1")), legends: [...svg.querySelectorAll("[data-legend]")].map((t) => t.dataset.legend),
    yPerPixel: (y1 - y0) / (bottom - top), logPerPixel: (Math.log(x1) - Math.log(x0)) / (right - left) };
}"""


def test_the_plan_chart_draws_the_check_points_the_fit_and_the_predicted_n(warm_page):
    page = warm_page
    rows = _labels(3, 0.7)
    _open(page, "labels", rows)
    page.fill(f'{CARD.format("labels")} [name="half_width"]', "0.08")
    page.click(f'{CARD.format("labels")} button.run-plan')
    page.wait_for_selector(f'{CARD.format("labels")} svg.plan-chart', timeout=COMPUTE_MS)
    plan = agreekit.plan("labels", rows, half_width=0.08)
    chart = page.eval_on_selector(f'{CARD.format("labels")} svg.plan-chart', CHART)
    dy, dlog = chart["yPerPixel"] * 0.002, chart["logPerPixel"] * 0.002  # the coordinates' 3 decimals
    assert chart["requested"] == pytest.approx(0.08, abs=dy)
    fitted = [c for c in plan.coefficients if c.constant]
    assert [s["metric"] for s in chart["series"]] == [c.name for c in fitted]
    for drawn, c in zip(chart["series"], fitted):
        wanted = [(k.n_items, k.half_width) for k in c.check_points if k.half_width is not None]
        assert len(drawn["points"]) == len(wanted) > 0
        for (n, h), (n_wanted, h_wanted) in zip(drawn["points"], wanted):
            assert math.log(n) == pytest.approx(math.log(n_wanted), abs=dlog)
            assert h == pytest.approx(h_wanted, abs=dy)
        assert len(drawn["curve"]) > 20
        for n, h in drawn["curve"]:  # every point of the line is on h = c · n^(−½)
            assert h == pytest.approx(c.constant / math.sqrt(n), abs=dy + c.constant / math.sqrt(n) * dlog)
        assert [(round(n), h) for n, h in drawn["predicted"]] == [(c.predicted_items, pytest.approx(0.08, abs=dy))]
    assert chart["legends"] == [c.name if c.predicted_items is None else f"n ≈ {c.predicted_items:,}: {c.name}" for c in fitted]


def test_a_changed_item_opens_its_view_in_round_a_and_in_round_b(warm_page):
    page = warm_page
    a, b = _labels(11, 0.5), _labels(12, 0.9)
    _open(page, "labels", a, b)
    _compare(page, "labels")
    card = CARD.format("labels")
    item = page.get_attribute(f"{card} ul.items-changed li", "data-item")
    assert item == agreekit.compare("labels", a, b, bootstrap=100).items_changed[0].item
    for round_name, rows in (("A", a), ("B", b)):
        page.click(f'{card} ul.items-changed li >> nth=0 >> button[data-round="{round_name}"]')
        dialog = f'{card} dialog.item-view[data-round="round {round_name}"]'
        page.wait_for_selector(f'{dialog}[data-state="shown"][data-item="{item}"]', timeout=COMPUTE_MS)
        shown = page.eval_on_selector_all(f"{dialog} g.rating",
                                          "gs => gs.map((g) => [g.dataset.annotator, g.dataset.label])")
        wanted = [line.split(",")[1:] for line in rows.splitlines()[1:] if line.split(",")[0] == item]
        assert sorted(map(tuple, shown)) == sorted(map(tuple, wanted))
        assert page.inner_text(f"{dialog} h3") == f"Item {item} · round {round_name}"
        page.click(f"{dialog} button.item-close")


def test_a_changed_box_item_shows_each_rounds_boxes(warm_page):
    page = warm_page
    a, b = _boxes(21, 8.0), _boxes(21, 1.0)
    _open(page, "boxes", a, b)
    _compare(page, "boxes")
    card = CARD.format("boxes")
    item = page.get_attribute(f"{card} ul.items-changed li", "data-item")
    for round_name, rows in (("A", a), ("B", b)):
        page.click(f'{card} ul.items-changed li >> nth=0 >> button[data-round="{round_name}"]')
        dialog = f'{card} dialog.item-view[data-round="round {round_name}"]'
        page.wait_for_selector(f'{dialog}[data-state="shown"][data-item="{item}"]', timeout=COMPUTE_MS)
        shown = page.eval_on_selector_all(f"{dialog} [data-line][data-x]", "es => es.map((e) => [+e.dataset.line, +e.dataset.x])")
        wanted = [(n, float(line.split(",")[2])) for n, line in enumerate(rows.splitlines(), 1) if line.startswith(f"{item},")]
        assert sorted(map(tuple, shown)) == sorted(wanted)
        page.click(f"{dialog} button.item-close")


def test_a_file_opened_as_round_a_marks_the_comparison_stale(warm_page, tmp_path):
    """Rows set by the page (a file), not typed: app.mjs's inputChanged reaches the card."""
    page = warm_page
    a, b = _labels(41, 0.6), _labels(42, 0.8)
    _open(page, "labels", a, b)
    _compare(page, "labels")
    out = f'{CARD.format("labels")} .compare-out'
    assert page.get_attribute(out, "data-stale") == "false"
    table = tmp_path / "round-a.csv"
    table.write_text(a.replace("u1,ana,", "u1,ana,q"))
    page.set_input_files('form[data-kind="labels"] input[name="file"]', str(table))
    page.wait_for_function(f"() => document.querySelector('{out}').dataset.stale === 'true'", timeout=10_000)


def test_the_sentence_heads_the_card_and_a_changed_input_marks_the_result_stale(warm_page):
    page = warm_page
    a, b = _labels(31, 0.6), _labels(32, 0.8)
    _open(page, "labels", a, b)
    _compare(page, "labels")
    card = CARD.format("labels")
    out = f"{card} .compare-out"
    summary = agreekit.compare("labels", a, b, bootstrap=100).summary
    assert page.text_content(f"{card} summary .compare-sentence") == f" — {summary}"
    assert page.get_attribute(out, "data-stale") == "false"
    page.fill(f"{card} textarea.rows-b", b + "u0,dee,x\n")  # round B edited
    assert page.get_attribute(out, "data-stale") == "true"
    assert re.search(r"for the previous inputs", page.inner_text(f"{out} > .stale-banner"))
    assert "stale" in page.get_attribute(f"{card} summary .compare-sentence", "class")
    page.fill(f"{card} textarea.rows-b", b)  # back to what was compared
    assert page.get_attribute(out, "data-stale") == "false"
    assert page.query_selector(f"{out} .stale-banner") is None
    paste(page, "labels", a + "u0,dee,y\n")  # round A edited
    assert page.get_attribute(out, "data-stale") == "true"
    _compare(page, "labels")
    assert page.get_attribute(out, "data-stale") == "false"
    page.fill(f'{card} [name="half_width"]', "0.2")
    page.click(f"{card} button.run-plan")
    page.wait_for_selector(f"{card} .plan-table", timeout=COMPUTE_MS)
    page.fill(f'{card} [name="half_width"]', "0.1")  # the plan was for 0.2
    assert page.get_attribute(out, "data-stale") == "true"


def _traces(seed, accuracy):
    rng = random.Random(seed)
    lines = ["trace,step,annotator,label"]
    for t in range(10):
        for step in range(1, 5):
            truth = rng.choice(["ok", "bad"])
            lines += [f"t{t},{step},{name},{truth if rng.random() < accuracy else rng.choice(['ok', 'bad'])}"
                      for name in ("j1", "j2", "j3")]
    return "\n".join(lines) + "\n"


def test_a_trace_view_of_a_round_shows_that_rounds_alpha_per_step(warm_page):
    page = warm_page
    a, b = _traces(51, 0.6), _traces(52, 0.95)
    _open(page, "traces", a, b)
    _compare(page, "traces")
    card = CARD.format("traces")
    comparison = agreekit.compare("traces", a, b, bootstrap=100)
    item = page.get_attribute(f"{card} ul.items-changed li", "data-item")
    for round_name, report in (("A", comparison.report_a), ("B", comparison.report_b)):
        page.click(f'{card} ul.items-changed li >> nth=0 >> button[data-round="{round_name}"]')
        dialog = f'{card} dialog.item-view[data-round="round {round_name}"]'
        page.wait_for_selector(f'{dialog}[data-state="shown"][data-item="{item}"]', timeout=COMPUTE_MS)
        shown = page.eval_on_selector_all(f"{dialog} .step-alpha", "ts => ts.map((t) => [t.dataset.step, t.dataset.alpha])")
        wanted = {str(s["step"]): s["alpha"]["value"] for s in report.to_dict()["steps"]}
        assert shown and all(float(alpha) == wanted[step] for step, alpha in shown)
        page.click(f"{dialog} button.item-close")
