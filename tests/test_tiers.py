"""The tier lists of the root conftest.py name tests that exist: a renamed test must not slip
silently into the fast tier, nor a stale entry stay in a list."""
import ast
import functools
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# By path: under pytest the name `conftest` is whichever conftest.py was imported last.
_spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
tiers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tiers)


@functools.cache
def test_functions(path):
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}


test_functions.__test__ = False  # a helper, not a test


def test_every_listed_test_exists():
    missing = [nodeid for nodeid in tiers.TEST_MARKS
               if nodeid.split("::")[1].split("[")[0] not in test_functions(nodeid.split("::")[0])]
    assert missing == []


def test_every_listed_file_and_browser_module_exists():
    assert [path for path in tiers.FILE_MARKS if not (ROOT / path).is_file()] == []
    assert [name for name in tiers.FAST_BROWSER_MODULES if not (ROOT / "tests" / "browser" / name).is_file()] == []


def test_marks_follow_the_lists():
    assert set(tiers.marks_for("tests/test_pyodide.py::test_every_kind_in_pyodide_matches_cpython")) == {"pyodide", "slow"}
    assert tiers.marks_for("tests/test_fuzz.py::test_any_text_gives_a_report_or_a_located_error[boxes]") == ["big"]
    assert tiers.marks_for("tests/test_fuzz.py::test_every_kind_is_fuzzed") == []
    assert "browser" in tiers.marks_for("tests/browser/test_start_up.py::test_x")
    assert "slow" in tiers.marks_for("tests/browser/test_start_up.py::test_x", ("warm_page",))
    fast = sorted(tiers.FAST_BROWSER_MODULES)[0]
    assert tiers.marks_for(f"tests/browser/{fast}::test_x", ("site", "warm_page")) == ["browser"]
    assert tiers.marks_for(f"tests/browser/{fast}::test_x", ("site", "open_page")) == ["browser", "slow"]
