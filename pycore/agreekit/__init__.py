"""agreekit: chance-corrected agreement for structured annotations.

Each kind of annotation has one function that takes rows (CSV/TSV text or a
list of dicts) and returns a :class:`~agreekit.report.Report`:

* :func:`boxes` — bounding boxes: detection α, classification α, σ and KS.
* :func:`segments` — time segments: raw measures, detection and classification α, boundary sweep.
* :func:`spans` — text spans: exact and partial F1, character-level α, five-way disagreement table.
* :func:`polygons` — polygons: the box report with exact polygon IoU and convex-hull GIoU.
* :func:`masks` — pixel masks: STAPLE consensus, per-annotator sensitivity and specificity, majority vote.
* :func:`cuboids` — 3D cuboids: the box report over exact IoU₃D (:func:`iou3d`) of rotated cuboids.
* :func:`traces` — per-step labels of agent traces: α, Cohen's and Fleiss' κ, per step and per trace.
"""
from .alpha import krippendorff_alpha
from .boxes import boxes
from .cuboid import iou3d
from .cuboids import cuboids
from .masks import masks, staple
from .polygon import polygon_giou, polygon_iou
from .polygons import polygons
from .segments import segments
from .spans import spans
from .report import Report
from .rows import InputError
from .share import read_share_fragment, share_link
from .traces import traces

__version__ = "0.1.0"

# kind name -> report function; each kind module adds its line here.
KINDS = {}
KINDS["boxes"] = boxes
KINDS["segments"] = segments
KINDS["spans"] = spans
KINDS["masks"] = masks
KINDS["cuboids"] = cuboids
KINDS["traces"] = traces
KINDS["polygons"] = polygons


def report(kind, rows, **options):
    """The report of ``kind`` ("boxes", "spans", ...) for ``rows``."""
    if kind not in KINDS:
        raise InputError(f"unknown kind {kind!r}; expected one of {', '.join(sorted(KINDS))}")
    return KINDS[kind](rows, **options)
