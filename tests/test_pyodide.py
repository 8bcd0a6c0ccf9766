"""The core inside Pyodide (wasm32, numpy 2.0.2, scipy 1.14.1) gives CPython's reports.

Pyodide's integers are 32-bit where CPython's are 64-bit (np.intp), which only
shows when the same code runs there: every kind of report, in both matching
modes, on the page's examples and on Potato's reference inputs, is computed in
Pyodide under Node and compared with CPython to 1e-12.  Needs ``dist/pyodide``
(``python3 build.py``) and Node.js; skipped with the reason otherwise.
"""
import json
import math
import shutil
import subprocess
from pathlib import Path

import pytest

import agreekit
from agreekit.simulate import centred_corpus, crowd_corpus

ROOT = Path(__file__).resolve().parents[1]
PYODIDE = ROOT / "dist" / "pyodide"
EXAMPLES = ROOT / "web" / "examples"
REFERENCE = ROOT / "tests" / "fixtures" / "potato"

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not (PYODIDE / "pyodide.mjs").exists(),
    reason="needs Node.js and dist/pyodide (run python3 build.py)")


def _example(name):
    path = EXAMPLES / name
    return path.read_text(encoding="utf-8") if path.exists() else None


def _reference(name):
    path = REFERENCE / name
    return json.loads(path.read_text())["cases"] if path.exists() else []


def build_cases():
    cases = []

    def add(kind, rows, **options):
        if rows:
            cases.append({"kind": kind, "rows": rows, "options": {"bootstrap": 100, **options}})

    centred = centred_corpus(30, seed=5)
    for match in ("optimal", "potato"):
        add("boxes", centred, match=match)
    add("boxes", centred, distance="iou")
    add("boxes", centred, distance="centroid", pair_budget=500)
    add("boxes", crowd_corpus(n_images=15, n_annotators=20, per_image=5))
    for case in _reference("boxes.json"):
        p = case["params"]
        add("boxes", case["input"]["rows"], threshold=p["threshold"], distance=p["distance"], match="potato")
    add("spans", _example("spans.csv"), lengths=_example("spans-lengths.csv"))
    for case in _reference("spans.json"):
        for match in ("optimal", "potato"):
            add("spans", case["input"]["rows"], lengths=case["input"]["item_lengths"], match=match)
    add("segments", _example("segments.csv"))
    for case in _reference("segments.json"):
        for match in ("optimal", "potato"):
            add("segments", case["input"]["rows"], threshold=case["params"]["threshold"], match=match)
    for kind in ("polygons", "cuboids", "traces"):
        add(kind, _example(f"{kind}.csv"))
    add("polygons", _example("polygons.csv"), match="potato", distance="iou")
    add("cuboids", _example("cuboids.csv"), match="potato")
    masks = _example("masks.csv")
    if masks:
        cases.append({"kind": "masks", "rows": masks, "options": {}})
    return cases


def assert_same(a, b, where="report"):
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), where
        for key in a:
            assert_same(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), where
        for k, (x, y) in enumerate(zip(a, b)):
            assert_same(x, y, f"{where}.{k}")
    elif isinstance(a, float) and isinstance(b, (int, float)) and not isinstance(b, bool):
        assert math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12), (where, a, b)
    else:
        assert a == b, (where, a, b)


@pytest.fixture(scope="module")
def pyodide_results(tmp_path_factory):
    cases = build_cases()
    folder = tmp_path_factory.mktemp("pyodide")
    (folder / "cases.json").write_text(json.dumps(cases))
    completed = subprocess.run(
        ["node", str(ROOT / "tests" / "pyodide" / "run_cases.mjs"), str(PYODIDE),
         str(ROOT / "pycore" / "agreekit"), str(folder / "cases.json"), str(folder / "results.json")],
        capture_output=True, text=True, timeout=1200)
    assert completed.returncode == 0, completed.stderr[-3000:]
    return cases, json.loads((folder / "results.json").read_text())


def test_every_kind_in_pyodide_matches_cpython(pyodide_results):
    cases, results = pyodide_results
    assert len(results) == len(cases)
    kinds = set()
    for case, result in zip(cases, results):
        label = f"{case['kind']} {case['options']}"
        assert "error" not in result, (label, result.get("trace"))
        expected = agreekit.report(case["kind"], case["rows"], **case["options"]).to_dict()
        assert_same(expected, result["report"], label)
        kinds.add(case["kind"])
    assert kinds == set(agreekit.KINDS)  # every registered kind ran in Pyodide
