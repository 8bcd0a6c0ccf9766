"""Helpers of the workshop page's cells: printing numbers, drawing figures, checking exercises.

The page's setup cell runs ``from workshop import *`` in the one Pyodide that all
cells share (PyScript copies this file there, see ``dist/workshop.json``). The same
module runs in CPython, where ``show`` only closes the figure: the tests run every
cell there too and compare the numbers each prints with the browser's.
"""
from __future__ import annotations

import asyncio
import base64
import importlib.util
import io
import json
import math
import sys
from urllib.parse import urljoin

import matplotlib

matplotlib.use("agg")  # no DOM in PyScript's worker: draw to PNG, put the PNG in the page
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import agreekit  # noqa: E402
from agreekit import simulate  # noqa: E402

IN_BROWSER = sys.platform == "emscripten"
ACTIONABLE_OUTCOMES = ("label_only", "boundary_only", "both", "missed")  # the five-way table bar exact
__all__ = ["agreekit", "check", "note", "np", "plt", "ready", "show", "simulate"]


def note(name, value):
    """Print ``name = value`` with every digit of the number (None when undefined).

    One line per number, in this form, so that the tests can read what a cell
    found and compare it with CPython's result of the same code.
    """
    if value is not None:
        value = float(value)
    print(f"{name} = {value!r}")


def show(fig, alt):
    """Draw ``fig`` below the cell that is running, as a PNG described by ``alt``, and close it."""
    if IN_BROWSER:
        from pyscript import window

        png = io.BytesIO()
        fig.savefig(png, format="png", dpi=110, bbox_inches="tight")
        window.agreekitWorkshop.showFigure(base64.b64encode(png.getvalue()).decode("ascii"), alt)
    plt.close(fig)


def ready():
    """Tell the page that Python is ready, with the versions it runs.

    In the browser, once scipy's other parts are installed (``install_scipy_parts``): the page
    lets cells run from then on.
    """
    versions = {"python": sys.version.split()[0], "agreekit": agreekit.__version__,
                "numpy": np.__version__, "matplotlib": matplotlib.__version__}
    if IN_BROWSER:
        _tasks.append(asyncio.ensure_future(_announce_when_installed(versions)))
    return versions


_tasks = []  # the running announcement (a task nobody holds may be collected before it ends)


async def install_scipy_parts(info_path="build-info.json"):
    """scipy's sparse part and its rest, by the URLs the calculator's build-info.json gives them.

    workshop.json's packages install numpy, scipy's base, agreekit, openblas and matplotlib;
    these two link openblas, so they come in a call of their own, after it (buildtools/workshop.py).
    """
    import pyodide_js
    from pyodide.ffi import to_js
    from pyscript import window

    with open(info_path, encoding="utf-8") as file:
        info = json.load(file)
    page = str(window.location.href)
    await pyodide_js.loadPackage(to_js([urljoin(page, info["scipy"]["sparse"]), urljoin(page, info["scipy_rest"])]))
    importlib.invalidate_caches()
    missing = [name for name in ("scipy.sparse", "scipy.stats") if importlib.util.find_spec(name) is None]
    if missing:  # Pyodide's loader reports a failed download on the console and returns
        raise RuntimeError(f"scipy's parts did not install ({', '.join(missing)} missing): see the console")


async def _announce_when_installed(versions):
    from pyscript import window

    try:
        await install_scipy_parts()
    except Exception as error:  # a failed download: said on the page at once, not after its timeout
        window.agreekitWorkshop.pythonFailed(f"{type(error).__name__}: {error}")
        return
    window.agreekitWorkshop.pythonReady(", ".join(f"{k} {v}" for k, v in versions.items()))


# --------------------------------------------------------------------------- exercise checks

def _close(a, b, tolerance=1e-9):
    return a is not None and b is not None and math.isclose(float(a), float(b), rel_tol=tolerance,
                                                            abs_tol=tolerance)


def _check_raw_iou(my_sigma, report):
    loc = report.localization
    expected = 1 - loc.mean_within / loc.mean_between
    if _close(my_sigma, expected) and _close(my_sigma, loc.sigma.value):
        return True, f"σ = 1 − {loc.mean_within:.4f} / {loc.mean_between:.4f} = {expected:.4f}, as the report says."
    return False, "σ is 1 − mean_within / mean_between, both in report.localization."


