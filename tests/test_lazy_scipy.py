"""Start-up: ``import agreekit`` and a box report load neither scipy.optimize nor scipy.sparse, and what
replaces them (scipy's own ``_lsap`` extension loaded by its file, the cross counts in numpy) gives
scipy's numbers; the sparse item-pair form imports scipy.sparse when first built."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.optimize

from agreekit import runtime
from agreekit.measures import bootstrap as boot
from agreekit.measures import cross

PYCORE = Path(__file__).resolve().parents[1] / "pycore"


def fresh_python(code):
    """Run ``code`` in a new interpreter with the checkout's package on the path; its stdout."""
    env = dict(os.environ, PYTHONPATH=str(PYCORE))
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout


def test_import_agreekit_loads_neither_scipy_optimize_nor_sparse():
    loaded = json.loads(fresh_python("import json, sys, agreekit; print(json.dumps(sorted(sys.modules)))"))
    assert "agreekit.kinds.boxes" in loaded and "scipy.optimize._lsap" in loaded
    assert not [name for name in loaded if name.startswith(("scipy.optimize.", "scipy.sparse", "scipy.linalg"))
                and name != "scipy.optimize._lsap"]
    assert "scipy.optimize" not in loaded and "scipy.sparse" not in loaded


def test_a_box_report_loads_neither():
    code = ("import json, sys, agreekit\n"
            "from agreekit.simulate import crowd_corpus\n"
            "report = agreekit.boxes(crowd_corpus(n_images=30, per_image=3, objects=(1, 3), seed=2), bootstrap=200)\n"
            "print(json.dumps([report.localization.sigma.ci is not None,\n"
            "                  sorted(m for m in sys.modules if m.startswith(('scipy.sparse', 'scipy.optimize')))]))")
    has_interval, loaded = json.loads(fresh_python(code))
    assert has_interval and loaded == ["scipy.optimize._lsap"]


def test_the_loaded_solver_is_scipys():
    assert runtime.linear_sum_assignment is scipy.optimize.linear_sum_assignment


@pytest.mark.parametrize("shape", [(1, 1), (3, 7), (7, 3), (12, 12), (0, 4), (40, 25)])
def test_the_solver_gives_scipys_assignments(shape):
    rng = np.random.default_rng(shape[0] * 100 + shape[1])
    for matrix in (rng.random(shape), rng.integers(0, 3, shape).astype(float), np.ones(shape)):  # ties included
        for maximize in (False, True):
            ours = runtime.linear_sum_assignment(matrix, maximize=maximize)
            theirs = scipy.optimize.linear_sum_assignment(matrix, maximize=maximize)
            assert all(np.array_equal(a, b) for a, b in zip(ours, theirs))


@pytest.mark.parametrize("failure", [None, ImportError("no such file")])
def test_without_the_extension_the_ordinary_import_serves(monkeypatch, failure):
    def missing():
        if failure is not None:
            raise failure
        return None

    monkeypatch.setattr(runtime, "_extension_solver", missing)
    assert runtime._solver() is scipy.optimize.linear_sum_assignment


def test_a_solver_that_answers_wrongly_is_not_used(monkeypatch):
    monkeypatch.setattr(runtime, "_extension_solver", lambda: lambda cost: (np.array([0, 1]), np.array([0, 1])))
    assert runtime._solver() is scipy.optimize.linear_sum_assignment


def test_the_extension_loads_by_its_file_alone():
    code = ("import sys, numpy as np\n"
            "from agreekit.runtime import _extension_solver\n"
            "solve = _extension_solver()\n"
            "print(solve(np.array([[4.0, 1.0, 3.0], [2.0, 0.0, 5.0], [3.0, 2.0, 2.0]]))[1].tolist(), "
            "'scipy.optimize' in sys.modules)")
    assert fresh_python(code).split() == ["[1,", "0,", "2]", "False"]


def test_sparse_pairs_sum_repeated_entries_like_the_dense_form():
    rng = np.random.default_rng(5)
    n = 57
    first = rng.integers(0, n - 1, 400)
    second = first + rng.integers(1, n - first)          # first < second, many pairs repeated
    values = rng.normal(size=400)
    upper = np.zeros((n, n))
    np.add.at(upper, (first, second), values)
    counts = boot.resample_counts(n, 37, seed=4)
    pairs = boot.SparsePairs.from_entries(first, second, values, n)
    assert pairs.matrix.nnz == len(set(zip(first.tolist(), second.tolist())))
    assert pairs.weighted(counts) == pytest.approx(boot.DensePairs(upper + upper.T).weighted(counts),
                                                   rel=1e-12, abs=1e-12)


class Objects:
    """The fields of an ObjectSet that the cross counts read."""

    def __init__(self, per_item_annotator):
        self.n_items = len(per_item_annotator)
        self.annotators = [f"a{k}" for k in range(len(per_item_annotator[0]))]
        self.annotator_of = np.concatenate([np.repeat(np.arange(len(row)), row) for row in per_item_annotator])
        self.offsets = np.concatenate([[0], np.cumsum([sum(row) for row in per_item_annotator])]).astype(np.intp)


@pytest.mark.parametrize("group_pairs", [1 << 20, 3, 1])
def test_cross_counts_match_the_dense_products(monkeypatch, group_pairs):
    monkeypatch.setattr(cross, "GROUP_PAIRS", group_pairs)
    rng = np.random.default_rng(group_pairs)
    n_ia = rng.integers(0, 3, (23, 6)) * (rng.random((23, 6)) < 0.6)   # objects of annotator a on item i
    n_ia[4] = 0                                                        # an empty item
    objects = Objects(n_ia.tolist())
    total, per_annotator, per_pair = cross.exact_counts(objects)
    t, n_i = n_ia.sum(axis=0), n_ia.sum(axis=1)
    # Oracle: count the cross pairs object by object.
    item_of = np.repeat(np.arange(23), n_i)
    between = item_of[:, None] != item_of[None, :]
    crossing = between & (objects.annotator_of[:, None] != objects.annotator_of[None, :])
    assert total == crossing.sum() / 2
    assert np.array_equal(per_annotator, np.bincount(objects.annotator_of, crossing.sum(axis=1), 6))
    expected_pairs = np.outer(t, t) - n_ia.T @ n_ia
    np.fill_diagonal(expected_pairs, 0)
    assert np.array_equal(per_pair, expected_pairs)
    same_items = n_ia @ n_ia.T
    np.fill_diagonal(same_items, 0)
    assert np.array_equal(cross.same_item_pair_counts(objects), same_items)
