"""The consensus, the ranking and the consensus reference on large items (issue 27): block by block, the
same results as the square matrices.

The limits of :mod:`agreekit.object_blocks` are lowered (as in ``test_large_items``) so that moderately
crowded items take the blocked path: each voter pair matched from the pairs that may overlap
(``ConsensusHook.blocks``), never the item's square similarity.
"""
import numpy as np
import pytest

import agreekit
from agreekit import object_blocks, object_consensus
from agreekit.registry import get
from same_report import assert_same
from test_large_items import blocked, crowded_boxes, crowded_cuboids, crowded_polygons, crowded_segments


def crowded_spans(seed, n_annotators=4, n_entities=40):
    """One document: each annotator's jittered copies of the same entities, some missed or relabelled."""
    rng = np.random.default_rng(seed)
    starts = np.sort(rng.choice(2000, n_entities, replace=False)) * 3
    ends = starts + rng.integers(2, 12, n_entities)
    rows = []
    for a in range(n_annotators):
        for s, e in zip(starts.tolist(), ends.tolist()):
            if rng.random() < 0.1:
                continue
            s, e = max(0, s + int(rng.integers(-2, 3))), e + int(rng.integers(-2, 3))
            rows.append({"item": "doc", "annotator": f"ann{a}", "start": s, "end": max(s + 1, e),
                         "label": "PER" if rng.random() < 0.8 else "ORG"})
    return rows


CASES = {"boxes": lambda: crowded_boxes(7, n_annotators=4), "segments": lambda: crowded_segments(8, n_annotators=4),
         "cuboids": lambda: crowded_cuboids(9, n_objects=40, columns=8),
         "polygons": lambda: crowded_polygons(11, items=("p1",), n_annotators=4), "spans": lambda: crowded_spans(12)}


def results(kind, rows):
    """Everything the consensus machinery answers for ``rows``: JSON-ready."""
    return {"consensus": object_consensus.consensus_rows(kind, rows).to_dict(),
            "without ann1": object_consensus.consensus_rows(kind, rows, exclude_annotator="ann1").to_dict(),
            "quorum 2": object_consensus.consensus_rows(kind, rows, quorum=2).to_dict(),
            "leave one out": object_consensus.leave_one_out_rows(kind, rows),
            "ranking": agreekit.annotator_ranking(kind, rows, rounds=2).to_dict()}


@pytest.mark.parametrize("kind", sorted(CASES))
def test_consensus_and_ranking_blocked_equal_square(monkeypatch, kind):
    rows = CASES[kind]()
    dense = results(kind, rows)
    assert dense["consensus"]["objects"] and dense["ranking"]["scores"][0]["matched"] > 0
    blocked(monkeypatch)
    assert_same(results(kind, rows), dense)


@pytest.mark.parametrize("match", ["optimal", "potato"])
@pytest.mark.parametrize("kind", ["boxes", "segments"])
def test_consensus_reference_blocked_equal_square(monkeypatch, kind, match):
    """The report scored against the leave-one-out consensus (with the ranking's reliability column), both
    stages of its matching (threshold, then low overlap) block by block, in either matching mode."""
    rows = crowded_boxes(10) if kind == "boxes" else crowded_segments(13)
    dense = agreekit.report(kind, rows, reference="consensus", match=match, bootstrap=20).to_dict()
    assert dense["reference"]["n_comparisons"] > 0
    blocked(monkeypatch)
    assert_same(agreekit.report(kind, rows, reference="consensus", match=match, bootstrap=20).to_dict(), dense)


@pytest.mark.parametrize("kind", sorted(CASES))
def test_blocked_consensus_never_builds_the_square(monkeypatch, kind):
    """Above the limits the hook's square similarity is asked only of clusters (the spread), never of
    the item, and the pairs are matched from the allowed pairs."""
    rows = CASES[kind]()
    hook = get(kind).consensus
    sizes, sparse = [], []
    match_allowed = object_blocks.match_allowed

    def spying_similarity(geometries):
        sizes.append(len(geometries))
        return hook.similarity(geometries)

    def spying_match(*args):
        sparse.append(len(args[0]))
        return match_allowed(*args)

    blocked(monkeypatch)
    monkeypatch.setattr(object_consensus, "consensus_hook", lambda _: spying_hook(hook, spying_similarity))
    monkeypatch.setattr(object_blocks, "match_allowed", spying_match)
    object_consensus.consensus_rows(kind, rows)
    assert sizes and max(sizes) <= 5  # the fused object and its (at most 4) members
    assert sparse


def spying_hook(hook, similarity):
    import dataclasses
    return dataclasses.replace(hook, similarity=similarity)
