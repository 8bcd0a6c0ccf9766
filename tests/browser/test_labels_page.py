"""The Labels tab (web/kinds/labels.mjs): its cards show the CPython report's numbers, labels as text.

One warm page for the module (conftest's ``module_page``); each test pastes its input on the Labels
tab, computes, and compares every number on the tab with ``agreekit.report("labels", …)`` of the
options the page sent.
"""
from __future__ import annotations

import agreekit

from conftest import assert_metrics_match, paste, sent_options, wait_result

def compute(page, rows, bootstrap):
    """Paste ``rows`` on the Labels tab, compute, and return the CPython report of what the page sent."""
    page.click("#tab-labels")
    wait_result(page, "labels")  # a first visit computes the tab's example: let it finish
    paste(page, "labels", rows, bootstrap=bootstrap)
    page.click('form[data-kind="labels"] button[type="submit"]')
    wait_result(page, "labels")
    options = sent_options(page, "labels")
    assert options["bootstrap"] == bootstrap
    return agreekit.report("labels", rows, **options).to_dict()


def shown_tables(page):
    cards = page.eval_on_selector_all("#results-labels [data-table]",
                                     "cards => cards.map((c) => [c.dataset.table, c.querySelectorAll('tbody tr').length])")
    return [tuple(card) for card in cards]


def test_the_example_shows_every_coefficient_and_table_of_the_report(warm_page, dist_dir):
    page = warm_page
    rows = (dist_dir / "examples" / "labels.csv").read_text()
    report = compute(page, rows, bootstrap=40)
    metrics = dict(assert_metrics_match(page, "labels", report, minimum=100))
    # the headline: α at the chosen level with its interval, and percent agreement
    for key in ("alpha", "percent_agreement"):
        assert f"coefficients.{key}.value" in metrics and f"coefficients.{key}.ci.0" in metrics
    headline = page.inner_text("#results-labels .contrast")
    assert f"Krippendorff's α ({report['settings']['level']}" in headline
    # every coefficient estimate of the report is a row, with its value or its reason
    estimates = [key for key, value in report["coefficients"].items() if isinstance(value, dict) and "value" in value]
    rows_shown = page.eval_on_selector_all("#results-labels [data-table='coefficients'] tbody tr",
                                           "trs => trs.map((tr) => [tr.dataset.coefficient, tr.innerText])")
    assert [key for key, _ in rows_shown] == estimates
    for key, text in rows_shown:
        reason = report["coefficients"][key]["reason"]
        if report["coefficients"][key]["value"] is None:
            assert reason and reason in text, (key, text)
        else:
            assert f"coefficients.{key}.value" in metrics
    assert shown_tables(page) == [("coefficients", len(estimates)), ("prevalence", len(report["prevalence"])),
                                  ("pairs", len(report["pairs"])), ("annotators", len(report["annotators"])),
                                  ("confusion", len(report["categories"])), ("items", len(report["items"]))]
    assert report["n_disputed_items"] > 0 and report["items"]
    # prevalence: one column per annotator, named as the report names them
    heads = page.eval_on_selector_all("#results-labels [data-table='prevalence'] thead th", "ths => ths.map((t) => t.textContent)")
    assert heads[3:] == [a["annotator"] for a in report["annotators"]]
    # the confusion table of the pair chosen in its menu, labelled with the categories
    last = len(report["pairs"]) - 1
    page.select_option("#results-labels select.confusion-pair", str(last))
    confusion = page.eval_on_selector_all("#results-labels table.confusion [data-metric]", "els => els.map((e) => e.dataset.metric)")
    assert len(confusion) == len(report["categories"]) ** 2 and all(k.startswith(f"pairs.{last}.confusion.") for k in confusion)
    assert page.eval_on_selector_all("#results-labels table.confusion thead th",
                                     "ths => ths.map((t) => t.textContent)")[1:] == report["categories"]
    assert_metrics_match(page, "labels", report, minimum=100)


