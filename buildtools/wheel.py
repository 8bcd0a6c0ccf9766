"""The agreekit wheel, built by the PEP 517 backend that ``pycore/pyproject.toml`` names, and the
reproducible zip writer for the wheels the build rewrites (Pyodide's numpy and scipy with bytecode).

The backend (``flit_core``, pinned here within the range pyproject declares) is installed from
PyPI into ``.cache/build-backend/`` the first time and run from there, so a rebuild needs no
network and nothing is installed into the interpreter that runs the build.
"""
from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from pathlib import Path

from .common import CACHE, PYCORE, log

BACKEND_REQUIREMENT = "flit_core==3.12.0"   # within pyproject's build-system `requires` (>=3.12,<4)
SOURCE_DATE_EPOCH = 315532800               # 1980-01-01, the earliest zip date: the same bytes every build


def build_backend() -> Path:
    """The folder holding the pinned build backend, installed there from PyPI once."""
    target = CACHE / "build-backend" / BACKEND_REQUIREMENT.replace("==", "-")
    if not target.exists():
        log(f"pip install {BACKEND_REQUIREMENT} into .cache/build-backend (the wheel's build backend, once)")
        partial = target.with_name(f"{target.name}.part{os.getpid()}")
        shutil.rmtree(partial, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--only-binary", ":all:",
                        "--target", str(partial), BACKEND_REQUIREMENT], check=True)
        try:
            os.replace(partial, target)
        except OSError:  # another build installed it meanwhile: keep that one
            if not target.exists():
                raise
            shutil.rmtree(partial)
    return target


def build_wheel(out_dir: Path, compiled: dict[str, bytes] | None = None) -> Path:
    """Build the pure-Python agreekit wheel from pycore/ with its PEP 517 backend, into ``out_dir``.

    Reproducible (``SOURCE_DATE_EPOCH``). ``compiled``: bytecode files to add (``extras``:
    Pyodide's Python, which other Pythons ignore by their file names).
    """
    system = tomllib.loads((PYCORE / "pyproject.toml").read_text())["build-system"]
    code = ("import sys, importlib; backend = importlib.import_module(sys.argv[1]); "
            "print(backend.build_wheel(sys.argv[2]))")
    env = {**os.environ, "PYTHONPATH": str(build_backend()), "SOURCE_DATE_EPOCH": str(SOURCE_DATE_EPOCH)}
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        result = subprocess.run([sys.executable, "-c", code, system["build-backend"], folder],
                                cwd=PYCORE, env=env, capture_output=True, text=True)
        if result.returncode != 0:
            raise SystemExit(f"building the agreekit wheel ({system['build-backend']}) failed:\n" + result.stderr[-3000:])
        built = Path(folder) / result.stdout.split()[-1]
        wheel = out_dir / built.name
        if compiled:
            wheel_with_bytecode(built, out_dir, compiled)
        else:
            shutil.copyfile(built, wheel)
    wheel.chmod(0o644)
    return wheel


def with_bytecode(files: list[tuple[str, bytes]], compiled: dict[str, bytes] | None) -> list[tuple[str, bytes]]:
    """``files`` (wheel path, bytes) and the ``compiled`` bytecode of those that are modules."""
    def source_of(pyc):  # "a/__pycache__/b.cpython-312.pyc" -> "a/b.py"
        folder, _, name = pyc.rpartition("/__pycache__/")
        return f"{folder}/{name.split('.')[0]}.py"
    names = {name for name, _ in files}
    return [*files, *sorted((pyc, data) for pyc, data in (compiled or {}).items() if source_of(pyc) in names)]


def wheel_with_bytecode(wheel: Path, out_dir: Path, compiled: dict[str, bytes]) -> str:
    """``wheel`` with its modules' bytecode (``extras``) as ``out_dir/<its name>``; that name."""
    with zipfile.ZipFile(wheel) as source:
        members = [(i.filename, source.read(i)) for i in source.infolist()
                   if not i.is_dir() and not i.filename.endswith(".dist-info/RECORD")]
    dist_info = next(name for name, _ in members if name.endswith(".dist-info/METADATA")).rsplit("/", 1)[0]
    write_wheel(out_dir / wheel.name, with_bytecode(members, compiled), dist_info)
    return wheel.name


def _wheel_file_record(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def write_wheel(path: Path, files: list[tuple[str, bytes]], dist_info: str):
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
