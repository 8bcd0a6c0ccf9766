"""The web calculator in real headless Chromium, against the CPython API on the same input."""
from __future__ import annotations

import json

import pytest

import agreekit
from agreekit.share import read_share_fragment, share_link
from same_report import assert_same

from conftest import (LOAD_MS, assert_metrics_match, assert_undefined_estimates_show_reasons, registry_defaults,
                      sent_options, wait_ready, wait_result)

EXAMPLE_OPTIONS = {  # what each example button puts in the form (the files are read from dist/)
    "boxes": {},
    "boxes-fixed": {},
    "spans": {"lengths": "spans-lengths.csv"},
    "segments": {},
}
HEADLINES = {
    "boxes": ["localization.sigma.value", "localization.sigma.ci.0", "mean_matched_iou", "localization.ks.value",
              "detection.value", "classification.value", "detection_f1", "pairs.0.sigma.value",
              "annotators.0.sigma.value", "labels.0.sigma.value"],
    "spans": ["exact_f1.value", "partial_f1.value", "char_alpha.value", "disagreement.total.exact",
              "items.0.char_alpha.value"],
    "segments": ["mean_matched_iou", "detection.value", "detection.ci.0", "classification.value",
                 "boundary_sweep.0.f1"],
}


def example_input(dist_dir, example):
    rows = (dist_dir / "examples" / f"{example}.csv").read_text()
    files = {name: (dist_dir / "examples" / path).read_text() for name, path in EXAMPLE_OPTIONS[example].items()}
    return rows, files


@pytest.mark.parametrize("kind,example", [("boxes", "boxes"), ("boxes", "boxes-fixed"),
                                          ("spans", "spans"), ("segments", "segments")])
def test_example_computes_and_matches_cpython(warm_page, dist_dir, kind, example):
    page = warm_page
    wait_ready(page)
    page.click(f"#tab-{kind}")
    page.click(f'form[data-kind="{kind}"] button[data-example="{example}"]')
    wait_result(page, kind)
    rows, files = example_input(dist_dir, example)
    assert page.input_value(f"#rows-{kind}") == rows
    options = sent_options(page, kind)
    for name, text in files.items():
        assert options[name] == text
    report = agreekit.report(kind, rows, **options).to_dict()
    metrics = dict(assert_metrics_match(page, kind, report))
    for key in HEADLINES[kind]:
        assert key in metrics, f"{key} not shown on the page"
    assert_undefined_estimates_show_reasons(page, kind, report)
    if example == "boxes-fixed":  # the lesson: raw IoU stays high while sigma is below chance
        assert metrics["mean_matched_iou"] > 0.8 and metrics["localization.sigma.value"] < 0


def test_python_share_link_reproduces_report_in_fresh_context(open_page, site, dist_dir):
    rows = (dist_dir / "examples" / "boxes.csv").read_text()
    options = {"threshold": 0.4, "distance": "iou", "bootstrap": 200, "seed": 11}
    link = share_link("boxes", rows, base_url=site.url, **options)
    page = open_page(link)
    wait_result(page, "boxes")
    assert page.input_value("#rows-boxes") == rows
    assert page.input_value('form[data-kind="boxes"] [name="distance"]') == "iou"
    report = agreekit.report("boxes", rows, **options).to_dict()
    assert sent_options(page, "boxes") == {**registry_defaults("boxes"), **options}
    assert_metrics_match(page, "boxes", report)


def test_page_share_link_reads_back_in_python(warm_page, site, dist_dir):
    rows, files = example_input(dist_dir, "spans")
    page = warm_page
    page.click("#tab-spans")
    page.fill("#rows-spans", rows)
    page.fill("#option-spans-lengths", files["lengths"])
    page.fill('form[data-kind="spans"] [name="seed"]', "5")
    page.click('form[data-kind="spans"] button[data-action="share"]')
    page.wait_for_selector('form[data-kind="spans"] .share[data-state="ok"]')
    link = page.input_value('form[data-kind="spans"] .share-link')
    assert link.startswith(site.url + "#v1/spans/")
    kind, shared_rows, shared_options = read_share_fragment(link)
    assert (kind, shared_rows) == ("spans", rows)
    assert shared_options == {**registry_defaults("spans"), "lengths": files["lengths"], "seed": 5}


