"""Consensus without gold (agreekit.object_consensus) and the annotator ranking against it (issue 24)."""
import csv
import io
import json
import random
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import spearmanr

import agreekit
from agreekit import InputError, annotator_ranking, consensus_rows
from agreekit.cli import main
from agreekit.geometry.boxes import iou_matrix
from agreekit.object_consensus import majority_label, weighted_median
from agreekit.simulate import crowd_annotators, ranking_corpus, true_quality


def box(item, annotator, x=None, y=None, w=None, h=None, label="obj"):
    if x is None:
        return {"item": item, "annotator": annotator, "x": "", "y": "", "w": "", "h": "", "label": ""}
    return {"item": item, "annotator": annotator, "x": x, "y": y, "w": w, "h": h, "label": label}


def geometry_set(result):
    return sorted((r["item"], r["x"], r["y"], r["w"], r["h"], r["label"]) for r in result.rows)


# ----------------------------------------------------------------- fusion, by hand

def test_three_boxes_fuse_to_the_median_of_each_corner():
    rows = [box("i", "a", 0, 0, 10, 10), box("i", "b", 1, 1, 10, 10), box("i", "c", 2, 0, 10, 12)]
    result = consensus_rows("boxes", rows)
    # x1 ∈ {0, 1, 2} → 1; y1 ∈ {0, 1, 0} → 0; x2 ∈ {10, 11, 12} → 11; y2 ∈ {10, 11, 12} → 11
    assert [(r["x"], r["y"], r["w"], r["h"]) for r in result.rows] == [(1.0, 0.0, 10.0, 11.0)]
    (obj,) = result.objects
    assert (obj.support, obj.n_voters, obj.annotators) == (3, 3, ("a", "b", "c"))
    members = np.array([[0, 0, 10, 10], [1, 1, 10, 10], [2, 0, 10, 12]], float)
    expected = np.mean(1 - iou_matrix(members, np.array([[1, 0, 10, 11]], float))[:, 0])
    assert obj.spread == pytest.approx(expected)


def test_weighted_median_is_the_median_with_equal_weights_and_follows_heavy_weights():
    values = np.random.default_rng(0).normal(size=(7, 3))
    assert np.allclose(weighted_median(values, np.ones(7)), np.median(values, axis=0))
    assert np.allclose(weighted_median(values[:6], np.ones(6)), np.median(values[:6], axis=0))
    assert weighted_median(np.array([[0.0], [1.0], [5.0]]), np.array([1.0, 1.0, 3.0]))[0] == 5.0
    assert weighted_median(np.array([[0.0], [1.0], [5.0]]), np.array([1.0, 1.0, 2.0]))[0] == 3.0  # exactly half


def test_majority_label_ties_go_to_the_smallest_label_text():
    assert majority_label(["dog", "cat", "dog"], [1, 1, 1]) == "dog"
    assert majority_label(["dog", "cat"], [1, 1]) == "cat"
    assert majority_label(["dog", "cat", "cat"], [3, 1, 1]) == "dog"


# ----------------------------------------------------------------- quorum and clusters

def test_default_quorum_is_a_strict_majority_of_those_who_saw_the_item():
    lone = [box("i", "a", 50, 50, 5, 5)]                                  # 1 of 3: out
    shared = [box("i", n, 0, 0, 10, 10) for n in ("a", "b")]              # 2 of 3: in
    rows = lone + shared + [box("i", "c", 20, 20, 5, 5)]
    assert [(r["x"], r["y"]) for r in consensus_rows("boxes", rows).rows] == [(0.0, 0.0)]
    assert len(consensus_rows("boxes", rows, quorum=1).rows) == 3


def test_annotators_who_saw_nothing_count_in_the_quorum():
    drawn = [box("i", n, 0, 0, 10, 10) for n in ("a", "b")]
    assert len(consensus_rows("boxes", drawn + [box("i", "c")]).objects) == 1       # 2 of 3
    result = consensus_rows("boxes", drawn + [box("i", "c"), box("i", "d")])        # 2 of 4: no majority
    assert result.objects == () and result.rows == (box("i", "consensus"),)
    assert len(consensus_rows("boxes", drawn + [box("i", "c"), box("i", "d")], quorum=2).objects) == 1


def test_a_cluster_never_holds_two_objects_of_one_annotator():
    rows = [box("i", "a", 0, 0, 10, 10), box("i", "a", 1, 0, 10, 10), box("i", "b", 0.5, 0, 10, 10),
            box("i", "c", 0.4, 0, 10, 10)]
    result = consensus_rows("boxes", rows, quorum=1)
    assert sorted(o.support for o in result.objects) == [1, 3]


