"""Offline after the first visit (web/sw.js): cache-first from the build's own cache, and a new build announced.

These tests allow the service worker (open_page blocks it for every other test) and serve the site
from a server of their own, so no worker or cache outlives them.
"""
from __future__ import annotations

import json
import shutil

import pytest

import agreekit
import build
from agreekit.share import share_link

from conftest import Site, assert_metrics_match, registry_defaults, sent_options, wait_ready, wait_result

SHOTS = "/tmp/agreekit-shots"
REBUILT = '<p id="rebuilt">a later build</p>'


@pytest.fixture
def live(tmp_path, dist_dir):
    """A server for tmp_path/live, a link that a test may point at another build: same origin, same port."""
    link = tmp_path / "live"
    link.symlink_to(dist_dir, target_is_directory=True)
    site = Site(link)
    site.link = link
    yield site
    site.close()


def rebuilt_copy(dist_dir, folder):
    """dist/ with one change to its page: a new build with a new hash (build-info.json, sw.js)."""
    shutil.copytree(dist_dir, folder, symlinks=True)
    page = folder / "index.html"
    page.write_text(page.read_text(encoding="utf-8").replace("</footer>", REBUILT + "</footer>"), encoding="utf-8")
    info = json.loads((folder / "build-info.json").read_text())
    info.pop("build")
    return build.stamp_build(folder, info)


def built_version(dist_dir):
    return json.loads((dist_dir / "build-info.json").read_text())["build"]


def visit_and_keep(open_page, site):
    """The first visit: the example computes, then the service worker has cached the build."""
    page = open_page(site.url, service_workers="allow")
    wait_result(page, "boxes")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    return page


def served(page, path):
    return page.evaluate("path => fetch(path).then(r => r.text())", path)


def cache_names(page):
    return sorted(page.evaluate("caches.keys()"))


def assert_box_example_matches_cpython(page, dist_dir):
    rows = (dist_dir / "examples" / "boxes.csv").read_text()
    assert page.input_value("#rows-boxes") == rows
    assert sent_options(page, "boxes") == registry_defaults("boxes")
    metrics = dict(assert_metrics_match(page, "boxes", agreekit.report("boxes", rows).to_dict()))
    assert "localization.sigma.value" in metrics


def test_second_visit_works_with_the_network_off(open_page, live, dist_dir):
    page = visit_and_keep(open_page, live)
    assert cache_names(page) == [f"agreekit-{built_version(dist_dir)}"]
    live.close()  # no server at all, and the browser offline
    page.context.set_offline(True)
    page.reload()
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    wait_result(page, "boxes")  # Pyodide, numpy, scipy, the wheel, bridge.py and the example: all from the cache
    assert_box_example_matches_cpython(page, dist_dir)
    # a share link opens offline too (the fragment never reaches the cache lookup)
    rows = (dist_dir / "examples" / "boxes-fixed.csv").read_text()
    page.goto(share_link("boxes", rows, base_url=live.url, bootstrap=100, seed=2))
    wait_result(page, "boxes")
    report = agreekit.report("boxes", rows, bootstrap=100, seed=2).to_dict()
    assert_metrics_match(page, "boxes", report)
    # other tabs and their examples
    page.click("#tab-spans")
    wait_result(page, "spans")


def test_the_wasm_type_check_is_answered_from_the_cache(open_page, live):
    page = visit_and_keep(open_page, live)
    page.reload()
    wait_ready(page)
    head = page.evaluate("""() => fetch("pyodide/pyodide.asm.wasm", {method: "HEAD", cache: "no-cache"})
        .then(r => [r.status, r.headers.get("content-type"), r.headers.get("content-length")])""")
    assert head[:2] == [200, "application/wasm"]


def test_a_new_build_is_announced_and_replaces_the_old_cache(open_page, live, dist_dir, tmp_path):
    old = built_version(dist_dir)
    page = visit_and_keep(open_page, live)
    page.reload()
    wait_ready(page)
    new = rebuilt_copy(dist_dir, tmp_path / "rebuilt")
    assert new != old
    live.link.unlink()
    live.link.symlink_to(tmp_path / "rebuilt", target_is_directory=True)  # deployed on the same origin

    page.reload()  # still the old build, from its cache; the browser finds and installs the new one
    notice = page.locator("#update-notice")
    notice.wait_for(state="visible", timeout=120_000)
    assert "updated" in notice.inner_text() and notice.get_by_role("button", name="Reload").is_visible()
    page.screenshot(path=f"{SHOTS}-update-notice.png")
    # no mix: this page and its worker keep the old build until the reload
    assert REBUILT not in served(page, "index.html")
    assert json.loads(served(page, "build-info.json"))["build"] == old
    assert cache_names(page) == sorted([f"agreekit-{old}", f"agreekit-{new}"])

    with page.expect_navigation():
        notice.get_by_role("button", name="Reload").click()
    wait_ready(page)
    assert page.locator("#rebuilt").count() == 1
    assert json.loads(served(page, "build-info.json"))["build"] == new
    assert cache_names(page) == [f"agreekit-{new}"]  # the old cache is dropped
    assert page.locator("#update-notice").is_hidden()
    wait_result(page, "boxes")
    assert_box_example_matches_cpython(page, dist_dir)


def test_service_workers_are_blocked_in_the_other_tests(open_page, site):
    page = open_page(site.url)
    wait_result(page, "boxes")
    page.wait_for_timeout(500)
    assert page.evaluate("navigator.serviceWorker ? navigator.serviceWorker.getRegistrations().then(r => r.length) : 0") == 0
