"""The command line's arguments from the registry's options, and reading input files (:mod:`agreekit.cli`)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .errors import InputError


def numbers(text):
    """A comma-separated list of numbers, for options such as ``--tolerances``."""
    try:
        return [float(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated numbers, got {text!r}") from None


ARGUMENT_TYPES = {"float": float, "int": int, "floats": numbers, "text": str, "labels": str}


def argument(option, default):
    """``(flag, add_argument keywords)`` of a registry option."""
    shown = ",".join(f"{v:g}" for v in default) if isinstance(default, tuple) else default
    text = option.label + (f": {option.help}" if option.help else "")
    if default is not None:
        text += f" (default {shown})"
    flag = "--" + option.name.replace("_", "-")
    if option.type == "choice":
        return flag, {"choices": [c.value for c in option.choices], "help": text}
    if option.type == "table":  # a file name; main() reads it and passes its text
        return flag, {"dest": option.name + "_file", "metavar": "FILE", "help": text}
    return flag, {"type": ARGUMENT_TYPES[option.type], "help": text}


def read_text(path):
    """A file (or standard input for ``-``) as text: UTF-8, a leading BOM dropped.

    An invalid byte is an :class:`InputError` naming its line and byte offset.
    """
    data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        where = "standard input" if path == "-" else path
        raise InputError(f"{where} is not UTF-8 text: byte {error.start} (0x{data[error.start]:02x}) "
                         "is invalid; save the file as UTF-8", line=line) from None


def add_kind_options(p, kind):
    defaults = kind.defaults()
    for option in kind.options:
        flag, keywords = argument(option, defaults[option.name])
        p.add_argument(flag, **keywords)
