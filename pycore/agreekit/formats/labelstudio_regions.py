"""Label Studio results: regions, their kind, and their geometry in agreekit's units.

One region is the results of one annotation that share an ``id`` (a region
drawn with a ``Rectangle`` tool and labelled with ``Labels`` is two results,
and a per-region ``Choices`` adds a third); its shape comes from its value's
fields (JSON_MIN drops ``type``):

=============  ==================================  =========================
shape          value fields                        agreekit kind
=============  ==================================  =========================
rectangle      x, y, width, height, rotation       boxes (polygons: rotated)
polygon        points [[x, y], …]                  polygons
brush          rle (format "rle")                  masks
text           start, end, text                    spans
audio          start, end (seconds), channel       segments
timeseries     start, end, instant                 segments
=============  ==================================  =========================

Image coordinates are percent of ``original_width`` / ``original_height``;
pixels are ``v · size / 100``.  A rectangle's ``(x, y)`` is its top-left
corner, which stays fixed while the box turns ``rotation`` degrees clockwise
(y points down), so its corners are ``P0 = (x, y)``, ``P1 = P0 + w (cos θ,
sin θ)``, ``P3 = P0 + h (−sin θ, cos θ)``, ``P2 = P1 + P3 − P0``.  Text
offsets are JavaScript string offsets (UTF-16 code units); agreekit's are
code points (Python's).

References
----------
Label Studio tag documentation (RectangleLabels, PolygonLabels, BrushLabels,
Labels) and HumanSignal/label-studio-converter ``converter.py``
(``rotated_rectangle``, ``convert_to_coco``).
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..geometry.polygon_checks import validate_polygons
from ..rows import InputError
from .labelstudio_brush import brush_runs

__all__ = ["Region", "SHAPE_KIND", "read_regions", "box", "polygon", "mask", "segment", "TextOffsets",
           "number"]

SHAPE_KIND = {"rectangle": "boxes", "polygon": "polygons", "brush": "masks", "text": "spans",
              "audio": "segments", "timeseries": "segments"}
SHAPE_TITLE = {"rectangle": "rectangle", "polygon": "polygon", "brush": "brush mask", "text": "text span",
               "audio": "audio segment", "timeseries": "time-series segment"}
NOT_READ = {
    "hypertext": "HyperText or Paragraphs span (DOM offsets are not read)",
    "video": "video rectangle (keyframes are not read)",
    "ellipse": "ellipse (not a kind agreekit reads)",
    "keypoint": "key point (not a kind agreekit reads)",
    "classification": "classification of the whole task, not a region",
    "relation": "relation between regions, not a region",
    "unknown": "result of a type agreekit does not read",
}
CLASSIFICATIONS = frozenset({"choices", "textarea", "rating", "number", "datetime", "taxonomy", "ranker",
                             "pairwise"})
QUARTER_TURNS = {0.0: (1.0, 0.0), 90.0: (0.0, 1.0), 180.0: (-1.0, 0.0), 270.0: (0.0, -1.0)}
CLASSIFICATION_FIELDS = ("choices", "text", "rating", "number", "datetime", "taxonomy", "ranker")


class Region(NamedTuple):
    """One region of one annotation: its shape, the value holding its geometry, its label."""

    where: str            # task, annotation and region id, for messages
    shape: str            # a key of SHAPE_KIND
    value: dict
    label: str | None     # several labels are joined with "+"
    n_labels: int
    size: tuple | None    # (original_width, original_height) in pixels, when given
    to_name: str | None   # the object tag (Image, Text, …) the region is on
    image_rotation: float


def number(value):
    """``value`` as an int when it is whole, else as a float (tidy CSV: ``20`` rather than ``20.0``).

    >>> number(20.0), number(1.5)
    (20, 1.5)
    """
    value = float(value)
    return int(value) if value.is_integer() and abs(value) < 2 ** 53 else value


# --------------------------------------------------------------------------- results → regions

def _shape(kind, value):
    """The shape of one result from its ``type`` (may be empty) and the fields of its value."""
    if kind == "relation":
        return "relation"
    if kind in CLASSIFICATIONS:
        return "classification"
    if "rle" in value or kind in ("brush", "brushlabels"):
        return "brush"
    if "points" in value:
        return "polygon"
    if all(k in value for k in ("x", "y", "width", "height")):
        return "rectangle"
    if "startOffset" in value or kind in ("hypertextlabels", "paragraphlabels"):
        return "hypertext"
    if "start" in value and "end" in value:
        if kind == "timeserieslabels" or "timeserieslabels" in value or "instant" in value:
            return "timeseries"
        return "text" if "text" in value else "audio"
    if "sequence" in value:
        return "video"
    if "radiusX" in value:
        return "ellipse"
    if "x" in value and "y" in value:
        return "keypoint"
    if any(k in value for k in CLASSIFICATION_FIELDS):
        return "classification"
    return "unknown"


def _labels(values):
    """The labels of a region: every ``…labels`` list in its results' values, in order, once each."""
    out = []
    for value in values:
        for key, labels in value.items():
            if key.endswith("labels") and isinstance(labels, list):
                out += [str(label) for label in labels if str(label) not in out]
    return out


