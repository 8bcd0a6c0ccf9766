"""A format's options as the caller gives them, checked against what the format declares (``Reader.options``).

Python callers pass values of the declared types; the command line and the page pass texts, read here in
the declared type (a list as JSON or comma-separated, as :func:`agreekit.options.check_value` reads labels).
"""
from __future__ import annotations

import json

from ..options import check_value
from ..rows import InputError


def reader_options(reader):
    """The names of the options ``reader`` declares."""
    return tuple(option.name for option in reader.options)


def check_options(reader, options):
    """``options`` checked against the format's declared options: each value in its declared type (a text
    from the command line or the page as well: a list as JSON or comma-separated); None is passed on to the
    reader as given.

    An option the format does not take is an :class:`InputError` naming the format's options.
    """
    declared = {option.name: option for option in reader.options}
    unknown = sorted(name for name in options if name not in declared)
    if unknown:
        takes = f"its options are {', '.join(declared)}" if declared else "it takes no options"
        raise InputError(f"{reader.title}: unknown option {', '.join(map(repr, unknown))}; {takes}",
                         column=unknown[0], value=options[unknown[0]])
    return {name: value if value is None else _option_value(declared[name], value) for name, value in options.items()}


def _option_value(option, value):
    """``value`` in ``option``'s type: a list option given as JSON text (``["a", "b"]``) is that list."""
    if option.type == "labels" and isinstance(value, str) and value.lstrip().startswith("["):
        try:
            value = json.loads(value)
        except ValueError:
            pass  # check_value reads it as comma-separated names
    return check_value(option, value)
