"""The tables a conversion carries for its kind's report (span texts, clip durations): which conversion
attribute fills which report option of which kind, and the CSV text the page's option field takes.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class SuppliedTable:
    """A table a conversion may carry for its kind's report: the attribute holding it (item → value), the
    report option it fills, and the column its value takes in the CSV the page's option field holds."""

    kind: str
    attribute: str
    option: str
    column: str
    value_text: Callable = str

    def csv(self, values):
        """``item,<column>`` CSV text of ``values`` (item → value)."""
        return _two_column_csv(("item", self.column), ((item, self.value_text(v)) for item, v in values.items()))


# The one place that says which conversion attribute fills which report option of which kind.
SUPPLIED_TABLES = (SuppliedTable("spans", "lengths", "lengths", "text"),
                   SuppliedTable("segments", "durations", "durations", "duration", repr))


def _two_column_csv(header, rows):
    """``header`` and ``rows`` as CSV text with ``\\n`` line ends."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()
