"""The registry of kinds: each kind of annotation declared once.

A kind package in :mod:`agreekit.kinds` decorates its report function with
:func:`register`, naming its options (:class:`~agreekit.options.Option`), its
row columns and their synonyms, the key that counts its annotations, and its
hooks: ``text`` (its command-line summary), ``item_detail`` (its item view,
:class:`ItemDetail`), ``shape`` (the declared shape of its report) and
``consensus`` (how its annotations fuse, :class:`ConsensusHook`).  The
function's signature holds the option defaults.  Everything else reads this
registry: ``agreekit.report``, the command line (sub-commands, ``--help`` and
text), item details, share links, the web worker, and ``build.py``, which
writes it to ``dist/kinds.json`` for the page's tabs and option forms.
:func:`agreekit.kinds.load_kinds` imports every kind package, which fills
:data:`KINDS`; this module imports none of them (it sits below the kinds).

Adding a kind means adding one package to :mod:`agreekit.kinds` (see
``docs/architecture.md``); adding an option means adding it to the kind's
signature and its ``register`` call.
"""
from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass
from typing import Callable

from . import options as opts
from .errors import InputError

KINDS: dict = {}


@dataclass(frozen=True)
class ItemDetail:
    """How a kind describes one item of a report to the page's item view.

    ``setup(rows, **options)`` reads the report's rows once (options it does not use
    are ignored); ``detail(setup, item)`` describes one item as a JSON-ready dict.
    """

    setup: Callable
    detail: Callable


@dataclass(frozen=True)
class ConsensusHook:
    """How a kind's annotations are fused into a consensus (:mod:`agreekit.object_consensus`).

    ``read(rows, **options)`` gives ``(records, threshold, warnings)``: the rows as
    :class:`~agreekit.object_sets.Annotation` records (geometry None for "saw the
    item, drew nothing"; options it does not use are ignored) and the similarity
    at or above which two objects match.  ``similarity(geometries)`` is their
    object-by-object similarity matrix (1 for identical objects);
    ``fuse(geometries, weights)`` one object standing for a cluster;
    ``key(geometry)`` a sortable tuple of its content; ``to_row(item, annotator,
    geometry, label)`` a row the kind's report reads (geometry None: drew nothing);
    ``options`` the names of the kind's report options ``read`` uses;
    ``reliability`` and ``weighting`` the fields of
    :class:`agreekit.annotator_ranking.AnnotatorScore` that rank annotators and
    weigh their votes.  ``blocks(geometries)``, optional, is the
    :class:`~agreekit.objects.ObjectKind` of the geometries by position (its
    ``block`` and ``candidates``, with ``similarity``'s values bit for bit): an
    item too large for its square similarity is then matched block by block
    from the pairs that may overlap (:mod:`agreekit.object_blocks`).
    """

    read: Callable
    similarity: Callable
    fuse: Callable
    key: Callable
    to_row: Callable
    options: tuple = ("threshold",)
    reliability: str = "recall"
    weighting: str = "f1"
    blocks: Callable = None


@dataclass(frozen=True)
class MethodsText:
    """What a kind adds to the methods paragraph (:func:`agreekit.methods.methods`).

    ``describe(report)`` (the report's ``to_dict()``) returns ``(sentences, references)``: the
    sentences on its measures, matching rule and threshold, distance and chance baseline, and the
    :class:`agreekit.references.Reference` of each paper they cite. ``items_key`` counts its
    items in the report and ``items`` names them ("images", "traces").
    """

    describe: Callable
    items: str = "items"
    items_key: str = "n_items"


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
    text: Callable | None = None          # report -> the command line's text (None: the generic summary)
    item_detail: ItemDetail | None = None  # the item view (None: the kind has none)
    shape: object = None                   # the declared shape of its report (None: not declared yet)
    consensus: ConsensusHook | None = None # how its annotations fuse into a consensus (None: no consensus)
    methods: MethodsText | None = None     # its part of the methods paragraph (None: the shared part only)
    reference_columns: tuple = ()          # (dotted key, heading): its columns in the text's table against a reference

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


def register(name, *, title, summary, options, columns, synonyms, count_key, position, alternatives=(),
             text=None, item_detail=None, shape=None, consensus=None, methods=None, reference_columns=()):
    """Declare a kind: decorate its report function ``f(rows, *, options…, progress=None)``.

    ``text`` formats its report for the command line, ``item_detail`` (an
    :class:`ItemDetail`) describes one item for the page, ``shape`` declares its
    report's keys, ``consensus`` (a :class:`ConsensusHook`) fuses its annotations,
    ``methods`` (a :class:`MethodsText`) writes its part of the methods paragraph; each may be None.
    ``reference_columns``, ``(dotted key, heading)`` pairs, are what the kind adds to each annotator's
    row of the command line's table against a reference (:mod:`agreekit.reference.text`), in its words.

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
                           count_key, position, tuple(alternatives), text, item_detail, shape,
                           consensus, methods, tuple(reference_columns))
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
