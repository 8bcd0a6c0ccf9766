"""The calculator page: ``index.html`` and ``kinds.json`` from the registry of kinds, and the example files.

Both ask the core itself (in an interpreter with numpy and scipy); ``web/forms.py`` only writes HTML.
"""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from .common import PYCORE, ROOT, VENV, log


def _python_with_numpy() -> str:
    """An interpreter that can import the core (numpy + scipy): .venv, this one, or a new .venv."""
    candidates = [VENV / "bin" / "python", Path(sys.executable)]
    for candidate in candidates:
        if candidate.exists():
            probe = subprocess.run([str(candidate), "-c", "import numpy, scipy"], capture_output=True)
            if probe.returncode == 0:
                return str(candidate)
    # Same pins as requirements-test.txt (Pyodide's versions); `build.py test` adds the rest.
    pins = [line.strip() for line in (ROOT / "requirements-test.txt").read_text().splitlines()
            if line.startswith(("numpy", "scipy"))]
    log("installing " + " ".join(pins) + " into .venv (needed to generate the box example)")
    if not (VENV / "bin" / "python").exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    subprocess.run([str(VENV / "bin" / "python"), "-m", "pip", "install", "-q", *pins], check=True)
    return str(VENV / "bin" / "python")


def _core_json(code: str, what: str):
    """Run ``code`` (which prints JSON) with the core importable; the parsed JSON."""
    env = {**os.environ, "PYTHONPATH": str(PYCORE)}
    result = subprocess.run([_python_with_numpy(), "-c", code], capture_output=True, text=True, env=env)
    if result.returncode != 0:
        raise SystemExit(f"{what} failed:\n" + result.stderr)
    return json.loads(result.stdout)


def build_examples(dest: Path):
    """Copy the hand-made span/segment examples; generate the box example with the core itself."""
    dest.mkdir(parents=True, exist_ok=True)
    for path in sorted((ROOT / "web" / "examples").glob("*")):
        if path.is_file():
            shutil.copyfile(path, dest / path.name)
    # boxes.csv: careful pair + fixed-box annotator; boxes-fixed.csv: one careful annotator against
    # the fixed box alone, where raw IoU stays high and sigma is negative.
    code = ("import json, sys; from agreekit.simulate import centred_corpus, centred_corpus_csv, to_csv; "
            "json.dump({'boxes.csv': centred_corpus_csv(), 'boxes-fixed.csv': "
            "to_csv(centred_corpus(50, seed=7, annotators=('careful_a', 'fixed')))}, sys.stdout)")
    for name, text in _core_json(code, "generating the box example").items():
        (dest / name).write_text(text)


def build_page(dest: Path):
    """``kinds.json`` (the registry of kinds) and ``index.html`` with its tabs and forms, from the registry,
    and each tab's import options from the export formats' declared options."""
    registry = _core_json("import json, sys, agreekit; json.dump(agreekit.registry.kinds_json(), sys.stdout)",
                          "reading the registry of kinds")
    (dest / "kinds.json").write_text(json.dumps(registry, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    spec = importlib.util.spec_from_file_location("agreekit_forms", ROOT / "web" / "forms.py")
    forms = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(forms)
    formats = _core_json("import json, sys; from agreekit.formats.base import formats_json; "
                         "json.dump(formats_json(), sys.stdout)", "reading the export formats")
    page = forms.render_page((ROOT / "index.html").read_text(encoding="utf-8"), registry, formats)
    (dest / "index.html").write_text(page, encoding="utf-8")


def list_kind_modules(folder: Path):
    """``index.json``: the kinds with a page module of their own (``web/kinds/<kind>.mjs``, read by
    web/kinds.mjs); a kind of the registry without one gets the page's default view."""
    modules = sorted(path.stem for path in folder.glob("*.mjs"))
    (folder / "index.json").write_text(json.dumps({"modules": modules}) + "\n", encoding="utf-8")
