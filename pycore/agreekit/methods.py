"""The methods paragraph of a report: what was measured, how, and what to cite.

One paragraph a reviewer can check: the kind and its data (items, annotators, annotations), the
kind's measures with their matching rule and threshold, distance and chance baseline (the kind's
:class:`agreekit.registry.MethodsText`), the bootstrap (resamples, seed, level) and the software
version; then the references, as BibTeX: agreekit's own (from ``CITATION.cff``) and each paper
the paragraph cites. Every number in it is read from the report. ``agreekit KIND FILE --methods``
prints it; the page shows it in its "Cite / methods" card (web/bridge.py).
"""
from __future__ import annotations

import json
import textwrap
from dataclasses import dataclass

from . import registry
from .references import AGREEKIT, EFRON_TIBSHIRANI_1993, Reference
from .results import Section, to_json_text

SHORT_LIST = 16  # lists up to this long (a setting's values) are read; longer ones are tables, never read


@dataclass(frozen=True)
class Methods:
    """A report's methods paragraph and the references it cites (agreekit's first)."""

    paragraph: str
    references: tuple

    def bibtex(self):
        """The references as BibTeX entries, one blank line apart."""
        return "\n\n".join(reference.bibtex for reference in self.references)

    def to_text(self, width=100):
        """The paragraph wrapped at ``width`` columns, then the references (the CLI's ``--methods``)."""
        return textwrap.fill(self.paragraph, width) + "\n\nReferences (BibTeX)\n\n" + self.bibtex()

    def to_dict(self):
        return {"paragraph": self.paragraph, "bibtex": self.bibtex(),
                "references": [{"cite": r.cite, "bibtex": r.bibtex} for r in self.references]}


def _count(value, noun):
    return f"{value:,} {noun}" if isinstance(value, int) else f"an unknown number of {noun}"


def _data_sentence(kind, data):
    """Which data: the kind, its items, annotators and annotations."""
    described = kind.methods or registry.MethodsText(describe=None)
    noun = kind.count_key.removeprefix("n_").replace("_", " ")
    return (f"We measured inter-annotator agreement on {kind.summary.split(':')[0]} "
            f"({_count(data.get(described.items_key), described.items)}, "
            f"{_count(data.get('n_annotators'), 'annotators')}, {_count(data.get(kind.count_key), noun)}).")


def _bootstrap_sentence(settings, items):
    """The intervals: resamples, seed and level, or that there are none."""
    resamples = settings.get("bootstrap")
    if resamples is None:
        return None
    if resamples == 0:
        return "No confidence intervals were computed (0 bootstrap resamples)."
    level = settings.get("ci_level")
    level_text = f"{100 * level:g} %" if isinstance(level, (int, float)) else "Percentile"
    return (f"{level_text} confidence intervals are percentile bootstrap intervals "
            f"({EFRON_TIBSHIRANI_1993.cite}) over {items}: {resamples:,} resamples drawn with seed "
            f"{settings.get('seed')} in a canonical order of the {items} (sorted by their content), so that the "
            "intervals do not depend on the order of the rows or on the names of items and annotators.")


def _settings_text(settings):
    parts = [f"{name.replace('_', ' ')} {value}" for name, value in settings.items()
             if value is not None and not isinstance(value, (dict, list))]
    return "; ".join(parts) if parts else "defaults"


def _summary_data(section):
    """A report's data without its tables and distributions (long lists), as JSON-safe Python data.

    The paragraph reads settings, counts and a few fields: writing a large report's whole JSON
    to read them would cost as much as the report's own writing.
    """
    def light(value):
        if isinstance(value, Section):
            return {key: light(value[key]) for key in value.keys()}
        if isinstance(value, (list, tuple)) or hasattr(value, "shape"):
            return list(value) if len(value) <= SHORT_LIST else None
        return value
    return json.loads(to_json_text(light(section)))


def methods(kind, report):
    """The :class:`Methods` of ``report`` (a :class:`~agreekit.results.Report` or its ``to_dict()``) of ``kind``.

    Kind-agnostic: the kind's measures come from its registry entry's ``methods``
    (:class:`agreekit.registry.MethodsText`); a kind without one gets the shared sentences only.
    """
    from . import __version__  # the package's version; imported here, the package imports this module's floor
    entry = registry.get(kind)
    data = _summary_data(report) if isinstance(report, Section) else dict(report)
    settings = data.get("settings") or {}
    described = entry.methods
    sentences, cited = (described.describe(data) if described else ([], ()))
    items = described.items if described else "items"
    bootstrap = _bootstrap_sentence(settings, items)
    software = (f"All values were computed with agreekit {__version__} (its {entry.name} report; settings: "
                f"{_settings_text(settings)}).")
    paragraph = " ".join(filter(None, [_data_sentence(entry, data), *sentences, bootstrap, software]))
    own = Reference(AGREEKIT.cite.replace("@VERSION@", __version__), AGREEKIT.bibtex.replace("@VERSION@", __version__))
    references = [own, *cited] + ([EFRON_TIBSHIRANI_1993] if bootstrap and settings.get("bootstrap") else [])
    unique = tuple({reference.bibtex: reference for reference in references}.values())
    return Methods(paragraph, unique)
