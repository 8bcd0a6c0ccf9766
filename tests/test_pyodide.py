"""The core inside Pyodide (wasm32, numpy 2.0.2, scipy 1.14.1) gives CPython's reports.

Pyodide's integers are 32-bit where CPython's are 64-bit (np.intp), which only
shows when the same code runs there: every kind of report, in both matching
modes, on the page's examples and on Potato's reference inputs, is computed in
Pyodide under Node and compared with CPython to 1e-12.  Needs ``dist/pyodide``
(``python3 build.py``) and Node.js; skipped with the reason otherwise.
"""
import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import agreekit
from agreekit.simulate import centred_corpus, crowd_corpus
from same_report import assert_same

ROOT = Path(__file__).resolve().parents[1]
PYODIDE = ROOT / "dist" / "pyodide"
EXAMPLES = ROOT / "web" / "examples"
REFERENCE = ROOT / "tests" / "fixtures" / "potato"

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not (PYODIDE / "pyodide.mjs").exists(),
    reason="needs Node.js and dist/pyodide (run python3 build.py)")


def _example(name):
    return (EXAMPLES / name).read_text(encoding="utf-8")  # committed: web/examples


def _reference(name):
    return json.loads((REFERENCE / name).read_text())["cases"]  # committed: tests/fixtures/potato


def _crowd_spans(n_annotators):
    """One document and ``n_annotators``: 179,700 pairs for 600, more than one scoring block."""
    lines = ["item,annotator,start,end,label"]
    for k in range(n_annotators):
        lines.append(f"doc,a{k},{k % 7},{10 + k % 5},{'PER' if k % 3 else 'ORG'}")
    return "\n".join(lines) + "\n"


def _crowd_traces(n_annotators):
    """Two traces of three steps, each step labelled by every annotator: κ pairs in several blocks."""
    lines = ["trace,step,annotator,label"]
    for trace in ("t1", "t2"):
        for step in range(3):
            lines += [f"{trace},{step},a{k},{'ok' if (k + step) % 4 else 'bad'}" for k in range(n_annotators)]
    return "\n".join(lines) + "\n"


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
    add("spans", _crowd_spans(n_annotators=600), bootstrap=0)  # pairs in several blocks, pair rows capped
    add("traces", _crowd_traces(n_annotators=3000), bootstrap=0)
    for case in _reference("spans.json"):
        for match in ("optimal", "potato"):
            add("spans", case["input"]["rows"], lengths=case["input"]["item_lengths"], match=match)
    add("segments", _example("segments.csv"))
    add("segments", _example("segments.csv"), distance="iou", placements=30)
    add("segments", _crowded_segments(), threshold=0.1, placements=12)  # σ's large components and whole blocks
    add("segments", _crowded_segments(), threshold=0.0, placements=3)   # every pair may match
    for case in _reference("segments.json"):
        for match in ("optimal", "potato"):
            add("segments", case["input"]["rows"], threshold=case["params"]["threshold"], match=match)
    for kind in ("polygons", "cuboids", "traces"):
        add(kind, _example(f"{kind}.csv"))
    add("polygons", _example("polygons.csv"), match="potato", distance="iou")
    add("cuboids", _example("cuboids.csv"), match="potato")
    add("labels", _example("labels.csv"))
    for match in ("optimal", "potato"):  # one item of 4,400 boxes: annotator-pair blocks, above 4 M pairs sparse
        add("boxes", _crowded_item(), match=match, bootstrap=0)
    # the consensus of a crowded item, matched block by block (object_consensus, reference/compare.py)
    add("boxes", _crowded_item(1700), reference="consensus", bootstrap=0)
    two_images = _crowded_item(1600) + _crowded_item(1600, seed=9).replace("img,", "img2,").split("\n", 1)[1]
    add("boxes", two_images, bootstrap=200)  # σ's exact baseline of a crowded item in blocks cut inside runs
    add("labels", _labels_matrix(), level="ordinal")
    add("labels", _labels_matrix(), level="interval")
    add("labels", _labels_matrix(), level="ratio")
    add("labels", "item,annotator,label\n1,a,x\n1,a,y\n1,b,x\n2,a,y\n2,b,y\n2,b,z\n3,a,z\n3,b,z\n", level="set")
    cases.append({"kind": "masks", "rows": _example("masks.csv"), "options": {}})
    return cases



