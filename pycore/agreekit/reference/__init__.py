"""Scoring annotators against a reference: an expert among them, gold rows, or (later) a consensus.

:mod:`.setup` chooses the reference records (and holds the seam for a reference
built per annotator, such as a leave-one-out consensus); :mod:`.scores` matches
each annotator's objects to the reference's and computes precision, recall,
F1, mean matched similarity, σ against the reference, κ on matched labels and
the conflict types; :mod:`.baseline` the between-item cross baseline of σ;
:mod:`.intervals` the bootstrap over items; :mod:`.tables` the per-label and
per-item rows; :mod:`.text` the command line's table.  Nothing here names a
kind: each kind passes its parser, its objects and its :class:`~agreekit.objects.ObjectKind`.
"""