def test_the_majority_label_wins():
    rows = [box("i", "a", 0, 0, 10, 10, "cat"), box("i", "b", 0, 0, 10, 10, "dog"), box("i", "c", 0, 0, 10, 10, "dog")]
    assert consensus_rows("boxes", rows).rows[0]["label"] == "dog"


# ----------------------------------------------------------------- identical annotators and leave-one-out

def small_crowd(n=12, images=30, per_image=5, seed=4):
    return ranking_corpus(crowd_annotators(n, seed, spammers=0.1, fixed=0.1), images, per_image, seed=seed)


def test_the_consensus_of_identical_annotators_is_their_annotation():
    rows = [r for r in small_crowd().rows if r["annotator"] == "a003"]
    copies = rows + [dict(r, annotator=name) for name in ("copy1", "copy2") for r in rows]
    result = consensus_rows("boxes", copies, annotator="a003")
    assert sorted(map(tuple, (r.values() for r in result.rows))) == sorted(map(tuple, (r.values() for r in rows)))
    assert result.duplicates == (("a003", "copy1", "copy2"),)
    assert any("a003, copy1, copy2" in w for w in result.warnings)
    assert {o.support for o in result.objects} == {3}


def test_leave_one_out_is_the_consensus_of_the_others():
    rows = small_crowd().rows
    left_out = consensus_rows("boxes", rows, exclude_annotator="a002")
    others = consensus_rows("boxes", [r for r in rows if r["annotator"] != "a002"])
    assert left_out.excluded == ("a002",)
    assert left_out.rows == others.rows


def test_leave_one_out_rows_are_each_annotators_leave_one_out_consensus_on_its_items():
    rows = small_crowd().rows
    every = agreekit.leave_one_out_rows("boxes", rows)
    assert set(every) == {r["annotator"] for r in rows}
    for name in ("a000", "a005"):
        seen = {r["item"] for r in rows if r["annotator"] == name}
        alone = {i for i in seen if {r["annotator"] for r in rows if r["item"] == i} == {name}}
        expected = [r for r in consensus_rows("boxes", rows, exclude_annotator=name).rows if r["item"] in seen]
        assert list(every[name]) == expected and not alone & {r["item"] for r in every[name]}


def test_a_duplicate_cannot_raise_its_own_leave_one_out_score():
    corpus = small_crowd()
    worst = min(annotator_ranking("boxes", corpus.rows, rounds=0).scores, key=lambda s: s.reliability)
    copied = corpus.rows + [dict(r, annotator="twin") for r in corpus.rows if r["annotator"] == worst.annotator]
    ranked = {s.annotator: s for s in annotator_ranking("boxes", copied, rounds=0).scores}
    assert ranked[worst.annotator].reliability == pytest.approx(worst.reliability)
    assert ranked["twin"].reliability == ranked[worst.annotator].reliability
    assert ranked["twin"].same_as == (worst.annotator,)
    left_out = consensus_rows("boxes", copied, exclude_annotator="twin")
    assert left_out.excluded == (worst.annotator, "twin") or left_out.excluded == ("twin", worst.annotator)
    assert left_out.rows == consensus_rows("boxes", corpus.rows, exclude_annotator=worst.annotator).rows


def test_consensus_and_ranking_are_invariant_to_row_order_and_names():
    rows = small_crowd().rows
    shuffled = rows[:]
    random.Random(3).shuffle(shuffled)
    rename_item = {r["item"]: f"z{k}" for k, r in enumerate(reversed(rows))}
    rename_annotator = {r["annotator"]: f"person-{k}" for k, r in enumerate(reversed(rows))}
    renamed = [dict(r, item=rename_item[r["item"]], annotator=rename_annotator[r["annotator"]]) for r in shuffled]
    plain, other = consensus_rows("boxes", rows), consensus_rows("boxes", renamed)
    back = {v: k for k, v in rename_item.items()}
    assert sorted((back[i], *rest) for i, *rest in geometry_set(other)) == geometry_set(plain)
    scores = {s.annotator: (s.reliability, s.f1) for s in annotator_ranking("boxes", rows).scores}
    renamed_scores = {s.annotator: (s.reliability, s.f1) for s in annotator_ranking("boxes", renamed).scores}
    assert {rename_annotator[a]: v for a, v in scores.items()} == renamed_scores


# ----------------------------------------------------------------- the ranking

