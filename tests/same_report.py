"""One comparison of two reports for the tests: the same keys and strings, floats within 1e-12.

Pyodide's numpy (wasm32, no SIMD, its own BLAS) and CPython's sum in different orders, so a
bootstrap percentile can differ in its last bit (measured: 0.6326120565237272 against
…273); anything larger is a real difference.
"""
import math


def assert_same(a, b, where="report"):
    """Assert that report ``a`` equals ``b`` key by key, floats to 1e-12 (relative or absolute)."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), (where, sorted(a), sorted(b) if isinstance(b, dict) else b)
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
