"""``linear_sum_assignment`` without importing :mod:`scipy.optimize`.

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
from pathlib import Path

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
