"""Paths, versions, logging and hashing shared by every build job."""
from __future__ import annotations

import functools
import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"
VENV = ROOT / ".venv"
PYCORE = ROOT / "pycore"

PYODIDE_VERSION = "0.27.7"


def log(*parts):
    print("[build]", *parts, flush=True)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(functools.partial(fh.read, 1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def digest_of(paths) -> str:
    """A short digest of the files ``paths`` (their names and contents), to name what is made from them."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(f"{path.name}\0{sha256_of(path)}\n".encode())
    return digest.hexdigest()[:16]
