"""Browser tests: Debian's chromium driven by pip playwright, the site served from dist/.

Every request to another origin is aborted and fails the test; so does any dialog.
"""
from __future__ import annotations

import json
import math
import sys
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

import agreekit

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # same_report, shared with the CPython tests
import build  # noqa: E402  (the repo's build script: make_server, build)

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LOAD_MS = 90_000      # cold Pyodide + numpy + scipy: ~6 s here; generous for a loaded CI machine
COMPUTE_MS = 120_000

def pytest_collection_modifyitems(config, items):
    if Path(CHROMIUM).exists():
        return
    skip = pytest.mark.skip(reason=f"{CHROMIUM} missing: `python3 build.py test` installs Debian's chromium")
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": ARGS, "headless": True}


@pytest.fixture(scope="session")
def dist_dir():
    if not (build.DIST / "index.html").exists():
        build.build()
    return build.DIST


class Site:
    """A static server for dist/ on 127.0.0.1, on a free port, in a thread."""

    def __init__(self, directory, handler_base=build.SiteHandler, mime_overrides=None):
        self.server = build.make_server(directory, 0, mime_overrides=mime_overrides, handler_base=handler_base)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="session")
def site(dist_dir):
    server = Site(dist_dir)
    yield server
    server.close()


def guard(context, origin):
    """Abort every request that leaves ``origin``; return the list of what was tried."""
    foreign = []

    def handle(route):
        url = route.request.url
        parts = urlsplit(url)
        if url.startswith(("data:", "blob:")) or f"{parts.scheme}://{parts.netloc}" == origin:
            route.continue_()
        else:
            foreign.append(url)
            route.abort()

    context.route("**/*", handle)
    return foreign


@pytest.fixture
def open_page(browser):
    """open_page(url, **context_options) → page in a fresh, guarded context; checks at teardown.

    The page's service worker is blocked unless a test asks for it (``service_workers="allow"``):
    a test that reloads then still talks to the server, as it expects.
    """
    contexts = []

    def opener(url, **options):
        context = browser.new_context(**{"service_workers": "block", **options})
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(url))
        record = {"foreign": guard(context, origin), "dialogs": [], "errors": []}
        page = context.new_page()
        page.on("dialog", lambda d: (record["dialogs"].append(d.message), d.dismiss()))
        page.on("pageerror", lambda e: record["errors"].append(str(e)))
        page.record = record
        contexts.append((context, record))
        page.goto(url)
        return page

    yield opener
    for context, record in contexts:
        context.close()
    for _, record in contexts:
        assert record["foreign"] == [], f"requests left the local origin: {record['foreign']}"
        assert record["dialogs"] == [], f"a dialog opened: {record['dialogs']}"
        assert record["errors"] == [], f"uncaught page errors: {record['errors']}"


@pytest.fixture(scope="module")
def module_page(browser, site):
    """One guarded page for a whole test module: Python loads once, the first-open example computed.

    Cold starts are the start-up tests' subject (test_start_up, test_first_open, test_offline);
    elsewhere a test takes ``warm_page``, this page set back to a known state.
    """
    context = browser.new_context(service_workers="block")
    record = {"foreign": guard(context, "{0.scheme}://{0.netloc}".format(urlsplit(site.url))),
              "dialogs": [], "errors": []}
    page = context.new_page()
    page.on("dialog", lambda d: (record["dialogs"].append(d.message), d.dismiss()))
    page.on("pageerror", lambda e: record["errors"].append(str(e)))
    page.record = record
    page.goto(site.url)
    wait_ready(page)
    page.wait_for_selector('#results-boxes[data-state="done"]', state="attached", timeout=COMPUTE_MS)
    yield page
    context.close()


@pytest.fixture
def warm_page(module_page):
    """The module's page, its item views closed and on the Boxes tab; checked after the test as
    ``open_page``'s pages are (no foreign request, dialog or page error during the test).

    The forms keep what earlier tests of the module put in them: a test that reads the options
    the page sends must set them itself (or open a page of its own).
    """
    page = module_page
    page.evaluate("() => document.querySelectorAll('dialog[open]').forEach((d) => d.close())")
    page.click("#tab-boxes")
    for found in page.record.values():
        found.clear()
    yield page
    record = page.record
    assert record["foreign"] == [], f"requests left the local origin: {record['foreign']}"
    assert record["dialogs"] == [], f"a dialog opened: {record['dialogs']}"
    assert record["errors"] == [], f"uncaught page errors: {record['errors']}"


def wait_ready(page):
    page.wait_for_selector('#status[data-state="ready"]', timeout=LOAD_MS)


def wait_result(page, kind, state="done"):
    """Wait until the tab's report run ends; fail with the page's error text if it ended otherwise."""
    finished = ", ".join(f'#results-{kind}[data-state="{s}"]' for s in ("done", "error", "cancelled"))
    page.wait_for_selector(finished, state="attached", timeout=COMPUTE_MS)
    ended = page.get_attribute(f"#results-{kind}", "data-state")
    if ended != state:
        error = page.locator(f"#error-{kind}")
        text = error.inner_text() if error.is_visible() else ""
        pytest.fail(f"report run ended {ended!r}, expected {state!r}: {text}")


ITEM_VIEW = "#results-{kind} dialog.item-view"  # a tab's item view (web/item_view.mjs)


