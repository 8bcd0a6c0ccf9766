"""The workshop page (issue 14): PyScript lessons whose cells run agreekit, numpy, scipy and
matplotlib in one shared Pyodide (the calculator's own files).

Everything here is added to dist/ beside the calculator; the calculator's start-up loads none of
it (matplotlib is fetched by workshop.html only). numpy, scipy and agreekit come by the same URLs
as the calculator's (build-info.json), so a visitor of both fetches each file once (issue 27).

How they are installed: PyScript 0.6.66 gives a config's ``packages`` to micropip, which would
resolve matplotlib's dependency numpy from the lock (a second numpy); with ``packages_cache:
"passthrough"`` it gives them to ``loadPyodide({packages})``, i.e. one ``pyodide.loadPackage``
call, where a wheel named by URL before the lock names it takes the lock's place ("to override a
dependency, load the custom package first", Pyodide 0.27.7's loader). The config therefore lists
the URLs first, then ``openblas`` and ``matplotlib`` by name. scipy's sparse part and its rest link
openblas, which a package loaded by URL cannot wait for within one call: workshop.py's ``ready()``
installs them in a second call, from build-info.json, before it tells the page Python is ready.
"""
from __future__ import annotations

import html
import json
import shutil
import tarfile
from pathlib import Path

from .common import PYODIDE_VERSION, ROOT
from .runtime import extract_members, fetch_pyodide_packages, npm_tarball, verify_against_lock

# @pyscript/core 0.6.x is the last line whose default Pyodide is 0.27.7 (0.6.70+ bundles 0.28, whose
# Python side imports pyodide.ffi.jsnull, absent from 0.27.7). 0.6.65 (= PyScript 2025.7.3, the
# release with the shared env/setup fix for py-editor) is not on the npm registry this project
# reaches; 0.6.66 is the next published build, with the same polyscript line and Pyodide 0.27.7.
PYSCRIPT_CORE_VERSION = "0.6.66"
WORKSHOP_PACKAGES = ("openblas", "matplotlib")  # lock names the workshop loads, after the URLs (numpy's: skipped)
WORKSHOP_CELLS = ROOT / "web" / "workshop" / "cells"
WORKSHOP_EXAMPLES = ("boxes.csv", "boxes-fixed.csv", "spans.csv", "spans-lengths.csv", "segments.csv",
                     "traces.csv")
CELL_MARK = "<!-- agreekit:cell {} -->"    # inside <script type="py-editor">: the code as it is
SHOWN_MARK = "<!-- agreekit:shown {} -->"  # inside <pre>: the code HTML-escaped (a solution)


def pyscript_files(dest: Path):
    """The whole ``dist/`` folder of ``@pyscript/core`` from npm into ``dest``, with its licence."""
    tgz = npm_tarball("@pyscript/core", PYSCRIPT_CORE_VERSION)
    prefix = "package/dist/"
    with tarfile.open(tgz) as tar:
        members = {m.name: dest / m.name[len(prefix):] for m in tar.getmembers()
                   if m.isfile() and m.name.startswith(prefix)}
    members["package/LICENSE"] = dest / "LICENSE"
    extract_members(tgz, members)


def workshop_config(info: dict) -> dict:
    """PyScript config of the page's one env: the calculator's Pyodide and wheels (``info``: build-info.json's
    fields), matplotlib, the lesson files and build-info.json (for ``workshop.ready``: scipy's other parts).

    ``packages_cache: passthrough``: Pyodide's loader installs the packages, in this order (see the
    module's docstring), and no micropip lock is kept in IndexedDB.
    """
    files = {f"./examples/{name}": f"examples/{name}" for name in WORKSHOP_EXAMPLES}
    files["./web/workshop/workshop.py"] = "workshop.py"
    files["./build-info.json"] = "build-info.json"
    urls = [info["numpy"] or "numpy", info["scipy"]["base"], info["wheel"]]
    return {"interpreter": "./pyodide/pyodide.mjs",
            "packages": [*(url if url == "numpy" else f"./{url}" for url in urls), *WORKSHOP_PACKAGES],
            "packages_cache": "passthrough",
            "files": files}


def render_workshop(template: str, cells: dict[str, str]) -> str:
    """``template`` with each cell mark replaced by that cell's code (raw in scripts, escaped in <pre>)."""
    for name, code in sorted(cells.items()):
        if "</script" in code.lower() or "<!--" in code:
            raise SystemExit(f"workshop cell {name} holds </script or <!--, which would end its <script>")
        template = template.replace(CELL_MARK.format(name), "\n" + code.strip("\n") + "\n")
        template = template.replace(SHOWN_MARK.format(name), html.escape(code.strip("\n")))
    left = [line.strip() for line in template.splitlines() if "<!-- agreekit:" in line]
    if left:
        raise SystemExit("workshop.html names cells web/workshop/cells/ does not have: " + "; ".join(left))
    return template


def build_workshop(staging: Path, lock: dict, local_source: str | None, info: dict):
    """matplotlib and its dependencies (hash-checked), PyScript, the config and workshop.html;
    ``info``: build-info.json's fields (the calculator's wheels)."""
    pyodide_dir = staging / "pyodide"
    for name, path in fetch_pyodide_packages(lock, local_source, WORKSHOP_PACKAGES).items():
        shutil.copyfile(path, pyodide_dir / name)
    verify_against_lock(pyodide_dir)
    pyscript_files(staging / "pyscript")
    (staging / "workshop.json").write_text(json.dumps(workshop_config(info), indent=1) + "\n")
    cells = {path.stem: path.read_text(encoding="utf-8") for path in sorted(WORKSHOP_CELLS.glob("*.py"))}
    page = render_workshop((ROOT / "workshop.html").read_text(encoding="utf-8"), cells)
    (staging / "workshop.html").write_text(page, encoding="utf-8")
    (staging / "build-info-pyscript.json").write_text(json.dumps(
        {"pyscript_core": PYSCRIPT_CORE_VERSION, "pyodide": PYODIDE_VERSION}) + "\n")
