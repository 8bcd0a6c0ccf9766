"""The workshop page (workshop.html) in real headless Chromium, served with COOP/COEP, against CPython.

One page is opened for the module (Pyodide with numpy, scipy and matplotlib takes a while to start);
every lesson cell runs there, offline (a request off the origin aborts and fails the module), and the
numbers each prints (``name = value`` lines) equal those of the same code run in CPython, to 1e-12.
"""
from __future__ import annotations

import json
import math
import re
import subprocess
import sys
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from conftest import LOAD_MS, ROOT, Site, build, guard, wait_ready

CELLS = ROOT / "web" / "workshop" / "cells"
LESSONS = ["raw-iou", "threshold", "ks", "spans", "segments", "traces", "bootstrap", "kappa"]
WORKSHOP_LOAD_MS = 300_000  # Pyodide + numpy + scipy + matplotlib (its font cache): ~20 s idle, far more when busy
CELL_MS = 180_000
NUMBER_LINE = re.compile(r"^(\S+) = (None|-?(?:\d[\d.]*(?:e[+-]?\d+)?|inf|nan))$")


def cell_code(name):
    return (CELLS / f"{name}.py").read_text(encoding="utf-8").strip()


def numbers(output):
    """[(name, float or None)] of the ``name = value`` lines a cell printed (workshop.note)."""
    found = [NUMBER_LINE.match(line.strip()) for line in output.splitlines()]
    return [(m[1], None if m[2] == "None" else float(m[2])) for m in found if m]


# --------------------------------------------------------------------------- CPython side

STUB_AND_RUN = r"""
import contextlib, io, json, os, sys, types

class Anything:  # matplotlib stand-in: plotting does not change a printed number
    def __getattr__(self, name): return Anything()
    def __call__(self, *args, **kwargs): return Anything()
    def __getitem__(self, key): return Anything()

def subplots(nrows=1, ncols=1, **kwargs):
    return Anything(), (Anything() if nrows * ncols == 1 else [Anything() for _ in range(nrows * ncols)])

matplotlib = types.ModuleType("matplotlib"); matplotlib.__version__ = "stub"; matplotlib.use = lambda *a, **k: None
pyplot = types.ModuleType("matplotlib.pyplot"); pyplot.subplots = subplots; pyplot.close = lambda *a: None
matplotlib.pyplot = pyplot
sys.modules.update({"matplotlib": matplotlib, "matplotlib.pyplot": pyplot})
job = json.load(sys.stdin)
sys.path.insert(0, job["helpers"])
os.chdir(job["dist"])
namespace, outputs = {}, {}
for name, code in job["cells"]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, name, "exec"), namespace)
    outputs[name] = out.getvalue()
json.dump(outputs, sys.stdout)
"""


