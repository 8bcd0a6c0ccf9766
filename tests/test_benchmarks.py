"""The benchmark scripts still import: a moved module must not break them silently."""
import importlib.util
from pathlib import Path

import pytest

BENCHMARKS = sorted((Path(__file__).resolve().parents[1] / "benchmarks").glob("*.py"))


@pytest.mark.parametrize("path", BENCHMARKS, ids=lambda p: p.name)
def test_benchmark_imports(path):
    spec = importlib.util.spec_from_file_location(f"bench_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    assert 'if __name__ == "__main__":' in path.read_text(encoding="utf-8")  # so importing runs nothing
    spec.loader.exec_module(module)
