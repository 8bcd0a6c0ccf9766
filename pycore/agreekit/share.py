"""Share links: hand rows and options to the web calculator in the URL fragment.

Format (version 1, stable)::

    <page URL>#v1/<kind>/<payload>

``kind`` is a name in the registry of kinds (:data:`agreekit.KINDS`: ``boxes``, ``spans``, …);
``payload`` is base64url without padding (RFC 4648 §5) of raw-deflate-compressed (RFC 1951, no zlib header) UTF-8 JSON
``{"rows": "<the pasted text>", "options": {...the report's keyword options...}}``, and, when the rows
were converted from a tool's export, ``"import": {"format": "<format name>", "options": {...}}``: the
format and the format's options they were read with (``agreekit.convert``), so that the same files
convert to the same rows (the page sets its import form to them).
Span lengths or texts travel in the options as ``item,length`` or ``item,text`` CSV text.
A comparison of two rounds or groups (:func:`agreekit.compare`) carries its second input too:
``"rows_b": "<B>"`` beside ``"rows"`` (:func:`compare_link`, :func:`read_compare_fragment`);
a reader that knows only ``rows`` opens A's report.
The fragment after ``#`` is never sent to a server, and the page treats it as data only.

The JSON document may be at most :data:`MAX_DECODED_BYTES` (8 MiB) of UTF-8, here and in the page
(``web/share.mjs``): a link of Chromium's ~2 MB URL limit does not carry more of ordinary rows, and a
larger payload is a decompression bomb or takes the page seconds to fill in. Larger inputs travel as files.
"""
from __future__ import annotations

import base64
import binascii
import csv
import io
import json
import re
import warnings
import zlib
from dataclasses import dataclass, field

from .registry import KINDS  # filled when the package loads its kinds; read at each call

FORMAT_VERSION = "v1"
DEFAULT_BASE_URL = "http://127.0.0.1:8000/"  # where ``python build.py serve`` puts the page
LONG_LINK = 8000  # characters; e-mail and chat programs often cut longer links
MAX_DECODED_BYTES = 8 * 1024 * 1024  # the JSON document's UTF-8 bytes; the same in web/share.mjs
LIMIT = f"{MAX_DECODED_BYTES // 2**20} MiB once decompressed; a link carries about 2 MB"

class LongLinkWarning(UserWarning):
    """A share link long enough that some programs may cut it."""


_FRAGMENT = re.compile(r"^v1/([a-z]+)/([A-Za-z0-9_-]*)$")
_FORMAT_NAME = re.compile(r"^[a-z]+$")


@dataclass(frozen=True)
class Shared:
    """What a share link carries: the kind, the rows as text, the report's options, and the import record
    ``{"format", "options"}`` of rows converted from a tool's export (None for rows typed or pasted)."""

    kind: str
    rows: str
    options: dict = field(default_factory=dict)
    imported: dict | None = None
    rows_b: str | None = None   # a comparison's second input (B), as text


def _import_record(imported):
    """``{"format", "options"}`` from a :class:`~agreekit.formats.Conversion` (its format and the options it was
    read with) or such a dict; None stays None."""
    if imported is None:
        return None
    if hasattr(imported, "format_options"):
        imported = {"format": imported.format, "options": imported.format_options}
    if not isinstance(imported, dict) or not isinstance(imported.get("format"), str) or \
            not _FORMAT_NAME.match(imported["format"]) or not isinstance(imported.get("options", {}), dict):
        raise ValueError("imported must be a Conversion or {'format': name, 'options': {...}}")
    return {"format": imported["format"], "options": dict(imported.get("options", {}))}


def _rows_text(rows):
    """Rows as the text a user would paste: text as is, a list of dicts as CSV."""
    if isinstance(rows, str):
        return rows
    records = list(rows)
    if not all(isinstance(r, dict) for r in records):
        raise TypeError("rows must be CSV/TSV text or a list of dicts")
    columns = list(dict.fromkeys(key for record in records for key in record))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    for record in records:
        writer.writerow({k: "" if v is None else v for k, v in record.items()})
    return out.getvalue()


def _lengths_text(lengths):
    """Span lengths as ``item,length`` or ``item,text`` CSV text (the page's lengths field)."""
    if isinstance(lengths, str):
        return lengths
    if isinstance(lengths, dict):
        values = list(lengths.values())
        if all(isinstance(v, str) for v in values):
            column = "text"
        elif all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            column = "length"
        else:
            raise ValueError("lengths for a share link must be all integers or all texts")
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["item", column])
        writer.writerows([str(item), value] for item, value in lengths.items())
        return out.getvalue()
    return _rows_text(lengths)


