"""Precompressed copies of the site's large files, which ``build.py serve`` sends to clients that accept gzip.

A file of at least PRECOMPRESS_MIN_BYTES gets ``<name>.gz`` beside it when gzip makes it at least
10 % smaller. That is pyodide.asm.wasm (10.1 MB -> 3.2 MB), openblas (6.1 -> 1.9 MB),
pyodide.asm.js (1.3 -> 0.24 MB), the pytz wheel and the text files of the site; the other wheels
and python_stdlib.zip are zip archives already (gzip saves 1-2 %) and get none. Level 6: level 9
gives the same sizes to 1 % at three times the build time (pyodide.asm.wasm).
"""
from __future__ import annotations

import gzip
from pathlib import Path

from .stamp import site_files

PRECOMPRESS_MIN_BYTES = 64 * 1024
PRECOMPRESS_MAX_RATIO = 0.9
PRECOMPRESS_LEVEL = 6


def precompress(site: Path) -> list[str]:
    """Write ``<file>.gz`` beside each large file of ``site`` that gzip shrinks; their relative paths.

    Reproducible (no timestamp or name in the gzip header). ``build.py serve`` sends these to
    clients that accept gzip; they are derived, so neither the build hash nor sw.js counts them.
    """
    written = []
    for name in site_files(site):
        path = site / name
        if path.stat().st_size < PRECOMPRESS_MIN_BYTES:
            continue
        data = path.read_bytes()
        packed = gzip.compress(data, compresslevel=PRECOMPRESS_LEVEL, mtime=0)
        if len(packed) <= PRECOMPRESS_MAX_RATIO * len(data):
            path.with_name(path.name + ".gz").write_bytes(packed)
            written.append(name + ".gz")
    return written
