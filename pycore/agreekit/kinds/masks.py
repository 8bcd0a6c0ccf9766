"""Pixel masks: COCO run-length encoding, mask IoU on runs, and STAPLE consensus.

Run-length encoding (COCO's, as ``pycocotools.mask`` stores it)
    A mask of ``height × width`` pixels is read in **column-major** order (down the
    first column, then the next) and written as run lengths that alternate
    background, foreground, background, …, **starting with background** (a mask
    whose first pixel is foreground starts with a 0 run). The runs sum to
    ``height · width``. Two text forms are accepted:

    * uncompressed: the run lengths as a JSON list ``[12, 3, 40, …]`` or as
      integers separated by spaces or commas (a list of ints in a dict row too);
    * compressed: COCO's string form (``pycocotools.mask.encode(...)["counts"]``):
      each run, after the third as a difference from the run two before, in
      6-bit groups of 5 data bits plus a continuation bit, offset into ASCII 48–111.

    A single bare integer written as ``height · width`` (no leading zeros) is the
    uncompressed one-run mask (all background); any other string without
    separators is read as the compressed form (whose alphabet includes digits and
    ``[``: a JSON-looking string whose runs do not add up is tried as compressed). Masks are only ever compared with masks of the
    same item and size, so the pixel order does not change any number here; it
    matters only for drawing (``consensus_rle`` in the report is column-major too).

Mask IoU = |A ∩ B| / |A ∪ B|, computed on runs: the run boundaries of all masks of
an item are merged into segments on which every annotator's value is constant, so
no mask is ever expanded to pixels.

STAPLE (Warfield, Zou & Wells, "Simultaneous truth and performance level estimation
(STAPLE)", IEEE TMI 23(7), 2004), binary form, by expectation–maximization:

* D is the pixels × annotators 0/1 matrix; the prior π = mean(D) (fraction of
  foreground over all annotators and pixels), clamped to [1e-10, 1 − 1e-10]. The
  prior is **fixed**, not re-estimated, as in Warfield et al.'s global-prior
  variant, SimpleITK's ``STAPLEImageFilter`` and Potato (reference semantics §10).
* Start (``start``): ``"votes"`` (default) takes W = the fraction of annotators
  marking each pixel and begins with an M-step, as SimpleITK's
  ``STAPLEImageFilter`` does; ``"rates"`` begins with p_j = q_j = 0.9999 for every
  annotator, as Potato does. With ≥ 3 annotators both reach the same estimates;
  with 2 the model is not identifiable (4 vote patterns, 4 rates) and the limit
  depends on the start, so the two differ there. ``"potato"`` runs Potato 2.8's
  whole variant instead (reference semantics §10: rates start, ε = 1e-10 inside the
  logs, at most 50 iterations, stop on the pixel mean of |ΔW| < 1e-7; ``max_iter``
  and ``tol`` do not apply); a rate left undefined by an empty consensus is still
  reported as undefined, not as Potato's leftover value.
* E-step: W = P(true foreground | D) =
  π Π_j p_j^D (1−p_j)^(1−D) / (that + (1−π) Π_j q_j^(1−D) (1−q_j)^D), in logs.
* M-step: p_j = Σ W D_j / Σ W, q_j = Σ (1−W)(1−D_j) / Σ (1−W), clipped to
  [1e-10, 1 − 1e-10].
* Stop when no p_j or q_j moves by more than ``tol`` (default 1e-10), at most
  ``max_iter`` (default 1000) iterations; ``converged`` says which. (Potato stops on
  mean |ΔW| < 1e-7 after at most 50; on large, mostly empty images a mean over
  pixels can stop early, so agreekit watches the parameters.)
* Consensus: W ≥ 0.5.

W depends on a pixel only through its pattern of annotator votes, so the EM runs on
the (at most 2^R) distinct patterns weighted by their pixel counts: the same sums
as pixel by pixel, in the order of the pattern list. Majority vote is shown
beside it: foreground where **more than half** of the annotators mark it (a tie
is background). Dice(A, B) = 2|A ∩ B| / (|A| + |B|), 1 when both are empty.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from .. import options as opts
from ..registry import register
from ..results import Report, estimate
from ..rows import ANNOTATOR_SYNONYMS, InputError, is_blank, read_table, to_int, to_text

__all__ = [
    "parse_rle", "rle_from_string", "rle_to_string", "encode", "decode", "mask_iou", "union_runs",
    "StapleResult", "staple", "staple_runs", "masks",
]

COLUMNS = ("item", "annotator", "width", "height", "rle", "label")
SYNONYMS = {
    "item": ("image", "image_id", "img", "item_id", "file", "filename", "image_name"),
    "annotator": ANNOTATOR_SYNONYMS,
    "label": ("class", "category", "class_name", "category_name", "tag"),
    "width": ("w",),
    "height": ("h",),
    "rle": ("counts", "mask", "segmentation"),
}
EPS = 1e-10


# --------------------------------------------------------------------------- RLE

def rle_from_string(text: str) -> np.ndarray:
    """Decode COCO's compressed RLE string into run lengths (see the module docstring)."""
    counts = []
    data = text.encode("ascii")
    pos = 0
    while pos < len(data):
        value = 0
        shift = 0
        while True:
            c = data[pos] - 48
            if not 0 <= c < 64:
                raise ValueError(f"character {chr(data[pos])!r} is outside COCO's RLE alphabet")
            value |= (c & 0x1F) << shift
            shift += 5
            pos += 1
            if not c & 0x20:
                if c & 0x10:  # sign bit of the last group: negative difference
                    value -= 1 << shift
                break
            if pos >= len(data):
                raise ValueError("the string ends inside a run")
        if len(counts) > 2:
            value += counts[-2]
        counts.append(value)
    return np.asarray(counts, dtype=np.int64)


