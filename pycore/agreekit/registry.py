"""The registry of kinds: each kind of annotation declared once.

A kind module in :mod:`agreekit.kinds` decorates its report function with
:func:`register`, naming its options (:class:`~agreekit.options.Option`), its
row columns and their synonyms, and the key that counts its annotations.  The
function's signature holds the option defaults.  Everything else reads this
registry: ``agreekit.report``, the command line (sub-commands and ``--help``),
share links, the web worker, and ``build.py``, which writes it to
``dist/kinds.json`` for the page's tabs and option forms.  The package's
``__init__`` imports every module of :mod:`agreekit.kinds`, which fills
:data:`KINDS`; this module imports none of them (it sits below the kinds).

Adding a kind means adding one module to :mod:`agreekit.kinds`; adding an
option means adding it to the kind's signature and its ``register`` call.
"""
from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass
from typing import Callable

from . import options as opts
from .rows import InputError

KINDS: dict = {}


@dataclass(frozen=True)
class Kind:
    """One kind of annotation and how to call, document and check it."""

    name: str
    title: str           # the page's tab
    summary: str         # one line: what the rows are
    function: Callable   # rows, **options -> Report (options checked)
    options: tuple
    columns: tuple       # canonical column order (headerless input follows it)
    synonyms: dict       # canonical column -> accepted header names
    count_key: str       # the report key counting its annotations
    position: int        # tab and sub-command order
    alternatives: tuple = ()   # other full column sets (e.g. box corners)

    def defaults(self):
        """``{option: default}`` read from the report function's signature."""
        parameters = inspect.signature(self.function).parameters
        return {option.name: parameters[option.name].default for option in self.options}

    def to_json(self):
        defaults = self.defaults()
        return {"name": self.name, "title": self.title, "summary": self.summary,
                "columns": list(self.columns), "alternatives": [list(a) for a in self.alternatives],
                "synonyms": {k: list(v) for k, v in self.synonyms.items()}, "count_key": self.count_key,
                "options": [option.to_json(defaults[option.name]) for option in self.options]}


def register(name, *, title, summary, options, columns, synonyms, count_key, position, alternatives=()):
    """Declare a kind: decorate its report function ``f(rows, *, options…, progress=None)``.

    The decorated function checks every option with :func:`agreekit.options.check`
    before the body runs, so the body sees declared types within declared ranges.
    """
    def decorate(function):
        parameters = inspect.signature(function).parameters
        missing = [o.name for o in options if o.name not in parameters]
        if missing:
            raise TypeError(f"{name}: options {missing} are not parameters of {function.__name__}")

        @functools.wraps(function)
        def checked(rows, **given):
            return function(rows, **opts.check(options, given, name))

        KINDS[name] = Kind(name, title, summary, checked, tuple(options), tuple(columns), dict(synonyms),
                           count_key, position, tuple(alternatives))
        return checked
    return decorate


def get(kind):
    """The :class:`Kind` named ``kind``, or an :class:`InputError` listing the known ones."""
    if kind not in KINDS:
        raise InputError(f"unknown kind {kind!r}; expected one of {', '.join(KINDS)}", column="kind",
                         value=kind)
    return KINDS[kind]


def kinds_json():
    """The registry as JSON-ready data, in tab order (written by ``build.py`` to ``kinds.json``)."""
    return {"kinds": [kind.to_json() for kind in KINDS.values()]}
