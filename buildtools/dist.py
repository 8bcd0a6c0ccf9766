"""``build()``: the static site in ``dist/``, each part from its own module.

The site is self-contained: Pyodide and its packages (``runtime``), the agreekit wheel with
Pyodide's bytecode (``wheel``, ``extras``), scipy in two parts (``scipy_split``), the page and
examples (``page``), the workshop (``workshop``), the build stamp and service worker (``stamp``)
and the gzip copies (``precompress``). It is made in ``build/dist-staging`` and moved into place
at the end, so a failed build leaves the last good ``dist/``.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from .common import DIST, PYODIDE_VERSION, ROOT, digest_of, log, sha256_of
from .extras import pyodide_extras
from .page import build_examples, build_page, list_kind_modules
from .precompress import precompress
from .runtime import pyodide_runtime, vendor_uplot
from .scipy_split import split_scipy
from .stamp import stamp_build
from .wheel import build_wheel, wheel_with_bytecode
from .workshop import build_workshop


def build(local_source: str | None = None) -> Path:
    local_source = local_source or os.environ.get("AGREEKIT_PYODIDE_PACKAGES") or None
    staging = ROOT / "build" / "dist-staging"
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir(parents=True)

    # Pyodide core (npm), then the package files checked against the npm lock; the chart library.
    pyodide_dir = staging / "pyodide"
    lock = pyodide_runtime(pyodide_dir, local_source)
    vendor_uplot(staging)

    # Our wheel (with Pyodide's bytecode), under a content-addressed folder so browsers never
    # reuse a stale copy; the snapshot likewise.
    extras = pyodide_extras(pyodide_dir)
    compiled = extras.compiled if extras else None
    wheel = build_wheel(ROOT / "build" / "wheel", compiled)
    digest = sha256_of(wheel)
    wheel_rel = f"wheels/{digest[:12]}/{wheel.name}"
    (staging / wheel_rel).parent.mkdir(parents=True)
    shutil.copyfile(wheel, staging / wheel_rel)
    (staging / wheel_rel).chmod(0o644)
    snapshot = None   # build-info.json: where, and its size (the worker checks it before a restore)
    if extras:
        snapshot = {"path": f"snapshots/{sha256_of(extras.snapshot)[:12]}/pyodide.snapshot",
                    "bytes": extras.snapshot.stat().st_size}
        (staging / snapshot["path"]).parent.mkdir(parents=True)
        shutil.copyfile(extras.snapshot, staging / snapshot["path"])

    # scipy in two parts for the calculator and a third for the workshop (split_scipy),
    # content-addressed as the wheel is.
    scipy_wheel = pyodide_dir / lock["packages"]["scipy"]["file_name"]
    scipy_rel, scipy_names = content_addressed(staging, "wheels/scipy",
                                               lambda folder: split_scipy(scipy_wheel, folder, compiled))
    scipy_parts = {part: f"{scipy_rel}/{name}" for part, name in scipy_names.items()}
    scipy_rest = scipy_parts.pop("rest")
    # numpy with its bytecode, loaded by this URL (the lock's copy, by name, has none); without
    # Node, by name as before.
    numpy = None
    if extras:
        numpy_wheel = pyodide_dir / lock["packages"]["numpy"]["file_name"]
        numpy = "/".join(content_addressed(staging, "wheels/numpy",
                                           lambda folder: wheel_with_bytecode(numpy_wheel, folder, compiled)))

    # The page: index.html and kinds.json from the registry; forms.py only writes them.
    build_page(staging)
    shutil.copytree(ROOT / "web", staging / "web",
                    ignore=shutil.ignore_patterns("examples", "__pycache__", "forms.py", "sw.js"))
    list_kind_modules(staging / "web" / "kinds")
    build_examples(staging / "examples")
    info = {"wheel": wheel_rel, "wheel_sha256": digest, "pyodide": PYODIDE_VERSION,
            "numpy": numpy, "scipy": scipy_parts, "scipy_rest": scipy_rest, "snapshot": snapshot}
    build_workshop(staging, lock, local_source, info)
    # Both pages load numpy (with bytecode) and scipy by the URLs above: the lock's copies would be
    # a second form of the same files (issue 27). Without Node the calculator loads numpy by name.
    for name in ("scipy",) if numpy is None else ("numpy", "scipy"):
        (pyodide_dir / lock["packages"][name]["file_name"]).unlink()
    stamp_build(staging, info)
    precompress(staging)

    for path in staging.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    if DIST.exists():
        shutil.rmtree(DIST)
    staging.rename(DIST)
    log(f"built {DIST} (wheel {wheel.name}, sha256 {digest[:12]})")
    return DIST


def content_addressed(site: Path, prefix: str, write):
    """``write(folder)`` into a new folder, named ``prefix/<digest of the files it wrote>`` so that
    browsers never reuse a stale copy; that name (relative to ``site``) and what ``write`` returned."""
    folder = site / prefix / "unnamed"
    written = write(folder)
    named = f"{prefix}/{digest_of(sorted(folder.iterdir()))[:12]}"
    folder.rename(site / named)
    return named, written