def test_labels_and_names_are_text_and_the_kappa_paradox_is_said(warm_page):
    page = warm_page
    label, other, names = "<b>x</b>", "<img src=y onerror=alert(1)>", ["<i>ann</i>", "bo"]
    lines = ["item,annotator,label"]
    for i in range(20):
        lines += [f"t{i:02d},{names[0]},{label}", f"t{i:02d},{names[1]},{other if i in (3, 11) else label}"]
    rows = "\n".join(lines) + "\n"
    report = compute(page, rows, bootstrap=30)
    assert report["kappa_paradox"], "the input is made to show the kappa paradox"
    assert_metrics_match(page, "labels", report, minimum=40)
    results = "#results-labels"
    assert page.eval_on_selector_all(f"{results} b, {results} i, {results} img", "els => els.length") == 0
    assert page.inner_text(f"{results} .kappa-paradox") == report["kappa_paradox"]
    prevalence = page.eval_on_selector_all(f"{results} [data-table='prevalence'] tbody tr td:first-child",
                                           "tds => tds.map((td) => td.textContent)")
    assert prevalence == [p["label"] for p in report["prevalence"]] and label in prevalence and other in prevalence
    disputed = page.eval_on_selector_all(f"{results} [data-table='items'] tbody tr",
                                         "trs => trs.map((tr) => [tr.querySelector('th').textContent, "
                                         "[...tr.querySelectorAll('.rating-label')].map((s) => s.textContent)])")
    assert [tuple(row) for row in disputed] == [(e["item"], [r["label"] for r in e["ratings"]]) for e in report["items"]]
    # the item view: a disputed item's row opens each annotator's label, as text
    page.click(f"{results} [data-table='items'] tbody tr")
    page.wait_for_selector("dialog[open] svg.label-item", timeout=10_000)
    view = page.eval_on_selector_all("dialog[open] svg.label-item .rating",
                                     "gs => gs.map((g) => [g.dataset.annotator, g.querySelectorAll('text')[1].textContent])")
    assert [tuple(row) for row in view] == [(r["annotator"], r["label"]) for r in report["items"][0]["ratings"]]
    assert page.eval_on_selector_all("dialog[open] svg.label-item", "s => s[0].querySelectorAll('b, i, img').length") == 0
    page.keyboard.press("Escape")


def test_the_confusion_heat_map_shades_each_pairs_counts_with_labels_as_text(warm_page):
    page = warm_page
    labels, names = ["ok", "<b>defect</b>", "<img src=z onerror=alert(1)>"], ["<i>ann</i>", "bo", "cy"]
    lines = ["item,annotator,label"]
    for i in range(30):
        truth = labels[0] if i < 18 else labels[1] if i < 26 else labels[2]
        for k, name in enumerate(names):
            label = labels[(labels.index(truth) + 1) % 3] if (i + k) % 7 == 0 else truth
            lines.append(f"t{i:02d},{name},{label}")
    report = compute(page, "\n".join(lines) + "\n", bootstrap=20)
    categories = report["categories"]
    for index, pair in enumerate(report["pairs"]):
        page.select_option("#results-labels select.confusion-pair", str(index))
        shown = page.eval_on_selector_all(
            "#results-labels svg.confusion-map .map-cell",
            "gs => gs.map((g) => [Number(g.dataset.row), Number(g.dataset.column), Number(g.dataset.count), "
            "Number(g.querySelector('rect').getAttribute('fill-opacity'))])")
        largest = max(max(row) for row in pair["confusion"])
        assert [(r, c, n) for r, c, n, _ in shown] == [(r, c, n) for r, row in enumerate(pair["confusion"])
                                                       for c, n in enumerate(row)]
        assert all(abs(shade - n / largest) < 1e-4 for _, _, n, shade in shown)
        assert page.get_attribute("#results-labels svg.confusion-map", "data-pair") == str(index)
    rows = page.eval_on_selector_all("#results-labels svg.confusion-map text.row-label", "ts => ts.map((t) => t.textContent)")
    assert rows == [label if len(label) <= 16 else label[:15] + "…" for label in categories]
    assert page.eval_on_selector_all("#results-labels svg.confusion-map", "s => s[0].querySelectorAll('b, i, img').length") == 0
    title = page.eval_on_selector("#results-labels svg.confusion-map .map-cell title", "t => t.textContent")
    last, n = report["pairs"][-1], report["pairs"][-1]["confusion"][0][0]
    assert title == f"{last['a']}: {categories[0]} · {last['b']}: {categories[0]} · {n} item{'' if n == 1 else 's'}"


def test_an_interval_level_report_computes_its_icc_with_the_page_s_scipy(warm_page):
    """ICC(2,1) and ICC(3,1) with their F-based intervals: the page has no scipy.stats (measures/f_quantile.py)."""
    page = warm_page
    rows = "item,annotator,label\n" + "".join(f"i{i},{a},{(i * 7 + j * (i % 3)) % 5 + 1}\n"
                                               for i in range(24) for j, a in enumerate(("a", "b", "c")))
    page.click("#tab-labels")
    wait_result(page, "labels")
    paste(page, "labels", rows, bootstrap=40)
    page.select_option('form[data-kind="labels"] [name="level"]', "interval")
    page.click('form[data-kind="labels"] button[type="submit"]')
    wait_result(page, "labels")
    options = sent_options(page, "labels")
    assert options["level"] == "interval"
    report = agreekit.report("labels", rows, **options).to_dict()
    for key in ("icc_2_1", "icc_3_1"):
        assert report["coefficients"][key]["value"] is not None and report["coefficients"][key]["f_ci"]
    metrics = dict(assert_metrics_match(page, "labels", report))
    assert "coefficients.icc_2_1.value" in metrics and "coefficients.icc_3_1.value" in metrics
