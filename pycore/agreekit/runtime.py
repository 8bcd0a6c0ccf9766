"""The one switch for what differs in Pyodide: every browser-only choice of the core is made here.

The core runs the same code in CPython and in Pyodide (0.27.7: numpy 2.0.2, scipy
1.14.1, wasm32).  Where the two differ in speed, not in results, the faster
implementation is chosen here, once, and the modules below read these names at
call time (tests flip them with ``monkeypatch.setattr(runtime, …)``):

* :data:`IN_PYODIDE`: whether this is Pyodide (``sys.platform == "emscripten"``).
* :data:`GROUPED_CROSS_COUNTS`: the between baseline's cross-pair counts N in closed form
  (:class:`agreekit.measures.bootstrap.GroupedOuterPairs`, bit-equal to the dense product),
  used by :mod:`agreekit.measures.chance`.  Pyodide's BLAS (wasm32, no SIMD) takes 70–100 ms
  for the dense product of 1,000 resamples × 200 items, the closed form 30 ms; CPython's
  BLAS takes 11–40 ms and the closed form no less (benchmarks/RESULTS.md, per-run sums).
* :data:`REORDER_COLUMNS`: the box distance block computes its columns in an order where
  comparisons rarely change direction (:mod:`agreekit.geometry.boxes`).  Pyodide's numpy
  takes a branch per element in np.maximum/np.minimum, so that runs ≈ 2× faster there;
  CPython's (SIMD) takes the same time either way and would only pay the reordering.
* :data:`DENSE_ELEMENT_COST`: what one element of a dense item-pair matrix costs the bootstrap
  (:class:`agreekit.measures.bootstrap.DensePairs`, BLAS), in stored entries of a sparse one
  (:class:`~agreekit.measures.bootstrap.SparsePairs`, scipy.sparse): the sampled baseline's terms
  take the cheaper form (:mod:`agreekit.measures.chance`).  For 64 resamples of 4,000 items and
  1.6 M stored entries, CPython took 0.35 s dense and 0.08 s sparse (0.34 ns an element, 0.8 ns an
  entry); Pyodide 14.6 s dense and 0.08 s sparse (14 ns an element: wasm32 BLAS without SIMD), so
  the dense product was 190× slower there (benchmarks/big_paste.py, benchmarks/RESULTS.md).
* :data:`SORTED_PAIR_TABLES`: the labels pairs' margins under the resamples come from each pair's
  q × q tables, summed by sorted runs of the rows' cells (:func:`agreekit.measures.pair_tables.sorted_sums`),
  not from one BLAS product of the draws with the pairs' indicator columns.  For 1,000 resamples of
  946 distinct rows and 10 pairs, Pyodide took 0.60 s for the product and 0.14 s for the sums; CPython
  0.10 s and 0.05 s, but for 20 annotators (190 pairs of 3,000 rows) CPython's product is several times
  faster than the sums (the report 1.1 s against 3.4 s; benchmarks/RESULTS.md, "labels in the page's runtime").
* :data:`linear_sum_assignment`: scipy's solver without importing :mod:`scipy.optimize`.

The solver (Crouse 2016) is scipy's C extension ``scipy/optimize/_lsap*.so``;
``scipy.optimize.linear_sum_assignment`` is that extension's function itself.
Importing it the usual way runs ``scipy/optimize/__init__.py``, which imports
scipy.sparse, scipy.linalg and most of scipy.optimize: in Pyodide 0.27.7 under
Node, after ``import numpy`` (3.1 s), ``scipy.sparse`` took 8.1 s and
``scipy.optimize`` 3.5 s more (benchmarks/RESULTS.md), while a box report needs
only this one function.  So the extension is loaded by its file path under its
own name, which runs no ``__init__.py`` of scipy.optimize; anything unexpected
(another scipy layout, a loader error, a function that fails its check) falls
back to the ordinary import, which gives the same function.

References
----------
Crouse, D. F. (2016). On implementing 2D rectangular assignment algorithms.
IEEE Transactions on Aerospace and Electronic Systems 52(4), 1679–1696.
"""
from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from pathlib import Path

IN_PYODIDE = sys.platform == "emscripten"
GROUPED_CROSS_COUNTS = IN_PYODIDE
REORDER_COLUMNS = IN_PYODIDE
DENSE_ELEMENT_COST = 14.0 if IN_PYODIDE else 0.4
SORTED_PAIR_TABLES = IN_PYODIDE

EXTENSION = "scipy.optimize._lsap"


def _extension_solver():
    """``linear_sum_assignment`` of scipy's ``_lsap`` extension, loaded from its file; None if not found."""
    scipy_spec = importlib.util.find_spec("scipy")  # a top-level name: imports nothing
    if scipy_spec is None or not scipy_spec.submodule_search_locations:
        return None
    for location in scipy_spec.submodule_search_locations:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = Path(location) / "optimize" / f"_lsap{suffix}"
            if path.is_file():
                loader = importlib.machinery.ExtensionFileLoader(EXTENSION, str(path))
                module = importlib.util.module_from_spec(importlib.util.spec_from_file_location(
                    EXTENSION, str(path), loader=loader))
                loader.exec_module(module)
                return module.linear_sum_assignment
    return None


def _solver():
    """The extension's solver if it loads and solves a 2 × 3 problem correctly, else scipy.optimize's."""
    try:
        solver = _extension_solver()
        rows, cols = solver([[1.0, 0.0, 2.0], [0.0, 3.0, 3.0]])  # least cost: (0, 1) and (1, 0)
        if list(rows) == [0, 1] and list(cols) == [1, 0]:
            return solver
    except Exception:  # noqa: BLE001 - any failure means: use the ordinary import
        pass
    from scipy.optimize import linear_sum_assignment
    return linear_sum_assignment


linear_sum_assignment = _solver()
