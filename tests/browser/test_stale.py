"""No number from a previous input looks current: every change of input marks the report stale at
once (dimmed, a banner, data-stale="true") until a new report replaces it; an error replaces it
with the error; a reload restores the rows and computes their report again (issue 26)."""
from __future__ import annotations

import agreekit
from agreekit.simulate import crowd_corpus, to_csv

from conftest import assert_metrics_match, paste, wait_ready, wait_result

RESULTS = "#results-boxes"
OWN = ("item,annotator,x,y,w,h,label\ni1,a,0,0,10,10,car\ni1,b,1,1,10,10,car\n"
       "i2,a,5,5,4,4,car\ni2,b,5,5,4,5,car\ni3,a,2,2,6,6,car\ni3,b,2,3,6,6,car\n")


def stale(page, kind="boxes"):
    return page.get_attribute(f"#results-{kind}", "data-stale")


def banner(page, kind="boxes"):
    return page.inner_text(f"#results-{kind} > .stale-banner")


def fresh_report(page, kind="boxes"):
    """Compute the tab as it stands and wait for its report (not stale)."""
    page.click(f'form[data-kind="{kind}"] button[type="submit"]')
    wait_result(page, kind)
    assert stale(page, kind) == "false"
    assert page.locator(f"#results-{kind} > .stale-banner").count() == 0


def record_stale(page, kind="boxes"):
    """From now on, record every value data-stale takes on the tab's results (window.__stale)."""
    page.evaluate("""kind => {
        const box = document.querySelector(`#results-${kind}`);
        window.__stale = [];
        new MutationObserver(() => window.__stale.push(box.dataset.stale))
            .observe(box, {attributes: true, attributeFilter: ["data-stale"]});
    }""", kind)


def test_a_paste_marks_the_report_stale_until_compute_replaces_it(warm_page):
    page = warm_page
    wait_ready(page)
    paste(page, "boxes", OWN, bootstrap=50)
    fresh_report(page)
    paste(page, "boxes", OWN.replace("i3,b,2,3", "i3,b,4,4"))
    assert stale(page) == "true"
    assert banner(page) == "This report is for the previous input — press Compute."
    # the old numbers are still there, but dimmed
    opacity = page.eval_on_selector(f"{RESULTS} > .results-head", "e => Number(getComputedStyle(e).opacity)")
    assert opacity < 0.6
    page.click('form[data-kind="boxes"] button[type="submit"]')
    assert banner(page) == "This report is for the previous input — computing…"
    wait_result(page, "boxes")
    assert stale(page) == "false"
    report = agreekit.report("boxes", OWN.replace("i3,b,2,3", "i3,b,4,4"), bootstrap=50).to_dict()
    assert_metrics_match(page, "boxes", report)


def test_an_option_change_marks_the_report_stale(warm_page):
    page = warm_page
    wait_ready(page)
    paste(page, "boxes", OWN, bootstrap=50)
    fresh_report(page)
    page.select_option('form[data-kind="boxes"] [name="distance"]', "iou")
    assert stale(page) == "true"
    page.select_option('form[data-kind="boxes"] [name="distance"]', "giou")


def test_a_parse_error_replaces_the_report_with_the_error(warm_page):
    page = warm_page
    wait_ready(page)
    paste(page, "boxes", OWN, bootstrap=50)
    fresh_report(page)
    paste(page, "boxes", OWN.replace("i2,a,5,5", "i2,a,abc,5"))
    assert stale(page) == "true"
    page.click('form[data-kind="boxes"] button[type="submit"]')
    wait_result(page, "boxes", state="error")
    assert page.locator(f"{RESULTS} [data-metric]").count() == 0  # no number of the old report is left
    assert "No report" in page.inner_text(f"{RESULTS} .results-error")
    assert "'abc' is not a number" in page.inner_text("#error-boxes")  # the value, named


def test_a_failed_import_replaces_the_report_with_its_error(warm_page, tmp_path):
    page = warm_page
    wait_ready(page)
    paste(page, "boxes", OWN, bootstrap=50)
    fresh_report(page)
    record_stale(page)
    broken = tmp_path / "export.json"
    broken.write_text('{"images": [}')
    page.set_input_files('form[data-kind="boxes"] input[name="file"]', str(broken))
    page.wait_for_selector(f'{RESULTS}[data-state="error"]', state="attached")
    assert page.evaluate("window.__stale")[0] == "true"  # stale from the import's start
    assert page.locator(f"{RESULTS} [data-metric]").count() == 0
    assert "the import failed" in page.inner_text(f"{RESULTS} .results-error")
    assert page.input_value("#rows-boxes") == OWN  # the rows are as they were


