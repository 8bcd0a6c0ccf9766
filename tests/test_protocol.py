"""web/protocol.mjs under Node: a worker's answers (answer()) read back by the page's side (Requests).

One request shape, one answer shape: results, progress and parts arrive with their request; a
handler's ReplyError reaches the page as it was raised, any other exception as one internal line.
"""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NODE = shutil.which("node")

SCRIPT = """
import { answer, Requests, ReplyError } from "%(protocol)s";
const sent = [];
let requests;
// The worker's side posts straight into the page's side, recording every message and its transfer list.
const post = (message, transfer = []) => { sent.push({ message, transfer: transfer.length }); requests.receive(message); };
const handlers = {
  double: ({ x }, reply) => { reply.progress({ done: 1, total: 2 }); reply.part(0, [1, 2]); reply.part(0, [3]); return 2 * x; },
  buffer: (request, reply) => { const b = new ArrayBuffer(8); reply.transfer([b]); return { bytes: b.byteLength }; },
  refuse: () => { throw new ReplyError({ type: "input", message: "line 3: not a number", where: { line: 3 } }); },
  crash: () => { throw new Error("Traceback (most recent call last):\\n  File x\\nKeyError: 'y'"); },
};
requests = new Requests((message) => answer(handlers, message, { post, what: "the rows" }));
const progress = [];
const outcome = async (promise) => promise.then((value) => ({ ok: true, value }),
  (error) => ({ ok: false, name: error.constructor.name, data: error.data, cancelled: error.cancelled }));
const results = {
  double: await outcome(requests.request("double", { x: 21 }, { onProgress: (p) => progress.push(p) })),
  buffer: await outcome(requests.request("buffer")),
  refuse: await outcome(requests.request("refuse")),
  crash: await outcome(requests.request("crash")),
  unknown: await outcome(requests.request("nothing")),
};
const pending = new Requests(() => {});  // never answered: failed by the page (a cancel, a lost worker)
const dropped = outcome(pending.request("double", { x: 1 }));
pending.failAll({ type: "cancelled", message: "cancelled", where: null });
results.failed = await dropped;
console.log(JSON.stringify({ results, progress, sent, pending: requests.size }));
"""


@pytest.fixture(scope="module")
def run():
    if NODE is None:
        pytest.skip("node is not installed")
    script = SCRIPT % {"protocol": (ROOT / "web" / "protocol.mjs").as_uri()}
    done = subprocess.run([NODE, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_result_comes_with_its_progress_and_parts(run):
    double = run["results"]["double"]
    assert double["ok"] and double["value"]["result"] == 42 and double["value"]["parts"] == [[1, 2, 3]]
    assert run["progress"] == [{"done": 1, "total": 2}]
    shapes = [sorted(m["message"]) for m in run["sent"][:4]]
    assert shapes == [["id", "progress"], ["id", "part", "rows"], ["id", "part", "rows"], ["id", "ms", "ok", "result"]]
    assert run["pending"] == 0


def test_buffers_of_a_result_are_transferred(run):
    buffer = next(m for m in run["sent"] if m["message"].get("result") == {"bytes": 8})
    assert buffer["transfer"] == 1 and run["results"]["buffer"]["value"]["result"] == {"bytes": 8}


def test_errors_have_one_shape(run):
    results = run["results"]
    assert results["refuse"] == {"ok": False, "name": "ReplyError", "cancelled": False,
                                 "data": {"type": "input", "message": "line 3: not a number", "where": {"line": 3}}}
    assert results["crash"]["data"] == {"type": "internal", "message":
                                        "internal error: KeyError: 'y' — please report it, with the rows", "where": None}
    assert results["unknown"]["data"]["type"] == "internal" and '"nothing"' in results["unknown"]["data"]["message"]
    assert results["failed"]["cancelled"] is True and results["failed"]["data"]["type"] == "cancelled"
    for message in (m["message"] for m in run["sent"] if m["message"].get("ok") is False):
        assert sorted(message) == ["error", "id", "ms", "ok"] and "\n" not in message["error"]["message"]
