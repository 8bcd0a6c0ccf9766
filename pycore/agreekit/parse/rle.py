"""COCO run-length encoding as text: reading and checking an ``rle`` field into run lengths.

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
    ``[``: a JSON-looking string whose runs do not add up is tried as compressed).
    Masks are only ever compared with masks of the same item and size, so the
    pixel order does not change any number here; it matters only for drawing.

    A mask has at most ``MAX_PIXELS`` = 2⁴⁰ pixels (over a million by a million):
    run lengths and their sums over many masks then stay exact in int64 and in
    float64. Runs are checked as Python integers, so no sum ever wraps around.

References
----------
T.-Y. Lin et al., "Microsoft COCO: Common Objects in Context", ECCV 2014; the
codec is ``rleToString``/``rleFrString`` of ``pycocotools/common/maskApi.c``.
"""
from __future__ import annotations

import json
import math

import numpy as np

from ..errors import InputError
from ..rows import is_blank, shortened

# The most pixels a mask may have (height · width): sums of runs over thousands of masks stay exact.
MAX_PIXELS = 2 ** 40
# Bits of a compressed run (or difference of runs) beyond which no mask of MAX_PIXELS can hold it.
_MAX_SHIFT = 60


def empty_runs(n_pixels: int) -> np.ndarray:
    """The run lengths of a mask of ``n_pixels`` with nothing marked: one background run.

    >>> empty_runs(12).tolist()
    [12]
    """
    return np.array([n_pixels], dtype=np.int64)


# --------------------------------------------------------------------------- the two text forms

def rle_from_string(text: str) -> np.ndarray:
    """Decode COCO's compressed RLE string into run lengths.

    Parameters
    ----------
    text : str
        ``pycocotools.mask.encode(mask)["counts"]`` as text (see the module docstring).

    Returns
    -------
    np.ndarray of int64
        The run lengths, background first.

    Raises
    ------
    ValueError
        A character outside ASCII 48–111, a string that ends inside a run, or a
        run larger than ``MAX_PIXELS``.

    >>> rle_from_string("44").tolist()
    [4, 4]
    """
    if not text.isascii():
        raise ValueError(f"character {next(c for c in text if not c.isascii())!r} is outside COCO's RLE alphabet")
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
            if shift > _MAX_SHIFT:  # stop before a long run of groups grows a huge integer
                raise ValueError("a run is larger than any mask")
        if len(counts) > 2:
            value += counts[-2]
        if abs(value) > MAX_PIXELS:
            raise ValueError(f"a run of {value} pixels is larger than any mask")
        counts.append(value)
    return np.asarray(counts, dtype=np.int64)


def rle_to_string(counts) -> str:
    """Encode run lengths as COCO's compressed RLE string (inverse of :func:`rle_from_string`).

    >>> rle_to_string([4, 4])
    '44'
    """
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


def checked_runs(runs, height: int, width: int) -> np.ndarray:
    """``runs`` as int64 run lengths of a ``height × width`` mask, after checking them.

    The checks run on Python integers, before any fixed-width array, so runs
    summing past int64 cannot wrap around into a valid-looking total.

    Raises
    ------
    ValueError
        Saying why: not a flat list of whole numbers, a negative run, or runs
        that do not add up to ``height · width``.
    """
    counts = runs.tolist() if isinstance(runs, np.ndarray) else runs
    if not isinstance(counts, (list, tuple)):
        raise ValueError("run lengths must be a list of whole numbers")
    if not all(type(c) is int for c in counts):  # the common case passes this one test
        if not all(map(_is_whole, counts)):
            raise ValueError("run lengths must be a list of whole numbers")
        counts = [int(c) for c in counts]
    if counts and min(counts) < 0:
        raise ValueError("run lengths must not be negative")
    total = sum(counts)
    if total != height * width:
        raise ValueError(f"run lengths add up to {shortened(total, 24)}, but the mask has "
                         f"{height} × {width} = {height * width} pixels")
    return np.array(counts, dtype=np.int64)  # each run ≤ height · width ≤ MAX_PIXELS


