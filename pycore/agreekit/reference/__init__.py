"""Scoring annotators against a reference: an expert among them, gold rows, or (later) a consensus.

:mod:`.setup` chooses the reference records (and holds the seam for a reference
built per annotator, such as a leave-one-out consensus); :mod:`.scores` matches
each annotator's objects to the reference's and computes precision, recall,
F1, mean matched similarity, σ against the reference, κ on matched labels and
the conflict types; :mod:`.baseline` the between-item cross baseline of σ;
:mod:`.intervals` the bootstrap over items; :mod:`.tables` the per-label and
per-item rows; :mod:`.shape` the section's declared shape; :mod:`.report` what a
kind calls (:func:`.report.reference_records` before its agreement report,
:func:`.report.reference_part` for the section); :mod:`.text` the command line's
table.  Nothing here names a kind: each kind passes its parser, its objects and
its :class:`~agreekit.objects.ObjectKind` (``kinds/<kind>/reference.py`` where it
needs more than its own).
"""