def wait_view(page, kind, index):
    """Wait until ``kind``'s item view shows row ``index`` of its items table; the item's id."""
    view = ITEM_VIEW.format(kind=kind)
    page.wait_for_selector(f'{view}[data-state="shown"][data-index="{index}"]')
    return page.get_attribute(view, "data-item")


def close_view(page, kind):
    page.keyboard.press("Escape")
    page.wait_for_function(f"() => !document.querySelector('{ITEM_VIEW.format(kind=kind)}').open")


def page_metrics(page, kind):
    """[(dotted key, value or None)] for every numeric result element of a tab."""
    pairs = page.eval_on_selector_all(
        f"#results-{kind} [data-metric]", "els => els.map(e => [e.dataset.metric, e.dataset.value])")
    return [(key, None if value == "null" else float(value)) for key, value in pairs]


def lookup(report, key):
    value = report
    for part in key.split("."):
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def assert_metrics_match(page, kind, report, minimum=10):
    """Every data-value on the page equals the CPython report's value at its key, to 1e-12."""
    metrics = page_metrics(page, kind)
    assert len(metrics) >= minimum, f"only {len(metrics)} numeric elements on the page"
    mismatches = []
    for key, shown in metrics:
        expected = lookup(report, key)
        if isinstance(expected, bool):
            expected = float(expected)
        if expected is None or shown is None:
            ok = expected is None and shown is None
        else:
            ok = math.isclose(shown, expected, rel_tol=1e-12, abs_tol=1e-12)
        if not ok:
            mismatches.append((key, shown, expected))
    assert not mismatches, f"{len(mismatches)} page values differ from CPython: {mismatches[:10]}"
    return metrics


def registry_defaults(kind):
    """The options the page's form sends untouched: the registry's defaults that are not None."""
    defaults = agreekit.KINDS[kind].defaults()
    return {name: list(value) if isinstance(value, tuple) else value
            for name, value in defaults.items() if value is not None}


def assert_undefined_estimates_show_reasons(page, kind, report):
    """Each undefined estimate on the page (headline, table cell, chart gap) shows its reason beside it.

    Returns how many were checked (the "all report values" list, folded away, is not counted).
    """
    shown = page.eval_on_selector_all(
        f'#results-{kind} [data-metric$=".value"][data-value="null"]',
        "els => els.filter(e => !e.closest('.all-values')).map(e => [e.dataset.metric, "
        "(e.closest('.estimate, td, li') || e.parentElement).innerText])")
    for key, text in shown:
        reason = lookup(report, key[:-len(".value")])["reason"]
        assert reason and reason in text, (key, reason, text)
    return len(shown)


def sent_options(page, kind):
    """The options the page sent with its last report (recorded on the results element)."""
    return json.loads(page.get_attribute(f"#results-{kind}", "data-options"))


def paste(page, kind, rows, field="rows", show=True, **options):
    """Put ``rows`` into a tab's paste area (or another textarea ``field``) as one paste.

    One input event, as a paste makes: typing 500 kB through fill() would take minutes. Returns
    once the page has drawn a frame with it: Chromium lays out all of a textarea's text (seconds
    for megabytes), which must not count as the page's own work afterwards. With ``show=False``
    the tab is not selected, and a hidden textarea is not laid out at all.
    """
    if show:
        page.click(f"#tab-{kind}")
    page.eval_on_selector(f'form[data-kind="{kind}"] [name="{field}"]', """(area, text) => {
        area.value = text; area.dispatchEvent(new Event("input", {bubbles: true})); }""", rows)
    for name, value in options.items():
        page.fill(f'form[data-kind="{kind}"] [name="{name}"]', str(value))
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => setTimeout(done, 0)))")


WATCH = """() => {
    const w = window.__watch = {longTasks: [], progress: []};
    new PerformanceObserver(list => w.longTasks.push(...list.getEntries().map(
        e => ({start: e.startTime, duration: e.duration})))).observe({type: "longtask", buffered: false});
    const text = document.querySelector("#progress-text"), bar = document.querySelector("#progress-bar");
    new MutationObserver(() => w.progress.push({at: performance.now(), text: text.textContent,
                                                value: bar.hasAttribute("value") ? bar.value : null, max: bar.max}))
        .observe(text, {childList: true, characterData: true, subtree: true});
}"""


def watch(page):
    """Record main-thread long tasks and every progress text from now on; returns the page's clock."""
    page.evaluate(WATCH)
    return page.evaluate("performance.now()")


def watched(page, since):
    """(long tasks, progress updates) recorded by watch() since the page time ``since``."""
    record = page.evaluate("window.__watch")
    return ([t for t in record["longTasks"] if t["start"] >= since],
            [p for p in record["progress"] if p["at"] >= since])


def rows_of(page, kind):
    """A tab's rows as the page uses them: the paste box's text, or the input it holds when large."""
    return page.evaluate("kind => window.agreekit.rows(kind)", kind)


def compute_tab(page, kind, rows, **fields):
    """Once the first-open example is done, put ``rows`` (and each ``field``'s text) in the kind's tab,
    compute, and wait for the report."""
    wait_ready(page)
    page.wait_for_selector("#results-boxes[data-state='done']", state="attached")  # the first-open example
    paste(page, kind, rows)
    for field, text in fields.items():
        paste(page, kind, text, field=field)
    page.click(f'form[data-kind="{kind}"] button[type="submit"]')
    wait_result(page, kind)
