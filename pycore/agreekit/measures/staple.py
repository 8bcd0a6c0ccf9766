"""STAPLE consensus of binary masks, and majority vote beside it.

STAPLE (Warfield, Zou & Wells 2004), binary form, by expectation–maximization:

* D is the pixels × annotators 0/1 matrix; the prior π = mean(D) (fraction of
  foreground over all annotators and pixels), clamped to [1e-10, 1 − 1e-10]. The
  prior is **fixed**, not re-estimated, as in Warfield et al.'s global-prior
  variant, SimpleITK's ``STAPLEImageFilter`` and Potato (docs/potato-differences.md).
* Start (``start``): ``"votes"`` (default) takes W = the fraction of annotators
  marking each pixel and begins with an M-step, as SimpleITK's
  ``STAPLEImageFilter`` does; ``"rates"`` begins with p_j = q_j = 0.9999 for every
  annotator, as Potato does. With ≥ 3 annotators both reach the same estimates;
  with 2 the model is not identifiable (4 vote patterns, 4 rates) and the limit
  depends on the start, so the two differ there. ``"potato"`` runs Potato 2.8's
  whole variant instead (docs/potato-differences.md: rates start, ε = 1e-10 inside
  the logs, at most 50 iterations, stop on the pixel mean of |ΔW| < 1e-7;
  ``max_iter`` and ``tol`` do not apply); a rate left undefined by an empty
  consensus is still reported as undefined, not as Potato's leftover value.
* E-step: W = P(true foreground | D) =
  π Π_j p_j^D (1−p_j)^(1−D) / (that + (1−π) Π_j q_j^(1−D) (1−q_j)^D), in logs.
* M-step: p_j = Σ W D_j / Σ W, q_j = Σ (1−W)(1−D_j) / Σ (1−W), clipped to
  [1e-10, 1 − 1e-10].
* Stop when no p_j or q_j moves by more than ``tol`` (default 1e-10), at most
  ``max_iter`` (default 1000) iterations; ``converged`` says which. (Potato stops on
  mean |ΔW| < 1e-7 after at most 50; on large, mostly empty images a mean over
  pixels can stop early, so agreekit watches the parameters.)
* Consensus: W ≥ 0.5. Sensitivity (specificity) is undefined (NaN) when the
  consensus has no soft foreground (background): Σ W (Σ 1 − W) < 1e-10.

W depends on a pixel only through its pattern of annotator votes, so the EM runs on
the (at most 2^R) distinct patterns weighted by their pixel counts: the same sums
as pixel by pixel, in the order of the pattern list. Majority vote is foreground
where **more than half** of the annotators mark it (a tie is background).
Dice(A, B) = 2|A ∩ B| / (|A| + |B|), 1 when both are empty.

References
----------
S. K. Warfield, K. H. Zou and W. M. Wells, "Simultaneous truth and performance
level estimation (STAPLE): an algorithm for the validation of image
segmentation", IEEE Transactions on Medical Imaging 23(7): 903–921, 2004.
"""
from __future__ import annotations

import dataclasses
from typing import NamedTuple

import numpy as np

from ..arrays import safe_ratio
from ..geometry.rle import pairwise_iou, runs_of_segments, segments
from ..rows import InputError

__all__ = ["EPS", "STARTS", "StapleResult", "StapleRuns", "VotePatterns", "majority_vote", "vote_patterns",
           "staple", "staple_runs"]

EPS = 1e-10           # clamp of the prior and the rates; the least soft area a rate needs
STARTS = ("votes", "rates", "potato")
START_RATE = 0.9999   # p_j = q_j at the "rates" start (Potato's)
POTATO_MAX_ITER = 50
POTATO_TOL = 1e-7     # on the pixel mean of |W − W_prev|


@dataclasses.dataclass(frozen=True, eq=False)
class StapleResult:
    """STAPLE outcome for one image. Arrays of length R are per annotator.

    ``consensus``, ``probability`` and ``majority`` are (height, width) arrays from
    :func:`staple` and per-segment values from :func:`staple_runs`.
    """

    consensus: np.ndarray      # W ≥ 0.5, boolean
    probability: np.ndarray    # W, the posterior probability of true foreground
    sensitivity: np.ndarray    # p_j (NaN when the consensus has no foreground)
    specificity: np.ndarray    # q_j (NaN when the consensus has no background)
    dice: np.ndarray           # each annotator against the consensus
    majority: np.ndarray       # majority vote, strictly more than half
    majority_dice: np.ndarray  # each annotator against the majority vote
    consensus_majority_dice: float
    prior: float               # π, fixed
    iterations: int
    converged: bool