def rle_to_string(counts) -> str:
    """Encode run lengths as COCO's compressed RLE string (inverse of :func:`rle_from_string`)."""
    counts = [int(c) for c in counts]
    out = []
    for k, value in enumerate(counts):
        if k > 2:
            value -= counts[k - 2]
        while True:
            c = value & 0x1F
            value >>= 5
            more = value != -1 if c & 0x10 else value != 0
            out.append(chr(48 + (c | 0x20 if more else c)))
            if not more:
                break
    return "".join(out)


def encode(mask) -> np.ndarray:
    """Uncompressed COCO run lengths of a 2-D boolean mask (column-major, background first)."""
    flat = np.asarray(mask, dtype=bool).ravel(order="F")
    change = np.flatnonzero(flat[1:] != flat[:-1]) + 1
    edges = np.concatenate([[0], change, [flat.size]])
    runs = np.diff(edges)
    if flat.size and flat[0]:
        runs = np.concatenate([[0], runs])
    return runs.astype(np.int64)


def decode(counts, height: int, width: int) -> np.ndarray:
    """The ``height × width`` boolean mask of uncompressed COCO run lengths."""
    counts = np.asarray(counts, dtype=np.int64)
    values = np.arange(len(counts)) % 2 == 1
    return np.repeat(values, counts).reshape((height, width), order="F")


def _checked_runs(runs, height, width):
    """Run lengths as int64 after checking them; raises ValueError with the reason."""
    try:
        arr = np.asarray(runs)
        if arr.ndim != 1 or (arr.size and not np.all(np.equal(np.mod(arr, 1), 0))):
            raise TypeError
        arr = arr.astype(np.int64)
    except (TypeError, ValueError):
        raise ValueError("run lengths must be a list of whole numbers") from None
    if np.any(arr < 0):
        raise ValueError("run lengths must not be negative")
    if int(arr.sum()) != height * width:
        raise ValueError(f"run lengths add up to {int(arr.sum())}, but the mask has "
                         f"{height} × {width} = {height * width} pixels")
    return arr


def _integers(text):
    return [int(token) for token in text.replace(",", " ").split()]


def parse_rle(value, height: int, width: int, *, line=None, column="rle") -> np.ndarray:
    """Read one ``rle`` field into validated run lengths (int64) for a height × width mask.

    Blank means an empty mask (the annotator saw the item and marked nothing). A
    string is tried as the forms it could be, in order: a JSON list (it starts with
    ``[``), integers (it has spaces or commas, or is the single integer height ×
    width), COCO's compressed string (no separators; its alphabet includes ``[``
    and digits). The first reading whose runs add up to height × width is taken.
    Raises :class:`InputError` naming the line when none does.
    """
    if is_blank(value):
        return np.array([height * width], dtype=np.int64)
    if isinstance(value, dict):  # a COCO RLE object {"size": [h, w], "counts": ...}
        value = value.get("counts", "")
    if not isinstance(value, str):
        readers = [lambda v: v]
    else:
        text = value.strip()
        separated = any(sep in text for sep in " ,\t")
        readers = []
        if text.startswith("["):
            readers.append(json.loads)
        # A bare canonical integer equal to height × width is the one-run empty mask;
        # no compressed string of several digits adds up to its own decimal value.
        if separated or (text.isdigit() and text == str(height * width)):
            readers.append(_integers)
        if not separated:
            readers.append(rle_from_string)
        value = text
    first_error = None
    for read in readers:
        try:
            return _checked_runs(read(value), height, width)
        except ValueError as exc:
            first_error = first_error or exc
    raise InputError(f"cannot read the run lengths: {first_error}", line=line, column=column, value=value)


