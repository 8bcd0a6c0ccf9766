"""The Polygons, Masks, Cuboids and Traces tabs in real headless Chromium, against the CPython API."""
from __future__ import annotations

import numpy as np
import pytest

import agreekit
from agreekit.rows import InputError
from agreekit.share import read_share_fragment, share_link

from conftest import (assert_metrics_match, assert_undefined_estimates_show_reasons, registry_defaults, sent_options,
                      wait_ready, wait_result)

KINDS = ["polygons", "masks", "cuboids", "traces"]
LAST_TAB = max(agreekit.KINDS.values(), key=lambda kind: kind.position).name  # End moves focus to it
HEADLINES = {
    "polygons": ["localization.sigma.value", "localization.sigma.ci.0", "mean_matched_iou", "localization.ks.value",
                 "detection.value", "classification.value", "n_polygons", "pairs.0.sigma.value",
                 "labels.0.sigma.value"],
    "cuboids": ["localization.sigma.value", "localization.sigma.ci.1", "mean_matched_iou", "detection.value",
                "classification.value", "mean_agreement", "mean_object_count_diff", "n_cuboids",
                "annotators.0.sigma.value"],
    "masks": ["mean_dice.value", "mean_majority_dice.value", "consensus_majority_dice.value",
              "mean_pairwise_iou.value", "annotators.0.sensitivity.value", "annotators.0.specificity.value",
              "items.0.dice.0", "items.0.consensus_area"],
    "traces": ["alpha.value", "alpha.ci.0", "percent_agreement.value", "cohen_kappa.mean.value",
               "fleiss_kappa.value", "steps.0.alpha.value", "steps.1.alpha.value", "units.0.percent_agreement",
               "cohen_kappa.pairs.0.kappa.value", "traces.0.alpha.value"],
}
# Colours of the mask figures (web/kinds/masks/draw.mjs): background, agree, missed, extra.
MASK_COLOURS = {(255, 255, 255): 0, (110, 116, 128): 1, (0, 114, 178): 2, (230, 159, 0): 3}


def run_example(page, kind):
    page.click(f"#tab-{kind}")
    page.click(f'form[data-kind="{kind}"] button[data-example="{kind}"]')
    wait_result(page, kind)


@pytest.mark.parametrize("kind", KINDS)
def test_example_computes_and_matches_cpython(warm_page, dist_dir, kind):
    page = warm_page
    wait_ready(page)
    run_example(page, kind)
    rows = (dist_dir / "examples" / f"{kind}.csv").read_text()
    assert page.input_value(f"#rows-{kind}") == rows
    report = agreekit.report(kind, rows, **sent_options(page, kind)).to_dict()
    metrics = dict(assert_metrics_match(page, kind, report, minimum=40))
    for key in HEADLINES[kind]:
        assert key in metrics, f"{key} not shown on the page"
    assert_undefined_estimates_show_reasons(page, kind, report)
    if kind == "masks":
        check_mask_figures(page, report)
    if kind == "traces":
        check_step_chart(page, report)


def decode(runs, width, height):
    """Column-major COCO runs (background first) to a (height, width) boolean array."""
    flat = np.repeat(np.arange(len(runs)) % 2 == 1, runs)
    return flat.reshape(width, height).T


def wait_drawn(page):
    """The mask figures are drawn in a worker after the report is shown: wait for every shown item."""
    page.wait_for_function("() => !document.querySelector('#results-masks .mask-item[data-state=\"drawing\"]')")


