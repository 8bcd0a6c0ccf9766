"""Polygon vertices as text: reading a ``points`` field into an ``(n, 2)`` array."""
from __future__ import annotations

import json

import numpy as np

from ..errors import InputError
from ..rows import shortened

# Brackets a points field may nest (a list of pairs); deeper text is refused before json.loads,
# whose recursion would otherwise exhaust the stack on thousands of brackets.
_MAX_NESTING = 2


def parse_points(text, *, line=None, column="points") -> np.ndarray:
    """Read a polygon's vertices from a ``points`` field.

    Parameters
    ----------
    text : str or sequence
        ``"x1 y1 x2 y2 …"``; pairs separated by semicolons, with the two numbers
        of a pair separated by a space or a comma (``"x1,y1; x2,y2"``); a JSON
        list of pairs ``[[x1, y1], …]`` or a flat JSON list ``[x1, y1, x2, y2,
        …]`` (the COCO ``segmentation`` form).  A sequence of pairs is taken as is.
    line, column
        Where the field is, for the error message.

    Returns
    -------
    ndarray, shape (n, 2)
        The vertices as floats (not yet checked: see :func:`validate_polygons`).

    Raises
    ------
    InputError
        Naming the line, the column and the value (shortened): no points, a
        token that is not a number, invalid JSON or JSON nested deeper than a
        list of pairs, an odd count of coordinates.
    """
    def fail(why):
        raise InputError(why, line=line, column=column, value=points_text(text))

    if isinstance(text, str):
        s = text.strip()
        if not s:
            fail("no points")
        if s.startswith("["):
            if _nesting(s) > _MAX_NESTING:
                fail(f"JSON nested more than {_MAX_NESTING} levels deep; expected [[x1, y1], …] or [x1, y1, …]")
            if "true" in s or "false" in s:  # json.loads would read them as 1 and 0
                fail("true and false are not coordinates")
            try:
                # Integers read as floats: a number of hundreds of digits is then out of range, not an error
                # of int-to-float conversion (nor of Python's limit on the digits of an int).
                values = json.loads(s, parse_int=float)
            except ValueError as exc:
                fail(f"not a valid JSON list ({getattr(exc, 'msg', exc)})")
        else:
            tokens = s.replace(";", " ").replace(",", " ").split()
            values = []
            for token in tokens:
                try:
                    values.append(float(token))
                except ValueError:
                    fail(f"{token!r} is not a number")
    else:
        values = text
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        fail("expected numbers or pairs of numbers")
    except OverflowError:  # an int beyond the float range, in a list given through the API
        fail("a coordinate is beyond the range of floating point (±1.8·10³⁰⁸)")
    if arr.ndim == 1:
        if arr.size % 2:
            fail(f"odd count of coordinates ({arr.size}); expected x y pairs")
        arr = arr.reshape(-1, 2)
    if arr.ndim != 2 or arr.shape[1] != 2:
        fail("expected a list of (x, y) pairs")
    return arr


def _nesting(text):
    """The deepest nesting of brackets (``[`` and ``{``) in ``text``, counted without recursion."""
    codes = np.frombuffer(text.encode("utf-8", "replace"), dtype=np.uint8)
    steps = np.isin(codes, (91, 123)).astype(np.intp) - np.isin(codes, (93, 125))
    return int(np.cumsum(steps).max(initial=0))


def points_text(points, limit=60):
    """A points field as a short text for an error's ``value``: the text itself, or the first coordinates."""
    if isinstance(points, str):
        return shortened(points, limit)
    try:
        numbers = np.asarray(points, dtype=float).ravel()[:limit // 2]
    except (TypeError, ValueError, OverflowError):
        return shortened(points, limit)
    return shortened(" ".join(f"{v:g}" for v in numbers), limit)