def _labels_matrix():
    """Krippendorff's (2011) 4 coders × 12 units as a headerless reliability matrix, blanks missing."""
    rows = ["1,1,,1", "2,2,3,2", "3,3,3,3", "3,3,3,3", "2,2,2,2", "1,2,3,4", "4,4,4,4", "1,1,2,1", "2,2,2,2",
            ",5,5,5", ",,1,1", ",3,,"]
    return "\n".join(rows) + "\n"


def _crowded_item(n=2200, seed=8):
    """One image, two annotators × ``n`` small jittered boxes of the same objects: a large item
    (:mod:`agreekit.object_blocks`) whose annotator pair has more than 4 M box pairs."""
    rng = np.random.default_rng(seed)
    truth = np.column_stack([rng.uniform(0, 60, (n, 2)), rng.uniform(0.5, 2.0, (n, 2))])
    lines = ["item,annotator,x,y,w,h,label"]
    for annotator in "ab":
        for x, y, w, h in (truth + rng.normal(0, 0.05, truth.shape)).tolist():
            lines.append(f"img,{annotator},{x:.4f},{y:.4f},{abs(w):.4f},{abs(h):.4f},{'car' if x < 30 else 'bus'}")
    return "\n".join(lines) + "\n"


def _crowded_segments(n_clips=6, seed=5):
    """Clips of ~10 s with up to 9 segments per annotator: segment σ's chance placements then need
    :func:`agreekit.matching.match` on large components and, at threshold 0, on whole blocks."""
    rng = np.random.default_rng(seed)
    lines = ["item,annotator,start,end,label"]
    for clip in range(n_clips):
        for annotator in "abc":
            for _ in range(rng.integers(1, 10)):
                start = round(rng.uniform(0, 8), 2)
                lines.append(f"c{clip},{annotator},{start},{round(start + rng.uniform(0.5, 4), 2)},x")
    return "\n".join(lines)


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


WHEEL_BYTECODE = """
const [indexDir, ...wheels] = process.argv.slice(2);
const { loadPyodide } = await import(new URL("pyodide.mjs", "file://" + indexDir + "/").href);
const py = await loadPyodide({ indexURL: indexDir + "/" });
await py.loadPackage(wheels, { messageCallback: () => {} });
console.log(py.runPython(`
import importlib.util, json, pathlib, sys
import agreekit, agreekit.kinds.boxes, numpy, numpy.linalg, scipy._lib._util
checks = []
for module in (agreekit, agreekit.kinds.boxes, numpy, numpy.linalg, scipy._lib._util):
    pyc = pathlib.Path(module.__spec__.cached).read_bytes()
    source = pathlib.Path(module.__file__).read_bytes()
    checks.append({"magic": pyc[:4] == importlib.util.MAGIC_NUMBER,
                   "hash": pyc[8:16] == importlib.util.source_hash(source)})
json.dumps(checks)`));
"""


def test_the_wheels_bytecode_is_what_pyodides_python_loads(tmp_path):
    """build.py puts Pyodide-compiled .pyc files in the calculator's wheels (agreekit, numpy,
    scipy's base): its magic number, and the hash of the very source beside them (a stale or
    foreign .pyc would be recompiled, silently, at every start)."""
    info = json.loads((ROOT / "dist" / "build-info.json").read_text())
    wheels = [str(ROOT / "dist" / path) for path in (info["numpy"], info["scipy"]["base"], info["wheel"])]
    script = tmp_path / "bytecode.mjs"
    script.write_text(WHEEL_BYTECODE)
    done = subprocess.run(["node", str(script), str(PYODIDE), *wheels], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [{"magic": True, "hash": True}] * 5