def _is_whole(value):
    """A whole number: an int (not a bool) or an integral finite float."""
    if isinstance(value, (int, np.integer)):
        return not isinstance(value, (bool, np.bool_))
    return isinstance(value, (float, np.floating)) and math.isfinite(value) and float(value).is_integer()


def _too_long(error):
    """Python's refusal of ``int()`` of thousands of digits, as what it means for a run length."""
    if str(error).startswith("Exceeds the limit"):
        return ValueError("a run length of thousands of digits is larger than any mask")
    return error


def _integers(text):
    try:
        return [int(token) for token in text.replace(",", " ").split()]
    except ValueError as error:
        raise _too_long(error) from None


def _json_list(text):
    """A flat JSON list of numbers; nested brackets are refused before ``json.loads`` (no deep recursion)."""
    if not text.endswith("]") or any(bracket in text[1:-1] for bracket in "[]{}"):
        raise ValueError("run lengths must be a flat list of whole numbers")
    try:
        return json.loads(text)
    except ValueError as error:
        raise _too_long(error) from None


def _readers(text, n_pixels):
    """The forms a stripped ``rle`` string could be written in, in the order they are tried."""
    separated = any(sep in text for sep in " ,\t")
    readers = []
    if text.startswith("["):
        readers.append(_json_list)
    # A bare canonical integer equal to height × width is the one-run empty mask;
    # no compressed string of several digits adds up to its own decimal value.
    if separated or (text.isdigit() and text == str(n_pixels)):
        readers.append(_integers)
    if not separated:
        readers.append(rle_from_string)
    return readers


def parse_rle(value, height: int, width: int, *, line=None, column="rle") -> np.ndarray:
    """Read one ``rle`` field into checked run lengths (int64) of a ``height × width`` mask.

    Parameters
    ----------
    value : str, list of int, dict or None
        Blank means an empty mask (the annotator saw the item and marked nothing);
        a dict is a COCO RLE object ``{"size": [h, w], "counts": ...}`` (its size
        must be the row's; ``counts`` may be bytes, as pycocotools gives); a list is
        the run lengths. A string is tried as the forms it could be, in order: a
        JSON list (it starts with ``[``), integers (it has spaces or commas, or is
        the single integer height × width), COCO's compressed string (no
        separators; its alphabet includes ``[`` and digits). The first reading
        whose runs add up to height × width is taken.
    height, width : int
        The mask's size in pixels.
    line, column
        Where ``value`` came from, for the error.

    Raises
    ------
    agreekit.rows.InputError
        Naming ``line`` and ``column`` when no reading gives valid runs, or
        when a dict's size is not the row's.

    >>> parse_rle("1 3", 2, 2).tolist(), parse_rle("", 2, 2).tolist()
    ([1, 3], [4])
    """
    if is_blank(value):
        return empty_runs(height * width)
    if isinstance(value, dict):
        _check_size(value.get("size"), height, width, line, column)
        value = value.get("counts", "")
    if isinstance(value, bytes):
        value = value.decode("ascii", errors="replace")
    if isinstance(value, str):
        value = value.strip()
        readers = _readers(value, height * width)
    else:
        readers = [lambda runs: runs]
    first_error = None
    for read in readers:
        try:
            return checked_runs(read(value), height, width)
        except ValueError as exc:
            first_error = first_error or exc
    raise InputError(f"cannot read the run lengths: {first_error}", line=line, column=column,
                     value=shortened(value))


def _check_size(size, height, width, line, column):
    """A COCO RLE dict's ``size`` ([height, width]), when given, must be the row's."""
    given = size.tolist() if isinstance(size, np.ndarray) else size
    if given is None or (isinstance(given, (list, tuple)) and list(given) == [height, width]):
        return
    raise InputError(f"the RLE's size {shortened(given, 40)} ([height, width]) disagrees with the row's "
                     f"height {height} and width {width}", line=line, column=column, value=shortened(given))
