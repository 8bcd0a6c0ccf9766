"""Label Studio's brush masks: its run-length bitstream decoded into a binary mask.

A ``brushlabels`` region stores ``value.rle``, a list of bytes holding the
canvas pixels ``height × width × 4`` (RGBA, row-major) packed with the
``rle-pack`` scheme of thi.ng/umbrella, read as one bitstream, most
significant bit of each byte first:

* a header: the number of values (32 bits), the word size minus one (5 bits),
  and four run-length field sizes, each minus one (4 bits each);
* then tokens until that many values are written: a flag bit, a 2-bit index
  into the four field sizes, and a count (``count + 1`` values) in that many
  bits; a set flag repeats the one word that follows ``count + 1`` times, a
  clear flag is followed by ``count + 1`` literal words.

The encoder (:func:`brush_rle`) writes 8-bit words and repeat tokens only
(a run of one value is one token per ``2**16`` values), which the decoder
and rle-pack's ``decode`` read like any other stream.

A pixel belongs to the mask when its alpha value (the fourth channel) is
positive, as in label-studio-converter's ``brush.decode_from_annotation`` and
``ls_rle_to_coco_rle``.

References
----------
thi.ng/umbrella, ``packages/rle-pack/src/index.ts`` (``decode``);
HumanSignal/label-studio-converter, ``label_studio_converter/brush.py``
(``decode_rle``).
"""
from __future__ import annotations

import numpy as np

from ..geometry.row_runs import crop_rows_to_columns

__all__ = ["decode_values", "brush_mask", "brush_runs", "encode_values", "brush_rle"]

HEADER_BITS = 32 + 5 + 4 * 4
FIELD_SIZES = (2, 5, 10, 16)  # the run-length field sizes the encoder declares (bits)


class _Bits:
    """A most-significant-bit-first reader over bytes."""

    def __init__(self, data: bytes):
        self.data = data
        self.size = 8 * len(data)
        self.pos = 0
        self._bits = None

    def read(self, width: int) -> int:
        """The next ``width`` bits as an unsigned integer."""
        end = self.pos + width
        if end > self.size:
            raise ValueError("the brush RLE ends inside a token")
        first, last = self.pos // 8, (end + 7) // 8
        chunk = int.from_bytes(self.data[first:last], "big") >> (8 * last - end)
        self.pos = end
        return chunk & ((1 << width) - 1)

    def read_words(self, count: int, width: int) -> np.ndarray:
        """The next ``count`` words of ``width`` bits each, as int64 (vectorized: literal blocks are long)."""
        end = self.pos + count * width
        if end > self.size:
            raise ValueError("the brush RLE ends inside a literal block")
        if self._bits is None:
            self._bits = np.unpackbits(np.frombuffer(self.data, dtype=np.uint8))
        bits = self._bits[self.pos:end].reshape(count, width).astype(np.int64)
        self.pos = end
        return bits @ (np.int64(1) << np.arange(width - 1, -1, -1, dtype=np.int64))


def _as_bytes(rle) -> bytes:
    if isinstance(rle, (bytes, bytearray)):
        return bytes(rle)
    if not isinstance(rle, list) or not all(isinstance(b, int) and not isinstance(b, bool) and 0 <= b <= 255
                                            for b in rle):
        raise ValueError("the brush RLE must be a list of bytes (integers 0–255)")
    return bytes(rle)


def decode_values(rle) -> np.ndarray:
    """The values packed in a Label Studio brush RLE (``value.rle``).

    Parameters
    ----------
    rle : list of int or bytes
        The bytes of the bitstream (see the module docstring).

    Returns
    -------
    np.ndarray, shape (n,)
        The decoded words: ``uint8`` for word sizes up to 8 bits, ``uint16`` up
        to 16, else ``uint32`` (as rle-pack's ``arrayForWordSize``).

    Raises
    ------
    ValueError
        Not a list of bytes, a stream that ends inside its header or a token,
        or a token that runs past the declared number of values.
    """
    n_values, word, tokens = _tokens(rle)
    out = np.zeros(n_values, dtype=np.uint8 if word <= 8 else np.uint16 if word <= 16 else np.uint32)
    for i, j, value in tokens:
        out[i:j] = value
    return out


def _tokens(rle, expected=None):
    """``(n_values, word size, tokens)``: the header, and a generator of ``(i, j, value)`` for the values
    ``[i, j)``: one int for a repeat token, an array of the words for a literal block. ``expected``, when
    given, is checked against the header's number of values before any token is read."""
    data = _as_bytes(rle)
    if 8 * len(data) < HEADER_BITS:
        raise ValueError("the brush RLE is shorter than its header")
    bits = _Bits(data)
    n_values = bits.read(32)
    word = bits.read(5) + 1
    field_sizes = [bits.read(4) + 1 for _ in range(4)]
    if expected is not None and n_values != expected:
        raise ValueError(f"the brush RLE holds {n_values} values, not {expected}")

    def tokens():
        i = 0
        while i < n_values:
            repeat = bits.read(1)
            j = i + 1 + bits.read(field_sizes[bits.read(2)])
            if j > n_values:
                raise ValueError(f"a run reaches value {j}, past the {n_values} values the header declares")
            yield i, j, (bits.read(word) if repeat else bits.read_words(j - i, word))
            i = j

    return n_values, word, tokens()