def test_ranking_follows_true_quality_on_a_clean_simulation():
    annotators = crowd_annotators(20, 5, spammers=0.0, fixed=0.0)
    corpus = ranking_corpus(annotators, n_images=25, per_image=20, seed=5)
    truth = true_quality(corpus)
    scores = annotator_ranking("boxes", corpus.rows).scores
    rho = spearmanr([s.reliability for s in scores], [truth[s.annotator].recall for s in scores]).statistic
    assert rho >= 0.9


def test_spammers_and_fixed_boxes_rank_last():
    annotators = crowd_annotators(12, 8, spammers=0.0, fixed=0.0)
    annotators = annotators[:10] + (annotators[10].__class__("spam", 0.05, 0.0, 0.0, "spammer"),
                                    annotators[11].__class__("fixed", 0.05, 0.0, 0.0, "fixed"))
    corpus = ranking_corpus(annotators, n_images=30, per_image=12, seed=8)
    last_two = {s.annotator for s in annotator_ranking("boxes", corpus.rows).scores[-2:]}
    assert last_two == {"spam", "fixed"}


# ----------------------------------------------------------------- rows, API, CLI, errors

def test_consensus_rows_are_rows_the_report_reads():
    corpus = small_crowd()
    result = agreekit.consensus("boxes", corpus.rows, threshold=0.4)
    report = agreekit.boxes(list(result.rows) + corpus.rows, bootstrap=0)
    assert report.n_annotators == len({r["annotator"] for r in corpus.rows}) + 1
    assert result.threshold == 0.4 and result.to_dict()["objects"][0]["support"] >= 1


def test_the_command_line_prints_the_consensus_rows_and_the_ranking(tmp_path, capsys):
    rows = small_crowd().rows
    path = tmp_path / "boxes.csv"
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    assert main(["consensus", "boxes", str(path), "--threshold", "0.5"]) == 0
    printed = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    expected = consensus_rows("boxes", rows).rows
    assert [(r["item"], float(r["x"] or "nan")) for r in printed if r["x"]] == \
        [(r["item"], r["x"]) for r in expected if r["x"] != ""]
    assert main(["consensus", "boxes", str(path), "--ranking"]) == 0
    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["annotator"] for r in table] == [s.annotator for s in annotator_ranking("boxes", rows).scores]
    assert main(["consensus", "boxes", str(path), "--exclude-annotator", "nobody"]) == 2
    assert "nobody" in capsys.readouterr().err


@pytest.mark.parametrize("call, fragment", [
    (lambda rows: consensus_rows("boxes", rows, quorum=0), "quorum"),
    (lambda rows: consensus_rows("boxes", rows, exclude_annotator="nobody"), "nobody"),
    (lambda rows: consensus_rows("boxes", rows, bootstrap=10), "unknown option 'bootstrap'"),
    (lambda rows: consensus_rows("boxes", rows, threshold=2), "threshold"),
    (lambda rows: annotator_ranking("boxes", rows, rounds=-1), "rounds"),
    (lambda rows: consensus_rows("no such kind", rows), "unknown kind"),
])
def test_bad_options_are_one_readable_error(call, fragment):
    with pytest.raises(InputError, match=fragment):
        call([box("i", "a", 0, 0, 1, 1), box("i", "b", 0, 0, 1, 1)])


def test_every_consensus_hook_reads_only_options_its_kind_declares():
    hooked = {name: kind for name, kind in agreekit.KINDS.items() if kind.consensus is not None}
    assert "boxes" in hooked
    for name, kind in hooked.items():
        assert set(kind.consensus.options) <= {o.name for o in kind.options}, name


# ----------------------------------------------------------------- every kind with a consensus

EXAMPLES = Path(__file__).resolve().parents[1] / "web" / "examples"
HOOKED = sorted(name for name, kind in agreekit.KINDS.items() if kind.consensus is not None)


def example_rows(kind):
    if kind == "boxes":  # the page's box example is written by the build (agreekit.simulate)
        return [dict(r) for r in small_crowd().rows]
    return list(csv.DictReader(io.StringIO((EXAMPLES / f"{kind}.csv").read_text(encoding="utf-8"))))


def annotations(kind, rows):
    """The multiset of (item, geometry key, label) the kind's hook reads from ``rows`` (annotators aside)."""
    hook = agreekit.KINDS[kind].consensus
    records = hook.read(rows)[0]
    rounded = lambda key: tuple(round(v, 12) if isinstance(v, float) else v for v in key)  # noqa: E731 re-read
    return sorted((r.item, (0,) if r.geometry is None else rounded(hook.key(r.geometry)), r.label or "")
                  for r in records)


def test_every_kind_has_a_consensus():
    assert set(HOOKED) == set(agreekit.KINDS)


