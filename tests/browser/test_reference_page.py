"""Reference mode on the page: a share link carrying gold rows (or naming an annotator) shows the reference
cards, each value equal to CPython's report to 1e-12 (docs/reference.md)."""
from __future__ import annotations

import csv
import io

import pytest

import agreekit
from agreekit.share import share_link

from conftest import assert_metrics_match, assert_undefined_estimates_show_reasons, sent_options, wait_result

SHOWN = ["reference.total.precision.value", "reference.total.recall.value", "reference.total.f1.value",
         "reference.total.sigma.value", "reference.total.sigma.ci.0", "reference.total.conflicts.missing",
         "reference.annotators.0.precision.value", "reference.items.0.n_conflicts", "reference.labels.0.recall.value"]


def shown_keys(page, kind):
    return set(page.eval_on_selector_all(
        f"#results-{kind} [data-metric]", "els => els.filter(e => !e.closest('.all-values')).map(e => e.dataset.metric)"))


@pytest.mark.parametrize("how", ["rows", "annotator"])
def test_the_reference_cards_show_the_report(open_page, site, dist_dir, how):
    rows = (dist_dir / "examples" / "polygons.csv").read_text()
    table = list(csv.DictReader(io.StringIO(rows)))
    expert = table[0]["annotator"]
    if how == "rows":
        gold = [r for r in table if r["annotator"] == expert]
        given = [r for r in table if r["annotator"] != expert]
        link = share_link("polygons", given, base_url=site.url, bootstrap=100, reference_rows=gold)
    else:
        link = share_link("polygons", rows, base_url=site.url, bootstrap=100, reference=expert)
    page = open_page(link)
    wait_result(page, "polygons")
    options = sent_options(page, "polygons")
    sent_rows = page.evaluate("kind => window.agreekit.rows(kind)", "polygons")
    report = agreekit.report("polygons", sent_rows, **options).to_dict()
    assert report["reference"]["source"] == how
    assert_metrics_match(page, "polygons", report)
    missing = [key for key in SHOWN if key not in shown_keys(page, "polygons")]
    assert not missing, f"not shown with a label: {missing}"
    assert_undefined_estimates_show_reasons(page, "polygons", report)


@pytest.mark.parametrize("kind", ["labels", "traces", "masks", "spans", "segments"])
def test_every_kind_shows_its_reference_cards(open_page, site, dist_dir, kind):
    rows = (dist_dir / "examples" / f"{kind}.csv").read_text()
    expert = next(csv.DictReader(io.StringIO(rows)))["annotator"]
    options = {} if kind == "masks" else {"bootstrap": 50}
    page = open_page(share_link(kind, rows, base_url=site.url, reference=expert, **options))
    wait_result(page, kind)
    report = agreekit.report(kind, rows, **sent_options(page, kind)).to_dict()
    assert report["reference"]["annotator"] == expert
    assert_metrics_match(page, kind, report)
    shown = shown_keys(page, kind)
    assert {"reference.total.f1.value", "reference.total.kappa.value", "reference.annotators.0.f1.value"} <= shown


def test_the_spans_reference_table_names_the_five_way_sides(open_page, site, dist_dir):
    # The kind's words (web/kinds/spans.mjs referenceWords.columns), not the flattened keys ("outcomes missed a").
    rows = (dist_dir / "examples" / "spans.csv").read_text()
    expert = next(csv.DictReader(io.StringIO(rows)))["annotator"]
    page = open_page(share_link("spans", rows, base_url=site.url, reference=expert, bootstrap=0))
    wait_result(page, "spans")
    headings = page.eval_on_selector_all('#results-spans [data-table="reference.annotators"] th',
                                         "els => els.map(e => e.textContent)")
    assert "Five-way: found by the reference only" in headings and "Five-way: found by the annotator only" in headings
    assert not [h for h in headings if "outcomes" in h or "missed" in h], headings
    cell = page.eval_on_selector('#results-spans [data-metric="reference.annotators.0.outcomes.missed_a"]',
                                 "e => Number(e.dataset.value)")
    report = agreekit.report("spans", rows, **sent_options(page, "spans")).to_dict()
    assert cell == report["reference"]["annotators"][0]["outcomes"]["missed_a"]
