"""What the service worker caches, and when: three lists of the site's files, written into ``sw.js``.

- ``calculator``: cached when the worker installs (the calculator's first visit), all or nothing:
  the page, its modules and examples, Pyodide's core files, the wheels the worker loads
  (``build-info.json`` names them: numpy with bytecode, scipy's two parts, agreekit) and the lock
  packages it loads by name (openblas, for scipy.sparse).
- ``workshop``: every other file of the site (PyScript, scipy's third part, the lock's matplotlib and
  its dependencies, ``workshop.html``): cached when the workshop page is first opened. The workshop
  loads numpy and scipy's other parts by the calculator's URLs, so the two lists share no file in
  two forms (the lock's numpy and scipy do not ship; issue 27).
- ``snapshot``: Python's memory snapshot, cached once it pays: at once on loopback, else from the
  second visit on (docs/architecture.md, "The build's version and the service worker").

Source maps are in no list (only a debugger asks for them). The rule is checked against the
requests Chromium makes for the calculator's first result (tests/browser/test_precache.py).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

CALCULATOR_PAGE = ("index.html", "kinds.json", "build-info.json")
CALCULATOR_FOLDERS = ("web/", "vendor/", "examples/")
NOT_CALCULATOR_FOLDERS = ("web/workshop/",)
PYODIDE_CORE = ("pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
LOADED_BY_NAME = ("openblas",)  # lock packages web/worker.mjs loads by name (scipy.sparse's BLAS and LAPACK)
NEVER_CACHED_SUFFIXES = (".map",)
NOT_LISTED = ("sw.js",)  # the worker script itself: the browser keeps it


@dataclass(frozen=True)
class PrecacheLists:
    """Site-relative paths the service worker caches, by when (see the module's docstring)."""
    calculator: tuple[str, ...]
    workshop: tuple[str, ...]
    snapshot: tuple[str, ...]


def by_name_files(site: Path, info: dict) -> set[str]:
    """The lock's files of the packages the calculator loads by name (numpy too when the build has no
    numpy with bytecode); none when the site has no lock (a test site)."""
    lock_path = site / "pyodide" / "pyodide-lock.json"
    if not lock_path.exists():
        return set()
    packages = json.loads(lock_path.read_text())["packages"]
    names = LOADED_BY_NAME + (() if info.get("numpy") else ("numpy",))
    return {f"pyodide/{packages[name]['file_name']}" for name in names if name in packages}


def is_calculator_file(name: str, named: set[str]) -> bool:
    """Whether the calculator needs ``name`` (site-relative): the page's files or one it loads."""
    if name in CALCULATOR_PAGE or name in named:
        return True
    if name.startswith(NOT_CALCULATOR_FOLDERS):
        return False
    return name.startswith(CALCULATOR_FOLDERS) or name in {f"pyodide/{core}" for core in PYODIDE_CORE}


def precache_lists(site: Path, files: list[str], info: dict) -> PrecacheLists:
    """``files`` (the site's, relative) split into the three lists; ``info``: build-info.json's fields."""
    scipy = info.get("scipy") or {}
    named = by_name_files(site, info) | {path for path in (info.get("wheel"), info.get("numpy"), *scipy.values()) if path}
    snapshot = (info.get("snapshot") or {}).get("path")
    calculator, workshop = ["./"], []
    for name in files:
        if name.endswith(NEVER_CACHED_SUFFIXES) or name in NOT_LISTED or name == snapshot:
            continue
        (calculator if is_calculator_file(name, named) else workshop).append(name)
    return PrecacheLists(calculator=tuple(calculator), workshop=tuple(workshop),
                         snapshot=(snapshot,) if snapshot else ())