def _segments(runs_list, n_pixels):
    """Merge the run boundaries of several masks of one size.

    Returns ``(lengths, votes)``: the lengths of the segments on which every mask is
    constant, and a (masks, segments) boolean array of each mask's value there.
    """
    ends = [np.cumsum(r) for r in runs_list]
    bounds = np.unique(np.concatenate([[0, n_pixels]] + ends))
    starts = bounds[:-1]
    votes = np.array([np.searchsorted(e, starts, side="right") % 2 == 1 for e in ends]).reshape(len(ends), -1)
    return np.diff(bounds), votes


def _runs_of(lengths, values):
    """Run lengths (background first) of a mask given as constant segments."""
    if len(values) == 0:
        return np.zeros(1, dtype=np.int64)
    change = np.flatnonzero(values[1:] != values[:-1]) + 1
    edges = np.concatenate([[0], change])
    runs = np.add.reduceat(lengths, edges)
    if values[0]:
        runs = np.concatenate([[0], runs])
    return runs.astype(np.int64)


def union_runs(runs_list, n_pixels) -> np.ndarray:
    """Run lengths of the union (OR) of several masks of one size, computed on runs."""
    lengths, votes = _segments(runs_list, n_pixels)
    return _runs_of(lengths, votes.any(axis=0))


def mask_iou(runs_a, runs_b) -> float:
    """IoU of two masks given as run lengths (same size); NaN when both are empty."""
    n = int(np.sum(runs_a))
    lengths, votes = _segments([runs_a, runs_b], n)
    inter = float(np.sum(lengths[votes[0] & votes[1]]))
    union = float(np.sum(lengths[votes[0] | votes[1]]))
    return inter / union if union > 0 else float("nan")


# --------------------------------------------------------------------------- STAPLE

@dataclass
class StapleResult:
    """STAPLE outcome for one image. Arrays are per annotator unless noted."""

    consensus: np.ndarray      # boolean mask (or segment values for the run form)
    probability: np.ndarray    # W, the posterior probability of true foreground
    sensitivity: np.ndarray
    specificity: np.ndarray
    dice: np.ndarray           # each annotator against the consensus
    majority: np.ndarray       # majority vote, strictly more than half
    majority_dice: np.ndarray  # each annotator against the majority vote
    consensus_majority_dice: float
    prior: float
    iterations: int
    converged: bool


def _dice(inter, size_a, size_b):
    total = size_a + size_b
    return np.where(total > 0, 2.0 * inter / np.where(total > 0, total, 1.0), 1.0)


def _m_step(d, w, weights, p, q):
    fg, bg = float(w @ weights), float((1 - w) @ weights)
    new_p = np.clip((d * w) @ weights / fg, EPS, 1 - EPS) if fg > 0 else p
    new_q = np.clip(((1 - d) * (1 - w)) @ weights / bg, EPS, 1 - EPS) if bg > 0 else q
    return new_p, new_q


def _staple_patterns(votes, weights, max_iter, tol, start):
    """EM over distinct vote patterns: votes (R, P) bool, weights (P,) pixel counts.

    Returns W per pattern, p, q, prior, iterations, converged.
    """
    d = votes.astype(float)
    n = weights.sum()
    prior = float(np.clip((d @ weights).sum() / (n * len(d)), EPS, 1 - EPS))
    if start == "votes":
        p, q = _m_step(d, d.mean(axis=0), weights, np.full(len(d), 0.9999), np.full(len(d), 0.9999))
    else:
        p = np.full(len(d), 0.9999)
        q = np.full(len(d), 0.9999)
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
    return w, p, q, prior, iterations, converged


