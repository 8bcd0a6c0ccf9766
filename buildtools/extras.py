"""Start-up extras made in Pyodide itself, under Node (``scripts/pyodide_build.mjs``).

The modules of agreekit, numpy and scipy compiled to the browser's bytecode (they go into the
wheels the calculator loads), and a memory snapshot of the interpreter with the standard-library
modules the worker imports, which the worker restores instead of starting Python
(docs/architecture.md, "Start-up"). Cached under .cache by what they are made from. Without Node
the page starts as before, more slowly.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import NamedTuple

from .common import CACHE, PYCORE, ROOT, digest_of, log
from .runtime import PYODIDE_CORE_FILES

PYODIDE_BUILD_SCRIPT = ROOT / "scripts" / "pyodide_build.mjs"


class PyodideExtras(NamedTuple):
    compiled: dict[str, bytes]   # wheel path (numpy/.../__pycache__/x.cpython-312.pyc) -> bytes
    snapshot: Path               # the memory snapshot


def _run_pyodide_build(*args: str):
    result = subprocess.run(["node", str(PYODIDE_BUILD_SCRIPT), *args], capture_output=True, text=True)
    if result.returncode != 0:
        # Node prints the failing line of Pyodide's one-line bundle first: keep the end.
        raise SystemExit(f"scripts/pyodide_build.mjs {args[0]} failed:\n" + result.stderr[-3000:])


def _made_once(target: Path, what: str, *args: str) -> Path:
    """``target`` (a folder or file of the cache), made by ``pyodide_build.mjs *args`` unless there."""
    if not target.exists():
        log(f"{what} (scripts/pyodide_build.mjs {args[0]})")
        partial = target.with_name(target.name + ".part")  # what an interrupted build left
        if partial.is_dir():
            shutil.rmtree(partial)
        partial.unlink(missing_ok=True)
        _run_pyodide_build(*args, str(partial))
        os.replace(partial, target)
    return target


def pyodide_extras(pyodide_dir: Path) -> PyodideExtras | None:
    """The compiled modules and the snapshot for ``pyodide_dir``; ``None`` (said) without Node."""
    if shutil.which("node") is None:
        log("node not found: no memory snapshot or compiled modules (the page starts more slowly)")
        return None
    cache = CACHE / "pyodide-build"
    cache.mkdir(parents=True, exist_ok=True)
    pyodide_files = [PYODIDE_BUILD_SCRIPT] + [pyodide_dir / n for n in PYODIDE_CORE_FILES] + sorted(pyodide_dir.glob("*.whl"))
    sources = sorted(p for p in (PYCORE / "agreekit").rglob("*.py") if "__pycache__" not in p.parts)
    packages = _made_once(cache / f"packages-{digest_of(pyodide_files)}", "compiling numpy and scipy in Pyodide",
                          "packages", str(pyodide_dir))
    agreekit = _made_once(cache / f"agreekit-{digest_of([*pyodide_files, ROOT / 'web' / 'bridge.py', *sources])}",
                          "compiling agreekit in Pyodide", "agreekit", str(pyodide_dir), str(PYCORE),
                          str(ROOT / "web" / "bridge.py"))
    modules = agreekit / "stdlib-modules.json"
    snapshot = _made_once(cache / f"snapshot-{digest_of([*pyodide_files, modules])}",
                          "making Pyodide's memory snapshot", "snapshot", str(pyodide_dir), str(modules))
    compiled = {p.relative_to(folder).as_posix(): p.read_bytes()
                for folder in (packages, agreekit) for p in sorted(folder.rglob("*.pyc"))}
    return PyodideExtras(compiled, snapshot)