def share_fragment(kind, rows, *, imported=None, rows_b=None, **options):
    """The fragment ``v1/<kind>/<payload>`` (without ``#``) for these inputs (``imported``: see :func:`share_link`;
    ``rows_b``: a comparison's second input)."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; expected one of {', '.join(KINDS)}")
    if "progress" in options:
        raise ValueError("progress is a callback and cannot travel in a link")
    if "lengths" in options and options["lengths"] is not None:
        options["lengths"] = _lengths_text(options["lengths"])
    if options.get("reference_rows") is not None:  # gold rows travel as the text a user would paste
        options["reference_rows"] = _rows_text(options["reference_rows"])
    options = {k: (list(v) if isinstance(v, tuple) else v) for k, v in options.items() if v is not None}
    content = {"rows": _rows_text(rows), "options": options}
    if rows_b is not None:
        content = {"rows": content["rows"], "rows_b": _rows_text(rows_b), "options": options}
    record = _import_record(imported)
    if record is not None:
        content["import"] = record
    document = json.dumps(content, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    encoded = document.encode("utf-8")
    if len(encoded) > MAX_DECODED_BYTES:  # no page or reader would open it
        raise ValueError(f"this input is too large for a share link (over {LIMIT}): send the input file instead")
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)  # wbits -15: raw deflate, no header
    payload = compressor.compress(encoded) + compressor.flush()
    return f"{FORMAT_VERSION}/{kind}/" + base64.urlsafe_b64encode(payload).rstrip(b"=").decode("ascii")


def share_link(kind, rows, base_url=DEFAULT_BASE_URL, *, imported=None, **options):
    """A link that opens the web calculator on these rows and options and computes the report.

    ``rows`` is the CSV/TSV text (or a list of dicts, written as CSV); ``options`` are the
    report's keyword options (``threshold``, ``match``, ``bootstrap``, ``seed``, ``lengths``,
    ``tolerances``, ``reference``, ``reference_rows``, ...). ``base_url`` is the page's address; the default is where
    ``python build.py serve`` serves it. ``imported`` is the :class:`~agreekit.formats.Conversion`
    the rows came from (or ``{"format", "options"}``): the link then carries the format and its
    options, and the page sets its import form to them. Links over 8,000 characters work in browsers but
    may be cut by e-mail or chat programs: send the input file instead.

    >>> c = agreekit.convert("session.eaf", tier_pattern="_(\\w)$")            # doctest: +SKIP
    >>> share_link(c.kind, c.rows, imported=c, **c.options())                # doctest: +SKIP
    """
    return _checked_length(base_url.split("#", 1)[0] + "#" + share_fragment(kind, rows, imported=imported, **options),
                           "the input file")


def compare_link(kind, rows_a, rows_b, base_url=DEFAULT_BASE_URL, **options):
    """A link that carries both inputs of a comparison (A and B) and the options applied to both."""
    return _checked_length(base_url.split("#", 1)[0] + "#" + share_fragment(kind, rows_a, rows_b=rows_b, **options),
                           "the input files")


def _checked_length(link, what):
    """``link``, with a :class:`LongLinkWarning` (at the caller of the public function) when it is long."""
    if len(link) > LONG_LINK:
        warnings.warn(f"the share link is {len(link):,} characters long; e-mail and chat programs often cut "
                      f"links over {LONG_LINK:,} characters: send {what} if it arrives broken",
                      LongLinkWarning, stacklevel=3)
    return link


def read_compare_fragment(fragment):
    """``(kind, rows_a, rows_b, options)`` from a share link; ``rows_b`` is None for a one-input link."""
    shared = read_share(fragment)
    return shared.kind, shared.rows, shared.rows_b, shared.options


def read_share_fragment(fragment):
    """``(kind, rows, options)`` from a share link, its fragment, or ``v1/...`` text (:func:`read_share` gives
    its import record too).

    Raises ``ValueError`` with a readable message for anything that is not a valid v1 link.
    """
    shared = read_share(fragment)
    return shared.kind, shared.rows, shared.options


def read_share(fragment):
    """The :class:`Shared` inputs of a share link, its fragment, or ``v1/...`` text.

    Raises ``ValueError`` with a readable message for anything that is not a valid v1 link.
    """
    text = fragment.strip()
    if "#" in text:
        text = text.split("#", 1)[1]
    match = _FRAGMENT.match(text)
    if not match:
        raise ValueError("not an agreekit v1 share link (expected #v1/<kind>/<payload>)")
    kind, payload = match.groups()
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r} in the share link")
    try:
        compressed = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
        inflater = zlib.decompressobj(-15)
        raw = inflater.decompress(compressed, MAX_DECODED_BYTES + 1)
        if len(raw) > MAX_DECODED_BYTES:
            raise ValueError(f"the share link's data is too large (over {LIMIT})")
        document = json.loads(raw.decode("utf-8"))
    except (binascii.Error, zlib.error, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"the share link is damaged ({exc})") from None
    except RecursionError:  # arrays nested beyond Python's parser, as a hostile link may hold
        raise ValueError("the share link is damaged (JSON nested too deeply)") from None
    if not isinstance(document, dict) or not isinstance(document.get("rows"), str):
        raise ValueError("the share link carries no rows")
    options = document.get("options", {})
    if not isinstance(options, dict):
        raise ValueError("the share link's options are not an object")
    try:
        imported = _import_record(document.get("import"))
    except ValueError:
        raise ValueError("the share link's import record is not {format, options}") from None
    rows_b = document.get("rows_b")
    if rows_b is not None and not isinstance(rows_b, str):
        raise ValueError("the share link's second input is not text")
    return Shared(kind, document["rows"], options, imported, rows_b)