def _size(result, value):
    width = result.get("original_width", value.get("original_width"))
    height = result.get("original_height", value.get("original_height"))
    ok = all(isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 for v in (width, height))
    return (width, height) if ok else None


def _grouped(results, where):
    """The results of an annotation grouped into regions by ``id`` (results without one stand alone)."""
    groups = {}
    for k, result in enumerate(results):
        if not isinstance(result, dict) or not isinstance(result.get("value", {}), dict):
            raise InputError(f"{where}: result {k} is not an object with a 'value' object", column="result")
        key = result.get("id")
        if key is not None and (isinstance(key, bool) or not isinstance(key, (str, int))):
            raise InputError(f"{where}: result {k}: 'id' must be a text, not {key!r}", column="id", value=key)
        groups.setdefault(("id", key) if key is not None else ("index", k), []).append(result)
    return list(groups.values())


def read_regions(results, where):
    """The regions of one annotation's results, and what was left out.

    Parameters
    ----------
    results : list of dict
        ``annotation.result`` (JSON export) or results rebuilt from a JSON_MIN
        record (``from_name``, ``value``, sizes; no ``type`` or ``id``).
    where : str
        Task and annotation, for messages.

    Returns
    -------
    regions : list of Region
    left_out : list of (str, str)
        ``(where, reason)`` for every result group that is not a region agreekit reads.
    """
    regions, left_out = [], []
    for group in _grouped(results, where):
        shapes = [(_shape(str(r.get("type") or "").lower(), r.get("value", {})), r) for r in group]
        drawn = [(shape, r) for shape, r in shapes if shape in SHAPE_KIND]
        region_where = f"{where}, region {group[0].get('id') or group[0].get('from_name') or '?'}"
        if not drawn:
            left_out.append((region_where, NOT_READ[shapes[0][0]]))
            continue
        shape, result = drawn[0]
        value = result.get("value", {})
        if shape == "brush" and value.get("format", "rle") != "rle":
            left_out.append((region_where, f"brush mask in format {value.get('format')!r} (only 'rle' is read)"))
            continue
        labels = _labels(r.get("value", {}) for r in group)
        regions.append(Region(region_where, shape, value, "+".join(sorted(labels)) or None, len(labels),
                              _size(result, value), result.get("to_name"), float(result.get("image_rotation") or 0)))
    return regions, left_out


# --------------------------------------------------------------------------- geometry

def _finite(where, name, value):
    """``value`` as a float, or an error naming the field when it is not a finite number."""
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
        raise InputError(f"{where}: value.{name} must be a number, not {value!r}", column=f"value.{name}",
                         value=value)
    return float(value)


def box(region, size):
    """The top-left corner and size of a rectangle, before its rotation.

    Parameters
    ----------
    region : Region
        A rectangle (``value.x, y, width, height`` in percent of the image).
    size : tuple of (float, float) or None
        ``(original_width, original_height)``; None keeps percent units.

    Returns
    -------
    tuple of float
        ``(x, y, w, h)``: ``x · width / 100`` and so on, in pixels when ``size`` is given.

    Raises
    ------
    InputError
        A coordinate that is not a finite number, naming the region and field.
    """
    x, y, w, h = (_finite(region.where, k, region.value.get(k)) for k in ("x", "y", "width", "height"))
    if size is None:
        return x, y, w, h
    width, height = size
    return x * width / 100, y * height / 100, w * width / 100, h * height / 100


def rotation(region):
    """The rectangle's rotation in degrees, in [0, 360) (0 when absent)."""
    return _finite(region.where, "rotation", region.value.get("rotation") or 0) % 360


def _simple(points):
    """``points`` as an (n, 2) array when they form a simple polygon (agreekit's check), else None."""
    try:
        return validate_polygons([np.asarray(points, dtype=float)])[0]
    except InputError:
        return None


def _corners(region, size):
    x, y, w, h = box(region, size)
    degrees = rotation(region)
    theta = math.radians(degrees)
    # quarter turns exactly (cos 90° is 6e-17 in floating point)
    ux, uy = QUARTER_TURNS.get(degrees, (math.cos(theta), math.sin(theta)))
    return [(x, y), (x + w * ux, y + w * uy), (x + w * ux - h * uy, y + w * uy + h * ux), (x - h * uy, y + h * ux)]


