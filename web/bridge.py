"""The worker's side of the page: run one report and return JSON (results and errors as data).

Loaded by web/worker.mjs after the agreekit wheel is installed; ``run_report`` is the only
entry point. Input errors come back with their line, column and value so the page can show
them next to the paste area; anything else is a bug in agreekit and comes back as one line
naming the exception (never a traceback), which the page shows in the same place.
"""
import inspect
import json
import re

from agreekit import registry
from agreekit.rows import InputError

MAX_MESSAGE_CHARS = 300
WRITING_STAGE = "writing the report"  # the last progress stage, after the kind's own
# An absolute path (POSIX or Windows) standing alone: shown by its last part only.
_PATH = re.compile(r"(?<![\w.])(?:[A-Za-z]:)?[\\/](?:[^\s'\"\\/]+[\\/])+([^\s'\"\\/]+)")


def internal_error(exc):
    """``{"type": "internal", "message": …}``: one line naming the exception, no internal paths."""
    text = " ".join(_PATH.sub(r"\1", str(exc)).split())
    if len(text) > MAX_MESSAGE_CHARS:
        text = text[:MAX_MESSAGE_CHARS - 1] + "…"
    detail = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return {"type": "internal", "message": f"internal error: {detail} — please report it, with the input"}


def run_report(kind, rows, options_json, progress=None):
    """The report of ``kind`` for ``rows`` as JSON: ``{"ok": true, "report": {...}}`` or an error.

    ``options_json`` is the JSON text of the report's keyword options; ``progress``
    (``done, total, stage``) is passed on to kinds that report progress.
    """
    try:
        options = json.loads(options_json)
        function = registry.get(kind).function
        if progress is not None and "progress" in inspect.signature(function).parameters:
            options["progress"] = lambda done, total, stage="": progress(done, total, stage)
        report = function(rows, **options)
        if progress is not None:
            progress(0, 0, WRITING_STAGE)  # seconds for a report of tens of MB: say what happens
        return json.dumps({"ok": True, "report": report.to_dict()}, allow_nan=False)
    except InputError as exc:
        error = {"type": "input", **exc.to_dict(), "detail": exc.message}
    except Exception as exc:  # noqa: BLE001 -- a bug: the page shows one line, the worker survives
        error = internal_error(exc)
    return json.dumps({"ok": False, "error": error})
