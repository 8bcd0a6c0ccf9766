"""The page's part of each kind (web/kinds/<kind>.mjs, loaded by web/kinds.mjs) and the charts of its cards.

Every registered kind gets its own module or the default view; a kind without a module (one added
in Python only) still shows its report, each list of records as a table; and the charts of a report
are destroyed when it is replaced, so recomputing does not pile up live uPlot instances.
"""
from __future__ import annotations

import json
from pathlib import Path

import agreekit

from conftest import assert_metrics_match, wait_ready, wait_result

ROOT = Path(__file__).resolve().parents[2]
VIEWS = """async (kinds) => {
    const { kindView } = await import("/web/kinds.mjs");
    const views = [];
    for (const kind of kinds) {
        const view = await kindView(kind);
        views.push({ kind, name: view.name, generic: view.generic, cards: typeof view.cards,
                     picture: Boolean(view.picture), itemView: Boolean(view.itemView), list: view.items?.list ?? null });
    }
    return views;
}"""
RENDER = """async ({ kind, report }) => {
    const { renderReport } = await import("/web/render.mjs");
    const container = document.createElement("div");
    container.id = "generic-results";
    document.body.append(container);
    await renderReport(container, report, { kind, ms: 12, detail: null });
    return { heading: container.querySelector("h2").textContent,
             tables: [...container.querySelectorAll("[data-table]")].map((card) => card.dataset.table),
             rows: [...container.querySelectorAll("[data-table] tbody")].map((body) => body.rows.length),
             gallery: container.querySelectorAll(".item-gallery").length,
             allValues: container.querySelectorAll(".all-values dd").length };
}"""
CHARTS = """async () => {
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0))));
    const { liveCharts } = await import("/web/charts.mjs");
    return { live: liveCharts(), drawn: document.querySelectorAll(".uplot").length,
             cards: document.querySelectorAll("#results-boxes .chart-card .chart").length };
}"""


def test_every_registered_kind_has_its_module_or_the_default_view(open_page, site, dist_dir):
    registered = [kind["name"] for kind in json.loads((dist_dir / "kinds.json").read_text())["kinds"]]
    modules = sorted(path.stem for path in (ROOT / "web" / "kinds").glob("*.mjs"))
    assert json.loads((dist_dir / "web" / "kinds" / "index.json").read_text()) == {"modules": modules}
    page = open_page(site.url)
    views = page.evaluate(VIEWS, [*registered, "widgets"])
    assert [view["name"] for view in views] == [*registered, "widgets"]
    assert all(view["cards"] == "function" for view in views)
    assert {view["kind"] for view in views if not view["generic"]} == set(modules) <= set(registered)
    for view in views:
        if view["generic"]:  # the default view: tables, no item views
            assert not view["picture"] and not view["itemView"] and view["list"] is None
        else:  # a kind's own module: its item views draw shapes or have a view of their own, never both
            assert view["picture"] != view["itemView"] and view["list"], view


def test_a_kind_without_a_module_renders_generically(open_page, site, dist_dir):
    """A boxes report shown as a kind the page has no module for: every list of records a table, every number keyed."""
    rows = (dist_dir / "examples" / "boxes.csv").read_text()
    report = agreekit.report("boxes", rows, bootstrap=20, seed=1).to_dict()
    page = open_page(site.url)
    shown = page.evaluate(RENDER, {"kind": "widgets", "report": report})
    lists = [key for key, value in report.items()
             if isinstance(value, list) and value and all(isinstance(r, dict) for r in value)]
    assert shown["heading"] == "Widgets report" and shown["gallery"] == 0
    assert lists and shown["tables"] == lists
    assert shown["rows"] == [min(len(report[key]), 50) for key in lists]
    assert shown["allValues"] > 20
    metrics = page.eval_on_selector_all("#generic-results [data-metric]",
                                        "els => els.map(e => [e.dataset.metric, e.dataset.value])")
    table_keys = {key.split(".")[0] for key, _ in metrics if key.split(".")[0] in lists}
    assert table_keys == set(lists)
    page.evaluate("() => { document.querySelector('#generic-results').id = 'results-widgets'; }")
    assert_metrics_match(page, "widgets", report, minimum=100)


def test_recomputing_leaves_as_many_live_charts_as_the_report_draws(open_page, site):
    page = open_page(site.url)
    wait_ready(page)
    page.click("#tab-boxes")
    page.click('form[data-kind="boxes"] button[data-example="boxes"]')
    wait_result(page, "boxes")
    page.fill('form[data-kind="boxes"] [name="bootstrap"]', "20")
    counts = []
    for _ in range(10):
        page.click('form[data-kind="boxes"] button[type="submit"]')
        wait_result(page, "boxes")
        counts.append(page.evaluate(CHARTS))
    assert counts[0]["cards"] >= 1, counts[0]
    assert all(count == {"live": counts[0]["cards"], "drawn": counts[0]["cards"], "cards": counts[0]["cards"]}
               for count in counts), counts
