"""The static server of ``build.py serve`` (and of the browser tests): the MIME types Pyodide
needs, the cross-origin isolation headers (issue 14) and the precompressed copies."""
from __future__ import annotations

import functools
import http.server
import os
from pathlib import Path

from .common import DIST

MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".css": "text/css",
    ".html": "text/html; charset=utf-8",
    ".json": "application/json",
    ".csv": "text/csv; charset=utf-8",
    ".zip": "application/zip",
    ".whl": "application/octet-stream",
    ".snapshot": "application/octet-stream",
    ".py": "text/plain; charset=utf-8",
}

ISOLATION_HEADERS = {
    # py-editor needs SharedArrayBuffer, which needs a cross-origin isolated page (and a secure
    # context: http://localhost or https, never http://<LAN address>).
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
    "Cross-Origin-Resource-Policy": "same-origin",
}


class IsolationHeaders:
    """Request-handler mixin: the COOP/COEP headers on every response (``isolate = False`` drops them)."""
    isolate = True

    def send_isolation_headers(self):
        if self.isolate:
            for name, value in ISOLATION_HEADERS.items():
                self.send_header(name, value)


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` value admits gzip: its weight, else that of ``*``, is > 0 (RFC 9110 12.5.3)."""
    weights = {}
    for item in accept_encoding.split(","):
        coding, *params = (part.strip() for part in item.split(";"))
        weight = next((p.split("=", 1)[1] for p in params if p.lower().startswith("q=")), "1")
        try:
            weights[coding.lower()] = float(weight)
        except ValueError:
            weights[coding.lower()] = 0.0
    return weights.get("gzip", weights.get("x-gzip", weights.get("*", 0.0))) > 0


class SiteHandler(IsolationHeaders, http.server.SimpleHTTPRequestHandler):
    """Static files with the MIME types Pyodide needs (a wrong .wasm type hangs loadPyodide).

    A file with a precompressed ``<file>.gz`` beside it (see ``precompress``) is answered with that
    copy and ``Content-Encoding: gzip`` when the request accepts gzip, under the original file's
    Content-Type (so ``pyodide.asm.wasm`` stays ``application/wasm``); ``precompressed = False``
    always sends the file itself.
    """
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    quiet = True
    precompressed = True
    has_gzip_copy = False   # per request: set by translate_path
    sends_gzip_copy = False

    def send_head(self):
        self.has_gzip_copy = self.sends_gzip_copy = False
        return super().send_head()

    def translate_path(self, path):
        # SimpleHTTPRequestHandler.send_head maps the URL here once, then opens, types and dates
        # what this returns: the .gz copy, when chosen, goes through the same checks (304, 404).
        local = super().translate_path(path)
        if self.precompressed and os.path.isfile(local) and os.path.isfile(local + ".gz"):
            self.has_gzip_copy = True
            if accepts_gzip(self.headers.get("Accept-Encoding", "")):
                self.sends_gzip_copy = True
                return local + ".gz"
        return local

    def guess_type(self, path):
        return super().guess_type(path.removesuffix(".gz") if self.sends_gzip_copy else path)

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        if self.has_gzip_copy:
            self.send_header("Vary", "Accept-Encoding")
        if self.sends_gzip_copy:
            self.send_header("Content-Encoding", "gzip")
        self.send_isolation_headers()
        super().end_headers()

    def log_message(self, fmt, *args):
        if not self.quiet:
            super().log_message(fmt, *args)


def make_server(directory: Path = DIST, port: int = 8000, mime_overrides: dict | None = None,
                handler_base: type = SiteHandler):
    """A threading HTTP server for ``directory`` on 127.0.0.1 (port 0 picks a free one).

    ``mime_overrides`` and ``handler_base`` let tests serve deliberately wrong types.
    """
    handler_cls = type("Handler", (handler_base,), {
        "extensions_map": {**handler_base.extensions_map, **(mime_overrides or {})}})
    handler = functools.partial(handler_cls, directory=str(directory))
    http.server.ThreadingHTTPServer.allow_reuse_address = True
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


def serve(port: int, rebuild: bool):
    """``build.py serve``: build dist/ if it is missing (or ``rebuild``), then serve it until Ctrl-C."""
    from .dist import build
    if rebuild or not (DIST / "index.html").exists():
        build()
    server = make_server(DIST, port)
    SiteHandler.quiet = False
    print(f"agreekit calculator: http://127.0.0.1:{server.server_address[1]}/  (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
