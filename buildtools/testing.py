"""``build.py test``: the test environment (.venv from requirements-test.txt, Debian's chromium),
a fresh build, then pytest."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .common import PYCORE, ROOT, VENV, log, sha256_of
from .dist import build


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
