"""Checks of the names a writer puts where a tool reads them: file names, folder names, fields without spaces."""
from __future__ import annotations

from ...arrays import name_list
from ...rows import InputError

FORBIDDEN = set('/\\:*?"<>|') | {chr(c) for c in range(32)}


def file_name(name, what, format):
    """``name`` if it can be one file or folder name that the importer reads back as is, else an error saying why.

    Refused: path separators and characters Windows forbids, names starting
    with a dot (importers skip hidden files) and surrounding white space
    (the importers strip it).
    """
    bad = sorted(set(name) & FORBIDDEN)
    if bad or name.startswith(".") or name != name.strip() or not name:
        why = (f"holds {', '.join(map(repr, bad))}" if bad else "starts with a dot (a hidden file)"
               if name.startswith(".") else "has white space around it")
        raise InputError(f"{format} names a file after each {what}; the {what} {name!r} {why}, so it cannot be a "
                         f"file name: rename it", column=what, value=name)
    return name


def relative_path(name, what, format):
    """``name`` as a relative path of file-name parts separated by ``/`` (a brat document in folders)."""
    for part in name.split("/"):
        file_name(part, what, format)
    return name


def single_words(values, what, format):
    """An error when a value is missing or holds white space (a field of a white-space separated format)."""
    bad = sorted({v for v in values if v is None or not v or any(c.isspace() for c in v)}, key=str)
    if bad:
        shown = name_list(["(none)" if v is None else repr(v) for v in bad])
        raise InputError(f"{format} separates its fields by white space, so each {what} must be one word: "
                         f"{shown} cannot be written; rename them", column=what, value=bad[0])


def safe_file_names(names):
    """name → a distinct file name for it (forbidden characters and a leading dot as ``_``), for formats that
    also carry the name inside the file, so the file's own name need not be exact."""
    out, taken = {}, set()
    for name in sorted(names):
        base = "".join("_" if c in FORBIDDEN else c for c in name.strip()) or "_"
        base = "_" + base[1:] if base.startswith(".") else base
        candidate, number = base, 1
        while candidate.lower() in taken:  # case-insensitive file systems
            number += 1
            candidate = f"{base}-{number}"
        taken.add(candidate.lower())
        out[name] = candidate
    return out
