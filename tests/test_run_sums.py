"""measures.run_sums: the sums of runs of rows bit for bit as np.add.reduceat, and the cross sums that use it."""
import numpy as np
import pytest

from agreekit.measures.run_sums import run_sums


def _bits(a):
    return np.ascontiguousarray(a).view(np.int64)


@pytest.mark.parametrize("seed", range(40))
def test_run_sums_equal_reduceat_bit_for_bit(seed):
    rng = np.random.default_rng(seed)
    longest = (2, 9, 20, 140, 400)[seed % 5]   # each of numpy's orders: in turn, 8 partial sums, halves
    lengths = rng.integers(1, longest + 1, size=rng.integers(1, 30))
    skipped = int(rng.integers(0, 3))           # rows before the first run belong to no run
    starts = skipped + np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.intp)
    scale = 10.0 ** rng.integers(-8, 8, size=(skipped + int(lengths.sum()), 1))
    a = rng.standard_normal((len(scale), int(rng.integers(1, 7)))) * scale
    a[rng.random(a.shape) < 0.05] = -0.0
    assert np.array_equal(_bits(run_sums(a, starts)), _bits(np.add.reduceat(a, starts, axis=0)))
    # Along axis 1 through the transpose, as the cross sums use it.
    wide = np.ascontiguousarray(a.T)
    assert np.array_equal(_bits(run_sums(np.ascontiguousarray(wide.T), starts).T),
                          _bits(np.add.reduceat(wide, starts, axis=1)))


def test_run_sums_of_a_long_run_differ_from_a_sum_in_order():
    """The check above can fail: numpy's pairwise order is not left to right."""
    a = np.random.default_rng(1).standard_normal((300, 1)) * 1e6
    in_order = np.zeros(1)
    for row in a:
        in_order += row
    assert not np.array_equal(run_sums(a, np.zeros(1, np.intp))[0], in_order)
    assert np.array_equal(_bits(run_sums(a, np.zeros(1, np.intp))), _bits(np.add.reduceat(a, [0], axis=0)))


def test_run_sums_of_no_runs():
    assert run_sums(np.ones((3, 2)), np.zeros(0, np.intp)).shape == (0, 2)