def run_in_cpython(names, dist_dir):
    """{cell name: stdout} of the cells run in order in one namespace (as the page's one env), in CPython."""
    job = {"helpers": str(ROOT / "web" / "workshop"), "dist": str(dist_dir),
           "cells": [(name, cell_code(name)) for name in names]}
    result = subprocess.run([sys.executable, "-c", STUB_AND_RUN], input=json.dumps(job), capture_output=True,
                            text=True, env={"PYTHONPATH": str(ROOT / "pycore"), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def cpython(dist_dir):
    names = ["setup"] + [f"{lesson}-{part}" for lesson in LESSONS for part in ("run", "exercise", "solution")]
    return run_in_cpython(names, dist_dir)


# --------------------------------------------------------------------------- the page

@pytest.fixture(scope="module")
def workshop(browser, site):
    """The workshop page, Python ready, in one guarded context for the module; checked at teardown."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    foreign = guard(context, site.url.rstrip("/"))
    page = context.new_page()
    errors, dialogs = [], []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(site.url + "workshop.html")
    page.wait_for_selector('#ws-status[data-state="ready"]', timeout=WORKSHOP_LOAD_MS)
    page.wait_for_selector('body[data-cells="mounted"]', timeout=LOAD_MS)
    page.ran = set()
    yield page
    context.close()
    assert foreign == [], f"requests left the local origin: {foreign}"
    assert dialogs == [] and errors == [], (dialogs, errors)


def set_code(page, name, code):
    page.evaluate("([name, code]) => { document.querySelector(`script[data-cell='${name}']`).code = code; }",
                  [name, code])


def get_code(page, name):
    return page.evaluate("name => document.querySelector(`script[data-cell='${name}']`).code", name)


def run_cell(page, name):
    """Click the cell's run button and wait for its end; (state, output text)."""
    box = page.locator(f'.cell[data-cell="{name}"]')
    runs = int(box.get_attribute("data-runs") or 0)
    box.locator(".py-editor-run-button").click()
    page.wait_for_function(
        "([name, runs]) => Number(document.querySelector(`.cell[data-cell='${name}']`).dataset.runs || 0) > runs",
        arg=[name, runs], timeout=CELL_MS)
    getattr(page, "ran", set()).add(name)  # the module page remembers which cells ran
    return box.get_attribute("data-state"), box.locator(".py-editor-output").inner_text()


def assert_same_numbers(shown, expected, minimum):
    assert len(shown) >= minimum, f"only {len(shown)} numbers printed: {shown}"
    assert [name for name, _ in shown] == [name for name, _ in expected]
    for (name, a), (_, b) in zip(shown, expected):
        assert (a is None and b is None) or (a is not None and b is not None and math.isclose(
            a, b, rel_tol=1e-12, abs_tol=1e-12)), (name, a, b)


def test_python_starts_with_the_pinned_versions(workshop):
    status = workshop.inner_text("#ws-status")
    for version in ("python 3.12.7", "agreekit 0.1.0", "numpy 2.0.2", "matplotlib 3.8.4"):
        assert version in status
    assert workshop.evaluate("crossOriginIsolated") is True
    assert workshop.locator("#isolation").is_hidden()


def cell_state(page, name):
    return page.locator(f'.cell[data-cell="{name}"] .cell-state').inner_text()


def test_an_exercise_run_before_its_example_says_the_example_has_not_run(workshop):
    """Issue 26: the exercise's NameError is said in words, naming the example above it that has not run yet;
    once the example has run, a NameError of the cell's own is not blamed on it. (Before the lessons run: this
    module's page runs every example later.)"""
    example, exercise = "kappa-run", "kappa-exercise"
    assert workshop.locator(f'.cell[data-cell="{example}"]').get_attribute("data-runs") is None, "ran already"
    state, output = run_cell(workshop, exercise)
    assert state == "error" and "NameError" in output, output
    said = cell_state(workshop, exercise)
    assert f"“{example}” defines, which has not run yet. Run it first." in said, said
    assert run_cell(workshop, example)[0] == "done"
    set_code(workshop, exercise, "print(a_name_no_cell_defines)")
    state, output = run_cell(workshop, exercise)
    assert state == "error" and "NameError" in output, output
    assert cell_state(workshop, exercise) == "stopped with an error (in red below)"
    workshop.locator(f'.cell[data-cell="{exercise}"] [data-action="reset"]').click()
    assert get_code(workshop, exercise) == cell_code(exercise)


@pytest.mark.parametrize("lesson", LESSONS)
def test_lesson_cell_runs_offline_plots_and_matches_cpython(workshop, cpython, lesson):
    name = f"{lesson}-run"
    assert get_code(workshop, name) == cell_code(name)  # the page runs the repo's cell
    state, output = run_cell(workshop, name)
    assert state == "done", output
    assert_same_numbers(numbers(output), numbers(cpython[name]), minimum=4)
    images = workshop.locator(f"#figure-{name} img")
    assert images.count() == 1
    assert images.first.get_attribute("src").startswith("data:image/png;base64,")
    width = workshop.evaluate(f"document.querySelector('#figure-{name} img').naturalWidth")
    assert width > 300, "the figure is not a real PNG"


@pytest.mark.parametrize("lesson", LESSONS)
def test_exercise_check_fails_with_starting_code_and_passes_with_solution(workshop, cpython, lesson):
    if f"{lesson}-run" not in workshop.ran:
        assert run_cell(workshop, f"{lesson}-run")[0] == "done"
    exercise = f"{lesson}-exercise"
    state, output = run_cell(workshop, exercise)
    assert state == "done" and f"CHECK {lesson}: not yet" in output, output
    assert f"CHECK {lesson}: not yet" in cpython[exercise]
    details = workshop.locator(f'details.solution[data-for="{exercise}"]')
    details.locator("summary").click()
    assert details.locator("pre").inner_text().strip() == cell_code(f"{lesson}-solution")
    details.locator("button").click()  # "Put this solution in the exercise cell"
    assert get_code(workshop, exercise) == cell_code(f"{lesson}-solution")
    state, output = run_cell(workshop, exercise)
    assert state == "done" and f"CHECK {lesson}: PASS" in output, output
    assert f"CHECK {lesson}: PASS" in cpython[f"{lesson}-solution"]
    assert output.strip() == cpython[f"{lesson}-solution"].strip()


def test_an_error_in_a_cell_is_shown_in_red(workshop):
    name = "raw-iou-exercise"
    set_code(workshop, name, "1 / 0")
    state, output = run_cell(workshop, name)
    assert state == "error" and "ZeroDivisionError" in output
    workshop.locator(f'.cell[data-cell="{name}"] [data-action="reset"]').click()
    assert get_code(workshop, name) == cell_code(name)


def wait_runs(page, name, runs):
    page.wait_for_function(
        "([name, runs]) => Number(document.querySelector(`.cell[data-cell='${name}']`).dataset.runs || 0) > runs",
        arg=[name, runs], timeout=CELL_MS)


@pytest.mark.parametrize("keys", ["Control+Enter", "Shift+Enter"])
def test_ctrl_and_shift_enter_run_the_cell(workshop, keys):
    """The shortcut runs the cell (issue 26: the editor's keymap used to insert a line instead)."""
    name = "ks-exercise"
    code = f"print('keyboard', 6 * 7, {keys!r})"
    set_code(workshop, name, code)
    box = workshop.locator(f'.cell[data-cell="{name}"]')
    runs = int(box.get_attribute("data-runs") or 0)
    box.locator(".cm-content").click()
    workshop.keyboard.press(keys)
    wait_runs(workshop, name, runs)
    assert f"keyboard 42 {keys}" in box.locator(".py-editor-output").inner_text()
    assert get_code(workshop, name) == code  # no line break typed into the cell
    box.locator('[data-action="reset"]').click()


def test_a_cell_started_while_its_lessons_example_runs_waits_for_it(workshop):
    """Clicked in quick succession, the exercise waits for the example that defines its names."""
    example, exercise = "threshold-run", "threshold-exercise"
    set_code(workshop, example, "import time\ntime.sleep(1.5)\nlate_name = 41")
    set_code(workshop, exercise, "print('late', late_name + 1)")
    boxes = {name: workshop.locator(f'.cell[data-cell="{name}"]') for name in (example, exercise)}
    runs = {name: int(box.get_attribute("data-runs") or 0) for name, box in boxes.items()}
    boxes[example].locator(".py-editor-run-button").click()
    boxes[exercise].locator(".py-editor-run-button").click()
    assert boxes[exercise].get_attribute("data-state") == "waiting"
    assert "waiting for “threshold-run”" in boxes[exercise].locator(".cell-state").inner_text()
    wait_runs(workshop, exercise, runs[exercise])
    assert int(boxes[example].get_attribute("data-runs")) == runs[example] + 1
    output = boxes[exercise].locator(".py-editor-output").inner_text()
    assert "late 42" in output and "NameError" not in output
    assert boxes[exercise].get_attribute("data-state") == "done"
    for box in boxes.values():
        box.locator('[data-action="reset"]').click()


def test_the_pages_isolation_message_for_a_lan_address(workshop):
    problem = workshop.evaluate("""() => window.agreekitWorkshop.isolationProblem({
        crossOriginIsolated: false, isSecureContext: false,
        location: {protocol: "http:", origin: "http://192.168.1.20:8000"}})""")
    assert "secure context" in problem["what"] and "192.168.1.20" in problem["what"]
    assert "localhost" in problem["fix"] and "HTTPS" in problem["fix"]


# --------------------------------------------------------------------------- teacher features

STORE = "agreekit.workshop.v1."


def stored(page, name):
    return page.evaluate("key => localStorage.getItem(key)", STORE + name)


def test_edits_are_saved_in_this_browser_and_reset_forgets_them(workshop):
    name = "ks-exercise"
    edited = cell_code(name).replace("share_worst = None", "share_worst = 0.5")
    set_code(workshop, name, edited)
    workshop.wait_for_function("key => localStorage.getItem(key) !== null", arg=STORE + name, timeout=10_000)
    assert json.loads(stored(workshop, name))["code"] == edited
    workshop.locator(f'.cell[data-cell="{name}"] [data-action="reset"]').click()
    assert get_code(workshop, name) == cell_code(name)
    assert stored(workshop, name) is None


def fresh_page(browser, site):
    context = browser.new_context()
    foreign = guard(context, site.url.rstrip("/"))
    return context, foreign, context.new_page()


def test_the_next_visit_offers_the_edits_back(browser, site):
    context, foreign, page = fresh_page(browser, site)
    name = "ks-exercise"
    edited = cell_code(name).replace("share_worst = None", "share_worst = 0.5")
    page.goto(site.url + "workshop.html")
    page.evaluate("([key, code]) => localStorage.setItem(key, JSON.stringify({code, time: Date.now()}))",
                  [STORE + name, edited])  # as an earlier visit left it
    page.reload()
    page.wait_for_selector("#restore:not([hidden])", timeout=10_000)
    assert "You changed 1 cell here before" in page.inner_text("#restore-text")
    page.click("#restore-yes")
    assert page.locator("#restore").is_hidden()
    page.wait_for_selector('body[data-cells="mounted"]', timeout=WORKSHOP_LOAD_MS)
    assert get_code(page, name) == edited
    assert get_code(page, "ks-run") == cell_code("ks-run")
    page.reload()
    page.wait_for_selector("#restore:not([hidden])", timeout=10_000)
    page.click("#restore-no")  # start from the lesson code: the edit is forgotten
    assert stored(page, name) is None
    context.close()
    assert foreign == []


def test_a_lesson_share_link_carries_its_cells(workshop, browser, site):
    prepared = cell_code("segments-run").replace("bootstrap=200", "bootstrap=50")
    set_code(workshop, "segments-run", prepared)
    exercise = get_code(workshop, "segments-exercise")  # as the teacher left it (earlier tests: the solution)
    section = workshop.locator("section#segments")
    section.locator(".share-lesson button").click()
    workshop.wait_for_function("() => document.querySelector('#segments .share-link').value !== ''")
    link = section.locator(".share-link").input_value()
    assert re.fullmatch(re.escape(site.url) + r"workshop\.html#w1/segments/[A-Za-z0-9_-]+", link), link
    workshop.locator('.cell[data-cell="segments-run"] [data-action="reset"]').click()

    context, foreign, attendee = fresh_page(browser, site)  # no localStorage: the link alone carries the code
    attendee.goto(link)
    note = attendee.locator("#shared-note")
    note.wait_for(state="visible")
    assert "Segments" in note.inner_text()
    assert attendee.locator("#restore").is_hidden()
    assert json.loads(stored(attendee, "segments-run"))["code"] == prepared  # a reload keeps the teacher's code
    attendee.wait_for_selector('body[data-cells="mounted"]', timeout=WORKSHOP_LOAD_MS)
    assert get_code(attendee, "segments-run") == prepared
    assert get_code(attendee, "segments-exercise") == exercise
    assert get_code(attendee, "traces-run") == cell_code("traces-run")
    attendee.wait_for_selector('#ws-status[data-state="ready"]', timeout=WORKSHOP_LOAD_MS)
    state, output = run_cell(attendee, "segments-run")
    assert state == "done" and "f1@0.1 = " in output

    attendee.goto("about:blank")
    attendee.goto(link.split("#")[0] + "#w1/segments/" + "x" * 12)  # a damaged payload
    note.wait_for(state="visible")
    assert "could not be read" in note.inner_text()
    context.close()
    assert foreign == []


# --------------------------------------------------------------------------- isolation, and the calculator

class NotIsolatedHandler(build.SiteHandler):
    isolate = False


@pytest.fixture(scope="module")
def plain_site(dist_dir):
    server = Site(dist_dir, handler_base=NotIsolatedHandler)
    yield server
    server.close()


def test_a_server_without_the_headers_gets_a_plain_explanation(open_page, plain_site):
    page = open_page(plain_site.url + "workshop.html")
    page.wait_for_selector('#ws-status[data-state="not-isolated"]', timeout=LOAD_MS)
    assert page.evaluate("crossOriginIsolated") is False
    message = page.locator("#isolation")
    assert message.is_visible()
    text = message.inner_text()
    assert "Cross-Origin-Opener-Policy: same-origin" in text and "Cross-Origin-Embedder-Policy: require-corp" in text
    assert "python3 build.py serve" in text
    assert message.locator('a[href="index.html"]').count() == 1
    assert page.locator(".cell-placeholder").count() >= 14  # the code can still be read
    page.wait_for_timeout(1000)
    loaded = page.evaluate("performance.getEntriesByType('resource').map(entry => entry.name)")
    assert any(url.endswith("/web/workshop/workshop.mjs") for url in loaded), loaded
    assert not [url for url in loaded if "/pyscript/core.js" in url or "/pyodide/" in url], loaded


def test_every_response_carries_the_isolation_headers(site):
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    for path in ("index.html", "workshop.html", "web/worker.mjs", "pyodide/pyodide.asm.wasm", "pyscript/core.js"):
        with direct.open(site.url + path) as response:
            assert response.headers["Cross-Origin-Opener-Policy"] == "same-origin", path
            assert response.headers["Cross-Origin-Embedder-Policy"] == "require-corp", path


def test_scipy_that_does_not_install_is_said_at_once(browser, site, dist_dir):
    """A failed download of scipy's other parts (workshop.py install_scipy_parts) ends the start-up with
    its reason, not with "loading" until the five-minute timeout."""
    rest = json.loads((dist_dir / "build-info.json").read_text())["scipy_rest"]
    context, foreign, page = fresh_page(browser, site)
    context.route(f"**/{rest}", lambda route: route.abort())
    page.goto(site.url + "workshop.html")
    page.wait_for_selector('#ws-status[data-state="failed"]', timeout=WORKSHOP_LOAD_MS)
    text = page.inner_text("#ws-status")
    assert "Python started, but scipy did not install" in text and "scipy.stats missing" in text, text
    context.close()
    assert foreign == []


def test_the_calculator_is_isolated_and_does_not_load_matplotlib(browser, site):
    context, foreign, page = fresh_page(browser, site)
    requested = []

    def record(route):  # runs before the guard (routes registered later run first), worker requests too
        # Not the service worker's: once Python is ready it caches the calculator's files for offline
        # use (buildtools/precache.py); that is after start-up, and no part of it.
        if route.request.service_worker is None:
            requested.append(urlsplit(route.request.url).path)
        route.fallback()

    context.route("**/*", record)
    page.goto(site.url)
    wait_ready(page)
    assert page.evaluate("crossOriginIsolated") is True
    assert page.locator('header a[href="workshop.html"]').count() == 1
    assert any(path.endswith("/scipy-1.14.1-cp312-cp312-pyodide_2024_0_wasm32.whl") for path in requested), requested
    assert not [path for path in requested if "matplotlib" in path or "/pyscript/" in path], requested
    context.close()
    assert foreign == []