@pytest.mark.parametrize("kind", HOOKED)
def test_each_kinds_consensus_of_identical_annotators_is_their_annotation(kind):
    rows = example_rows(kind)
    first = sorted({r["annotator"] for r in rows})[0]
    mine = [r for r in rows if r["annotator"] == first]
    copies = [dict(r, annotator=name) for name in ("x", "y", "z") for r in mine]
    result = consensus_rows(kind, copies)
    assert annotations(kind, list(result.rows)) == annotations(kind, mine)
    assert {o.support for o in result.objects} == {3}


@pytest.mark.parametrize("kind", HOOKED)
def test_each_kinds_consensus_rows_are_read_by_its_report_and_invariant_to_order(kind):
    rows = example_rows(kind)
    result = consensus_rows(kind, rows)
    options = {"bootstrap": 0} if "bootstrap" in {o.name for o in agreekit.KINDS[kind].options} else {}
    report = agreekit.report(kind, list(result.rows) + rows, **options)
    assert report.n_annotators == len({r["annotator"] for r in rows}) + 1
    shuffled = rows[::-1]
    assert sorted(map(str, consensus_rows(kind, shuffled).rows)) == sorted(map(str, result.rows))
    scores = agreekit.annotator_ranking(kind, rows).scores
    assert {s.annotator for s in scores} == {r["annotator"] for r in rows}


def test_segments_fuse_by_mean_boundaries():
    rows = [{"item": "c", "annotator": a, "start": s, "end": e, "label": "speech"}
            for a, s, e in (("a", 1.0, 4.0), ("b", 1.5, 4.5), ("c", 2.0, 5.5))]
    (row,) = consensus_rows("segments", rows).rows
    assert (row["start"], row["end"]) == (pytest.approx(1.5), pytest.approx(14.0 / 3))


def test_spans_fuse_by_mean_boundaries_rounded_half_up():
    rows = [{"item": "d", "annotator": a, "start": s, "end": e, "label": "PER"}
            for a, s, e in (("a", 10, 20), ("b", 11, 20))]
    assert [(r["start"], r["end"]) for r in consensus_rows("spans", rows).rows] == [(11, 20)]  # 10.5 → 11


def test_polygons_fuse_to_the_medoid():
    square = lambda x: f"{x} 0 {x + 10} 0 {x + 10} 10 {x} 10"  # noqa: E731
    rows = [{"item": "p", "annotator": a, "points": square(x), "label": "car"} for a, x in (("a", 0), ("b", 2), ("c", 4.5))]
    (row,) = consensus_rows("polygons", rows, threshold=0.3).rows
    assert json.loads(row["points"]) == [[2, 0], [12, 0], [12, 10], [2, 10]]


def test_cuboid_rotations_average_by_markley():
    rows = [{"item": "s", "annotator": a, "cx": 0, "cy": 0, "cz": 0, "sx": 4, "sy": 2, "sz": 1.5, "yaw": yaw,
             "label": "car"} for a, yaw in (("a", 0.1), ("b", 0.2), ("c", 0.3))]
    rows = [{k: v for k, v in r.items()} for r in rows]
    (row,) = consensus_rows("cuboids", rows).rows
    assert (row["qx"], row["qy"]) == (pytest.approx(0, abs=1e-12), pytest.approx(0, abs=1e-12))
    assert (row["qz"], row["qw"]) == (pytest.approx(np.sin(0.1)), pytest.approx(np.cos(0.1)))


def test_mask_consensus_is_the_reports_majority_vote():
    text = (EXAMPLES / "masks.csv").read_text(encoding="utf-8")
    majority = {entry["item"]: entry["majority_rle"] for entry in agreekit.masks(text).to_dict()["items"]}
    fused = {r["item"]: [int(v) for v in r["rle"].split()] for r in consensus_rows("masks", text).rows}
    assert fused == majority


def test_labels_take_the_majority_and_break_ties_by_label_text():
    rows = [{"item": i, "annotator": a, "label": lab} for i, a, lab in
            (("q1", "a", "yes"), ("q1", "b", "no"), ("q1", "c", "yes"), ("q2", "a", "yes"), ("q2", "b", "no"))]
    result = consensus_rows("labels", rows)
    assert [(r["item"], r["label"]) for r in result.rows] == [("q1", "yes"), ("q2", "no")]
    assert [o.spread for o in result.objects] == [pytest.approx(1 / 3), 0.5]


