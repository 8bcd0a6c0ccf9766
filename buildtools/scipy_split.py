"""Pyodide's scipy wheel cut into the calculator's two parts, and the rest for the workshop.

Pyodide compiles every shared library of a package when it installs it: for scipy 110 of them,
32.6 MB of wasm, most of the "packages" stage of the page's start. The calculator's first report
(boxes) needs scipy's base and its linear_sum_assignment extension only; traces and segments
need scipy.sparse (and scipy.linalg under it). So the calculator installs scipy in two parts
cut from Pyodide's own wheel, the second when a report first imports it (web/worker.mjs). The
workshop page installs both and a third part, everything else of scipy (scipy.stats, .optimize,
.special, ...), so that it fetches none of the calculator's files again in another form (issue 27):
the three parts hold every file of Pyodide's wheel once, and the site ships no whole scipy.
"""
from __future__ import annotations

import zipfile
from pathlib import Path

from .wheel import with_bytecode, write_wheel

SCIPY_BASE = ("scipy/_lib/", "scipy/optimize/_lsap")        # and scipy/*.py, the package itself
SCIPY_SPARSE = ("scipy/sparse/", "scipy/linalg/")            # the second part
SCIPY_SPARSE_NAME = "scipy_sparse_linalg"
SCIPY_REST_NAME = "scipy_rest"                               # the third part: the workshop's only
SPLIT_WHEEL_FILE = b"Wheel-Version: 1.0\nGenerator: agreekit build.py\nRoot-Is-Purelib: false\n"


def split_scipy(wheel: Path, out_dir: Path, compiled: dict[str, bytes] | None = None) -> dict[str, str]:
    """Cut Pyodide's scipy wheel into three parts; ``{"base": name, "sparse": name, "rest": name}``.

    The base keeps the wheel's name (Pyodide names an installed package by its file name) and
    its METADATA and licence; the sparse part and the rest are wheels of their own names. Every file is the
    original's bytes, in exactly one part; ``compiled`` adds the bytecode of the base's and the
    sparse part's modules (``extras``). Not the rest's: no lesson imports it, and its bytecode
    would make it larger (13.8 MB) than Pyodide's whole wheel (13.5 MB) instead of 10.5 MB.
    """
    with zipfile.ZipFile(wheel) as source:
        members = [(i.filename, source.read(i)) for i in source.infolist() if not i.is_dir()]
    name, version = wheel.name.split("-")[:2]
    tags = wheel.name.split("-", 2)[2]
    dist_info = f"{name}-{version}.dist-info/"
    metadata = dict(members)[f"{dist_info}METADATA"].decode()
    licence = f"{dist_info}LICENSE.txt"  # scipy's licence (BSD) ships with the base: the site has no whole wheel
    is_base = lambda f: f.count("/") == 1 and f.endswith(".py") or f.startswith(SCIPY_BASE) or f == licence  # noqa: E731
    is_sparse = lambda f: f.startswith(SCIPY_SPARSE)  # noqa: E731
    base = [(f, d) for f, d in members if is_base(f)]
    sparse = [(f, d) for f, d in members if is_sparse(f)]
    rest = [(f, d) for f, d in members if not (is_base(f) or is_sparse(f) or f.startswith(dist_info))]
    parts = [("base", base, dist_info.rstrip("/"), metadata)]
    for part, files, part_name in (("sparse", sparse, SCIPY_SPARSE_NAME), ("rest", rest, SCIPY_REST_NAME)):
        parts.append((part, files, f"{part_name}-{version}.dist-info",
                      f"Metadata-Version: 2.1\nName: {part_name}\nVersion: {version}\n"
                      f"Summary: part of {wheel.name} for agreekit's pages (buildtools/scipy_split.py)\n"))
    written = {}
    for part, files, info, part_metadata in parts:
        written[part] = wheel.name if part == "base" else f"{info.removesuffix('.dist-info')}-{tags}"
        code = with_bytecode(files, None if part == "rest" else compiled)
        write_wheel(out_dir / written[part], [*code, (f"{info}/METADATA", part_metadata.encode()),
                                              (f"{info}/WHEEL", SPLIT_WHEEL_FILE)], info)
    return written
