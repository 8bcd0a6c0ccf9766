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


class InputErrors(InputError):
    """Several rows in error, read on past the first: ``errors`` (the first few, in input order)
    and ``total`` (all of them).  It reads as its first error, with the places of the others
    after it, on one line: ``line 4, column 'x': 'abc' is not a number (and 2 more: line 7,
    column 'y'; line 9, column 'w')``.
    """

    def __init__(self, errors, total):
        first = errors[0]
        super().__init__(first.message, line=first.line, column=first.column, value=first.value,
                         field=first.field)
        self.errors = tuple(errors)
        self.total = total
        places = "; ".join(_place(error) for error in self.errors[1:])
        unlisted = "; …" if total > len(self.errors) else ""
        self.args = (f"{self.args[0]} (and {total - 1} more: {places}{unlisted})",)


def _place(error):
    """Where ``error`` is: "line 7, column 'y'" (or its message when it names no line)."""
    if error.line is None:
        return error.message
    return f"line {error.line}" + (f", column '{error.column}'" if error.column is not None else "")