def _staple_patterns_potato(votes, weights):
    """Potato 2.8's STAPLE (reference semantics §10) over vote patterns: rates start
    at 0.9999, ε = 1e-10 inside the logs and the normalization, at most 50
    iterations, stop when the pixel mean of |W − W_prev| < 1e-7 (W_prev starts at
    the prior), and stop unconverged, keeping the new W and the old rates, when W
    or 1 − W sums below ε."""
    d = votes.astype(float)
    n = weights.sum()
    prior = float(np.clip((d @ weights).sum() / (n * len(d)), EPS, 1 - EPS))
    p = np.full(len(d), 0.9999)
    q = np.full(len(d), 0.9999)
    w_prev = np.full(d.shape[1], prior)
    w, converged, iterations = w_prev, False, 0
    for iterations in range(1, 51):
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
        if float(np.abs(w - w_prev) @ weights) / n < 1e-7:
            converged = True
            break
        w_prev = w
    return w, p, q, prior, iterations, converged


def _vote_patterns(votes, lengths=None):
    """The distinct columns of ``votes`` (R, n) as (R, P) booleans, each column's
    pattern index (n,), and each pattern's total length (pixel count if ``lengths``
    is None). Patterns are integer codes, counted by ``bincount`` for up to 20
    annotators (no sorting), by ``unique`` beyond."""
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
    return pattern_votes, inverse, weights.astype(float)


def _staple_from_segments(lengths, votes, max_iter, tol, start):
    """STAPLE and majority vote for masks given as constant segments (see :func:`_segments`);
    ``lengths`` None means every segment is one pixel."""
    r = votes.shape[0]
    if r < 2:
        raise ValueError("STAPLE needs at least 2 annotators")
    pattern_votes, inverse, weights = _vote_patterns(votes, lengths)
    if start == "potato":
        w, p, q, prior, iterations, converged = _staple_patterns_potato(pattern_votes, weights)
    else:
        w, p, q, prior, iterations, converged = _staple_patterns(pattern_votes, weights, max_iter, tol, start)
    fg, bg = float(w @ weights), float((1 - w) @ weights)
    # No (soft) true foreground or background: the rate is undefined, whatever EM left.
    sensitivity = p if fg >= EPS else np.full(r, np.nan)
    specificity = q if bg >= EPS else np.full(r, np.nan)
    consensus = w >= 0.5
    majority = pattern_votes.sum(axis=0) * 2 > r
    size = pattern_votes.astype(float) @ weights

    def dice_against(reference):
        inter = (pattern_votes & reference).astype(float) @ weights
        return _dice(inter, size, float(weights[reference].sum()))

    both = float(weights[consensus & majority].sum())
    cm_dice = float(_dice(both, float(weights[consensus].sum()), float(weights[majority].sum())))
    return (StapleResult(consensus[inverse], w[inverse], sensitivity, specificity, dice_against(consensus),
                         majority[inverse], dice_against(majority), cm_dice, prior, iterations, converged),
            pattern_votes, weights)


STARTS = ("votes", "rates", "potato")


def _check_start(start):
    if start not in STARTS:
        raise InputError(f"start must be one of {', '.join(STARTS)}, got {start!r}", column="start")


def staple(masks, *, max_iter: int = 1000, tol: float = 1e-10, start: str = "votes") -> StapleResult:
    """STAPLE consensus of an ``(annotators, height, width)`` boolean array.

    Returns a :class:`StapleResult` whose ``consensus``, ``probability`` and
    ``majority`` are (height, width) arrays. See the module docstring for the EM.
    """
    _check_start(start)
    arr = np.asarray(masks).astype(bool)
    if arr.ndim != 3:
        raise InputError(f"expected an (annotators, height, width) array, got shape {arr.shape}")
    if arr.shape[0] < 2:
        raise InputError("STAPLE needs at least 2 annotators")
    shape = arr.shape[1:]
    votes = arr.reshape(arr.shape[0], -1)
    result, _, _ = _staple_from_segments(None, votes, max_iter, tol, start)
    result.consensus = result.consensus.reshape(shape)
    result.probability = result.probability.reshape(shape)
    result.majority = result.majority.reshape(shape)
    return result


