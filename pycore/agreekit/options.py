"""Options of the report functions: each declared once, with its type and range, checked once.

A kind's report function declares its options as :class:`Option` records (see
:mod:`agreekit.registry`); its keyword defaults stay in its signature, the one
place they are written.  :func:`check` turns every value a caller passes — from
Python, the command line, a share link or the page — into the declared type or
raises an :class:`~agreekit.rows.InputError` that names the option, the value and
what is allowed.  Resource-heavy options have a ceiling (``maximum``), so no
option can ask for unbounded work.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from numbers import Integral, Real

from .rows import InputError

TYPES = ("float", "int", "choice", "text", "floats", "table", "labels")


@dataclass(frozen=True)
class Choice:
    """One allowed value of a ``choice`` option and how a form names it."""

    value: str
    label: str


@dataclass(frozen=True)
class Option:
    """A report option.

    ``type`` is one of :data:`TYPES`: ``float`` and ``int`` numbers within
    ``minimum``/``maximum``; ``choice`` one of ``choices``; ``text`` a string;
    ``floats`` a non-empty list of numbers within the range; ``table`` rows
    (CSV/TSV text, a list of dicts, or a dict) read by the kind itself;
    ``labels`` a list of labels or one comma-separated string.  ``label`` is
    the short name a form or ``--help`` shows, ``help`` one sentence more.
    """

    name: str
    type: str
    label: str
    help: str = ""
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple = field(default=())

    def __post_init__(self):
        if self.type not in TYPES:
            raise ValueError(f"option {self.name}: unknown type {self.type!r}")

    def but(self, **changes):
        """This option with some fields changed (a kind's own label or range)."""
        return replace(self, **changes)

    def range_text(self):
        if self.type == "choice":
            return "one of " + ", ".join(c.value for c in self.choices)
        low = "" if self.minimum is None else f"{self.minimum:g}"
        high = "" if self.maximum is None else f"{self.maximum:g}"
        if low and high:
            return f"from {low} to {high}"
        if low:
            return f"at least {low}"
        return f"at most {high}" if high else "any value"

    def to_json(self, default):
        out = {"name": self.name, "type": self.type, "label": self.label, "help": self.help,
               "default": list(default) if isinstance(default, tuple) else default,
               "minimum": self.minimum, "maximum": self.maximum}
        if self.choices:
            out["choices"] = [{"value": c.value, "label": c.label} for c in self.choices]
        return out


def _fail(option, value, what):
    shown = value if not isinstance(value, str) or len(value) <= 60 else value[:57] + "…"
    raise InputError(f"option {option.name} must be {what}, got {shown!r}", column=option.name,
                     value=shown, field=option.name)


def _number(option, value):
    """A finite float from a number or a numeric string; bools and everything else fail."""
    if isinstance(value, bool) or not isinstance(value, (Real, str)):
        _fail(option, value, "a number")
    if isinstance(value, str) and len(value.strip()) > 40:  # no 5000-digit conversions
        _fail(option, value, "a number")
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        _fail(option, value, "a number")
    if not math.isfinite(number):
        _fail(option, value, "a finite number")
    return number


def _in_range(option, number, original):
    if (option.minimum is not None and number < option.minimum) or \
            (option.maximum is not None and number > option.maximum):
        _fail(option, original, f"a number {option.range_text()}")
    return number


def _as_int(option, value):
    if isinstance(value, Integral) and not isinstance(value, bool):
        number = int(value)
    else:
        real = _number(option, value)
        if not real.is_integer():
            _fail(option, value, "a whole number")
        number = int(real)
    return int(_in_range(option, number, value))


def _as_floats(option, value):
    items = value.replace(";", ",").split(",") if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)) or not items:
        _fail(option, value, "a non-empty list of numbers")
    numbers = []
    for item in items:
        if isinstance(item, str) and not item.strip():
            continue
        if isinstance(item, (list, tuple, dict)):
            _fail(option, value, "a flat list of numbers")
        numbers.append(_in_range(option, _number(option, item), item))
    if not numbers:
        _fail(option, value, "a non-empty list of numbers")
    return tuple(numbers)


def _as_labels(option, value):
    if isinstance(value, str):
        value = [part.strip() for part in value.split(",")]
    if not isinstance(value, (list, tuple)) or any(isinstance(v, (list, tuple, dict)) for v in value):
        _fail(option, value, "a list of labels or one comma-separated string")
    return [str(v) for v in value]