class StapleRuns(NamedTuple):
    """:func:`staple_runs` of masks given as run lengths."""

    result: StapleResult       # per-segment consensus, probability and majority
    consensus_runs: np.ndarray
    majority_runs: np.ndarray
    pair_iou: np.ndarray       # (R, R) mask IoU, NaN where both masks are empty


class VotePatterns(NamedTuple):
    """The distinct columns of an (R, n) vote matrix."""

    votes: np.ndarray    # (R, P) bool, one column per distinct pattern
    inverse: np.ndarray  # (n,) the pattern of each column of the vote matrix
    weights: np.ndarray  # (P,) float, total length (pixel count) of each pattern


class _Fit(NamedTuple):
    probability: np.ndarray  # W per pattern
    sensitivity: np.ndarray
    specificity: np.ndarray
    prior: float
    iterations: int
    converged: bool


def majority_vote(votes) -> np.ndarray:
    """Foreground where more than half of the R annotators mark it (a tie is background).

    ``votes`` is (R, …) boolean; the result has the shape of one annotator's votes.

    >>> majority_vote(np.array([[1, 1, 0, 0], [1, 0, 1, 0]], bool)).tolist()
    [True, False, False, False]
    """
    votes = np.asarray(votes)
    return votes.sum(axis=0) * 2 > votes.shape[0]


def vote_patterns(votes, lengths=None) -> VotePatterns:
    """The distinct vote patterns of ``votes`` (R, n) and their total ``lengths`` (pixels if None).

    Patterns are integer codes, counted by ``bincount`` for up to 20 annotators
    (no sorting), by ``unique`` beyond; above 62 annotators the columns themselves
    are compared.
    """
    r = votes.shape[0]
    if r <= 8:
        codes = np.packbits(votes, axis=0, bitorder="little")[0]
    elif r <= 62:
        codes = np.zeros(votes.shape[1], dtype=np.int64)
        for j in range(r):
            codes |= votes[j].astype(np.int64) << j
    if r <= 20:
        counts = np.bincount(codes, weights=lengths, minlength=1 << r)
        patterns = np.flatnonzero(counts)
        index = np.zeros(1 << r, dtype=np.int64)
        index[patterns] = np.arange(len(patterns))
        inverse, weights = index[codes], counts[patterns]
    else:
        if r <= 62:
            patterns, inverse = np.unique(codes, return_inverse=True)
        else:
            patterns, inverse = np.unique(votes.T, axis=0, return_inverse=True)
        inverse = inverse.ravel()
        weights = np.bincount(inverse, weights=lengths, minlength=len(patterns))
    if r <= 62:
        pattern_votes = ((patterns[None, :] >> np.arange(r)[:, None]) & 1).astype(bool)
    else:
        pattern_votes = patterns.T
    return VotePatterns(pattern_votes, inverse, weights.astype(float))


# --------------------------------------------------------------------------- EM over vote patterns

def _fixed_prior(d, weights):
    """π: the weighted fraction of foreground votes over all annotators, clamped."""
    return float(np.clip((d @ weights).sum() / (weights.sum() * len(d)), EPS, 1 - EPS))


def _m_step(d, w, weights, p, q):
    """New rates from W; a rate whose soft area is 0 keeps its old value."""
    fg, bg = float(w @ weights), float((1 - w) @ weights)
    new_p = np.clip((d * w) @ weights / fg, EPS, 1 - EPS) if fg > 0 else p
    new_q = np.clip(((1 - d) * (1 - w)) @ weights / bg, EPS, 1 - EPS) if bg > 0 else q
    return new_p, new_q