def test_bad_input_shows_error_with_line(warm_page):
    page = warm_page
    rows = "item,annotator,x,y,w,h,label\nimg1,a,0,0,10,10,car\nimg1,b,zero,0,10,10,car\n"
    page.fill("#rows-boxes", rows)
    page.click('form[data-kind="boxes"] button[type="submit"]')
    wait_result(page, "boxes", state="error")
    error = page.locator("#error-boxes")
    assert error.is_visible()
    text = error.inner_text()
    assert "Line 3" in text and '"x"' in text, text
    with pytest.raises(agreekit.InputError) as caught:  # the same error as the API's
        agreekit.report("boxes", rows)
    assert caught.value.line == 3 and caught.value.column == "x"


XSS = "<img src=x onerror=alert(1)>"


def xss_rows():
    return ("item,annotator,x,y,w,h,label\n"
            f'"{XSS}",ann<b>1</b>,0,0,10,10,"{XSS}"\n'
            f'"{XSS}",ann2,1,1,10,10,"{XSS}"\n'
            "img2,ann<b>1</b>,5,5,10,10,car\nimg2,ann2,5,6,10,10,car\n")


def assert_rendered_as_text(page):
    results = page.locator("#results-boxes")
    assert results.locator("img").count() == 0
    assert results.locator("b").count() == 0
    body = results.inner_text()
    assert XSS in body
    assert "ann<b>1</b>" in body


def test_xss_label_renders_as_text(warm_page):
    page = warm_page
    page.fill("#rows-boxes", xss_rows())
    page.fill('form[data-kind="boxes"] [name="bootstrap"]', "50")
    page.click('form[data-kind="boxes"] button[type="submit"]')
    wait_result(page, "boxes")
    assert_rendered_as_text(page)
    # open_page's teardown fails the test if any dialog opened


def test_xss_label_from_share_link_renders_as_text(open_page, site):
    page = open_page(share_link("boxes", xss_rows(), base_url=site.url, bootstrap=50))
    wait_result(page, "boxes")
    assert_rendered_as_text(page)


def test_json_download_is_the_cpython_report(warm_page, dist_dir, tmp_path):
    rows = (dist_dir / "examples" / "segments.csv").read_text()
    upload = tmp_path / "clips.csv"
    upload.write_text(rows)
    page = warm_page
    page.click("#tab-segments")
    page.set_input_files('form[data-kind="segments"] input[type="file"]', str(upload))  # upload path
    page.wait_for_function("() => document.querySelector('#rows-segments').value.length > 0")
    assert page.input_value("#rows-segments") == rows
    page.fill('form[data-kind="segments"] [name="tolerances"]', "0.3; 1.5")
    page.fill('form[data-kind="segments"] [name="seed"]', "9")
    page.click('form[data-kind="segments"] button[type="submit"]')
    wait_result(page, "segments")
    with page.expect_download() as info:
        page.get_by_role("button", name="Download report (JSON)").click()
    downloaded = json.loads(open(info.value.path(), encoding="utf-8").read())
    expected = agreekit.report("segments", rows, tolerances=[0.3, 1.5], seed=9).to_dict()
    assert_same(downloaded, expected)  # every value, to the last bits (numpy/scipy pinned to Pyodide's)


def test_route_guard_records_and_aborts_foreign_requests(open_page, site):
    """The offline guard itself: a request to another origin is aborted and recorded."""
    page = open_page(site.url)
    with pytest.raises(Exception):
        page.goto("http://127.0.0.2:9/never")  # another origin (still loopback, so nothing leaves)
    assert page.record["foreign"] == ["http://127.0.0.2:9/never"]
    page.record["foreign"].clear()  # expected here; any other test fails on it at teardown


def test_share_link_with_unusable_options_computes_nothing(open_page, site):
    rows = "item,annotator,x,y,w,h,label\ni1,a,0,0,10,10,car\ni1,b,1,1,10,10,car\n"
    page = open_page(share_link("boxes", rows, base_url=site.url, threshold="abc", distance="<b>x</b>",
                                unknown_option=1))
    page.wait_for_selector("#error-boxes", state="visible")
    message = page.inner_text("#error-boxes")
    for part in ("threshold=abc", "distance=<b>x</b>", "unknown_option"):
        assert part in message, message
    assert page.locator("#error-boxes b").count() == 0
    page.wait_for_timeout(500)
    assert page.get_attribute("#results-boxes", "data-state") == "error"  # the link's input was refused
    assert page.get_attribute("#results-boxes", "data-options") is None  # and no report was asked for
    assert "Nothing was computed" in page.inner_text("#results-boxes")
    assert page.input_value("#rows-boxes") == rows  # the rows are restored for the user to fix
