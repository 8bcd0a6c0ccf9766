"""The example on first open: a new visitor sees a computed example; saved input and share links win."""
from __future__ import annotations

import json

import agreekit
from agreekit.share import share_link

from conftest import assert_metrics_match, registry_defaults, sent_options, wait_ready, wait_result

SHOTS = "/tmp/agreekit-shots"


def first_example(page, kind, dist_dir):
    """The rows and option files of the tab's first example button, read from dist/."""
    button = page.locator(f'form[data-kind="{kind}"] button[data-action="example"]').first
    rows = (dist_dir / "examples" / f"{button.get_attribute('data-example')}.csv").read_text()
    files = json.loads(button.get_attribute("data-option-files") or "{}")
    return rows, {name: (dist_dir / path).read_text() for name, path in files.items()}


def assert_example_report(page, kind, dist_dir):
    """The tab holds its first example, sent with the form's defaults, and shows the CPython report."""
    rows, files = first_example(page, kind, dist_dir)
    assert page.input_value(f"#rows-{kind}") == rows
    options = sent_options(page, kind)
    assert options == {**registry_defaults(kind), **files}
    report = agreekit.report(kind, rows, **options).to_dict()
    return dict(assert_metrics_match(page, kind, report))


def saved_inputs(page):
    return page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('agreekit.input.v1.') && !k.endsWith('.tab'))")


def test_fresh_profile_opens_on_the_box_example_computed(open_page, site, dist_dir, tmp_path):
    page = open_page(site.url)
    assert page.get_attribute("#tab-boxes", "aria-selected") == "true"  # the first tab of the registry
    wait_result(page, "boxes")  # no click: computed as soon as Python is ready
    metrics = assert_example_report(page, "boxes", dist_dir)
    assert "localization.sigma.value" in metrics and "detection.value" in metrics
    assert saved_inputs(page) == []  # the example is not the user's input: nothing saved
    page.screenshot(path=f"{SHOTS}-first-open.png", full_page=False)


def test_other_tabs_fill_and_compute_their_example_when_first_opened(open_page, site, dist_dir):
    page = open_page(site.url)
    wait_result(page, "boxes")
    kinds = page.eval_on_selector_all('[role="tab"]', "tabs => tabs.map(t => t.dataset.kind)")
    for kind in kinds[1:]:
        assert page.input_value(f"#rows-{kind}") == ""  # nothing is filled before the tab is shown
        page.click(f"#tab-{kind}")
        wait_result(page, kind)
        assert_example_report(page, kind, dist_dir)
    assert saved_inputs(page) == []


def test_share_link_wins_over_the_example(open_page, site, dist_dir):
    rows = (dist_dir / "examples" / "boxes-fixed.csv").read_text()
    assert rows != (dist_dir / "examples" / "boxes.csv").read_text()  # not the first example
    options = {"threshold": 0.4, "bootstrap": 200, "seed": 3}
    page = open_page(share_link("boxes", rows, base_url=site.url, **options))
    wait_result(page, "boxes")
    page.wait_for_timeout(500)  # the example, had it been fetched, would have arrived by now
    assert page.input_value("#rows-boxes") == rows
    report = agreekit.report("boxes", rows, **options).to_dict()
    assert sent_options(page, "boxes") == {**registry_defaults("boxes"), **options}
    assert_metrics_match(page, "boxes", report)


def test_share_link_of_another_tab_leaves_the_boxes_example_for_later(open_page, site, dist_dir):
    rows = (dist_dir / "examples" / "segments.csv").read_text()
    page = open_page(share_link("segments", rows, base_url=site.url, bootstrap=50))
    wait_result(page, "segments")
    assert page.input_value("#rows-segments") == rows
    assert page.input_value("#rows-boxes") == ""
    page.click("#tab-boxes")
    wait_result(page, "boxes")
    assert_example_report(page, "boxes", dist_dir)


def test_saved_input_wins_over_the_example(open_page, site, dist_dir):
    own = "item,annotator,x,y,w,h,label\ni1,a,0,0,10,10,car\ni1,b,1,1,10,10,car\ni2,a,5,5,4,4,car\ni2,b,5,5,4,5,car\n"
    page = open_page(site.url)
    wait_result(page, "boxes")
    page.fill("#rows-boxes", own)
    page.click("#tab-spans")
    wait_result(page, "spans")
    page.fill("#rows-spans", "")  # cleared on purpose: stays cleared
    page.click("#tab-boxes")
    page.wait_for_timeout(600)  # the save is debounced
    page.reload()
    assert page.input_value("#rows-boxes") == own
    wait_result(page, "boxes")  # restored, and its report computed again: never rows without their report
    assert_metrics_match(page, "boxes", agreekit.report("boxes", own, **registry_defaults("boxes")).to_dict())
    page.click("#tab-spans")
    page.wait_for_timeout(500)
    assert page.input_value("#rows-spans") == ""
    assert page.get_attribute("#results-spans", "data-state") is None


def test_typing_before_python_is_ready_wins_over_the_example(open_page, site):
    own = "item,annotator,x,y,w,h,label\ni1,a,0,0,10,10,car\n"
    page = open_page(site.url)
    page.fill("#rows-boxes", own)
    wait_ready(page)
    page.wait_for_timeout(1000)
    assert page.input_value("#rows-boxes") == own
    assert page.get_attribute("#results-boxes", "data-state") is None



def test_the_box_example_needs_only_scipys_base_and_segments_install_the_rest(open_page, site, dist_dir):
    """scipy comes in two parts (build.py split_scipy): the first result is shown before the
    sparse part is fetched at all (the page then asks the worker to install it, web/worker.mjs
    "prepare"); a segments report (scipy.sparse) has it and is right."""
    info = json.loads((dist_dir / "build-info.json").read_text())
    requests = []
    page = open_page(site.url)
    page.on("request", lambda request: requests.append(request))
    wait_result(page, "boxes")
    assert_example_report(page, "boxes", dist_dir)
    # The first result's mark (web/app.mjs), in milliseconds since the epoch as the requests' start times.
    shown = page.evaluate("performance.timeOrigin + performance.getEntriesByName('agreekit:result')[0].startTime")
    names = lambda urls: [url.rsplit("/", 1)[-1] for url in urls]  # noqa: E731
    base, sparse = (info["scipy"][part].rsplit("/", 1)[-1] for part in ("base", "sparse"))
    whole = json.loads((dist_dir / "pyodide" / "pyodide-lock.json").read_text())["packages"]["scipy"]["file_name"]
    assert whole != base or info["scipy"]["base"].startswith("wheels/")  # the cut wheel, not Pyodide's
    page.click("#tab-segments")
    wait_result(page, "segments")
    assert_example_report(page, "segments", dist_dir)
    requested = [request.url for request in requests]
    assert not any(url.endswith("pyodide/" + whole) for url in requested)
    # Start times are known once a response is in: read them now, when every request has ended.
    until_result = names(r.url for r in requests if r.timing["startTime"] < shown)
    assert base in until_result and sparse not in until_result, " ".join(until_result)
    assert not any(name.startswith("openblas") for name in until_result), " ".join(until_result)
    assert names(requested).count(sparse) == 1