def polygon(region, size):
    """The vertices of a polygon, or the corners of a (rotated) rectangle.

    Parameters
    ----------
    region : Region
        A polygon (``value.points``, percent) or a rectangle (corners as in the
        module docstring, turned about the top-left corner).
    size : tuple of (float, float) or None
        ``(original_width, original_height)``; None keeps percent units (a
        caller must not pass None for a rotated rectangle: its corners depend
        on the image's aspect ratio).

    Returns
    -------
    np.ndarray, shape (n, 2), or None
        The vertices (repeats collapsed), or None when they do not form a
        simple polygon (:func:`agreekit.geometry.polygon_checks.validate_polygons`).

    Raises
    ------
    InputError
        ``value.points`` not a list of pairs of finite numbers.
    """
    if region.shape == "rectangle":
        return _simple(_corners(region, size))
    points = region.value.get("points")
    if not isinstance(points, list) or not all(isinstance(p, list) and len(p) == 2 for p in points):
        raise InputError(f"{region.where}: value.points must be a list of [x, y] pairs", column="value.points")
    scale = (1.0, 1.0) if size is None else (size[0] / 100, size[1] / 100)
    vertices = [(_finite(region.where, "points", px) * scale[0], _finite(region.where, "points", py) * scale[1])
                for px, py in points]
    return _simple(vertices)


def mask(region, size):
    """A brush region as agreekit's mask columns.

    Parameters
    ----------
    region : Region
        A brush region (``value.rle``, see :mod:`.labelstudio_brush`).
    size : tuple of (int, int)
        ``(original_width, original_height)``.

    Returns
    -------
    tuple
        ``(width, height, runs)``: ``runs`` is the COCO column-major run-length
        text (background first, space-separated) of the pixels whose alpha is above 0.

    Raises
    ------
    InputError
        A stream that does not decode to ``height × width × 4`` values, naming the region.
    """
    width, height = (int(v) for v in size)
    try:
        runs = brush_runs(region.value.get("rle"), width, height)  # on runs: the canvas is never held
    except ValueError as error:
        raise InputError(f"{region.where}: value.rle: {error}", column="value.rle") from None
    return width, height, " ".join(str(run) for run in runs.tolist())


def segment(region):
    """The start and end of an audio or time-series region.

    Parameters
    ----------
    region : Region
        ``value.start`` and ``value.end``: seconds (Audio) or the time
        column's units (TimeSeries: epoch milliseconds or the row index),
        numbers or numeric text.

    Returns
    -------
    tuple of float
        ``(start, end)``.

    Raises
    ------
    InputError
        A time that is not a finite number, or ``end < start``, naming the region.
    """
    times = []
    for name in ("start", "end"):
        value = region.value.get(name)
        if isinstance(value, str):  # time-series exports may write numbers as text
            try:
                value = float(value)
            except ValueError:
                pass
        times.append(_finite(region.where, name, value))
    start, end = times
    if end < start:
        raise InputError(f"{region.where}: value.end {end:g} is before value.start {start:g}", column="value.end")
    return start, end


# --------------------------------------------------------------------------- text offsets

class TextOffsets:
    """Offsets into one text: JavaScript's UTF-16 code units mapped to Python's code points."""

    def __init__(self, text: str):
        self.text = text
        wide = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32) > 0xFFFF
        # unit_starts[k] is the UTF-16 offset of code point k (one entry past the end too)
        self.unit_starts = (np.concatenate([[0], np.cumsum(1 + wide)]).astype(np.int64)
                            if wide.any() else None)

    def code_point(self, unit: int):
        """The code-point offset of UTF-16 offset ``unit``, or None (inside a surrogate pair, or out of range).

        >>> offsets = TextOffsets("😀 Bob")
        >>> offsets.code_point(3), offsets.code_point(1)
        (2, None)
        """
        if self.unit_starts is None:
            return unit if 0 <= unit <= len(self.text) else None
        k = int(np.searchsorted(self.unit_starts, unit))
        return k if k < len(self.unit_starts) and self.unit_starts[k] == unit else None

    def resolve(self, start, end, expected):
        """``(start, end, how)`` in code points, or None when neither reading matches ``expected``.

        The UTF-16 reading (what Label Studio writes) is tried first, then the
        offsets as code points; ``how`` is ``"utf16"`` when the two differ and the
        first matched, ``"code points"`` when only the second did, else ``"same"``.
        With ``expected`` None any in-range reading is taken.
        """
        converted = (self.code_point(start), self.code_point(end))
        readings = [("utf16", converted), ("code points", (start, end))]
        for how, (s, e) in readings:
            if s is None or e is None or not 0 <= s <= e <= len(self.text):
                continue
            if expected is None or self.text[s:e] == expected:
                return s, e, ("same" if converted == (start, end) else how)
        return None