def _em(votes, weights, max_iter, tol, start) -> _Fit:
    """EM with the "votes" or "rates" start, stopping when no rate moves by more than ``tol``."""
    d = votes.astype(float)
    prior = _fixed_prior(d, weights)
    start_rates = np.full(len(d), START_RATE)
    if start == "votes":
        p, q = _m_step(d, d.mean(axis=0), weights, start_rates, start_rates)
    else:
        p, q = start_rates, start_rates
    log_prior = np.log(prior), np.log1p(-prior)
    converged = False
    iterations = 0
    w = np.full(d.shape[1], prior)
    for iterations in range(1, max_iter + 1):
        log_f = log_prior[0] + np.log(p) @ d + np.log1p(-p) @ (1 - d)
        log_g = log_prior[1] + np.log(q) @ (1 - d) + np.log1p(-q) @ d
        w = 0.5 * (1.0 + np.tanh(0.5 * (log_f - log_g)))  # logistic, overflow-free
        new_p, new_q = _m_step(d, w, weights, p, q)
        step = max(np.max(np.abs(new_p - p)), np.max(np.abs(new_q - q)))
        p, q = new_p, new_q
        if step <= tol:
            converged = True
            break
    return _Fit(w, p, q, prior, iterations, converged)


def _em_potato(votes, weights) -> _Fit:
    """Potato 2.8's STAPLE (docs/potato-differences.md) over vote patterns.

    Rates start at 0.9999, ε = 1e-10 inside the logs and the normalization, at
    most 50 iterations, stop when the pixel mean of |W − W_prev| < 1e-7 (W_prev
    starts at the prior), and stop unconverged, keeping the new W and the old
    rates, when W or 1 − W sums below ε.
    """
    d = votes.astype(float)
    n = weights.sum()
    prior = _fixed_prior(d, weights)
    p = np.full(len(d), START_RATE)
    q = np.full(len(d), START_RATE)
    w_prev = np.full(d.shape[1], prior)
    w, converged, iterations = w_prev, False, 0
    for iterations in range(1, POTATO_MAX_ITER + 1):
        log_f = np.log(prior + EPS) + np.log(p + EPS) @ d + np.log(1 - p + EPS) @ (1 - d)
        log_g = np.log(1 - prior + EPS) + np.log(q + EPS) @ (1 - d) + np.log(1 - q + EPS) @ d
        top = np.maximum(log_f, log_g)
        f, g = np.exp(log_f - top), np.exp(log_g - top)
        w = f / (f + g + EPS)
        fg, bg = float(w @ weights), float((1 - w) @ weights)
        if fg < EPS or bg < EPS:
            break
        p = np.clip((d * w) @ weights / fg, EPS, 1 - EPS)
        q = np.clip(((1 - d) * (1 - w)) @ weights / bg, EPS, 1 - EPS)
        if float(np.abs(w - w_prev) @ weights) / n < POTATO_TOL:
            converged = True
            break
        w_prev = w
    return _Fit(w, p, q, prior, iterations, converged)


# --------------------------------------------------------------------------- results

def _dice(inter, size_a, size_b):
    """2|A ∩ B| / (|A| + |B|), 1 when both are empty."""
    total = np.asarray(size_a + size_b, dtype=float)
    return np.where(total > 0, safe_ratio(2.0 * inter, total), 1.0)


def _dice_against(patterns: VotePatterns, reference):
    """Each annotator's Dice against the mask ``reference`` (one value per pattern)."""
    inter = (patterns.votes & reference).astype(float) @ patterns.weights
    size = patterns.votes.astype(float) @ patterns.weights
    return _dice(inter, size, float(patterns.weights[reference].sum()))


def _staple_columns(votes, lengths, max_iter, tol, start):
    """STAPLE and majority vote of the columns of ``votes`` (R, n), each of ``lengths``
    pixels (one each if None). Returns the :class:`StapleResult` and the vote patterns."""
    r = votes.shape[0]
    if r < 2:
        raise ValueError("STAPLE needs at least 2 annotators")
    patterns = vote_patterns(votes, lengths)
    if start == "potato":
        fit = _em_potato(patterns.votes, patterns.weights)
    else:
        fit = _em(patterns.votes, patterns.weights, max_iter, tol, start)
    w, weights = fit.probability, patterns.weights
    # No (soft) true foreground or background: the rate is undefined, whatever EM left.
    sensitivity = fit.sensitivity if float(w @ weights) >= EPS else np.full(r, np.nan)
    specificity = fit.specificity if float((1 - w) @ weights) >= EPS else np.full(r, np.nan)
    consensus = w >= 0.5
    majority = majority_vote(patterns.votes)
    consensus_majority_dice = float(_dice(float(weights[consensus & majority].sum()),
                                          float(weights[consensus].sum()), float(weights[majority].sum())))
    result = StapleResult(
        consensus=consensus[patterns.inverse], probability=w[patterns.inverse],
        sensitivity=sensitivity, specificity=specificity, dice=_dice_against(patterns, consensus),
        majority=majority[patterns.inverse], majority_dice=_dice_against(patterns, majority),
        consensus_majority_dice=consensus_majority_dice, prior=fit.prior, iterations=fit.iterations,
        converged=fit.converged)
    return result, patterns


