"""Start-up: the worker starts with the page; Python is restored from the build's memory snapshot,
and started as usual when it cannot be."""
from __future__ import annotations

import io
import json
import threading

import pytest

import agreekit

from conftest import Site, assert_metrics_match, build, wait_ready, wait_result


def snapshot_path(dist_dir):
    return json.loads((dist_dir / "build-info.json").read_text())["snapshot"]["path"]


def of_another_build(dist_dir):
    """The build's snapshot with another Pyodide build id in its header: Pyodide refuses it."""
    snapshot = bytearray((dist_dir / snapshot_path(dist_dir)).read_bytes())
    snapshot[16:48] = bytes(32)
    return bytes(snapshot)


def box_example_matches_cpython(page, dist_dir):
    wait_result(page, "boxes")
    rows = (dist_dir / "examples" / "boxes.csv").read_text()
    assert page.input_value("#rows-boxes") == rows
    metrics = dict(assert_metrics_match(page, "boxes", agreekit.report("boxes", rows).to_dict()))
    assert "localization.sigma.value" in metrics


def worker_timings(page):
    wait_ready(page)
    return page.evaluate("window.agreekit.engine.timings")


def test_python_is_restored_from_the_builds_snapshot(open_page, site, dist_dir):
    assert snapshot_path(dist_dir)  # built with Node: `python3 build.py test` has it
    page = open_page(site.url)
    assert worker_timings(page)["snapshot"] == "restored"
    box_example_matches_cpython(page, dist_dir)


def serving_instead_of_the_snapshot(dist_dir, status, body):
    """A server of dist/ that answers the snapshot's URL with ``status`` and ``body``."""
    target = "/" + snapshot_path(dist_dir)

    class Handler(build.SiteHandler):
        def send_head(self):
            if self.path.split("?")[0] != target:
                return super().send_head()
            self.send_response(status)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return io.BytesIO(body)

    return Site(dist_dir, handler_base=Handler)


@pytest.mark.parametrize("status, body, reason", [
    (200, lambda dist: bytes(64 * 1024), "not used: /snapshots/"),     # "… has 65536 bytes, the build wrote …"
    (200, lambda dist: bytes(len(of_another_build(dist))), "not used: /snapshots/"),  # "… is not a Pyodide snapshot"
    (200, of_another_build, "not used: Snapshot build id mismatch"),   # Pyodide's own check, then a second start
    (404, lambda dist: b"gone", "not used: Could not fetch /snapshots/"),
], ids=["truncated", "not-a-snapshot", "another-build", "missing"])
def test_python_starts_as_usual_when_the_snapshot_cannot_be_restored(open_page, dist_dir, status, body, reason):
    server = serving_instead_of_the_snapshot(dist_dir, status, body(dist_dir))
    try:
        page = open_page(server.url)
        assert worker_timings(page)["snapshot"].startswith(reason)
        box_example_matches_cpython(page, dist_dir)
    finally:
        server.close()


def holding_app_mjs_until_python_loads_packages(dist_dir, after_s):
    """A server of dist/ that answers web/app.mjs only ``after_s`` after the worker asked for the wheel."""
    wheel = "/" + json.loads((dist_dir / "build-info.json").read_text())["wheel"]
    wheel_asked = threading.Event()

    class Handler(build.SiteHandler):
        def send_head(self):
            path = self.path.split("?")[0]
            if path == wheel:
                wheel_asked.set()
            elif path == "/web/app.mjs":
                if wheel_asked.wait(60):  # never set: the worker waits for app.mjs, and the test fails below
                    threading.Event().wait(after_s)
            return super().send_head()

    return Site(dist_dir, handler_base=Handler), wheel_asked


def test_the_worker_starts_before_the_pages_modules_and_nothing_it_says_is_lost(open_page, dist_dir):
    # app.mjs (and so the Engine) arrives only once the worker is installing packages, a few seconds
    # later: the worker's messages until then (status, and usually "ready") are replayed to the Engine.
    server, wheel_asked = holding_app_mjs_until_python_loads_packages(dist_dir, after_s=6)
    try:
        page = open_page(server.url)
        assert worker_timings(page)["snapshot"] == "restored"
        assert wheel_asked.is_set()
        box_example_matches_cpython(page, dist_dir)
    finally:
        server.close()


def serving_build_info_without_extras(dist_dir):
    """A server of dist/ whose build-info.json names no snapshot and no compiled numpy: a build
    made without Node (build.py pyodide_extras), which ships the lock's numpy (served here from
    the build's .cache: a build with Node does not ship it)."""
    info = json.loads((dist_dir / "build-info.json").read_text())
    numpy = json.loads((dist_dir / "pyodide" / "pyodide-lock.json").read_text())["packages"]["numpy"]["file_name"]
    bodies = {"/build-info.json": (json.dumps({**info, "snapshot": None, "numpy": None}).encode(), "application/json"),
              f"/pyodide/{numpy}": ((build.CACHE / "pyodide-packages" / numpy).read_bytes(), "application/octet-stream")}

    class Handler(build.SiteHandler):
        def send_head(self):
            if self.path.split("?")[0] not in bodies:
                return super().send_head()
            body, kind = bodies[self.path.split("?")[0]]
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return io.BytesIO(body)

    return Site(dist_dir, handler_base=Handler)


def test_a_build_without_node_starts_python_as_before(open_page, dist_dir):
    server = serving_build_info_without_extras(dist_dir)
    requested = []
    try:
        page = open_page(server.url)
        page.on("request", lambda request: requested.append(request.url))
        assert worker_timings(page)["snapshot"] == "none in this build"
        box_example_matches_cpython(page, dist_dir)
    finally:
        server.close()
    numpy = json.loads((dist_dir / "pyodide" / "pyodide-lock.json").read_text())["packages"]["numpy"]["file_name"]
    assert any(url.endswith(f"/pyodide/{numpy}") for url in requested)  # Pyodide's own numpy, by name
    assert not any("/wheels/numpy/" in url for url in requested)