def staple_runs(runs_list, n_pixels: int, *, max_iter: int = 1000, tol: float = 1e-10, start: str = "votes"):
    """STAPLE of masks given as run lengths, without expanding them to pixels.

    Returns ``(result, consensus_runs, majority_runs, pair_iou)``; ``result`` holds
    per-segment ``consensus``/``probability``/``majority`` values, and ``pair_iou``
    is the annotators × annotators mask IoU (NaN where both masks are empty).
    """
    lengths, votes = _segments(runs_list, n_pixels)
    _check_start(start)
    result, pattern_votes, weights = _staple_from_segments(lengths, votes, max_iter, tol, start)
    pv = pattern_votes.astype(float)
    inter = (pv * weights) @ pv.T
    size = np.diag(inter)
    union = size[:, None] + size[None, :] - inter
    with np.errstate(invalid="ignore", divide="ignore"):
        pair_iou = np.where(union > 0, inter / union, np.nan)
    return (result, _runs_of(lengths, result.consensus), _runs_of(lengths, result.majority), pair_iou)


# --------------------------------------------------------------------------- report

def parse_masks(rows, label=None):
    """Read and check mask rows.

    Returns ``(items, n_rows, warnings)``: ``items`` maps item → (height, width,
    {annotator: [run lengths, …]}) in order of first appearance. A blank ``rle``
    means the annotator saw the item and marked nothing. With ``label`` given, masks
    with another label count as nothing marked (the annotator still saw the item).
    """
    table = read_table(rows, COLUMNS, SYNONYMS, required=("item", "annotator", "width", "height", "rle"))
    items = {}
    sizes = {}
    other_label = 0
    for row in table:
        item = to_text(row, "item")
        annotator = to_text(row, "annotator")
        width, height = to_int(row, "width"), to_int(row, "height")
        for column, value in (("width", width), ("height", height)):
            if value <= 0:
                raise InputError(f"'{column}' must be positive", line=row.line, column=column, value=value)
        if item in sizes and sizes[item][1:] != (height, width):
            first, h0, w0 = sizes[item]
            raise InputError(f"item {item!r} is {w0} × {h0} on line {first} but {width} × {height} here",
                             line=row.line, column="width", value=width)
        sizes.setdefault(item, (row.line, height, width))
        runs = parse_rle(row.values.get("rle"), height, width, line=row.line)
        row_label = to_text(row, "label", required=False)
        if label is not None and runs.size > 1 and row_label != label:
            other_label += 1
            runs = np.array([height * width], dtype=np.int64)
        items.setdefault(item, (height, width, {}))[2].setdefault(annotator, []).append(runs)
    warnings = []
    if other_label:
        warnings.append(f"{other_label} mask(s) with a label other than {label!r} count as nothing marked")
    return items, len(table), warnings


def _mean_or_none(values, what):
    values = np.asarray(values, dtype=float)
    values = values[np.isfinite(values)]
    if values.size == 0:
        return estimate(None, reason=f"no item defines the {what}")
    return estimate(float(values.mean()), n=values.size)


@register("masks", title="Masks", summary="pixel masks: item, annotator, width, height, rle (COCO), label",
          options=(opts.Option("label", "text", "Only masks with this label",
                               "others count as nothing marked (the annotator still saw the item)"),
                   opts.Option("max_iter", "int", "STAPLE iteration limit", minimum=1, maximum=10_000),
                   opts.Option("tol", "float", "STAPLE tolerance",
                               "stop when no rate moves by more than this", minimum=0.0, maximum=1.0),
                   opts.Option("start", "choice", "STAPLE start", choices=(
                       opts.Choice("votes", "votes (as SimpleITK)"), opts.Choice("rates", "rates"),
                       opts.Choice("potato", "potato (Potato 2.8's whole variant)")))),
          columns=COLUMNS, synonyms=SYNONYMS, count_key="n_masks", position=5)
