"""agreekit: chance-corrected agreement for structured annotations.

Each kind of annotation has one function that takes rows (CSV/TSV text or a
list of dicts) and returns a :class:`~agreekit.results.Report`; the registry
(:mod:`agreekit.registry`) lists them, and ``agreekit.report(kind, rows,
**options)`` calls one by name.  The kinds, in tab order:

* ``boxes`` — bounding boxes: detection α, classification α, σ and KS.
* ``spans`` — text spans: exact and partial F1, character-level α, five-way disagreement table.
* ``segments`` — time segments: raw measures, detection and classification α, boundary sweep.
* ``polygons`` — polygons: the box report with exact polygon IoU and convex-hull GIoU.
* ``masks`` — pixel masks: STAPLE consensus, per-annotator sensitivity and specificity, majority vote.
* ``cuboids`` — 3D cuboids: the box report over exact IoU₃D (:func:`iou3d`) of rotated cuboids.
* ``traces`` — per-step labels of agent traces: α, Cohen's and Fleiss' κ, per step and per trace.
* ``labels`` — categories, ordinal scales, numbers and label sets: α, κ (Cohen, weighted, Fleiss, Conger),
  Gwet's AC1/AC2, Scott's π, Brennan–Prediger and ICC, per pair and per annotator.

Floors, each importing only from the floors before it (``tests/test_layout.py``
checks it; ``docs/architecture.md`` draws them): ``errors``, ``runtime``,
``rows``, ``results``, ``arrays``, ``options``, ``registry``, ``report_shape``, ``parse`` →
``geometry`` → ``matching`` → ``measures`` → the object engine and other
shared machinery (``objects``, ``object_sets``, ``breakdowns``,
``object_detail``, ``unitizing_report``, ``text``) → ``kinds`` (one package
per kind) → this package, ``cli``, ``item_detail``, ``share``,
``simulate`` and the web bridge.
"""
from .geometry.cuboids import iou3d
from .geometry.polygons import polygon_giou, polygon_iou
from .measures.staple import staple
from .measures.alpha import krippendorff_alpha
from .errors import InputError
from .kinds import load_kinds
from .registry import KINDS, get
from .results import Report
from .share import compare_link, read_compare_fragment, read_share_fragment, share_link
from .formats import convert
from .comparison import compare, plan, split_groups
from .object_consensus import ConsensusResult, consensus_rows, leave_one_out_rows
from .annotator_ranking import Ranking, annotator_ranking
from .formats.writers import export
from .formats.writers.adjudication import adjudication_csv
from .conflicts import ItemConflict
from .reference.adjudication import reference_conflicts

__version__ = "0.1.0"



load_kinds()
globals().update({name: kind.function for name, kind in KINDS.items()})  # agreekit.boxes, agreekit.spans, …
__all__ = ["KINDS", "ConsensusResult", "InputError", "ItemConflict", "Ranking", "Report", "adjudication_csv",
           "annotator_ranking", "compare", "compare_link", "consensus", "consensus_rows", "convert", "export",
           "iou3d", "krippendorff_alpha", "leave_one_out_rows", "plan", "polygon_giou", "polygon_iou",
           "read_compare_fragment", "reference_conflicts", "split_groups",
           "read_share_fragment", "report", "share_link", "staple", *KINDS]


def report(kind, rows, **options):
    """The report of ``kind`` (a name in :data:`KINDS`: "boxes", "spans", …) for ``rows``.

    Options are the kind's keyword options; each is checked against its declared
    type and range, and an unknown option or kind is an :class:`InputError`.
    """
    return get(kind).function(rows, **options)


def consensus(kind, rows, **options):
    """The consensus of ``rows`` of ``kind`` without gold (:func:`agreekit.object_consensus.consensus_rows`).

    Options: ``quorum``, ``exclude_annotator``, ``annotator``, ``weights`` and the
    kind's options its consensus uses (``threshold``).  Returns a
    :class:`ConsensusResult`: ``.rows`` (rows the kind's report reads),
    ``.objects`` (each with its support and spread), ``.warnings``.
    """
    return consensus_rows(kind, rows, **options)
