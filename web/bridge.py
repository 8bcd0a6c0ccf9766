"""The worker's side of the page: run one report, one item's detail, or convert dropped files.

Loaded by web/worker.mjs after the agreekit wheel is installed; ``run_report``,
``run_methods``, ``run_item_detail``, ``run_convert``, ``run_compare``, ``run_round_item``, ``run_plan`` and
``run_reference_file`` are the entry points. Each answers through :func:`answer` with the JSON text of the worker
protocol's answer (web/protocol.mjs), never an
exception: ``{"ok": true, "result": …}`` or ``{"ok": false, "error": {"type", "message",
"where"}}``. Input errors come back with where they are (line, column, value, field) so the page
can show them next to the paste area; anything else is a bug in agreekit and comes back as one
line naming the exception (never a traceback), which the page shows in the same place.
"""
import base64
import inspect
import json
import re
from pathlib import PurePosixPath

from agreekit import adjudication_csv, consensus_rows, reference_conflicts, registry
from agreekit.cli import PLAIN_TABLES
from agreekit.comparison import compare, plan, walk
from agreekit.formats import READERS, convert, load_sources
from agreekit.formats.base import detect
from agreekit.formats.label_answers import LABELS, QuestionChoice
from agreekit.formats.writers import WRITERS, write, writer_options
from agreekit.item_detail import ItemDetails, detail_kinds
from agreekit.methods import methods
from agreekit.object_consensus import consensus_hook
from agreekit.results import json_safe
from agreekit.rows import InputError, InputErrors

MAX_MESSAGE_CHARS = 300
WRITING_STAGE = "writing the report"  # the last progress stage, after the kind's own
# An absolute path (POSIX or Windows) standing alone: shown by its last part only.
_PATH = re.compile(r"(?<![\w.])(?:[A-Za-z]:)?[\\/](?:[^\s'\"\\/]+[\\/])+([^\s'\"\\/]+)")


class RawJSON:
    """A result that is JSON text already (a report's own strict JSON): embedded as it is."""

    def __init__(self, text):
        self.text = text


def answer(call):
    """The protocol's answer to ``call()`` as JSON text: its result, or the error it raised.

    ``{"ok": true, "result": …}``, the result written strictly (NaN is an error), or ``{"ok": false,
    "error": {"type", "message", "where", …}}``: ``type`` "input" (``where``: line, column, value,
    field; ``detail``: the message without its location), "kind" (``kinds``: the choices), "question"
    (``questions``: the questions the files answer, with their answer counts; ``kind``: the kind that
    reads them; ``format``: the format whose option ``question`` chooses one),
    "missing_module" (``module``) or "internal" (a bug: one line, no traceback).
    """
    try:
        result = call()
        text = result.text if isinstance(result, RawJSON) else json.dumps(result, allow_nan=False)
        return '{"ok": true, "result": ' + text + "}"
    except KindChoice as choice:
        error = {"type": "kind", "message": str(choice), "where": None, "kinds": choice.kinds}
    except QuestionChoice as choice:
        error = {"type": "question", "message": choice.message, "where": None, "questions": choice.questions,
                 "kind": LABELS, "format": getattr(choice, "format", None), "kinds": getattr(choice, "kinds", [])}
    except InputError as exc:
        error = input_error(exc)
    except Exception as exc:  # noqa: BLE001 -- a bug: the page shows one line, the worker survives
        error = internal_error(exc)
    return json.dumps({"ok": False, "error": error})


def input_error(exc):
    """``{"type": "input", "message", "where": {line, column, value, field}, "detail"}`` of an :class:`InputError`.

    Several rows in error (:class:`~agreekit.errors.InputErrors`) add ``errors``, each of them in
    this form (the first few, in input order), and ``total``, the count of all.
    """
    where = exc.to_dict()
    error = {"type": "input", "message": where.pop("message"), "where": where, "detail": exc.message}
    if isinstance(exc, InputErrors):
        error["errors"] = [input_error(each) for each in exc.errors]
        error["total"] = exc.total
    return error