def brush_runs(rle, width: int, height: int) -> np.ndarray:
    """COCO column-major run lengths of a brush region's mask (alpha > 0), never holding the canvas.

    The value ``v`` of the RGBA canvas belongs to pixel ``v // 4`` and is its alpha when ``v % 4 == 3``:
    the values ``[i, j)`` of a token hold the alphas of the pixels ``[i // 4, j // 4)``.  A repeat
    token is one run of those pixels; a literal block's words are in the file, so its pixels are read
    one by one.  The pixels' runs (row by row) are then reordered into column order on runs
    (:func:`agreekit.geometry.row_runs.crop_rows_to_columns`).

    Raises
    ------
    ValueError
        As :func:`decode_values`, or when the header does not declare ``height × width × 4`` values
        (checked before anything is decoded).

    >>> brush_runs(brush_rle(np.array([[True, False], [True, True]])), 2, 2).tolist()
    [0, 2, 1, 1]
    """
    _, _, tokens = _tokens(rle, expected=height * width * 4)
    bounds, values = [], []  # where each stretch of pixels begins, and whether it is marked
    for i, j, value in tokens:
        first, end = i // 4, j // 4
        if end <= first:
            continue
        if isinstance(value, np.ndarray):
            marked = value[4 * np.arange(first, end) + 3 - i] > 0
            change = np.flatnonzero(marked[1:] != marked[:-1]) + 1
            bounds.append(first + np.concatenate(([0], change)))
            values.append(marked[np.concatenate(([0], change))])
        else:
            bounds.append(np.array([first]))
            values.append(np.array([value > 0]))
    counts = _row_counts(np.concatenate(bounds or [np.zeros(0, np.int64)]),
                         np.concatenate(values or [np.zeros(0, bool)]), width * height)
    return crop_rows_to_columns(counts, 0, 0, width, height, width, height)


def _row_counts(bounds, marked, n_pixels):
    """Run lengths (background first) of pixels whose stretches begin at ``bounds`` with the values ``marked``."""
    change = np.flatnonzero(np.concatenate(([True], marked[1:] != marked[:-1]))) if len(marked) else []
    edges = np.concatenate((bounds[change], [n_pixels])).astype(np.int64)
    runs = np.diff(edges)
    if len(marked) and marked[change[0]]:
        runs = np.concatenate(([0], runs))
    if len(edges) and edges[0] > 0:  # cannot happen: the tokens cover every value from 0
        runs = np.concatenate(([edges[0]], runs))
    return runs if len(runs) else np.array([n_pixels], dtype=np.int64)


def brush_mask(rle, width: int, height: int) -> np.ndarray:
    """The binary mask of a brush region: alpha > 0 of the decoded RGBA canvas.

    Parameters
    ----------
    rle : list of int or bytes
        ``value.rle`` of a ``brushlabels`` result.
    width, height : int
        ``original_width`` and ``original_height`` of the result, in pixels.

    Returns
    -------
    np.ndarray of bool, shape (height, width)

    Raises
    ------
    ValueError
        As :func:`decode_values`, or when the stream does not hold
        ``height × width × 4`` values.
    """
    values = decode_values(rle)
    expected = height * width * 4
    if values.size != expected:
        raise ValueError(f"the brush RLE holds {values.size} values, not {height} × {width} × 4 = {expected}")
    return values.reshape(height, width, 4)[:, :, 3] > 0


def encode_values(values) -> bytes:
    """``values`` (integers 0–255) packed as an rle-pack bitstream of repeat tokens (inverse of :func:`decode_values`).

    >>> decode_values(list(encode_values([0, 0, 0, 255, 255]))).tolist()
    [0, 0, 0, 255, 255]
    """
    values = np.asarray(values, dtype=np.int64).ravel()
    bits = [(values.size, 32), (7, 5)] + [(size - 1, 4) for size in FIELD_SIZES]
    starts = np.concatenate(([0], np.flatnonzero(np.diff(values)) + 1)) if values.size else np.zeros(0, np.int64)
    ends = np.concatenate((starts[1:], [values.size])) if values.size else starts
    for start, end in zip(starts.tolist(), ends.tolist()):
        word = int(values[start])
        while start < end:
            count = min(end - start, 1 << FIELD_SIZES[-1])
            index = next(k for k, size in enumerate(FIELD_SIZES) if count - 1 < 1 << size)
            bits += [(1, 1), (index, 2), (count - 1, FIELD_SIZES[index]), (word, 8)]
            start += count
    number, width = 0, 0
    for value, size in bits:
        number, width = (number << size) | value, width + size
    padding = -width % 8
    return (number << padding).to_bytes((width + padding) // 8, "big")


def brush_rle(mask) -> list:
    """``value.rle`` of a brush region: the RGBA canvas of a boolean ``(height, width)`` mask, its pixels white
    and opaque (255 in every channel), packed by :func:`encode_values` (inverse of :func:`brush_mask`).

    >>> brush_mask(brush_rle(np.array([[True, False]])), 2, 1).tolist()
    [[True, False]]
    """
    canvas = np.repeat(np.asarray(mask, dtype=bool).ravel(), 4).astype(np.int64) * 255
    return list(encode_values(canvas))