def check_mask_figures(page, report):
    """Each drawn pixel is what the report's runs say: annotator vs consensus, in the right orientation."""
    wait_drawn(page)
    for i, item in enumerate(report["items"]):
        width, height = item["width"], item["height"]
        consensus = decode(item["consensus_rle"], width, height)
        expected = [np.where(consensus, 1, 0)]
        for runs in [item["majority_rle"], *item["annotator_rle"]]:
            mask = decode(runs, width, height)
            expected.append(np.select([mask & consensus, ~mask & consensus, mask & ~consensus], [1, 2, 3], 0))
        drawn = page.eval_on_selector_all(
            f'#results-masks .mask-item[data-item="{i}"] canvas',
            "cs => cs.map(c => ({w: c.width, h: c.height, data: Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data)}))")
        assert len(drawn) == len(expected) == 2 + len(item["annotators"])
        for picture, classes in zip(drawn, expected):
            assert (picture["w"], picture["h"]) == (width, height)
            rgba = np.array(picture["data"]).reshape(height, width, 4)
            shown = np.vectorize(lambda r, g, b: MASK_COLOURS[(r, g, b)])(rgba[..., 0], rgba[..., 1], rgba[..., 2])
            assert np.array_equal(shown, classes), f"item {item['item']}: drawn pixels differ from the report's runs"
    names = page.eval_on_selector_all('#results-masks .mask-item[data-item="0"] figcaption strong', "s => s.map(e => e.textContent)")
    assert names[2:] == report["items"][0]["annotators"]


def check_step_chart(page, report):
    card = page.locator("#results-traces .chart-card")
    assert card.locator("canvas").count() >= 1
    text = card.inner_text()
    for step in report["steps"]:
        if step["alpha"]["value"] is None:
            assert f"Step {step['step']}: α undefined" in text and step["alpha"]["reason"] in text
    caption = card.locator("[data-settings='figure']")  # the figure names its settings in its SVG download,
    assert "level nominal" in caption.text_content() and caption.is_hidden()  # not on the page (once per report)
    assert "level nominal" not in text


XSS = "<img src=x onerror=alert(1)>"
XSS_ROWS = {
    "polygons": ("item,annotator,points,label\n"
                 f'"{XSS}",ann<b>1</b>,0 0 10 0 10 10 0 10,"{XSS}"\n'
                 f'"{XSS}",ann2,1 1 11 1 11 11 1 11,"{XSS}"\n'
                 "img2,ann<b>1</b>,5 5 15 5 15 15,car\nimg2,ann2,5 6 15 6 15 16,car\n"),
    "masks": ("item,annotator,width,height,rle,label\n"
              f'"{XSS}",ann<b>1</b>,4,3,1 2 3 6,"{XSS}"\n'
              f'"{XSS}",ann2,4,3,1 3 2 6,"{XSS}"\n'
              f'"{XSS}",ann3,4,3,0 3 3 6,"{XSS}"\n'),
    "cuboids": ("item,annotator,cx,cy,cz,sx,sy,sz,yaw,label\n"
                f'"{XSS}",ann<b>1</b>,0,0,0,4,2,1.5,0.1,"{XSS}"\n'
                f'"{XSS}",ann2,0.2,0,0,4,2,1.5,0.2,"{XSS}"\n'
                "s2,ann<b>1</b>,10,3,0,4,2,1.5,1.0,car\ns2,ann2,10,3.1,0,4,2,1.5,1.1,car\n"),
    "traces": ("trace,step,annotator,label\n"
               f'"{XSS}",1,ann<b>1</b>,"{XSS}"\n"{XSS}",1,ann2,ok\n'
               f'"{XSS}",2,ann<b>1</b>,ok\n"{XSS}",2,ann2,ok\n'
               f't2,1,ann<b>1</b>,ok\nt2,1,ann2,"{XSS}"\n'),
}
BAD_ROWS = {  # line 3 is wrong in the named column
    "polygons": ("item,annotator,points,label\ni1,a,0 0 10 0 10 10,car\ni1,b,0 0 10 10 10 0 0 10,car\n", "points"),
    "masks": ("item,annotator,width,height,rle,label\ni1,a,4,3,1 2 3 6,x\ni1,b,4,3,1 2 3 7,x\n", "rle"),
    "cuboids": ("item,annotator,cx,cy,cz,sx,sy,sz,yaw,label\ni1,a,0,0,0,4,2,1,0,car\ni1,b,0,0,0,-4,2,1,0,car\n", "sx"),
    "traces": ("trace,step,annotator,label\nt1,1,a,ok\nt1,two,b,ok\n", "step"),
}