def masks(rows, *, label=None, max_iter=1000, tol=1e-10, start="votes"):
    """Agreement report for pixel masks: STAPLE consensus, majority vote, mask IoU.

    ``rows``: CSV/TSV text or a list of dicts with ``item, annotator, width,
    height, rle, label`` (``rle``: COCO run lengths, uncompressed or compressed;
    see the module docstring). An annotator's several masks on one item are
    united (OR); ``label`` restricts the report to masks of that label.
    ``max_iter``, ``tol``, ``start``: STAPLE's iteration limit, parameter
    tolerance and starting point (``"votes"`` or ``"rates"``).
    """
    items, n_rows, warnings = parse_masks(rows, label)
    names = sorted({a for _, _, by in items.values() for a in by})
    index = {a: k for k, a in enumerate(names)}
    single = [item for item, (_, _, by) in items.items() if len(by) < 2]
    if single:
        warnings.append(f"{len(single)} item(s) have only one annotator and are left out: "
                        + ", ".join(map(str, single[:10])) + (" …" if len(single) > 10 else ""))
    n = len(names)
    per_annotator = {key: [[] for _ in range(n)] for key in ("sensitivity", "specificity", "dice", "majority_dice")}
    pair_iou = [[[] for _ in range(n)] for _ in range(n)]
    item_entries, not_converged, no_foreground = [], [], []
    for item, (height, width, by) in items.items():
        if len(by) < 2:
            continue
        who = sorted(by)
        n_pixels = height * width
        runs = [union_runs(by[a], n_pixels) if len(by[a]) > 1 else by[a][0] for a in who]
        result, consensus_runs, majority_runs, ious = staple_runs(runs, n_pixels, max_iter=int(max_iter),
                                                                 tol=float(tol), start=start)
        if not result.converged:
            not_converged.append(item)
        if not np.isfinite(result.sensitivity).all():
            no_foreground.append(item)
        for k, a in enumerate(who):
            g = index[a]
            for key in per_annotator:
                per_annotator[key][g].append(getattr(result, key)[k])
            for m, b in enumerate(who):
                if m != k:
                    pair_iou[g][index[b]].append(ious[k, m])
        upper = ious[np.triu_indices(len(who), 1)]
        item_entries.append({
            "item": item, "width": width, "height": height, "annotators": who,
            "sensitivity": result.sensitivity, "specificity": result.specificity,
            "dice": result.dice, "majority_dice": result.majority_dice,
            "mean_pairwise_iou": float(np.nanmean(upper)) if np.isfinite(upper).any() else None,
            "consensus_area": int(np.sum(consensus_runs[1::2])),
            "majority_area": int(np.sum(majority_runs[1::2])),
            "consensus_majority_dice": result.consensus_majority_dice,
            "consensus_rle": consensus_runs, "majority_rle": majority_runs, "annotator_rle": runs,
            "prior": result.prior, "iterations": result.iterations, "converged": result.converged,
        })
    if not_converged:
        warnings.append(f"STAPLE did not converge within {int(max_iter)} iterations on {len(not_converged)} "
                        "item(s): " + ", ".join(map(str, not_converged[:10])))
    if no_foreground:
        warnings.append(f"{len(no_foreground)} item(s) have an empty consensus, so sensitivity is undefined "
                        "there: " + ", ".join(map(str, no_foreground[:10])))
    # Items whose annotators disagree most come first.
    item_entries.sort(key=lambda e: float(np.mean(e["dice"])))
    annotators = []
    for a, name in enumerate(names):
        others = [v for b in range(n) for v in pair_iou[a][b]]
        annotators.append({
            "annotator": name, "n_items": len(per_annotator["dice"][a]),
            "sensitivity": _mean_or_none(per_annotator["sensitivity"][a], "sensitivity"),
            "specificity": _mean_or_none(per_annotator["specificity"][a], "specificity"),
            "dice": _mean_or_none(per_annotator["dice"][a], "Dice"),
            "majority_dice": _mean_or_none(per_annotator["majority_dice"][a], "Dice"),
            "mean_iou": _mean_or_none(others, "mask IoU"),
        })
    pairs = [{"a": names[a], "b": names[b], "n_items": len(pair_iou[a][b]),
              "mean_iou": _mean_or_none(pair_iou[a][b], "mask IoU")}
             for a in range(n) for b in range(a + 1, n) if pair_iou[a][b]]
    all_pairs = [v for a in range(n) for b in range(a + 1, n) for v in pair_iou[a][b]]
    return Report("masks", {
        "settings": {"label": label, "max_iter": int(max_iter), "tol": float(tol), "start": start,
                     "rle_order": "column-major (COCO)", "prior": "fixed: mean of all votes"},
        "n_items": len(item_entries),
        "n_items_total": len(items),
        "n_annotators": len(names),
        "n_masks": n_rows,
        "mean_pairwise_iou": _mean_or_none(all_pairs, "mask IoU"),
        "mean_dice": _mean_or_none([d for e in item_entries for d in e["dice"]], "Dice"),
        "mean_majority_dice": _mean_or_none([d for e in item_entries for d in e["majority_dice"]], "Dice"),
        "consensus_majority_dice": _mean_or_none([e["consensus_majority_dice"] for e in item_entries], "Dice"),
        "annotators": annotators,
        "pairs": pairs,
        "items": item_entries,
        "warnings": warnings,
    })
