"""The box report stage by stage, in CPython and in Pyodide under Node, in one run (prints figures; not a test).

Corpus and report as ``benchmarks/box_report_speed.py`` (``crowd_corpus()``
defaults, exact baseline, 1000 resamples).  The report's steps are called one
by one as :func:`agreekit.objects.object_report` calls them, each timed,
after one untimed report; ``--repeats`` reports, medians per stage:

* ``rows``: reading the rows, grouping the objects;
* ``matching``: similarities and one matching per annotator pair on each item;
* ``raw + clusters``: Potato's raw measures, the clusters and α's coincidences;
* ``baseline``: within distances, the streamed between-item baseline with its
  KS counts and cross sums;
* ``bootstrap``: 1000 resamples of σ, σ_cross, σ_B and both α;
* ``breakdowns``: the localization section and the per-pair/annotator/label/item tables;
* ``json``: the whole report as strict JSON, as the page's worker sends it
  (``Report.to_json()``; in older commits the same text as ``json.dumps(report.to_dict())``).

The Pyodide side needs ``dist/pyodide`` (``python3 build.py``) and Node; it
loads this checkout's ``pycore/agreekit`` files into Pyodide's file system.
With ``--against <commit>`` that commit's ``pycore`` (``git archive``) runs too,
in both runtimes, its processes taking turns with this code's, and the table
shows both side by side.

Usage: python benchmarks/box_report_stages.py [--repeats 3] [--against f542059~1]
"""
import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from git_export import export  # noqa: E402

# The box report's steps, each through ``timed(stage, function)``; runs unchanged in CPython and in
# Pyodide (source text, so the Node runner can run it), and benchmarks/headline_floor.py times them too.
STAGE_STEPS = r'''
import agreekit
from agreekit import breakdowns
from agreekit import objects as engine
from agreekit.kinds.boxes.compare import box_kind
from agreekit.kinds.boxes.rows import box_objects, parse_boxes
from agreekit.object_sets import canonical_order, label_rules

def report_stages(rows, timed, resamples=1000, seed=20260813):
    label_key, label_equal = label_rules(False)
    objects, boxes, _ = timed("rows", lambda: box_objects(parse_boxes(rows)[0], order=canonical_order))
    kind = box_kind(boxes, "giou")
    def matching():
        sims = engine.item_similarities(objects, kind)
        same = engine.item_label_equality(objects, label_key)
        return sims, same, engine.pair_matching(objects, sims, 0.5, "optimal", same)
    sims, same, records = timed("matching", matching)
    def raw_and_clusters():
        raw = engine.raw_measures(objects, records, label_equal)
        groups = engine.item_clusters(objects, sims, 0.5, "optimal", same)
        return raw, engine.alpha_inputs(objects, groups, label_key)
    raw, alpha_in = timed("raw + clusters", raw_and_clusters)
    pairs = engine.matched_pairs(records)
    loc = timed("baseline", lambda: engine.localize(objects, kind, pairs, 50_000_000, seed, None))
    cis = timed("bootstrap", lambda: engine.bootstrap_intervals(objects.n_items, loc, alpha_in, resamples, seed))
    timed("breakdowns", lambda: (engine.localization_section(loc, cis, cis["baseline_interval_se"]),
                                 breakdowns.tables(objects, records, pairs, raw, loc, label_key)))
'''

# Prints one JSON line of medians per stage.
STAGES = STAGE_STEPS + r'''
import json, statistics, sys, time
from agreekit.simulate import crowd_corpus

def wall_timer(times):
    def timed(stage, function):
        start = time.perf_counter()
        out = function()
        times.setdefault(stage, []).append(time.perf_counter() - start)
        return out
    return timed

rows = crowd_corpus()
report = agreekit.boxes(rows, bootstrap=1000)
times = {}
for _ in range(int(sys.argv[-1])):
    report_stages(rows, wall_timer(times))
    start = time.perf_counter()
    report.to_json()  # what web/bridge.py sends (before it: json.dumps(report.to_dict(), allow_nan=False))
    times.setdefault("json", []).append(time.perf_counter() - start)
    start = time.perf_counter()
    agreekit.boxes(rows, bootstrap=1000)
    times.setdefault("whole report", []).append(time.perf_counter() - start)
print(json.dumps({stage: statistics.median(values) for stage, values in times.items()}))
'''

NODE = r'''
import fs from "node:fs";
const [loader, indexDir, packageDir, codePath, repeats] = process.argv.slice(2);
const { loadAgreekit } = await import(loader);
const py = await loadAgreekit(indexDir, packageDir);
py.runPython(`import sys; sys.argv = ["stages", "${repeats}"]`);
py.setStdout({ batched: (line) => console.log(line) });
py.runPython(fs.readFileSync(codePath, "utf8"));
'''


def last_json_line(text):
    return json.loads([line for line in text.splitlines() if line.startswith("{")][-1])


def stage_medians(pycore, runtime, code, runner, repeats):
    """Median seconds per stage of the package under ``pycore`` in ``runtime`` ("CPython" or "Pyodide")."""
    if runtime == "CPython":
        command, env = [sys.executable, str(code), str(repeats)], {"PYTHONPATH": str(pycore)}
    else:
        command, env = ["node", str(runner), (ROOT / "tests" / "pyodide" / "load_agreekit.mjs").as_uri(),
                        str(ROOT / "dist" / "pyodide"), str(pycore / "agreekit"), str(code), str(repeats)], None
    return last_json_line(subprocess.run(command, check=True, capture_output=True, text=True, env=env).stdout)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--against", default=None, help="a commit whose pycore runs too, side by side")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        code, runner = Path(tmp) / "stages.py", Path(tmp) / "stages.mjs"
        code.write_text(STAGES, encoding="utf-8")
        runner.write_text(NODE, encoding="utf-8")
        versions = {"this code": ROOT / "pycore"}
        if args.against:
            versions = {args.against: export(args.against, tmp), **versions}
        # Within each runtime the versions run back to back, so a change of load hits both alike.
        medians = {(runtime, name): stage_medians(pycore, runtime, code, runner, args.repeats)
                   for runtime in ("CPython", "Pyodide") for name, pycore in versions.items()}
    print(f"box report stages, crowd_corpus() defaults, 1000 resamples; medians of {args.repeats}, same run")
    columns = [(runtime, name) for name in versions for runtime in ("CPython", "Pyodide")]
    print(f"{'stage':>14} " + " ".join(f"{runtime + ' ' + name:>24}" for runtime, name in columns)
          + "  " + " ".join(f"{'ratio ' + name:>18}" for name in versions))
    for stage in medians[columns[0]]:
        cells = " ".join(f"{medians[column][stage]:24.3f}" for column in columns)
        ratios = " ".join(f"{medians['Pyodide', name][stage] / medians['CPython', name][stage]:18.2f}"
                          for name in versions)
        print(f"{stage:>14} {cells}  {ratios}")


if __name__ == "__main__":
    main()
