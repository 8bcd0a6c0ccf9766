"""The one error users see: :class:`InputError`, naming where the input is wrong.

It sits at the bottom of the package: every floor raises it, nothing here imports
from the package.  ``agreekit.rows`` re-exports it for older imports.
"""
from __future__ import annotations


class InputError(ValueError):
    """Bad input.  ``line``, ``column`` and ``value`` say where, when known.

    ``field`` names the input the error is in when that is not the rows (the
    report option holding a second table, e.g. ``"lengths"``); None for the rows.
    """

    def __init__(self, message, line=None, column=None, value=None, field=None):
        self.message = message
        self.line = line
        self.column = column
        self.value = value
        self.field = field
        where = []
        if line is not None:
            where.append(f"line {line}")
        if column is not None:
            where.append(f"column '{column}'")
        prefix = (", ".join(where) + ": ") if where else ""
        super().__init__(prefix + message)

    def to_dict(self):
        return {"message": str(self), "line": self.line, "column": self.column,
                "value": None if self.value is None else str(self.value), "field": self.field}
