"""Python restored from the build's memory snapshot, and started as usual when it cannot be."""
from __future__ import annotations

import io
import json

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