def _check_threshold(lowest_defined, sweep):
    defined = [t for t, report in sorted(sweep.items()) if report.detection.value is not None]
    if not defined:
        return False, "no threshold of the sweep gives a defined detection α: widen the sweep."
    if lowest_defined is not None and _close(lowest_defined, defined[0]):
        return True, (f"below {defined[0]} every annotator matched every object: nothing to tell apart, "
                      "so detection α is undefined, and all the disagreement is σ's.")
    return False, "look for the first threshold whose report.detection.value is not None."


def _check_ks(share_worst, report, worst=12):
    within = sorted((row["mean_within"] for row in report.items if row["mean_within"] is not None), reverse=True)
    expected = sum(within[:worst]) / sum(within)
    if _close(share_worst, expected):
        return True, (f"{worst} of {len(within)} images carry {expected:.0%} of the distance between matched "
                      "boxes: fix those images (or their annotator), not the guidelines.")
    return False, f"sum the mean_within of the {worst} largest rows of report.items, divided by the sum of all."


def _check_spans(rewrite, report):
    total = report.disagreement.total
    shares = {"label_only": total.shares["label_only"], "boundary_only": total.shares["boundary_only"],
              "both": total.shares["both"], "missed": total.shares["missed_a"] + total.shares["missed_b"]}
    expected = max(shares, key=shares.get)
    if rewrite == expected:
        return True, f"{expected} ({shares[expected]:.0%} of spans): rewrite the {report.disagreement.remedies[expected]}"
    return False, f"pick the largest of {', '.join(ACTIONABLE_OUTCOMES)} (missed = missed_a + missed_b)."


def _check_segments(claim_tolerance, report, target=0.75):
    reached = [row["tolerance"] for row in report.boundary_sweep if row["f1"] is not None and row["f1"] >= target]
    if not reached:
        return False, f"no tolerance of the sweep reaches F1 {target}: add larger ones."
    if _close(claim_tolerance, reached[0]):
        return True, f"boundaries agree (F1 ≥ {target}) only within ±{reached[0]} s: say so with the number."
    return False, f"the smallest row['tolerance'] of report.boundary_sweep with row['f1'] ≥ {target}."


def _check_traces(worst_step, report):
    defined = [row for row in report.steps if row["alpha"]["value"] is not None]
    worst = min(defined, key=lambda row: row["alpha"]["value"])
    if worst_step == worst["step"]:
        return True, f"step {worst['step']}: α {worst['alpha']['value']:.2f}. Read its disputed units first."
    return False, "the step of report.steps with the smallest defined row['alpha']['value']."


def _check_bootstrap(n_needed, widths, target=0.05):
    c = float(np.median([width * math.sqrt(n) for n, width in widths.items()]))
    expected = math.ceil((c / target) ** 2)
    if n_needed == expected:
        return True, f"width ≈ {c:.3f}/√n, so about {expected} images for a width of {target}."
    return False, "c = the median of width × √n over the sweep; then n = (c / 0.05)², rounded up."


def _check_kappa(needed, kappa_by_defects, target=0.6):
    """κ of [[90 − d, 5], [5, d]] from its definition: p_o = 0.9, p_e = Σ_c (row share_c)² (equal margins)."""
    def kappa(d):
        ok = (95 - d) / 100
        expected = ok ** 2 + (1 - ok) ** 2
        return (0.9 - expected) / (1 - expected)
    if not all(_close(value, kappa(d)) for d, value in kappa_by_defects.items()):
        return False, "kappa_by_defects is not κ of the tables [[90 − d, 5], [5, d]]: run the lesson's cell again."
    reached = [d for d in sorted(kappa_by_defects) if kappa(d) >= target]
    if not reached:
        return False, f"no d of the sweep gives κ ≥ {target}: widen the sweep."
    if needed == reached[0]:
        return True, (f"d = {needed}: κ {kappa(needed):.3f}, against {kappa(0):.3f} at d = 0, with the same 90% "
                      "agreement: κ's chance term, Σ p_c², is large when one label dominates.")
    return False, f"the smallest d of kappa_by_defects whose κ is ≥ {target}."


CHECKS = {"raw-iou": _check_raw_iou, "threshold": _check_threshold, "ks": _check_ks, "spans": _check_spans,
          "segments": _check_segments, "traces": _check_traces, "bootstrap": _check_bootstrap, "kappa": _check_kappa}


def check(lesson, answer, *evidence):
    """Check an exercise's ``answer`` against what the lesson's cell computed; print the verdict.

    Prints ``CHECK <lesson>: PASS`` or ``CHECK <lesson>: not yet``, then why or a hint.
    Returns whether it passed.
    """
    passed, message = CHECKS[lesson](answer, *evidence)
    print(f"CHECK {lesson}: {'PASS' if passed else 'not yet'} — {message}")
    return passed