def internal_error(exc):
    """``{"type": "internal", "message": …, "where": None}``: one line naming the exception, no internal paths.

    A scipy module that is not installed yet is ``{"type": "missing_module", "module": …}``: the
    calculator installs scipy.sparse when a report first needs it (build.py ``split_scipy``), and
    the worker then runs the call again.
    """
    if isinstance(exc, ModuleNotFoundError) and (exc.name or "").startswith("scipy."):
        return {"type": "missing_module", "module": exc.name, "where": None,
                "message": f"internal error: {exc.name} is not installed in the calculator — please report it"}
    text = " ".join(_PATH.sub(r"\1", str(exc)).split())
    if len(text) > MAX_MESSAGE_CHARS:
        text = text[:MAX_MESSAGE_CHARS - 1] + "…"
    detail = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return {"type": "internal", "message": f"internal error: {detail} — please report it, with the input", "where": None}


def run_report(kind, rows, options_json, progress=None):
    """The report of ``kind`` for ``rows``: :func:`answer` with the report (``to_dict()``) as result.

    ``options_json`` is the JSON text of the report's keyword options; ``progress``
    (``done, total, stage``) is passed on to kinds that report progress.
    """
    return answer(lambda: _report(kind, rows, options_json, progress))


def _report(kind, rows, options_json, progress):
    options = json.loads(options_json)
    function = registry.get(kind).function
    if progress is not None and "progress" in inspect.signature(function).parameters:
        options["progress"] = lambda done, total, stage="": progress(done, total, stage)
    _LAST_METHODS.pop(kind, None)  # never the paragraph of an earlier report
    report = function(rows, **options)
    _remember(kind, rows, options)
    referenced = options.get("reference") or options.get("reference_rows")  # to_dict only then: a big report's cost
    _LAST_INPUTS[kind] = (rows, {k: v for k, v in options.items() if k != "progress"},
                          reference_conflicts(report) if referenced else None)
    if progress is not None:
        progress(0, 0, WRITING_STAGE)  # seconds for a report of tens of MB: say what happens
    # The report's own strict JSON text, embedded as is: json.dumps of the dict would write it again.
    text = report.to_json()
    try:  # small: the page asks for it with the report (run_methods)
        _LAST_METHODS[kind] = methods(kind, report)
    except Exception as exc:  # noqa: BLE001 -- a bug in the paragraph: the report stands, run_methods answers it
        _LAST_METHODS[kind] = exc
    return RawJSON(text)


def run_compare(kind, rows_a, rows_b, options_json):
    """Two rounds or groups compared (:func:`agreekit.compare`): :func:`answer` with ``Comparison.to_json()``.

    ``options_json``: the kind's options plus ``paired`` (default true).
    """
    return answer(lambda: RawJSON(_compare(kind, rows_a, rows_b, json.loads(options_json)).to_json()))


def _compare(kind, rows_a, rows_b, options):
    comparison = compare(kind, rows_a, rows_b, **options)
    report_options = {k: v for k, v in options.items() if k != "paired"}
    _LAST_ROUNDS[kind] = {name: _RoundItems(kind, rows, report, report_options) for name, rows, report
                          in (("A", rows_a, comparison.report_a), ("B", rows_b, comparison.report_b))}
    return comparison


_HEAD_ROWS = 500  # a round's top-level tables sent with its items up to this length


class _RoundItems:
    """One round of a kind's last comparison: its item details (kinds with a picture) and its item
    table rows, both found when an item is first asked for (a comparison nobody opens costs nothing)."""

    def __init__(self, kind, rows, report, options):
        self.kind, self.rows, self.report, self.options = kind, rows, report, options
        self.found = None

    def _find(self):
        if self.found is None:
            data, first = self.report._data, registry.get(self.kind).columns[0]
            tables = walk.tables(data)
            path = walk.item_table(tables, first)
            details = ItemDetails(self.kind, self.rows, self.options) if self.kind in detail_kinds() else None
            # The report without its item table and long tables: what a view reads besides the item
            # (e.g. the traces' α per step position above the steps).
            head = json_safe({k: v for k, v in data.items() if k != path and not (
                isinstance(v, list) and len(v) > _HEAD_ROWS and isinstance(v[0], dict))})
            self.found = (path, tables.get(path, []) if path else [], "item" if path == "items" else first, details, head)
        return self.found

    def item(self, item):
        path, rows, id_field, details, head = self._find()
        entry = next((row for row in rows if str(row.get(id_field)) == item), None)
        if entry is None and details is None:
            raise InputError(f"the report has no item {item}")
        return {"detail": details.detail(item) if details else None, "entry": json_safe(entry), "list": path, "report": head}


