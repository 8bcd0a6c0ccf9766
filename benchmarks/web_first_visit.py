"""The calculator's first visit over a network: bytes and time to Ready and to the first result.

    python3 build.py build      # dist/ is what is served: rebuild after any change
    PYTHONPATH=pycore .venv/bin/python benchmarks/web_first_visit.py [--runs 3] [--dist PATH]
        [--host network|loopback] [--compare LABEL=DIST[@HOST] ...] [--mbit 20] [--latency-ms 40] [--no-throttle]

The project's server (``build.SiteHandler``, precompressed copies on) behind a throttle that only
this script uses: one token bucket of ``--mbit`` Mbit/s shared by all connections (64 kB deep),
and ``--latency-ms`` before each response (a typical conference Wi-Fi, or a room of 30 laptops
sharing 600 Mbit/s). Each run starts a new Chromium with a new profile and opens the page with no
fragment, as a new visitor does: the Boxes tab computes its example as soon as Python is ready.

``--host network`` (the default) opens ``http://agreekit.test:PORT/``, mapped to 127.0.0.1 and
treated as a secure context by Chromium's flags, so the page sees what a visitor on a network sees
(web/worker.mjs restores the memory snapshot on loopback only, or once it is cached);
``--host loopback`` opens ``http://127.0.0.1:PORT/`` through the same throttle, which makes the
page take the snapshot on the first visit: the two measure what the snapshot is worth on a network.

Printed per run and as medians: Ready and first rendered box result (page clock from navigation
start), response-body bytes the server sent before Ready, before the first result and in the first
60 s (the service worker's precache and background fetches included), and the largest files sent
before the first result; then, in the same profile, a return visit (a reload): its times and bytes. Goals (issue 27): Ready <= 8 s, first result <= 8.5 s, <= 15 MB before the
first result, <= 20 MB in the first minute.
"""
from __future__ import annotations

import argparse
import collections
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import build  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
NETWORK_HOST = "agreekit.test"
TIMEOUT_MS = 240_000
FIRST_MINUTE_S = 60.0
CHUNK = 16 * 1024
BUCKET_DEPTH = 64 * 1024


class TokenBucket:
    """``rate`` bytes per second shared by every thread that calls ``take``, at most ``depth`` in a burst."""

    def __init__(self, rate: float, depth: int = BUCKET_DEPTH):
        self.rate, self.depth = rate, depth
        self.tokens, self.stamp = float(depth), time.monotonic()
        self.lock = threading.Lock()

    def take(self, n: int):
        """Block until ``n`` bytes may go (callers queue in the order they reach the lock)."""
        with self.lock:
            now = time.monotonic()
            self.tokens = min(self.depth, self.tokens + (now - self.stamp) * self.rate)
            self.stamp = now
            self.tokens -= n
            wait = -self.tokens / self.rate if self.tokens < 0 else 0.0
        if wait:
            time.sleep(wait)


class ThrottledHandler(build.SiteHandler):
    """The site's handler behind the bucket and the latency; logs (epoch time, bytes, path) of each body chunk."""
    bucket: TokenBucket | None = None
    latency_s = 0.0
    sent: list = None  # per server

    def send_head(self):
        if self.latency_s:
            time.sleep(self.latency_s)
        return super().send_head()

    def copyfile(self, source, outputfile):
        path = urlsplit(self.path).path
        try:
            while chunk := source.read(CHUNK):
                if self.bucket:
                    self.bucket.take(len(chunk))
                outputfile.write(chunk)
                self.sent.append((time.time(), len(chunk), path))
        except (BrokenPipeError, ConnectionResetError):
            pass  # the run closed its browser while the service worker was still fetching


class Visit(NamedTuple):
    ready: float          # s, page clock
    result: float         # s, page clock: first rendered box result
    mb_ready: float       # MB of response bodies sent before Ready
    mb_result: float      # ... before the first result
    mb_minute: float      # ... in the first 60 s
    snapshot: str         # the worker's timings.snapshot: restored, or why not
    stages: str           # when each loading stage started (s, worker clock): check, pyodide, packages, import, ready
    top: list             # [(MB, path)] largest files sent before the first result
    second: str           # the return visit (a reload after the first minute): times, MB sent, snapshot


