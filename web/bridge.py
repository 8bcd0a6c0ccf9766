"""The worker's side of the page: run one report and return JSON (results and errors as data).

Loaded by web/worker.mjs after the agreekit wheel is installed; ``run_report`` is the only
entry point. Input errors come back with their line, column and value so the page can show
them next to the paste area.
"""
import inspect
import json

import agreekit
from agreekit.rows import InputError


def run_report(kind, rows, options_json, progress=None):
    """``agreekit.report(kind, rows, **options)`` as JSON: {"ok": true, "report": {...}} or an error."""
    options = json.loads(options_json)
    if progress is not None and "progress" in inspect.signature(agreekit.KINDS[kind]).parameters:
        options["progress"] = lambda done, total, stage="": progress(done, total, stage)
    try:
        report = agreekit.report(kind, rows, **options)
    except InputError as exc:
        error = {"type": "input", **exc.to_dict(), "detail": exc.message}
        return json.dumps({"ok": False, "error": error})
    except (TypeError, ValueError) as exc:  # bad option values: still the user's input
        return json.dumps({"ok": False, "error": {"type": "options", "message": str(exc)}})
    return json.dumps({"ok": True, "report": report.to_dict()}, allow_nan=False)