def run_round_item(kind, round_name, item):
    """One item of round ``round_name`` ("A" or "B") of ``kind``'s last comparison (its item views):
    :func:`answer` with ``{detail, entry, list, report}``: the item's detail (kinds with a picture,
    else null), its row of the report's item table, that table's key and the report without that
    table and without top-level tables over ``_HEAD_ROWS`` rows.
    """
    return answer(lambda: _round_item(kind, round_name, str(item)))


def _round_item(kind, round_name, item):
    rounds = _LAST_ROUNDS.get(kind)
    if rounds is None or round_name not in rounds:
        raise InputError(f"no {kind} comparison has been computed in this worker")
    return rounds[round_name].item(item)


def run_plan(kind, rows, options_json):
    """Items needed for an interval of ``half_width`` (:func:`agreekit.plan`): :func:`answer` with the plan."""
    return answer(lambda: plan(kind, rows, **json.loads(options_json)).to_dict())


# Per kind, the rows and options of its last report: item views are answered from them on demand.
_LAST_REPORTS = {}
# Per kind, the two rounds of its last comparison (web/compare.mjs opens their items' views).
_LAST_ROUNDS = {}
# Per kind, the methods paragraph of its last report (agreekit.methods.Methods).
_LAST_METHODS = {}


def run_methods(kind):
    """The methods paragraph of ``kind``'s last report: :func:`answer` with ``Methods.to_dict()``
    (``paragraph``, ``bibtex``, ``references``: [{cite, bibtex}]) as result."""
    def last():
        if kind not in _LAST_METHODS:
            raise InputError(f"no {kind} report has been computed in this worker")
        if isinstance(_LAST_METHODS[kind], Exception):
            raise _LAST_METHODS[kind]
        return _LAST_METHODS[kind].to_dict()
    return answer(last)


# Per kind, its last report's rows, options and reference conflicts (None without a reference): the downloads.
_LAST_INPUTS = {}
# Per kind, what its last import carried beside the rows (image sizes, span texts, clip durations): the writers need it.
_LAST_IMPORTS = {}


def _remember(kind, rows, options):
    """Keep what ``run_report`` computed ``kind`` from; item details are parsed from it when first asked."""
    if kind in detail_kinds():
        kept = {k: v for k, v in options.items() if k != "progress"}
        _LAST_REPORTS[kind] = ItemDetails(kind, rows, kept)


def run_item_detail(kind, item):
    """One item of ``kind``'s last report: :func:`answer` with the item's detail as result.

    The detail is :meth:`agreekit.item_detail.ItemDetails.detail` (every annotator's shapes with
    their input lines, the matches with their similarity); the rows are parsed on the first
    request after a report and kept for the next ones.
    """
    return answer(lambda: _item_detail(kind, item))


def _item_detail(kind, item):
    details = _LAST_REPORTS.get(kind)
    if details is None:
        raise InputError(f"no {kind} report has been computed in this worker" if kind in detail_kinds()
                         else f"no item view for {kind}")
    return details.detail(str(item))


class KindChoice(Exception):
    """The files hold several kinds and none was asked for: the page offers them as buttons."""

    def __init__(self, message, kinds):
        super().__init__(message)
        self.kinds = kinds


def _file_bytes(data):
    """A file's bytes: ``bytes`` in CPython, a proxied ``Uint8Array`` (``to_bytes``) in Pyodide."""
    return data.to_bytes() if hasattr(data, "to_bytes") else bytes(data)


def _in_folder_order(pairs):
    """``(name, bytes)`` pairs sorted as a folder is read (by folder, then file name)."""
    return sorted(pairs, key=lambda pair: (str(PurePosixPath(pair[0]).parent), pair[0]))


def _held_kinds(sources, reader, options, step):
    """``{kind: conversion}`` for each kind of ``reader`` that reads at least one annotation."""
    held = {}
    for kind in reader.kinds:
        step(f"reading {reader.title} as {kind}")
        try:
            conversion = convert(sources, format=reader.name, kind=kind, **options)
        except QuestionChoice as choice:  # labels answering several questions: held, the question asked later
            held[kind] = choice
            continue
        except InputError:
            continue
        if conversion.summary()["n_annotations"]:
            held[kind] = conversion
    return held


def _held_count(held):
    """A held kind's annotations (a conversion's), or its answers (several questions, none chosen yet)."""
    if isinstance(held, QuestionChoice):
        return sum(q["n_answers"] for q in held.questions)
    return held.summary()["n_annotations"]