def test_opening_a_csv_marks_the_report_stale(warm_page, tmp_path):
    page = warm_page
    wait_ready(page)
    paste(page, "boxes", OWN, bootstrap=50)
    fresh_report(page)
    table = tmp_path / "more.csv"
    table.write_text(OWN.replace("i1,b,1,1", "i1,b,3,3"))
    page.set_input_files('form[data-kind="boxes"] input[name="file"]', str(table))
    page.wait_for_function("() => document.querySelector('#rows-boxes').value.includes('i1,b,3,3')")
    assert stale(page) == "true"
    page.wait_for_timeout(500)  # the worker's look at the file: still no report for it
    assert stale(page) == "true" and "press Compute" in banner(page)
    fresh_report(page)


def test_a_cancelled_run_leaves_the_report_stale(open_page, site):
    page = open_page(site.url)
    wait_result(page, "boxes")  # the example on first open
    shown = page.eval_on_selector_all(f"{RESULTS} [data-metric]", "els => els.map(e => e.dataset.value)")
    paste(page, "boxes", to_csv(crowd_corpus()))
    page.click('form[data-kind="boxes"] button[type="submit"]')
    page.wait_for_selector("#progress", state="visible")
    assert "computing" in banner(page)
    page.click("#cancel")
    wait_result(page, "boxes", state="cancelled")
    assert stale(page) == "true"
    assert "cancelled" in banner(page)
    # the example's numbers, still shown, are the old ones, dimmed under the banner
    assert page.eval_on_selector_all(f"{RESULTS} [data-metric]", "els => els.map(e => e.dataset.value)") == shown


def test_a_reload_restores_the_rows_and_computes_their_report(open_page, site):
    page = open_page(site.url)
    wait_result(page, "boxes")
    paste(page, "boxes", OWN, bootstrap=50)
    page.wait_for_timeout(600)  # the save is debounced
    page.reload()
    assert page.input_value("#rows-boxes") == OWN
    wait_result(page, "boxes")
    assert stale(page) == "false"
    report = agreekit.report("boxes", OWN, bootstrap=50).to_dict()
    assert_metrics_match(page, "boxes", report)


def test_every_bad_row_is_listed_with_its_value(warm_page):
    """Errors that help (issue 26): each names its line, column and value; all are shown (the first 20, with a count)."""
    page = warm_page
    wait_ready(page)
    bad = {3, 5, 8} | set(range(10, 32))  # 25 lines with a value that is not a number
    lines = ["item,annotator,x,y,w,h,label"]
    for line in range(2, 40):
        x = f"x{line}" if line in bad else str(line)
        lines.append(f"i{line},a,{x},0,1,1,car")
    paste(page, "boxes", "\n".join(lines) + "\n")
    page.click('form[data-kind="boxes"] button[type="submit"]')
    wait_result(page, "boxes", state="error")
    assert page.get_attribute("#error-boxes", "data-count") == "25"
    assert "25 errors in the input (the first 20 are listed)" in page.inner_text("#error-boxes")
    items = page.eval_on_selector_all("#error-boxes .error-list li", "els => els.map(e => e.firstChild.textContent + e.childNodes[1].textContent)")
    assert len(items) == 20
    assert items[0] == "Line 3, column \"x\": 'x3' is not a number"
    assert items[19] == "Line 26, column \"x\": 'x26' is not a number"
    assert "25 errors" in page.inner_text(f"{RESULTS} .results-error")
    # "Go to line" selects the line it names
    page.locator("#error-boxes .error-list li").nth(2).get_by_role("button", name="Go to line").click()
    selected = page.eval_on_selector("#rows-boxes", "a => a.value.slice(a.selectionStart, a.selectionEnd)")
    assert selected == "i8,a,x8,0,1,1,car"


def test_an_option_error_names_the_option_by_its_label(warm_page):
    page = warm_page
    wait_ready(page)
    paste(page, "boxes", OWN, threshold=7)
    page.click('form[data-kind="boxes"] button[type="submit"]')
    wait_result(page, "boxes", state="error")
    label = page.get_attribute('form[data-kind="boxes"] [name="threshold"]', "data-label")
    assert page.inner_text("#error-boxes").strip() == f"{label}: must be a number from 0 to 1, got 7"
    page.fill('form[data-kind="boxes"] [name="threshold"]', "0.5")
