"""A kind added as one package and nothing else: the fixture ``tests/fixtures/toy_kind/toy``.

Loaded through ``AGREEKIT_KIND_PATHS`` (in a child process, so this process's registry keeps
the real kinds), it must appear everywhere the registry drives: the command line (its
sub-command, ``--help``, JSON and its own text), ``agreekit.KINDS`` and ``kinds_json()``,
``agreekit.report``, share links, item details, the report shapes and their generated document,
and the page's tab list (``web/forms.py``).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import agreekit
from agreekit.kinds import PATHS_VARIABLE

ROOT = Path(__file__).resolve().parents[1]
TOY_PATH = ROOT / "tests" / "fixtures" / "toy_kind"
# Item a: labels x, x, y (1 of 3 pairs agree); b: x, x (1 of 1); c: one annotator (left out).
ROWS = "item,annotator,label\na,ann1,x\na,ann2,x\na,ann3,y\nb,ann1,x\nb,ann2,x\nc,ann1,z\n"


def run(args, env_paths=True, code=None, **kwargs):
    """Python in a child process with the toy kind's folder in ``AGREEKIT_KIND_PATHS`` (or not)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "pycore"), str(ROOT / "web")])}
    env.pop(PATHS_VARIABLE, None)
    if env_paths:
        env[PATHS_VARIABLE] = str(TOY_PATH)
    command = [sys.executable, "-c", code] if code else [sys.executable, "-m", "agreekit", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=120, **kwargs)


@pytest.fixture(scope="module")
def rows_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("toy") / "toy.csv"
    path.write_text(ROWS)
    return path


def test_the_toy_kind_is_in_the_command_line(rows_file):
    done = run(["toy", str(rows_file), "--json"])
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["kind"] == "toy" and report["n_items"] == 2 and report["n_labels"] == 6
    assert report["mean_agreement"] == pytest.approx((1 / 3 + 1) / 2)
    assert [i["item"] for i in report["items"]] == ["a", "b"] and len(report["warnings"]) == 1
    text = run(["toy", str(rows_file), "--min-annotators", "3"])
    assert text.returncode == 0, text.stderr
    assert text.stdout.splitlines()[0] == f"toy agreement {1 / 3}  over 1 items"  # the kind's own text hook
    helped = run(["--help"])
    assert "toy" in helped.stdout and "toy labels: item, annotator, label" in helped.stdout
    toy_help = run(["toy", "--help"])
    assert "--min-annotators" in toy_help.stdout and "(default 2)" in toy_help.stdout
    bad = run(["toy", str(rows_file), "--min-annotators", "1"])
    assert bad.returncode == 2 and "min_annotators" in bad.stderr and "Traceback" not in bad.stderr


def test_the_toy_kind_is_in_the_registry_report_share_link_and_item_detail():
    code = f"""
import json, agreekit
from agreekit.item_detail import ItemDetails, detail_kinds
rows = {ROWS!r}
kind, shared, options = agreekit.read_share_fragment(agreekit.share_link("toy", rows, min_annotators=3))
print(json.dumps({{
    "kinds": list(agreekit.KINDS), "json": agreekit.registry.kinds_json()["kinds"][-1],
    "report": agreekit.report("toy", rows).to_dict(), "attribute": agreekit.toy(rows).to_dict(),
    "shared": [kind, shared == rows, options], "detail": ItemDetails("toy", rows, {{}}).detail("a"),
    "detail_kinds": detail_kinds(), "module": agreekit.KINDS["toy"].function.__module__}}))
"""
    done = run([], code=code)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["kinds"] == [*agreekit.KINDS, "toy"]  # after the built-in kinds, by its position
    assert out["json"]["name"] == "toy" and out["json"]["columns"] == ["item", "annotator", "label"]
    assert out["json"]["options"][0]["name"] == "min_annotators" and out["json"]["options"][0]["default"] == 2
    assert out["report"] == out["attribute"] and out["report"]["mean_agreement"] == pytest.approx(2 / 3)
    assert out["shared"] == ["toy", True, {"min_annotators": 3}]
    assert out["detail"] == {"kind": "toy", "item": "a", "labels": {"ann1": "x", "ann2": "x", "ann3": "y"}}
    assert "toy" in out["detail_kinds"] and out["module"] == "agreekit.kinds.toy.report"


def test_the_toy_kind_is_in_the_page_tabs():
    code = """
import json, agreekit, forms
page = forms.render_page(open("index.html", encoding="utf-8").read(), agreekit.registry.kinds_json())
print(json.dumps(page))
"""
    done = run([], code=code)
    assert done.returncode == 0, done.stderr
    page = json.loads(done.stdout)
    assert 'id="tab-toy"' in page and 'id="panel-toy"' in page and 'id="option-toy-min_annotators"' in page
    assert page.index('id="tab-traces"') < page.index('id="tab-toy"')


def test_the_toy_kind_is_in_the_report_shapes_and_their_document():
    code = f"""
import json, sys, agreekit
sys.path.insert(0, "scripts")
import report_doc
from agreekit.report_shape import check
from agreekit.shapes import shape_of
print(json.dumps({{"problems": check(shape_of("toy"), agreekit.report("toy", {ROWS!r}).to_dict()),
                  "undeclared": check(shape_of("toy"), {{**agreekit.report("toy", {ROWS!r}).to_dict(), "extra": 1}}),
                  "document": report_doc.document()}}))
"""
    done = run([], code=code)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["problems"] == [] and len(out["undeclared"]) == 1 and "extra" in out["undeclared"][0]
    toy_section = out["document"].split("## toy\n", 1)[1]
    assert "| `items[].agreement` | number |" in toy_section and "| `mean_agreement` |" in toy_section


def test_without_the_variable_there_is_no_toy_kind(rows_file):
    assert "toy" not in agreekit.KINDS
    done = run(["toy", str(rows_file)], env_paths=False)
    assert done.returncode == 2 and "invalid choice: 'toy'" in done.stderr
