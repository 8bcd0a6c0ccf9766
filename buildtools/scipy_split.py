"""Pyodide's scipy wheel cut into the calculator's two parts.

Pyodide compiles every shared library of a package when it installs it: for scipy 110 of them,
32.6 MB of wasm, most of the "packages" stage of the page's start. The calculator's first report
(boxes) needs scipy's base and its linear_sum_assignment extension only; traces and segments
need scipy.sparse (and scipy.linalg under it). So the calculator installs scipy in two parts
cut from Pyodide's own wheel, the second when a report first imports it (web/worker.mjs). The
workshop page keeps Pyodide's whole scipy.
"""
from __future__ import annotations

import zipfile
from pathlib import Path

from .wheel import with_bytecode, write_wheel

SCIPY_BASE = ("scipy/_lib/", "scipy/optimize/_lsap")        # and scipy/*.py, the package itself
SCIPY_SPARSE = ("scipy/sparse/", "scipy/linalg/")            # the second part
SCIPY_SPARSE_NAME = "scipy_sparse_linalg"
SPLIT_WHEEL_FILE = b"Wheel-Version: 1.0\nGenerator: agreekit build.py\nRoot-Is-Purelib: false\n"


def split_scipy(wheel: Path, out_dir: Path, compiled: dict[str, bytes] | None = None) -> dict[str, str]:
    """Cut Pyodide's scipy wheel into the calculator's two parts; ``{"base": name, "sparse": name}``.

    The base keeps the wheel's name (Pyodide names an installed package by its file name) and
    its METADATA; the sparse part is a wheel of its own name. Every file is the original's bytes;
    ``compiled`` adds the bytecode of their modules (``extras``).
    """
    with zipfile.ZipFile(wheel) as source:
        members = [(i.filename, source.read(i)) for i in source.infolist() if not i.is_dir()]
    name, version = wheel.name.split("-")[:2]
    tags = wheel.name.split("-", 2)[2]
    dist_info = f"{name}-{version}.dist-info/"
    metadata = dict(members)[f"{dist_info}METADATA"].decode()
    is_base = lambda f: f.count("/") == 1 and f.endswith(".py") or f.startswith(SCIPY_BASE)  # noqa: E731
    base = [(f, d) for f, d in members if is_base(f)]
    sparse = [(f, d) for f, d in members if f.startswith(SCIPY_SPARSE)]
    written = {"base": wheel.name, "sparse": f"{SCIPY_SPARSE_NAME}-{version}-{tags}"}
    sparse_info = f"{SCIPY_SPARSE_NAME}-{version}.dist-info"
    sparse_metadata = (f"Metadata-Version: 2.1\nName: {SCIPY_SPARSE_NAME}\nVersion: {version}\n"
                       f"Summary: scipy.sparse and scipy.linalg of {wheel.name}, for the agreekit calculator\n")
    for part, files, info, part_metadata in (("base", base, dist_info.rstrip("/"), metadata),
                                             ("sparse", sparse, sparse_info, sparse_metadata)):
        write_wheel(out_dir / written[part], [*with_bytecode(files, compiled), (f"{info}/METADATA", part_metadata.encode()),
                                              (f"{info}/WHEEL", SPLIT_WHEEL_FILE)], info)
    return written
