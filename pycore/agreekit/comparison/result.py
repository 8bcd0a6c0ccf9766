"""The records of a comparison of two rounds or groups (:func:`agreekit.compare`)."""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass

from ..results import json_safe, to_json_text


@dataclass(frozen=True)
class Resampling:
    """How A and B were resampled.

    ``method``: "paired" (every item of A and B is shared and resampled jointly), "partly paired"
    (shared items jointly, the others independently), "independent" (no shared item, or
    ``paired=False``) or "none" (no bootstrap).  Counts are those of the first draw of counts the
    kind makes (its main item set).
    """

    method: str
    n_resamples: int
    seed: int
    n_items_a: int
    n_items_b: int
    n_shared: int
    description: str


@dataclass(frozen=True)
class RowDifference:
    """One row of a table (an annotator, a pair, a label) present in both reports, compared field by field."""

    table: str
    key: dict
    differences: tuple


@dataclass(frozen=True)
class ItemChange:
    """An item in both reports and how its per-item agreement ``measure`` changed."""

    item: str
    measure: str
    higher_is_better: bool
    value_a: float
    value_b: float
    delta: float


@dataclass(frozen=True)
class Comparison:
    """A comparison of two data sets of one kind: every coefficient's difference B − A.

    ``coefficients``: one :class:`~agreekit.comparison.difference.Difference` per coefficient of
    the kind's report (report order); ``annotators``, ``pairs``, ``labels``: rows present in both;
    ``only_in_a`` / ``only_in_b``: rows of those tables present in one report only;
    ``items_changed``: the items whose agreement changed most.  ``report_a`` and ``report_b`` are
    the two reports (not part of :meth:`to_dict`).
    """

    kind: str
    settings: dict
    resampling: Resampling
    coefficients: tuple
    annotators: tuple
    pairs: tuple
    labels: tuple
    only_in_a: dict
    only_in_b: dict
    items_changed: tuple
    summary: str
    warnings: tuple
    report_a: object = dataclasses.field(repr=False, compare=False, default=None)
    report_b: object = dataclasses.field(repr=False, compare=False, default=None)

    def coefficient(self, name):
        """The :class:`Difference` of the coefficient at path ``name`` (e.g. "localization.sigma")."""
        for d in self.coefficients:
            if d.name == name:
                return d
        raise KeyError(name)

    def to_dict(self):
        """JSON-ready data (NaN and ±inf as None); the two reports are left out."""
        return json.loads(self.to_json())

    def to_json(self, **kwargs):
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if f.name not in ("report_a", "report_b")}
        return to_json_text(json_safe(plain(data)), **kwargs)


def plain(value):
    """Dataclasses as dicts, tuples as lists, all the way down."""
    if dataclasses.is_dataclass(value):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value