def _read(sources, reader, kind_hint, options, step):
    """``(conversion, kinds)``: the kind the files hold, else ``kind_hint`` among those they hold.

    ``kinds`` is ``[{kind, n_annotations}]`` for every kind the files hold when
    there are several (empty when the reader chose the one kind itself).
    Raises :class:`KindChoice` when there are several and ``kind_hint`` is not
    among them, and the reader's own error when none reads.
    """
    step(f"reading {reader.title}")
    try:
        conversion = convert(sources, format=reader.name, **options)
    except InputError as error:
        if len(reader.kinds) == 1:
            raise
        held = _held_kinds(sources, reader, options, step)
        if not held:
            raise error from None
    else:
        if kind_hint == LABELS and conversion.kind != LABELS and LABELS in reader.kinds and conversion.also:
            return _labels_too(sources, reader, conversion, options, step)
        return conversion, []
    kinds = [{"kind": kind, "n_annotations": _held_count(c)} for kind, c in held.items()]
    if kind_hint not in held:
        listed = ", ".join(f"{k['kind']} ({k['n_annotations']})" for k in kinds)
        raise KindChoice(f"{reader.title}: the files hold more than one kind of annotation: {listed} "
                         "annotations. Choose the kind to read.", kinds)
    if isinstance(held[kind_hint], QuestionChoice):
        raise held[kind_hint]
    return held[kind_hint], kinds


def _labels_too(sources, reader, conversion, options, step):
    """On the Labels tab, files whose reader chose regions but which also hold answers: read the answers,
    and offer the regions' kind as the other choice (``kinds``)."""
    step(f"reading {reader.title} as {LABELS}")
    try:
        labels = convert(sources, format=reader.name, kind=LABELS, **options)
    except QuestionChoice as choice:
        labels = choice
    except InputError:
        return conversion, []
    kinds = [{"kind": conversion.kind, "n_annotations": _held_count(conversion)},
             {"kind": LABELS, "n_annotations": _held_count(labels)}]
    if isinstance(labels, QuestionChoice):
        labels.kinds = kinds
        raise labels
    return labels, kinds


def run_convert(files, kind_hint="", exact=False, progress=None, format="auto", options_json="{}"):
    """Rows for the page from dropped files, as JSON (see docs/architecture.md, "Worker protocol").

    Parameters
    ----------
    files : sequence of (str, bytes)
        The files' names (paths inside a dropped folder) and bytes; zips are opened.
        In Pyodide the bytes are a proxied ``Uint8Array``.
    kind_hint : str
        The open tab's kind: read when the files hold several kinds and it is one of them.
    exact : bool
        Read ``kind_hint`` and nothing else (the user chose it).
    progress : callable, optional
        ``progress(done, total, stage)``; called with ``0, 0`` and the stage's name.
    format : str
        ``"auto"`` (detect) or the name of the format chosen in the import form.
    options_json : str
        JSON ``{format: {option: text}}``: the import form's options of each format;
        those of the format read are passed to it (read in their declared types); for labels,
        ``question`` chooses the question whose answers are read.

    Returns
    -------
    str
        :func:`answer` with result ``{"plain": true}`` for one .csv/.tsv/.txt/.tab
        file that no format claims (the page reads it as rows), else ``{"plain":
        false, "format", "format_title", "format_options", "kind", "kinds", "rows_csv",
        "option_tables", "summary"}``, where ``format_options`` are the format's
        options the files were read with (a share link carries them), ``option_tables`` maps every table
        option of the kind to the CSV text the conversion supplies for it, or
        None (so the page clears what an earlier import filled); when the files hold several kinds and none
        was asked for, an error of type "kind" whose ``kinds`` lists the choices; when labels answer
        several questions and none was chosen, an error of type "question" whose ``questions`` lists them.
    """
    return answer(lambda: _convert(files, kind_hint, exact, progress, format, options_json))


def _option_tables(conversion):
    """``{table option of the conversion's kind: its CSV text or None}`` (span texts, clip durations)."""
    supplied = conversion.option_tables()
    return {option.name: supplied.get(option.name) for option in registry.get(conversion.kind).options
            if option.type == "table"}