def check_value(option, value):
    """``value`` as the option's type, or :class:`InputError` naming the option and its range.

    >>> check_value(Option("bootstrap", "int", "resamples", minimum=0, maximum=20000), "250")
    250
    """
    if option.type == "float":
        return _in_range(option, _number(option, value), value)
    if option.type == "int":
        return _as_int(option, value)
    if option.type == "choice":
        allowed = [c.value for c in option.choices]
        if not isinstance(value, str) or value not in allowed:
            _fail(option, value, "one of " + ", ".join(allowed))
        return value
    if option.type == "text":
        if not isinstance(value, str):
            _fail(option, value, "a text")
        return value
    if option.type == "floats":
        return _as_floats(option, value)
    if option.type == "labels":
        return _as_labels(option, value)
    if not isinstance(value, (str, list, tuple, dict)):  # table
        _fail(option, value, "rows: CSV/TSV text, a list of dicts or a dict")
    return value


def check(options, given, kind):
    """Check every option in ``given`` (a dict) against the declared ``options``.

    ``None`` means "the default" and is passed on as given; ``progress`` is a
    callback, not an option, and passes unchecked.  An unknown name is an
    error that lists the known ones.
    """
    declared = {option.name: option for option in options}
    out = {}
    for name, value in given.items():
        if name == "progress":
            if value is not None and not callable(value):
                raise InputError("progress must be a function (done, total, stage)", column="progress")
            out[name] = value
            continue
        option = declared.get(name)
        if option is None:
            raise InputError(f"unknown option {name!r} for {kind}; its options are "
                             + ", ".join(declared), column=name)
        if value is not None:
            out[name] = check_value(option, value)
    return out


# ----------------------------------------------------------------- options shared by several kinds

MAX_RESAMPLES = 20_000  # (resamples × items) counts stay in memory: 20,000 × 10,000 items is 1.6 GB

BOOTSTRAP = Option("bootstrap", "int", "Bootstrap resamples",
                   "resamples over items for the percentile intervals (0 = no intervals)",
                   minimum=0, maximum=MAX_RESAMPLES)
SEED = Option("seed", "int", "Seed", "seed of the bootstrap (and of any sampled baseline)",
              minimum=0, maximum=2 ** 63 - 1)
THRESHOLD = Option("threshold", "float", "IoU threshold for a match",
                   "similarity at or above which two annotations match", minimum=0.0, maximum=1.0)
MATCH = Option("match", "choice", "Matching", "how annotations of two annotators are paired",
               choices=(Choice("optimal", "optimal (most matches, then IoU)"),
                        Choice("potato", "potato (reproduce Potato)")))
DISTANCE = Option("distance", "choice", "Distance for σ", "the distance σ and KS are computed on",
                  choices=(Choice("giou", "GIoU: (1 − GIoU)/2"), Choice("iou", "IoU: 1 − IoU"),
                           Choice("centroid", "centroid")))
PAIR_BUDGET = Option("pair_budget", "int", "Pair budget (exact baseline up to)",
                     "the largest number of between-item pairs computed exactly; above it a seeded sample",
                     minimum=1, maximum=10 ** 12)
SIGNIFICANCE_LEVEL = Option("significance_level", "float", "Level of σ_B (share below the between quantile)",
                            "the between-item distance quantile a within distance must fall below to count in "
                            "σ_B (Braylan, Alonso & Lease 2022)", minimum=0.001, maximum=0.999)
REFERENCE = Option("reference", "text", "Reference annotator",
                   "score every annotator against this one (the expert), who leaves the agreement measures; "
                   "on the command line also a file of gold rows")
REFERENCE_ROWS = Option("reference_rows", "table", "Reference rows (gold)",
                        "gold rows of the same columns; every annotator is scored against them (a file on the "
                        "command line)")
LOW_OVERLAP = Option("low_overlap", "float", "Low-overlap threshold (reference)",
                     "an unmatched drawn object whose similarity to an unmatched reference object is at least this "
                     "(and below the match threshold) is a low-overlap conflict", minimum=0.0, maximum=1.0)
REFERENCE_OPTIONS = (REFERENCE, REFERENCE_ROWS, LOW_OVERLAP)
DEFAULT_LOW_OVERLAP = 0.1