def serve(directory, mbit, latency_ms):
    handler = type("Handler", (ThrottledHandler,), {
        "bucket": TokenBucket(mbit * 1e6 / 8) if mbit else None, "latency_s": latency_ms / 1000, "sent": []})
    server = build.make_server(Path(directory), 0, handler_base=handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, handler.sent


def mb_until(sent, epoch):
    return sum(n for t, n, _ in sent if t <= epoch) / 1e6


def page_marks(page, load):
    """``load()`` (goto or reload), then the first rendered box result's marks (page clock, ms)."""
    load()
    page.wait_for_selector('#results-boxes[data-state="done"]', state="attached", timeout=TIMEOUT_MS)
    return page.evaluate("""() => {
        const result = performance.getEntriesByName("agreekit:result").find((m) => m.detail?.kind === "boxes");
        return {origin: performance.timeOrigin, ready: performance.getEntriesByName("agreekit:ready")[0].startTime,
                result: result.startTime, isolated: crossOriginIsolated, timings: window.agreekit.engine.timings};
    }""")


def one_visit(playwright, directory, host, mbit, latency_ms, minute_s=FIRST_MINUTE_S) -> Visit:
    server, sent = serve(directory, mbit, latency_ms)
    port = server.server_address[1]
    name = NETWORK_HOST if host == "network" else "127.0.0.1"
    origin = f"http://{name}:{port}"
    args = ARGS + ([f"--host-resolver-rules=MAP {NETWORK_HOST} 127.0.0.1",
                    f"--unsafely-treat-insecure-origin-as-secure={origin}"] if host == "network" else [])
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=args)
    try:
        page = browser.new_context(service_workers="allow").new_page()
        marks = page_marks(page, lambda: page.goto(origin + "/"))
        assert marks["isolated"], "the page is not cross-origin isolated"
        start = marks["origin"] / 1000
        left = start + minute_s - time.time()
        if left > 0:
            page.wait_for_timeout(left * 1000)
        result_epoch = start + marks["result"] / 1000
        before_second = len(sent)
        second = page_marks(page, page.reload)  # a return visit: the service worker's cache, the snapshot
        by_file = collections.Counter()
        for t, n, path in sent:
            if t <= result_epoch:
                by_file[path] += n
        return Visit(ready=marks["ready"] / 1000, result=marks["result"] / 1000,
                     mb_ready=mb_until(sent, start + marks["ready"] / 1000), mb_result=mb_until(sent, result_epoch),
                     mb_minute=mb_until(sent, start + minute_s), snapshot=str(marks["timings"]["snapshot"]),
                     stages=" ".join(f"{k} {v / 1000:.1f}" for k, v in marks["timings"].items() if k != "snapshot"),
                     top=[(n / 1e6, path) for path, n in by_file.most_common(8)],
                     second=(f"Ready {second['ready'] / 1000:.2f} s, first result {second['result'] / 1000:.2f} s, "
                             f"{sum(n for _, n, _ in sent[before_second:]) / 1e6:.1f} MB until then, "
                             f"snapshot: {second['timings']['snapshot']}"))
    finally:
        browser.close()
        server.shutdown()
        server.server_close()


def load():
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


def print_medians(label, visits):
    med = {field: statistics.median(getattr(v, field) for v in visits) for field in Visit._fields[:5]}
    print(f"{label}: medians of {len(visits)}: Ready {med['ready']:.2f} s (goal 8), first result {med['result']:.2f} s "
          f"(goal 8.5); MB before Ready {med['mb_ready']:.1f}, before the first result {med['mb_result']:.1f} "
          f"(goal 15), in the first minute {med['mb_minute']:.1f} (goal 20)")
    return med


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dist", default=str(build.DIST), help="the built site to serve (default: dist/)")
    parser.add_argument("--host", choices=("network", "loopback"), default="network")
    parser.add_argument("--compare", action="append", default=[], metavar="LABEL=DIST[@HOST]",
                        help="another site (and host) measured in the same rounds, interleaved; ratios against the first")
    parser.add_argument("--mbit", type=float, default=20.0)
    parser.add_argument("--latency-ms", type=float, default=40.0)
    parser.add_argument("--no-throttle", action="store_true", help="no bucket, no latency (loopback speed)")
    parser.add_argument("--minute-s", type=float, default=FIRST_MINUTE_S, help="the 'first minute' of the byte count")
    args = parser.parse_args()
    mbit, latency = (0, 0) if args.no_throttle else (args.mbit, args.latency_ms)
    configs = [("this", args.dist, args.host)]
    for spec in args.compare:
        label, rest = spec.split("=", 1)
        directory, _, host = rest.partition("@")
        configs.append((label, directory, host or args.host))
    print(f"sites: {configs}; " + ("no throttle" if args.no_throttle else f"{mbit:g} Mbit/s shared, {latency:g} ms per request")
          + f"; load before: {load()} (1, 5, 15 min) on {os.cpu_count()} cores", flush=True)
    visits = {label: [] for label, _, _ in configs}
    with sync_playwright() as playwright:
        for run in range(args.runs):
            for label, directory, host in configs:
                v = one_visit(playwright, directory, host, mbit, latency, args.minute_s)
                visits[label].append(v)
                print(f"run {run + 1} {label}: Ready {v.ready:.2f} s, first result {v.result:.2f} s; MB before Ready "
                      f"{v.mb_ready:.1f}, before result {v.mb_result:.1f}, first minute {v.mb_minute:.1f}; "
                      f"snapshot: {v.snapshot}; stages (s): {v.stages}; load {load()}\n"
                      f"  return visit: {v.second}", flush=True)
    print()
    for label, runs in visits.items():
        print(f"{label}: largest files before the first result (run 1): "
              + ", ".join(f"{path} {mb:.2f} MB" for mb, path in runs[0].top))
    print()
    medians = {label: print_medians(label, runs) for label, runs in visits.items()}
    first = configs[0][0]
    for label in list(medians)[1:]:
        print(f"{first} / {label}: " + ", ".join(f"{field} {medians[first][field] / medians[label][field]:.2f}x"
                                                 for field in Visit._fields[:5]))
    print(f"load after: {load()}")


if __name__ == "__main__":
    main()
