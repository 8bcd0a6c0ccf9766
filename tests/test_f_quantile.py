"""The F quantiles of the ICC's intervals, computed without scipy.stats, against scipy; and the core
importing only the parts of scipy the page installs (an ICC once needed scipy.stats, which the
calculator never has: the labels report at interval level failed in the page)."""
from __future__ import annotations

import itertools
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from scipy.special import betainc
from scipy.stats import beta, f

from agreekit.measures.f_quantile import beta_quantile, f_quantile, regularized_beta

ROOT = Path(__file__).resolve().parents[1]
QUANTILES = (0.005, 0.025, 0.5, 0.9, 0.95, 0.975, 0.995)
# (largest degrees of freedom, relative tolerance): the log-gamma terms cancel as they grow
ACCURACY = ((1e3, 5e-12), (1e4, 1e-10), (1e6, 1e-8))


@pytest.mark.parametrize("largest, tolerance", ACCURACY)
def test_f_quantile_is_scipys(largest, tolerance):
    dfs = [d for d in (0.5, 1, 2, 3.5, 10, 49, 100, 999, 1e4, 1e5, 1e6) if d <= largest]
    for dfn, dfd, q in itertools.product(dfs, dfs, QUANTILES):
        assert f_quantile(q, dfn, dfd) == pytest.approx(f.ppf(q, dfn, dfd), rel=tolerance), (q, dfn, dfd)


def test_regularized_beta_is_scipys():
    for a, b in itertools.product((0.25, 1.0, 3.0, 50.0, 5e3), repeat=2):
        for x in (1e-8, 0.01, 0.3, 0.5, 0.7, 0.99, 1 - 1e-9):
            assert regularized_beta(x, a, b) == pytest.approx(betainc(a, b, x), rel=1e-10, abs=1e-300)


def test_beta_quantile_keeps_both_sides_precise():
    # x near 1: its complement is solved for directly (1 − X ~ Beta(b, a)), so 1 − x keeps its digits
    x, complement = beta_quantile(0.999, 50.0, 0.5)
    assert x + complement == 1.0
    assert complement == pytest.approx(beta.ppf(0.001, 0.5, 50.0), rel=1e-10)
    assert regularized_beta(x, 50.0, 0.5) == pytest.approx(0.999, rel=1e-13)


def test_huge_degrees_of_freedom_give_the_limit_quickly():
    # F(d, ∞) = χ²(d) / d: beyond LARGEST_DF the quantile is within 1e-6 of that limit
    from scipy.stats import chi2
    for dfd in (1e8, 1e14, 1e300):
        assert f_quantile(0.975, 5, dfd) == pytest.approx(chi2.ppf(0.975, 5) / 5, rel=1e-6)
        assert f_quantile(0.975, dfd, 5) == pytest.approx(5 / chi2.ppf(0.025, 5), rel=1e-6)


@pytest.mark.parametrize("q, dfn, dfd", [(0.0, 3, 4), (1.0, 3, 4), (0.5, 0, 4), (0.5, 3, -1), (math.nan, 3, 4),
                                         (0.5, math.inf, 4)])
def test_undefined_quantiles_are_nan(q, dfn, dfd):
    assert math.isnan(f_quantile(q, dfn, dfd))


# ------------------------------------------------------------------ the page's scipy

BLOCKER = """
import importlib.abc, json, sys
sys.path[:0] = [{root!r}, {pycore!r}]
from buildtools.scipy_split import SCIPY_BASE, SCIPY_SPARSE
ALLOWED = SCIPY_BASE + SCIPY_SPARSE
import importlib.util, pathlib
SCIPY = pathlib.Path(importlib.util.find_spec("scipy").submodule_search_locations[0])

class PageScipy(importlib.abc.MetaPathFinder):
    '''Only the modules of the calculator's scipy parts import, as in the page.'''
    def find_spec(self, name, path=None, target=None):
        if not name.startswith("scipy."):
            return None
        where = name.replace(".", "/")
        if name.count(".") == 1 and (SCIPY / (name.split(".")[1] + ".py")).is_file():
            return None  # scipy/*.py: in the base part
        if any((where + "/").startswith(p) or where.startswith(p) for p in ALLOWED):
            return None
        raise ModuleNotFoundError(f"No module named {{name!r}} in the page", name=name)

sys.meta_path.insert(0, PageScipy())
import agreekit
from agreekit.registry import KINDS
done = []
for kind, rows, options in json.loads(sys.stdin.read()):
    few = {{"bootstrap": 20}} if any(o.name == "bootstrap" for o in KINDS[kind].options) else {{}}
    agreekit.report(kind, rows, **few, **options).to_json()
    done.append(kind + " " + json.dumps(options))
print(json.dumps(done))
"""


def _numeric_rows(seed=3):
    import random
    rng = random.Random(seed)
    return "item,annotator,label\n" + "".join(f"i{i},{a},{rng.randint(1, 5) + (i % 3)}\n"
                                               for i in range(30) for a in ("a", "b", "c"))


def test_every_kind_computes_with_only_the_page_s_scipy():
    examples = ROOT / "web" / "examples"
    cases = [[path.stem, path.read_text(encoding="utf-8"), {}] for path in sorted(examples.glob("*.csv"))
             if "-" not in path.stem]
    cases += [["labels", _numeric_rows(), {"level": level}] for level in ("ordinal", "interval", "ratio")]
    code = BLOCKER.format(root=str(ROOT), pycore=str(ROOT / "pycore"))
    run = subprocess.run([sys.executable, "-c", code], input=json.dumps(cases), capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    assert len(json.loads(run.stdout)) == len(cases)
