"""The chance-corrected measures of issue 11 on the page: segment σ and KS, σ_cross, KS cross, σ_B and α_U.

Each is shown with a label (outside the folded "all report values" list) and equals CPython to 1e-12.
"""
from __future__ import annotations

import pytest

import agreekit
from agreekit.share import share_link

from conftest import (assert_metrics_match, assert_undefined_estimates_show_reasons, lookup, sent_options, wait_ready,
                      wait_result)

SHOWN = {  # keys each example must show with a label, beside the all-values list
    "segments": ["localization.sigma.value", "localization.sigma.ci.0", "localization.ks.value",
                 "localization.mean_within", "localization.mean_chance", "localization.chance_placements",
                 "localization.chance_se", "unitizing_alpha.value", "unitizing_alpha.ci.0",
                 "unitizing_alpha.per_label.0.value", "pairs.0.sigma.value", "pairs.0.mean_chance",
                 "annotators.0.sigma.value"],
    "boxes": ["localization.sigma_cross.value", "localization.sigma_cross.ci.0", "localization.ks_cross.value",
              "localization.significance_share.value", "localization.significance_share.ci.0",
              "localization.mean_between_cross"],
    "spans": ["unitizing_alpha.value", "unitizing_alpha.ci.0", "unitizing_alpha.per_label.0.value"],
}
EXAMPLE_FILES = {"spans": {"lengths": "spans-lengths.csv"}}


def shown_keys(page, kind):
    """data-metric keys of a tab outside the folded list of all values."""
    return set(page.eval_on_selector_all(
        f"#results-{kind} [data-metric]", "els => els.filter(e => !e.closest('.all-values')).map(e => e.dataset.metric)"))


@pytest.mark.parametrize("kind", list(SHOWN))
def test_new_measures_are_shown_and_equal_cpython(warm_page, dist_dir, kind):
    page = warm_page
    wait_ready(page)
    page.click(f"#tab-{kind}")
    page.click(f'form[data-kind="{kind}"] button[data-example="{kind}"]')
    wait_result(page, kind)
    rows = (dist_dir / "examples" / f"{kind}.csv").read_text()
    options = sent_options(page, kind)
    for name, path in EXAMPLE_FILES.get(kind, {}).items():
        assert options[name] == (dist_dir / "examples" / path).read_text()
    report = agreekit.report(kind, rows, **options).to_dict()
    assert_metrics_match(page, kind, report)
    missing = [key for key in SHOWN[kind] if key not in shown_keys(page, kind)]
    assert not missing, f"not shown with a label: {missing}"
    for key in SHOWN[kind]:
        assert isinstance(lookup(report, key), (int, float)), key  # defined on the example
    assert_undefined_estimates_show_reasons(page, kind, report)


def test_segment_sigma_in_potato_mode_shows_its_reason(open_page, site, dist_dir):
    rows = (dist_dir / "examples" / "segments.csv").read_text()
    page = open_page(share_link("segments", rows, base_url=site.url, match="potato", bootstrap=50))
    wait_result(page, "segments")
    report = agreekit.report("segments", rows, **sent_options(page, "segments")).to_dict()
    assert report["localization"]["sigma"]["value"] is None
    assert_metrics_match(page, "segments", report)
    assert assert_undefined_estimates_show_reasons(page, "segments", report) >= 2
    assert "Potato has no σ" in page.inner_text("#results-segments")


def test_segment_placements_option_reaches_the_report(open_page, site, dist_dir):
    rows = (dist_dir / "examples" / "segments.csv").read_text()
    page = open_page(share_link("segments", rows, base_url=site.url, placements=30, distance="iou", bootstrap=40))
    wait_result(page, "segments")
    options = sent_options(page, "segments")
    assert options["placements"] == 30 and options["distance"] == "iou"
    report = agreekit.report("segments", rows, **options).to_dict()
    assert report["localization"]["chance_placements"] == 30
    assert_metrics_match(page, "segments", report)