def _check_start(start):
    if start not in STARTS:
        raise InputError(f"start must be one of {', '.join(STARTS)}, got {start!r}", column="start")


def staple(masks, *, max_iter: int = 1000, tol: float = 1e-10, start: str = "votes") -> StapleResult:
    """STAPLE consensus of binary masks (Warfield, Zou & Wells 2004), with a fixed prior.

    The EM of the module docstring: the prior π is the fraction of foreground over
    all annotators and pixels, clamped to [1e-10, 1 − 1e-10], and is **not**
    re-estimated; the E-step gives W = P(true foreground | votes), the M-step each
    annotator's sensitivity p_j = Σ W D_j / Σ W and specificity
    q_j = Σ (1 − W)(1 − D_j) / Σ (1 − W); the consensus is W ≥ 0.5.

    Parameters
    ----------
    masks : array_like of bool, shape (annotators, height, width)
        At least 2 annotators.
    max_iter : int
        Iteration limit (not used by ``start="potato"``).
    tol : float
        Stop when no p_j or q_j moves by more than this (not used by ``start="potato"``).
    start : {"votes", "rates", "potato"}
        ``"votes"``: an M-step from the vote fractions (SimpleITK); ``"rates"``:
        p_j = q_j = 0.9999 (Potato's start); ``"potato"``: Potato 2.8's whole
        variant (docs/potato-differences.md).

    Returns
    -------
    StapleResult
        ``consensus``, ``probability`` and ``majority`` of shape (height, width);
        per annotator ``sensitivity``, ``specificity`` (NaN where undefined),
        ``dice`` and ``majority_dice``.

    Raises
    ------
    agreekit.rows.InputError
        An unknown ``start``, an array that is not 3-D, or fewer than 2 annotators.

    References
    ----------
    S. K. Warfield, K. H. Zou and W. M. Wells, "Simultaneous truth and performance
    level estimation (STAPLE)", IEEE Transactions on Medical Imaging 23(7), 2004.
    """
    _check_start(start)
    arr = np.asarray(masks).astype(bool)
    if arr.ndim != 3:
        raise InputError(f"expected an (annotators, height, width) array, got shape {arr.shape}")
    if arr.shape[0] < 2:
        raise InputError("STAPLE needs at least 2 annotators")
    shape = arr.shape[1:]
    result, _ = _staple_columns(arr.reshape(arr.shape[0], -1), None, max_iter, tol, start)
    return dataclasses.replace(result, consensus=result.consensus.reshape(shape),
                               probability=result.probability.reshape(shape),
                               majority=result.majority.reshape(shape))


def staple_runs(runs_list, n_pixels: int, *, max_iter: int = 1000, tol: float = 1e-10,
                start: str = "votes") -> StapleRuns:
    """STAPLE (see :func:`staple`) of masks given as run lengths, without expanding them to pixels.

    Parameters
    ----------
    runs_list : sequence of array_like of int
        One mask per annotator (at least 2), as COCO run lengths of ``n_pixels``.
    n_pixels : int
    max_iter, tol, start
        As for :func:`staple`.

    Returns
    -------
    StapleRuns
        ``result`` with per-segment ``consensus``/``probability``/``majority``
        (segments of :func:`agreekit.geometry.rle.segments`), the consensus and
        majority as run lengths, and the annotators × annotators mask IoU.
    """
    _check_start(start)
    cut = segments(runs_list, n_pixels)
    result, patterns = _staple_columns(cut.votes, cut.lengths, max_iter, tol, start)
    return StapleRuns(result, runs_of_segments(cut.lengths, result.consensus),
                      runs_of_segments(cut.lengths, result.majority),
                      pairwise_iou(patterns.votes, patterns.weights))
