"""The page's pair table shows each pair's σ with its interval ("σ [low, high]"), as CPython computes it."""
from __future__ import annotations

import agreekit
from conftest import lookup, wait_ready, wait_result
from test_page import example_input, sent_options


def test_the_pair_table_shows_each_pair_sigma_interval(warm_page, dist_dir):
    page = warm_page
    wait_ready(page)
    page.click("#tab-boxes")
    page.click('form[data-kind="boxes"] button[data-example="boxes"]')
    wait_result(page, "boxes")
    rows, _ = example_input(dist_dir, "boxes")
    report = agreekit.report("boxes", rows, **sent_options(page, "boxes")).to_dict()
    with_ci = [p for p, row in enumerate(report["pairs"]) if row["sigma"]["ci"] is not None]
    assert with_ci, "the example's pairs have no σ interval"
    shown = dict(page.eval_on_selector_all(
        "#results-boxes [data-metric^='pairs.']", "els => els.map(e => [e.dataset.metric, e.dataset.value])"))
    for p in with_ci[:5]:
        for end in (0, 1):
            key = f"pairs.{p}.sigma.ci.{end}"
            assert key in shown, f"{key} not on the page"
            assert abs(float(shown[key]) - lookup(report, key)) <= 1e-12
