"""Ranking annotators without gold: each scored against the consensus of the others (leave-one-out).

For each annotator (:mod:`agreekit.object_consensus`) and each item it saw
with someone else, the consensus of the *other* annotators (its identical
copies left out with it) is built and the voter's objects are matched
to it one-to-one at the threshold (:func:`agreekit.matching.match`).  Pooled
over its items: TP matched, FP its unmatched objects, FN the consensus's
unmatched objects, and the mean similarity of its matches.

``reliability`` = recall against the others' consensus, TP / (TP + FN): the
gold-free estimate of the quality the project validates against (recall
against expert gold), and the best-ranking score of those measured.  F1 =
2TP / (2TP + FP + FN) (1 when neither drew anything) is reported beside it and
weighs the votes: with ``rounds`` > 0 the ranking is iterated, as in Dawid &
Skene (1979) and MACE (Hovy et al., NAACL 2013) where an annotator's estimated
competence weighs its votes: each round rebuilds every leave-one-out consensus
with each voter weighted by its last F1 (so a spammer who draws many boxes
weighs little), in the membership vote and in the weighted-median fusion.  ``docs/consensus.md`` gives the
measured validity of this choice on simulations (``benchmarks/ranking_bench.py``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .errors import InputError
from .object_consensus import check_quorum, item_consensus, match_objects, read, shared_parameters

WEIGHT_FLOOR = 0.01   # a voter's weight never falls to 0, so an item seen only by poor voters still has a vote


@dataclass(frozen=True)
class AnnotatorScore:
    """One annotator against the consensus of the others (pooled over the items it shares)."""

    annotator: str
    n_items: int        # items it saw that another voter saw too
    n_objects: int      # its objects on them
    n_reference: int    # the others' consensus objects on them
    matched: int
    precision: float    # NaN when undefined
    recall: float
    f1: float
    mean_similarity: float
    reliability: float  # recall against the others' consensus (the kind's hook may name another field)
    same_as: tuple      # annotators with rows identical to its own

    def to_dict(self):
        clean = lambda v: None if isinstance(v, float) and not math.isfinite(v) else v  # noqa: E731
        return {key: (list(value) if isinstance(value, tuple) else clean(value))
                for key, value in self.__dict__.items()}


@dataclass(frozen=True)
class Ranking:
    """Annotators by reliability, best first (annotators never scored last, by name)."""

    scores: tuple
    rounds: int
    warnings: tuple

    def to_dict(self):
        return {"scores": [s.to_dict() for s in self.scores], "rounds": self.rounds,
                "warnings": list(self.warnings)}


@dataclass(frozen=True)
class Counts:
    items: int = 0
    objects: int = 0
    reference: int = 0
    matched: int = 0
    similarity: float = 0.0


def _ratio(a, b):
    return a / b if b > 0 else float("nan")


def _item_counts(votes, voter, reference, hook, threshold):
    """``(objects, reference, matched, similarity sum)`` of one voter against one item's reference objects."""
    mine = [g for g, v in zip(votes.geometries, votes.owner) if v == voter]
    if not mine or not reference:
        return len(mine), len(reference), 0, 0.0
    matches = match_objects(hook, mine + [o.geometry for o in reference], None, threshold)
    _, _, similarity = matches(np.arange(len(mine)), np.arange(len(mine), len(mine) + len(reference)))
    return len(mine), len(reference), len(similarity), float(np.sum(similarity))


def voter_counts(prepared, voter, weights=None, quorum=None, items=None):
    """The pooled :class:`Counts` of ``voter`` against the leave-one-out consensus on its items."""
    total = [0, 0, 0, 0, 0.0]
    for votes in (items if items is not None else prepared.items):
        excluded = prepared.copies[voter]
        if voter not in votes.voters or all(v in excluded for v in votes.voters):
            continue
        reference = item_consensus(votes, prepared, excluded, weights, quorum, spread=False)
        counts = _item_counts(votes, voter, reference, prepared.hook, prepared.threshold)
        total = [total[0] + 1] + [t + c for t, c in zip(total[1:], counts)]
    return Counts(*total)


def score(name, counts, same_as=(), reliability="recall"):
    """The :class:`AnnotatorScore` of pooled ``counts``."""
    tp, fp, fn = counts.matched, counts.objects - counts.matched, counts.reference - counts.matched
    f1 = 1.0 if tp + fp + fn == 0 else 2.0 * tp / (2.0 * tp + fp + fn)
    mean_sim = _ratio(counts.similarity, tp)
    if counts.items == 0:
        f1 = float("nan")
    fields = {"recall": _ratio(tp, counts.reference), "precision": _ratio(tp, counts.objects), "f1": f1,
              "mean_similarity": mean_sim}
    return AnnotatorScore(name, counts.items, counts.objects, counts.reference, tp, fields["precision"],
                          fields["recall"], f1, mean_sim, fields[reliability], tuple(same_as))


def voter_reliabilities(prepared, weights=None, quorum=None):
    """Each voter's :class:`Counts` against the consensus of the others."""
    by_voter = {v: [] for v in range(len(prepared.voters))}
    for votes in prepared.items:
        for v in votes.voters:
            by_voter[v].append(votes)
    return [voter_counts(prepared, v, weights, quorum, by_voter[v]) for v in range(len(prepared.voters))]


def weights_from(counts, field="f1"):
    """Voter weights from their last ``field`` (F1 unless the kind says; floored; never-scored voters weigh
    the median)."""
    values = np.array([getattr(score("", c), field) for c in counts], dtype=float)
    fallback = float(np.nanmedian(values)) if np.isfinite(values).any() else 1.0
    return np.maximum(np.where(np.isfinite(values), values, fallback), WEIGHT_FLOOR).tolist()


@shared_parameters
def annotator_ranking(kind, rows, *, quorum=None, rounds=1, **kind_options):
    """Annotators ranked by :class:`AnnotatorScore` ``reliability`` against the leave-one-out consensus.

    Parameters
    ----------
    {kind}
    {rows}
    {quorum}
    rounds : int
        Reliability-weighted rounds after the first, unweighted one (0: plain leave-one-out).
    {kind_options}
    """
    quorum = check_quorum(quorum)
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 0 <= rounds <= 20:
        raise InputError(f"rounds must be an integer from 0 to 20, got {rounds!r}", column="rounds", value=rounds)
    _, prepared = read(kind, rows, kind_options)
    counts = voter_reliabilities(prepared, None, quorum)
    for _ in range(rounds):
        counts = voter_reliabilities(prepared, weights_from(counts, prepared.hook.weighting), quorum)
    scores = [score(name, c, tuple(prepared.voters[v] for v in sorted(prepared.copies[k]) if v != k),
                    prepared.hook.reliability)
              for k, (name, c) in enumerate(zip(prepared.voters, counts))]
    scores.sort(key=lambda s: (not math.isfinite(s.reliability), -s.reliability if math.isfinite(s.reliability)
                               else 0.0, s.annotator))
    return Ranking(tuple(scores), rounds, prepared.warnings)
