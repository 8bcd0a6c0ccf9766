"""Test tiers: which tests the bare `pytest` (the fast tier) leaves to the full suite.

`pytest` from the repository root runs every test not marked ``slow`` or ``big`` (pytest.ini's
addopts); `python3 build.py test` passes ``-m ""`` and runs them all. Marks are given here, from
the lists below, so that a test's tier is read in one place rather than on each test.
"""
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent

# Collected by pytest's --doctest-modules: the command-line entry point is not a module to import.
collect_ignore = ["pycore/agreekit/__main__.py"]

# pytest.ini's `pythonpath` serves this process; the CLI tests start `python -m agreekit` too.
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "pycore"), os.environ.get("PYTHONPATH")]))

# Whole files, by path from the root: every test in them gets these marks.
FILE_MARKS = {
    "tests/test_pyodide.py": ("pyodide", "slow"),  # the core in Pyodide under Node: a cold start each
}

# Browser test modules (tests/browser) that run in the fast tier: one shared page per module and
# no long computation. Every other browser module is marked slow.
FAST_BROWSER_MODULES = set()

# Single tests (node ids from the root, parameters included or not) and their marks: the slowest
# of the CPython tests (over ~0.8 s each here), measured with `pytest --durations=60`.
TEST_MARKS = {
}


def marks_for(nodeid):
    """The marks the lists above give the test ``nodeid``."""
    path = nodeid.split("::")[0]
    marks = list(FILE_MARKS.get(path, ()))
    if path.startswith("tests/browser/"):
        marks.append("browser")
        if Path(path).name not in FAST_BROWSER_MODULES:
            marks.append("slow")
    bare = nodeid.split("[")[0]
    marks += TEST_MARKS.get(nodeid, ()) or TEST_MARKS.get(bare, ())
    return marks


@pytest.hookimpl(tryfirst=True)  # before pytest's own -m deselection reads the marks
def pytest_collection_modifyitems(config, items):
    for item in items:
        for name in marks_for(item.nodeid):
            item.add_marker(getattr(pytest.mark, name))