def _chosen_reader(sources, pairs, format):
    """The reader of the format chosen, or detected (None: one plain table that no format claims)."""
    if format not in ("", "auto"):
        if format not in READERS:
            raise InputError(f"unknown format {format!r}; expected one of {', '.join(sorted(READERS))}",
                             column="format", value=format)
        return READERS[format]
    try:
        return READERS[detect(sources)]
    except InputError:
        if len(pairs) == 1 and pairs[0][0].lower().endswith(PLAIN_TABLES):
            return None
        raise


def _format_options(options_json, reader):
    """The import form's options of ``reader``'s format, from ``{format: {option: text}}``."""
    by_format = json.loads(options_json or "{}")
    options = by_format.get(reader.name, {}) if isinstance(by_format, dict) else {}
    if not isinstance(options, dict):
        raise InputError(f"{reader.title}: the import options are not an object", column="options")
    return options


def _convert(files, kind_hint, exact, progress, format, options_json):
    def step(stage):
        if progress is not None:
            progress(0, 0, stage)
    pairs = [(str(name), _file_bytes(data)) for name, data in files]
    step(f"opening {len(pairs)} file{'s' if len(pairs) != 1 else ''}")
    sources = load_sources(_in_folder_order(pairs))
    step("detecting the format")
    reader = _chosen_reader(sources, pairs, format)
    if reader is None:
        return {"plain": True}
    options = _format_options(options_json, reader)
    try:
        if exact:
            step(f"reading {reader.title} as {kind_hint}")
            conversion, kinds = convert(sources, format=reader.name, kind=kind_hint, **options), []
        else:
            conversion, kinds = _read(sources, reader, kind_hint or None, options, step)
    except QuestionChoice as choice:
        choice.format = reader.name  # the page's question buttons give this format its option question
        raise
    step("writing the rows")
    _LAST_IMPORTS[conversion.kind] = {"image_sizes": conversion.image_sizes, "texts": conversion.lengths,
                                      "durations": conversion.durations}
    return {"plain": False, "format": reader.name, "format_title": reader.title,
            "format_options": conversion.format_options, "kind": conversion.kind,
            "kinds": kinds, "rows_csv": conversion.to_csv(), "option_tables": _option_tables(conversion),
            "summary": conversion.summary()}


def run_reference_file(kind, what, source_format=""):
    """A download of ``kind``'s last report: :func:`answer` with ``{filename, type, text}`` or ``{…, base64}``.

    ``what``: ``"consensus"`` (:func:`agreekit.consensus_rows` of the report's rows and threshold, written in
    ``source_format``, the format the rows were imported from, when agreekit writes it for the kind and the rows
    carry what it needs, else CSV, the note saying why)
    or ``"adjudication"`` (:func:`agreekit.adjudication_csv` of the reference's conflicts).
    """
    return answer(lambda: _reference_file(kind, what, source_format))


def _reference_file(kind, what, source_format):
    if kind not in _LAST_INPUTS:
        raise InputError(f"no {kind} report has been computed in this worker")
    rows, options, conflicts = _LAST_INPUTS[kind]
    if what == "adjudication":
        if conflicts is None:
            raise InputError("the adjudication list needs a report with a reference", column="reference")
        return {"filename": f"agreekit-{kind}-adjudication.csv", "type": "text/csv",
                "text": adjudication_csv(conflicts)}
    if what != "consensus":
        raise InputError(f"no download {what!r}: expected consensus or adjudication")
    hook = consensus_hook(kind)
    result = consensus_rows(kind, rows, **{k: v for k, v in options.items() if k in hook.options})
    writer = WRITERS.get(source_format)
    fmt = source_format if writer is not None and kind in writer.kinds else "csv"
    rows, notes = [dict(r) for r in result.rows], []
    carried = {name: value for name, value in _LAST_IMPORTS.get(kind, {}).items()
               if value and fmt != "csv" and name in writer_options(WRITERS[fmt])}
    try:
        written = write(kind, rows, fmt, **carried)
    except InputError as error:  # e.g. COCO without the image sizes the rows do not carry: our CSV instead
        notes.append(f"written as CSV: {error.message}")
        fmt, written = "csv", write(kind, rows, "csv")
    content = written.content
    out = {"filename": written.filename, "format": fmt, "notes": notes + list(written.notes),
           "type": "application/zip" if isinstance(content, bytes) else "text/plain"}
    if isinstance(content, bytes):
        return {**out, "base64": base64.b64encode(content).decode("ascii")}
    return {**out, "text": content}