def test_traces_take_each_steps_majority_among_the_traces_annotators():
    rows = [{"trace": "t", "step": s, "annotator": a, "label": lab} for s, a, lab in
            ((1, "a", "ok"), (1, "b", "ok"), (1, "c", "bad"), (2, "a", "bad"), (2, "b", "ok"), (3, "a", "ok"))]
    result = consensus_rows("traces", rows)
    assert [(r["step"], r["label"]) for r in result.rows] == [(1, "ok"), (2, "bad")]  # step 3: 1 of 3 labelled it
    assert [o.spread for o in result.objects] == [pytest.approx(1 / 3), 0.5]


def test_weights_decide_membership_and_pull_the_median():
    rows = [box("i", "a", 0, 0, 10, 10), box("i", "b"), box("i", "c")]
    assert consensus_rows("boxes", rows).objects == ()                                   # 1 of 3
    assert len(consensus_rows("boxes", rows, weights={"a": 3.0}).objects) == 1           # weight 3 of 5
    rows = [box("i", "a", 0, 0, 10, 10), box("i", "b", 1, 0, 10, 10), box("i", "c", 2, 0, 10, 10)]
    assert consensus_rows("boxes", rows).rows[0]["x"] == 1.0
    assert consensus_rows("boxes", rows, weights={"c": 5.0}).rows[0]["x"] == 2.0
    with pytest.raises(InputError, match="weights"):
        consensus_rows("boxes", rows, weights={"c": -1.0})


def test_a_consensus_exported_to_coco_reads_back_as_the_same_boxes(tmp_path):
    rows = small_crowd().rows
    result = consensus_rows("boxes", rows)
    sizes = {item: (1, 1) for item in {r["item"] for r in rows}}
    path = tmp_path / "consensus.json"
    path.write_text(agreekit.export("boxes", list(result.rows), "coco", image_sizes=sizes), encoding="utf-8")
    back = agreekit.convert([str(path)], format="coco", kind="boxes").rows
    drawn = sorted((r["item"], r["label"], *(round(float(r[c]), 9) for c in "xywh"))
                   for r in result.rows if r["x"] != "")
    assert sorted((r["item"], r["label"], *(round(float(r[c]), 9) for c in "xywh"))
                  for r in back if r.get("x") not in (None, "")) == drawn


def test_annotators_who_drew_nothing_are_not_copies_of_each_other():
    rows = [box("i", "a", 0, 0, 10, 10), box("i", "b", 0, 0, 10, 10), box("i", "c"), box("i", "d"), box("i", "e")]
    result = consensus_rows("boxes", rows, exclude_annotator="c")
    assert result.excluded == ("c",) and result.duplicates == (("a", "b"),)
    assert len(result.objects) == 0  # a and b: 2 of the 4 others


def test_the_command_line_json_holds_the_consensus_and_the_ranking(tmp_path, capsys):
    path = tmp_path / "labels.csv"
    path.write_text((EXAMPLES / "labels.csv").read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["consensus", "labels", str(path), "--ranking", "--json", "--rounds", "0"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["consensus"]["rows"] == [dict(r) for r in consensus_rows("labels", path.read_text()).rows]
    expected = annotator_ranking("labels", path.read_text(), rounds=0).scores
    assert [s["annotator"] for s in data["ranking"]["scores"]] == [s.annotator for s in expected]


def test_the_reference_section_ranks_a_careful_annotator_above_a_fixed_box():
    """``reference="consensus"`` adds annotator_ranking's gold-free reliability to each annotator's row."""
    from agreekit.simulate import Annotator, ranking_corpus
    crowd = (Annotator("careful_1", 0.02, 0.0, 0.0, "careful"), Annotator("careful_2", 0.03, 0.05, 0.1, "careful"),
             Annotator("careful_3", 0.02, 0.0, 0.0, "careful"), Annotator("sloppy", 0.1, 0.3, 0.3, "careful"),
             Annotator("fixed", 0.0, 0.0, 0.0, "fixed"))
    rows = ranking_corpus(crowd, n_images=20, seed=4).rows
    section = agreekit.boxes(rows, reference="consensus", bootstrap=0).to_dict()["reference"]
    reliability = {row["annotator"]: row["reliability"] for row in section["annotators"]}
    assert reliability == {s.annotator: s.reliability for s in agreekit.annotator_ranking("boxes", rows).scores}
    assert min(reliability["careful_1"], reliability["careful_3"]) > reliability["sloppy"] > reliability["fixed"]
    by_name = agreekit.boxes(rows, reference="careful_1", bootstrap=0).to_dict()["reference"]
    assert all("reliability" not in row for row in by_name["annotators"])   # only against the consensus