@pytest.mark.parametrize("kind", KINDS)
def test_xss_renders_as_text_and_bad_input_names_the_line(warm_page, kind):
    page = warm_page
    page.click(f"#tab-{kind}")
    page.fill(f"#rows-{kind}", XSS_ROWS[kind])
    if kind != "masks":
        page.fill(f'form[data-kind="{kind}"] [name="bootstrap"]', "20")
    page.click(f'form[data-kind="{kind}"] button[type="submit"]')
    wait_result(page, kind)
    results = page.locator(f"#results-{kind}")
    assert results.locator("img").count() == 0 and results.locator("b").count() == 0
    body = results.inner_text()
    assert XSS in body and "ann<b>1</b>" in body
    report = agreekit.report(kind, XSS_ROWS[kind], **sent_options(page, kind)).to_dict()
    assert_metrics_match(page, kind, report)

    rows, column = BAD_ROWS[kind]
    page.fill(f"#rows-{kind}", rows)
    page.click(f'form[data-kind="{kind}"] button[type="submit"]')
    wait_result(page, kind, state="error")
    text = page.inner_text(f"#error-{kind}")
    with pytest.raises(InputError) as caught:  # the same error as the API's
        agreekit.report(kind, rows)
    assert (caught.value.line, caught.value.column) == (3, column)
    assert "Line 3" in text and f'"{column}"' in text, text
    # open_page's teardown fails the test if any dialog opened


@pytest.mark.parametrize("kind,options", [
    ("masks", {"start": "rates", "max_iter": 500}),
    ("traces", {"level": "ordinal", "order": "correct,unclear,incorrect", "bootstrap": 200, "seed": 3, "top_units": 5}),
    ("cuboids", {"threshold": 0.4, "match": "potato", "bootstrap": 100, "seed": 2}),
])
def test_python_share_link_reproduces_report(open_page, site, dist_dir, kind, options):
    rows = (dist_dir / "examples" / f"{kind}.csv").read_text()
    page = open_page(share_link(kind, rows, base_url=site.url, **options))
    wait_result(page, kind)
    assert page.get_attribute(f"#tab-{kind}", "aria-selected") == "true"
    assert page.input_value(f"#rows-{kind}") == rows
    assert {k: sent_options(page, kind)[k] for k in options} == options
    report = agreekit.report(kind, rows, **sent_options(page, kind)).to_dict()
    assert_metrics_match(page, kind, report)


def test_page_share_link_reads_back_in_python(open_page, site, dist_dir):
    rows = (dist_dir / "examples" / "polygons.csv").read_text()
    page = open_page(site.url)
    page.click("#tab-polygons")
    page.fill("#rows-polygons", rows)
    page.select_option('form[data-kind="polygons"] [name="distance"]', "iou")
    page.fill('form[data-kind="polygons"] [name="seed"]', "4")
    page.click('form[data-kind="polygons"] button[data-action="share"]')
    page.wait_for_selector('form[data-kind="polygons"] .share[data-state="ok"]')
    link = page.input_value('form[data-kind="polygons"] .share-link')
    kind, shared_rows, options = read_share_fragment(link)
    assert (kind, shared_rows) == ("polygons", rows)
    assert options == {**registry_defaults("polygons"), "distance": "iou", "seed": 4}


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_new_tabs_fit_and_are_keyboard_reachable(open_page, site, width, height):
    page = open_page(site.url, viewport={"width": width, "height": height})
    wait_ready(page)
    page.focus("#tab-segments")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "tab-polygons"
    page.keyboard.press("End")  # the last tab, in the registry's order
    assert page.evaluate("document.activeElement.id") == f"tab-{LAST_TAB}"
    assert page.is_visible(f"#panel-{LAST_TAB}") and not page.is_visible("#panel-polygons")
    for kind in agreekit.KINDS:  # every tab fits, the new ones included
        assert page.locator(f"#tab-{kind}").is_visible()
    run_example(page, "masks")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the masks report overflows the page by {overflow}px at {width}px"
    page.reload()  # the tab and its input survive a reload
    page.wait_for_selector("#panel-masks:not([hidden])")
    assert page.input_value("#rows-masks").startswith("item,annotator,width,height,rle,label")
