"""Scoring annotators against a reference (agreekit.reference): brute-force oracles, σ against the reference,
the three ways of naming a reference, invariance, errors and the per-annotator (leave-one-out) seam."""
import csv
import io
import itertools
import random

import numpy as np
import pytest

import agreekit
from agreekit.kinds.boxes.compare import box_kind
from agreekit.kinds.boxes.rows import box_objects, parse_boxes
from agreekit.reference.report import reference_part
from agreekit.reference.setup import per_annotator
from agreekit.simulate import centred_corpus, crowd_corpus
from same_report import assert_same

THRESHOLD, LOW = 0.5, 0.1


# ----------------------------------------------------------------- brute-force oracles

def box_iou(a, b):
    ax2, ay2, bx2, by2 = a[0] + a[2], a[1] + a[3], b[0] + b[2], b[1] + b[3]
    w = max(0.0, min(ax2, bx2) - max(a[0], b[0]))
    h = max(0.0, min(ay2, by2) - max(a[1], b[1]))
    inter = w * h
    union = a[2] * a[3] + b[2] * b[3] - inter
    return inter / union if union > 0 else 0.0


def span_iou(a, b):
    inter = max(0, min(a[1], b[1]) - max(a[0], b[0]))
    union = (a[1] - a[0]) + (b[1] - b[0]) - inter
    return inter / union if union > 0 else (1.0 if a == b else 0.0)


def best_matching(drawn, gold, sim, threshold):
    """Every one-to-one matching enumerated: the most pairs with sim ≥ threshold, then the largest total."""
    best = (0, 0.0, [])
    m = len(gold)
    for k in range(min(len(drawn), m), 0, -1):
        for rows in itertools.combinations(range(len(drawn)), k):
            for cols in itertools.permutations(range(m), k):
                s = [sim(drawn[r], gold[c]) for r, c in zip(rows, cols)]
                if all(v >= threshold for v in s) and (k, sum(s)) > best[:2]:
                    best = (k, sum(s), list(zip(rows, cols)))
        if best[0]:
            break
    return best[2]


def brute_scores(by_item_annotator, gold, sim):
    """Per annotator: matched, drawn, reference, similarity sum and the four conflict counts."""
    out = {}
    for (item, annotator), drawn in by_item_annotator.items():
        if item not in gold:
            continue
        ref = gold[item]
        pairs = best_matching([d[0] for d in drawn], [g[0] for g in ref], sim, THRESHOLD)
        left_d = [k for k in range(len(drawn)) if k not in {r for r, _ in pairs}]
        left_g = [k for k in range(len(ref)) if k not in {c for _, c in pairs}]
        low = best_matching([drawn[k][0] for k in left_d], [ref[k][0] for k in left_g], sim, LOW)
        s = out.setdefault(annotator, dict.fromkeys(("m", "d", "r", "iou", "missing", "extra", "low", "wrong"), 0))
        s["m"] += len(pairs)
        s["d"] += len(drawn)
        s["r"] += len(ref)
        s["iou"] += sum(sim(drawn[r][0], ref[c][0]) for r, c in pairs)
        s["low"] += len(low)
        s["missing"] += len(ref) - len(pairs) - len(low)
        s["extra"] += len(drawn) - len(pairs) - len(low)
        s["wrong"] += sum(drawn[r][1] != ref[c][1] for r, c in pairs)
    return out


def random_box_corpus(rng):
    rows = []
    for i in range(rng.randint(2, 5)):
        truth = [(rng.uniform(0, 0.6), rng.uniform(0, 0.6), rng.uniform(0.1, 0.4), rng.uniform(0.1, 0.4))
                 for _ in range(rng.randint(0, 3))]
        for annotator in ("gold", "a", "b", "c"):
            drawn = []
            for t in truth:
                if rng.random() < 0.8:
                    jitter = 0.02 if annotator == "gold" else rng.choice([0.03, 0.1, 0.25])
                    drawn.append((t[0] + rng.gauss(0, jitter), t[1] + rng.gauss(0, jitter), t[2], t[3]))
            if rng.random() < 0.3:
                drawn.append((rng.uniform(0, 0.7), rng.uniform(0, 0.7), 0.2, 0.2))
            if not drawn:
                rows.append({"item": f"i{i}", "annotator": annotator, "x": "", "y": "", "w": "", "h": "", "label": ""})
            for x, y, w, h in drawn:
                rows.append({"item": f"i{i}", "annotator": annotator, "x": round(x, 4), "y": round(y, 4),
                             "w": round(w, 4), "h": round(h, 4), "label": rng.choice("pq")})
    return rows


def grouped(rows, geometry):
    out, gold = {}, {}
    for r in rows:
        target = gold.setdefault(r["item"], []) if r["annotator"] == "gold" else \
            out.setdefault((r["item"], r["annotator"]), [])
        if r[geometry[0]] != "":
            target.append((tuple(float(r[c]) for c in geometry), r["label"]))
    return out, gold


def check_against_brute(section, brute):
    for row in section["annotators"]:
        b = brute[row["annotator"]]
        assert (row["n_matched"], row["n_drawn"], row["n_reference"]) == (b["m"], b["d"], b["r"])
        assert row["conflicts"] == {"missing": b["missing"], "extra": b["extra"], "low_overlap": b["low"],
                                    "wrong_label": b["wrong"]}
        assert row["precision"]["value"] == (pytest.approx(b["m"] / b["d"]) if b["d"] else None)
        assert row["recall"]["value"] == (pytest.approx(b["m"] / b["r"]) if b["r"] else None)
        f1 = 2 * b["m"] / (b["d"] + b["r"]) if b["d"] + b["r"] else None
        assert row["f1"]["value"] == (pytest.approx(f1) if f1 is not None else None)
        assert row["mean_matched_iou"]["value"] == (pytest.approx(b["iou"] / b["m"]) if b["m"] else None)
    total = section["total"]
    m, d, r = (sum(b[k] for b in brute.values()) for k in ("m", "d", "r"))
    assert (total["n_matched"], total["n_drawn"], total["n_reference"]) == (m, d, r)
    assert total["conflicts"]["missing"] == sum(b["missing"] for b in brute.values())
    # The breakdowns add up to the total: items, labels (missing and low overlap by the reference's label,
    # extra by the drawn one), and the confusion table (its diagonal: matches with equal labels).
    for name in ("missing", "extra", "low_overlap", "wrong_label"):
        assert sum(item["conflicts"][name] for item in section["items"]) == total["conflicts"][name]
        assert sum(label["conflicts"][name] for label in section["labels"]) == total["conflicts"][name]
    size = len(section["confusion"]["labels"])
    counts = np.array(section["confusion"]["counts"], dtype=int).reshape(size, size)
    assert counts.sum() == m and m - np.trace(counts) == total["conflicts"]["wrong_label"]
    assert [row["n_conflicts"] for row in section["items"]] == sorted((row["n_conflicts"] for row in section["items"]),
                                                                      reverse=True)


@pytest.mark.parametrize("seed", range(25))
def test_boxes_against_brute_force(seed):
    rows = random_box_corpus(random.Random(seed))
    section = agreekit.boxes(rows, reference="gold", bootstrap=0, low_overlap=LOW).to_dict()["reference"]
    by, gold = grouped(rows, ("x", "y", "w", "h"))
    check_against_brute(section, brute_scores(by, gold, box_iou))


def random_span_corpus(rng):
    rows = []
    for i in range(rng.randint(2, 5)):
        truth = sorted((s, s + rng.randint(1, 8)) for s in rng.sample(range(0, 60, 10), rng.randint(0, 3)))
        for annotator in ("gold", "a", "b"):
            drawn = [(s + rng.choice([0, 0, 1, -1, 3]), e + rng.choice([0, 0, 2, -1])) for s, e in truth
                     if rng.random() < 0.8]
            drawn = [(max(0, s), max(max(0, s) + 1, e)) for s, e in drawn]
            if rng.random() < 0.3:
                drawn.append((70, 70 + rng.randint(1, 5)))
            if not drawn:
                rows.append({"item": f"d{i}", "annotator": annotator, "start": "", "end": "", "label": ""})
            for s, e in drawn:
                rows.append({"item": f"d{i}", "annotator": annotator, "start": s, "end": e,
                             "label": rng.choice(["PER", "ORG"])})
    return rows


@pytest.mark.parametrize("seed", range(25))
def test_spans_against_brute_force(seed):
    rows = random_span_corpus(random.Random(seed))
    report = agreekit.spans(rows, reference="gold", bootstrap=0, low_overlap=LOW).to_dict()
    by, gold = grouped(rows, ("start", "end"))
    check_against_brute(report["reference"], brute_scores(by, gold, span_iou))
    for row in report["reference"]["annotators"]:   # the five-way table: missed_a are the reference's spans
        o = row["outcomes"]
        assert 2 * sum(o[k] for k in ("exact", "label_only", "boundary_only", "both")) + o["missed_a"] + \
            o["missed_b"] == row["n_drawn"] + row["n_reference"]


# ----------------------------------------------------------------- σ against the reference

def test_a_fixed_box_scores_zero_and_a_careful_annotator_high():
    rows = centred_corpus(40, seed=3, annotators=("careful_a", "careful_b", "fixed"))
    section = agreekit.boxes(rows, reference="careful_a", bootstrap=200).to_dict()["reference"]
    by_name = {row["annotator"]: row for row in section["annotators"]}
    assert abs(by_name["fixed"]["sigma"]["value"]) < 1e-9
    assert by_name["careful_b"]["sigma"]["value"] > 0.4
    assert by_name["fixed"]["mean_matched_iou"]["value"] > 0.75   # raw IoU alone does not tell them apart
    low, high = section["total"]["sigma"]["ci"]
    assert low <= section["total"]["sigma"]["value"] <= high


def test_sigma_against_the_reference_by_hand():
    """Two items, one box each: within = d(a_i, g_i), cross = d(a_1, g_2) and d(a_2, g_1)."""
    boxes = {("i1", "g"): (0, 0, 1, 1), ("i2", "g"): (2, 0, 1, 1), ("i1", "a"): (0.1, 0, 1, 1),
             ("i2", "a"): (2, 0.2, 1, 1)}
    rows = [{"item": i, "annotator": a, "x": b[0], "y": b[1], "w": b[2], "h": b[3], "label": "x"}
            for (i, a), b in boxes.items()]
    row = agreekit.boxes(rows, reference="g", bootstrap=0, distance="iou").to_dict()["reference"]["annotators"][0]
    within = [1 - box_iou(boxes[("i1", "a")], boxes[("i1", "g")]), 1 - box_iou(boxes[("i2", "a")], boxes[("i2", "g")])]
    cross = [1 - box_iou(boxes[("i1", "a")], boxes[("i2", "g")]), 1 - box_iou(boxes[("i2", "a")], boxes[("i1", "g")])]
    assert row["mean_within"] == pytest.approx(np.mean(within))
    assert row["mean_between_cross"] == pytest.approx(np.mean(cross))
    assert row["sigma"]["value"] == pytest.approx(1 - np.mean(within) / np.mean(cross))


# ----------------------------------------------------------------- naming the reference

def as_csv(rows):
    out = io.StringIO()
    writer = csv.DictWriter(out, list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def without_source(section):
    return {k: v for k, v in section.items() if k not in ("source", "annotator")}


def test_an_annotator_by_name_equals_its_rows_as_gold():
    rows = random_box_corpus(random.Random(7)) + random_box_corpus(random.Random(8))
    by_name = agreekit.boxes(rows, reference="gold", bootstrap=100).to_dict()
    gold = [r for r in rows if r["annotator"] == "gold"]
    by_rows = agreekit.boxes([r for r in rows if r["annotator"] != "gold"], reference_rows=as_csv(gold),
                             bootstrap=100).to_dict()
    assert without_source(by_name["reference"]) == without_source(by_rows["reference"])
    assert by_name["localization"] == by_rows["localization"]   # the reference left the agreement measures
    assert by_name["n_annotators"] == 3 and by_name["settings"]["reference"] == "gold"
    assert any("left out of the agreement measures" in w for w in by_name["warnings"])


def test_the_reference_section_is_invariant_to_row_order_and_names():
    rows = centred_corpus(25, seed=5) + [{**r, "item": f"b{r['item']}"} for r in centred_corpus(10, seed=6)]
    first = agreekit.boxes(rows, reference="careful_a", bootstrap=300).to_dict()["reference"]
    rng = random.Random(1)
    names = {"careful_a": "zz_expert", "careful_b": "aa", "fixed": "mm"}
    items = {r["item"]: f"x{rng.random():.6f}" for r in rows}
    moved = [{**r, "item": items[r["item"]], "annotator": names[r["annotator"]]} for r in rows]
    rng.shuffle(moved)
    second = agreekit.boxes(moved, reference="zz_expert", bootstrap=300).to_dict()["reference"]
    assert_same(second["total"], first["total"])   # floats to 1e-12: sums run in another order
    assert_same(second["labels"], first["labels"])
    assert second["confusion"] == first["confusion"]
    renamed = {names[row["annotator"]]: {**row, "annotator": names[row["annotator"]]} for row in first["annotators"]}
    assert_same({row["annotator"]: row for row in second["annotators"]}, renamed)
    strip = lambda rows: sorted((row["n_conflicts"], round(row["recall"], 12)) for row in rows)  # noqa: E731
    assert strip(second["items"]) == strip(first["items"])


# ----------------------------------------------------------------- errors and what is left out

def test_an_unknown_annotator_is_an_input_error_listing_the_annotators():
    with pytest.raises(agreekit.InputError, match="the annotators are careful_a, careful_b, fixed"):
        agreekit.boxes(centred_corpus(5), reference="expert")


def test_a_name_and_rows_together_are_input_errors():
    rows = centred_corpus(5)
    with pytest.raises(agreekit.InputError, match="not both"):
        agreekit.boxes(rows, reference="fixed", reference_rows=as_csv(rows))
    with pytest.raises(agreekit.InputError, match="column 'x': in the reference rows: 'oops' is not a number"):
        agreekit.boxes(rows, reference_rows="item,annotator,x,y,w,h\ni,g,oops,0,1,1\n")


def test_gold_items_not_in_the_rows_and_rows_without_gold_are_counted_and_stated():
    rows = centred_corpus(6, annotators=("careful_a", "careful_b"))
    gold = [{**r, "annotator": "g"} for r in centred_corpus(8, annotators=("careful_a",)) if r["item"] != "img000"]
    report = agreekit.boxes(rows, reference_rows=gold, bootstrap=0).to_dict()
    section = report["reference"]
    assert section["n_reference_items_unused"] == 2                      # img006, img007
    assert section["n_items_without_reference"] == 1                     # img000
    assert section["n_items"] == 5 and section["annotators"][0]["n_items_without_reference"] == 1
    assert any("img006, img007" in w for w in report["warnings"])
    assert any("no reference row" in w and "img000" in w for w in report["warnings"])


def test_every_object_kind_and_the_cli_accept_a_reference(tmp_path):
    from agreekit.cli import main
    rows = centred_corpus(8)
    (tmp_path / "rows.csv").write_text(as_csv([r for r in rows if r["annotator"] != "careful_a"]))
    (tmp_path / "gold.csv").write_text(as_csv([r for r in rows if r["annotator"] == "careful_a"]))
    assert main(["boxes", str(tmp_path / "rows.csv"), "--reference", str(tmp_path / "gold.csv"),
                 "--bootstrap", "0"]) == 0
    assert main(["boxes", str(tmp_path / "rows.csv"), "--reference", "nobody"]) == 2


def test_a_share_link_carries_the_reference_rows():
    rows = centred_corpus(4)
    gold = [r for r in rows if r["annotator"] == "careful_a"]
    kind, _, options = agreekit.read_share_fragment(agreekit.share_link("boxes", rows, reference_rows=gold))
    assert kind == "boxes" and list(csv.DictReader(io.StringIO(options["reference_rows"])))[0]["annotator"] == \
        "careful_a"


# ----------------------------------------------------------------- the per-annotator seam (leave-one-out)

def test_a_reference_per_annotator_scores_each_against_its_own():
    """A stub in place of the consensus: each annotator's reference is another annotator's rows."""
    rows = centred_corpus(15, seed=2)
    records, _ = parse_boxes(rows)
    other = {"careful_a": "careful_b", "careful_b": "fixed", "fixed": "careful_a"}
    chosen = per_annotator(records, lambda name: [r for r in records if r.annotator == other[name]])

    def build(both):
        objects, array, _ = box_objects(both)
        return objects, box_kind(array, "giou")

    section, _, settings = reference_part(chosen, build, threshold=0.5, low_overlap=0.1, mode="optimal",
                                          label_key=str, bootstrap=0, seed=1)
    assert settings["reference"] == "per annotator"
    for row in section["annotators"]:
        alone = agreekit.boxes([r for r in rows if r["annotator"] in (row["annotator"], other[row["annotator"]])],
                               reference=other[row["annotator"]], bootstrap=0).to_dict()["reference"]
        assert row == alone["annotators"][0]


# ----------------------------------------------------------------- COCOeval as an oracle

def test_precision_and_recall_at_iou_half_match_cocoeval():
    """One annotator against gold on boxes laid out on a grid (no box overlaps two others, so COCO's greedy
    matching by score and the optimal matching coincide), one category: COCOeval's matches at IoU 0.5."""
    pytest.importorskip("pycocotools")
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval
    rng = np.random.default_rng(4)
    rows, images, gts, dts = [], [], [], []
    for i in range(30):
        images.append({"id": i, "width": 400, "height": 400})
        cells = rng.choice(16, size=rng.integers(0, 6), replace=False)
        for c in cells:
            x, y = 100 * (c % 4) + 20, 100 * (c // 4) + 20
            w, h = rng.uniform(30, 60, 2)
            gts.append({"id": len(gts) + 1, "image_id": i, "category_id": 1, "bbox": [x, y, w, h], "area": w * h,
                        "iscrowd": 0})
            rows.append({"item": f"im{i}", "annotator": "gold", "x": x, "y": y, "w": w, "h": h, "label": "o"})
            if rng.random() < 0.85:   # drawn, with noise from slight to far off
                dx, dy = rng.normal(0, rng.choice([2.0, 12.0]), 2)
                dts.append({"id": len(dts) + 1, "image_id": i, "category_id": 1, "bbox": [x + dx, y + dy, w, h],
                            "score": 1.0, "area": w * h})
        if rng.random() < 0.3:   # a spurious box in the empty margin
            dts.append({"id": len(dts) + 1, "image_id": i, "category_id": 1, "bbox": [0, 0, 10, 10], "score": 1.0,
                        "area": 100.0})
        for d in [d for d in dts if d["image_id"] == i] or [None]:
            x, y, w, h = d["bbox"] if d else ("", "", "", "")
            rows.append({"item": f"im{i}", "annotator": "a", "x": x, "y": y, "w": w, "h": h, "label": "o" if d else ""})
        if not cells.size:
            rows.append({"item": f"im{i}", "annotator": "gold", "x": "", "y": "", "w": "", "h": "", "label": ""})
    coco = COCO()
    coco.dataset = {"images": images, "annotations": gts, "categories": [{"id": 1, "name": "o"}]}
    coco.createIndex()
    evaluation = COCOeval(coco, coco.loadRes(dts), "bbox")
    evaluation.params.iouThrs = np.array([0.5])
    evaluation.params.maxDets = [100]
    evaluation.evaluate()
    matched = drawn = 0
    for e in evaluation.evalImgs:
        if e is not None and e["aRng"] == evaluation.params.areaRng[0]:
            matched += int((e["dtMatches"][0] > 0).sum())
            drawn += len(e["dtIds"])
    row = agreekit.boxes(rows, reference="gold", bootstrap=0).to_dict()["reference"]["annotators"][0]
    assert (row["n_matched"], row["n_drawn"], row["n_reference"]) == (matched, drawn, len(gts))
    assert 0 < matched < min(drawn, len(gts))   # misses and extras both occur
    assert row["precision"]["value"] == pytest.approx(matched / drawn)
    assert row["recall"]["value"] == pytest.approx(matched / len(gts))


def test_the_two_ways_of_summing_resamples_agree(monkeypatch):
    """Group sums by one matrix product (items × annotators held dense) or by runs of comparisons: one result."""
    from agreekit.reference import intervals
    rows = random_box_corpus(random.Random(3)) + random_box_corpus(random.Random(4))
    dense = agreekit.boxes(rows, reference="gold", bootstrap=200).to_dict()["reference"]
    monkeypatch.setattr(intervals, "MAX_TABLE_ELEMENTS", 0)
    runs = agreekit.boxes(rows, reference="gold", bootstrap=200).to_dict()["reference"]
    no_kappa = lambda rows: [{k: v for k, v in row.items() if k != "kappa"} for row in rows]  # noqa: E731
    assert_same(no_kappa(dense["annotators"]), no_kappa(runs["annotators"]))
    assert_same({k: v for k, v in dense["total"].items() if k != "kappa"},
                {k: v for k, v in runs["total"].items() if k != "kappa"})
    assert runs["total"]["kappa"]["ci"] is None   # no per-item label tables above the limit
    assert all(row["kappa"]["ci"] is None for row in runs["annotators"])


@pytest.mark.parametrize("threshold", [0.5, 0.7])
def test_reference_consensus_is_the_others_consensus_as_gold(threshold):
    """reference="consensus" scores each annotator against the consensus built without it: the same row as
    that annotator's rows scored against ``consensus_rows(..., exclude_annotator=name)`` on its items, passed
    as gold rows, at the report's threshold."""
    from agreekit.object_consensus import consensus_rows
    rows = crowd_corpus(n_images=16, n_annotators=6, per_image=4, seed=2)
    names = {r["annotator"] for r in rows}
    report = agreekit.boxes(rows, reference="consensus", bootstrap=0, threshold=threshold).to_dict()
    assert report["settings"]["reference"] == "per annotator" and report["n_annotators"] == len(names)
    by_name = {row["annotator"]: row for row in report["reference"]["annotators"]}
    assert set(by_name) == names
    for name in by_name:
        own = [r for r in rows if r["annotator"] == name]
        seen = {r["item"] for r in own}
        gold = [r for r in consensus_rows("boxes", rows, exclude_annotator=name, threshold=threshold).rows
                if r["item"] in seen]
        alone = agreekit.boxes(own, reference_rows=gold, bootstrap=0, threshold=threshold).to_dict()
        scored = {k: v for k, v in by_name[name].items() if k != "reliability"}   # the consensus's own column
        assert_same(scored, alone["reference"]["annotators"][0])


def test_a_copied_annotator_cannot_raise_its_own_consensus_score():
    """The same rows twice under two names: left out together from each other's consensus, so copying an
    annotator scores it as it scores alone."""
    rows = centred_corpus(15, seed=8)
    copied = rows + [{**r, "annotator": "fixed_again"} for r in rows if r["annotator"] == "fixed"]
    alone = agreekit.boxes(rows, reference="consensus", bootstrap=0).to_dict()["reference"]["annotators"]
    twice = agreekit.boxes(copied, reference="consensus", bootstrap=0).to_dict()
    scores = {row["annotator"]: row for row in twice["reference"]["annotators"]}
    fixed = next(row for row in alone if row["annotator"] == "fixed")
    for name in ("fixed", "fixed_again"):
        assert scores[name]["f1"]["value"] == pytest.approx(fixed["f1"]["value"], abs=1e-12)
    assert any("fixed" in w and "fixed_again" in w for w in twice["warnings"])


def test_spans_reference_is_invariant_to_row_order_and_names():
    rows = random_span_corpus(random.Random(11)) + [{**r, "item": "x" + r["item"]}
                                                    for r in random_span_corpus(random.Random(12))]
    first = agreekit.spans(rows, reference="gold", bootstrap=200).to_dict()["reference"]
    names = {"gold": "expert", "a": "zed", "b": "amy"}
    moved = [{**r, "item": r["item"][::-1] + "_", "annotator": names[r["annotator"]]} for r in rows]
    random.Random(2).shuffle(moved)
    second = agreekit.spans(moved, reference="expert", bootstrap=200).to_dict()["reference"]
    assert_same(second["total"], first["total"])
    renamed = {names[row["annotator"]]: {**row, "annotator": names[row["annotator"]]} for row in first["annotators"]}
    assert_same({row["annotator"]: row for row in second["annotators"]}, renamed)


def test_labels_against_an_expert_are_cohens_kappa_and_the_wrong_labels():
    sklearn = pytest.importorskip("sklearn.metrics")
    rng = random.Random(5)
    rows = []
    for i in range(60):
        truth = rng.choice("abc")
        for annotator, p in (("expert", 0.0), ("good", 0.1), ("poor", 0.6)):
            if annotator != "expert" and rng.random() < 0.1:
                continue   # not every annotator labels every item
            rows.append({"item": f"t{i}", "annotator": annotator, "label": rng.choice("abc") if rng.random() < p
                         else truth})
    report = agreekit.labels(rows, reference="expert", bootstrap=0).to_dict()
    expert = {r["item"]: r["label"] for r in rows if r["annotator"] == "expert"}
    for row in report["reference"]["annotators"]:
        mine = [(expert[r["item"]], r["label"]) for r in rows if r["annotator"] == row["annotator"]]
        assert row["kappa"]["value"] == pytest.approx(sklearn.cohen_kappa_score(*zip(*mine)))
        assert row["conflicts"]["wrong_label"] == sum(a != b for a, b in mine)
        assert row["n_matched"] == len(mine)
    assert report["n_annotators"] == 2 and report["settings"]["reference"] == "expert"


def test_traces_against_an_expert_step_by_step():
    sklearn = pytest.importorskip("sklearn.metrics")
    rng = random.Random(9)
    rows = []
    for t in range(12):
        for step in range(1, rng.randint(3, 8)):
            truth = rng.choice(["ok", "bad", "meh"])
            for annotator, p in (("expert", 0.0), ("j1", 0.15), ("j2", 0.5)):
                if annotator == "j2" and rng.random() < 0.1:
                    continue   # a step j2 did not label: missing
                rows.append({"trace": f"r{t}", "step": step, "annotator": annotator,
                             "label": rng.choice(["ok", "bad", "meh"]) if rng.random() < p else truth})
    report = agreekit.traces(rows, reference="expert", bootstrap=50).to_dict()
    expert = {(r["trace"], r["step"]): r["label"] for r in rows if r["annotator"] == "expert"}
    for row in report["reference"]["annotators"]:
        mine = [(expert[(r["trace"], r["step"])], r["label"]) for r in rows if r["annotator"] == row["annotator"]]
        assert row["kappa"]["value"] == pytest.approx(sklearn.cohen_kappa_score(*zip(*mine)))
        assert row["conflicts"]["wrong_label"] == sum(a != b for a, b in mine)
        assert row["conflicts"]["missing"] == len(expert) - len(mine)
    assert report["annotators"] == ["j1", "j2"]


def test_masks_against_an_expert_by_pixels():
    """Each annotator's united mask against the expert's, IoU counted on decoded pixels; by name == by rows."""
    from pathlib import Path
    from agreekit.geometry.rle import decode
    from agreekit.parse.rle import parse_rle
    text = (Path(__file__).resolve().parents[1] / "web" / "examples" / "masks.csv").read_text()
    table = list(csv.DictReader(io.StringIO(text)))
    expert = table[0]["annotator"]
    pixels = {}
    for r in table:
        h, w = int(r["height"]), int(r["width"])
        mask = decode(parse_rle(r["rle"], h, w), h, w).astype(bool)
        key = (r["item"], r["annotator"])
        pixels[key] = pixels.get(key, np.zeros_like(mask)) | mask
    report = agreekit.masks(text, reference=expert).to_dict()
    for row in report["reference"]["annotators"]:
        ious = []
        for (item, annotator), mask in pixels.items():
            gold = pixels.get((item, expert))
            if annotator == row["annotator"] and gold is not None and mask.any() and gold.any():
                ious.append((mask & gold).sum() / (mask | gold).sum())
        matched = [v for v in ious if v >= 0.5]
        assert row["n_matched"] == len(matched)
        assert row["mean_matched_iou"]["value"] == (pytest.approx(np.mean(matched)) if matched else None)
    by_rows = agreekit.masks([r for r in table if r["annotator"] != expert],
                             reference_rows=[r for r in table if r["annotator"] == expert]).to_dict()
    assert without_source(by_rows["reference"]) == without_source(report["reference"])


def test_one_annotators_intervals_are_the_totals():
    """With one annotator scored, its σ and κ intervals (its own item-pair sums and label tables) are the
    total's (the corpus's)."""
    rows = centred_corpus(30, seed=8, annotators=("careful_a", "careful_b"))
    section = agreekit.boxes(rows, reference="careful_a", bootstrap=300).to_dict()["reference"]
    row = section["annotators"][0]
    assert row["sigma"]["ci"] is not None
    assert_same(row["sigma"], section["total"]["sigma"])
    labelled = [{**r, "label": random.Random(k).choice("pq")} for k, r in enumerate(rows)]
    section = agreekit.boxes(labelled, reference="careful_a", bootstrap=300).to_dict()["reference"]
    assert section["annotators"][0]["kappa"]["ci"] is not None
    assert_same(section["annotators"][0]["kappa"], section["total"]["kappa"])


def test_the_item_view_draws_gold_rows_as_the_reference():
    from agreekit.item_detail import ItemDetails
    from agreekit.reference.setup import gold_name
    rows = centred_corpus(4)
    gold = [r for r in rows if r["annotator"] == "careful_a"]
    rest = [r for r in rows if r["annotator"] != "careful_a"]
    detail = ItemDetails("boxes", rest, {"reference_rows": gold}).detail("img001")
    assert detail["annotators"] == ["careful_b", "fixed", gold_name()]
    drawn = [s for s in detail["shapes"] if s["annotator"] == gold_name()]
    expected = next(r for r in gold if r["item"] == "img001")
    assert [drawn[0]["geometry"][k] for k in "xywh"] == pytest.approx([expected[k] for k in "xywh"])
    assert ItemDetails("boxes", rest, {}).detail("img001")["annotators"] == ["careful_b", "fixed"]


def test_an_annotator_without_any_reference_item_has_a_row_of_undefined_scores():
    rows = centred_corpus(6, annotators=("careful_a", "careful_b"))
    rows += [{**r, "item": f"other{r['item']}", "annotator": "loner"} for r in centred_corpus(3, annotators=("fixed",))]
    section = agreekit.boxes(rows, reference="careful_a", bootstrap=100).to_dict()["reference"]
    loner = next(row for row in section["annotators"] if row["annotator"] == "loner")
    assert loner["n_items"] == 0 and loner["n_items_without_reference"] == 3
    assert loner["precision"]["value"] is None and loner["sigma"]["value"] is None and loner["kappa"]["ci"] is None


@pytest.mark.parametrize("kind", ["boxes", "polygons", "cuboids", "spans", "segments", "masks", "labels", "traces"])
@pytest.mark.parametrize("gold", ["", "item,annotator\n", "a,b,c\n1,2,3\n", {"item": "x"}, [1, 2], "\x00\x01",
                                  "item,annotator,x,y,w,h,start,end,label,points,width,height,rle,trace,step\n"
                                  "i,g,nan,-1,oops,1,5,2,L,1 2,0,-3,zz,t,1.5\n"])
def test_malformed_reference_rows_are_one_input_error(kind, gold):
    from pathlib import Path
    if kind == "labels" and isinstance(gold, str) and gold.count("\n") == 2:
        return   # a header and one row of labels: a valid reliability matrix for labels (docs/labels.md)
    rows = as_csv(centred_corpus(5)) if kind == "boxes" else \
        (Path(__file__).resolve().parents[1] / "web" / "examples" / f"{kind}.csv").read_text()
    with pytest.raises(agreekit.InputError):
        agreekit.report(kind, rows, reference_rows=gold, **({} if kind == "masks" else {"bootstrap": 0}))


@pytest.mark.parametrize("kind", ["spans", "segments"])
def test_the_item_views_of_spans_and_segments_draw_gold_rows(kind):
    from pathlib import Path
    from agreekit.item_detail import ItemDetails
    from agreekit.reference.setup import gold_name
    table = list(csv.DictReader(io.StringIO(
        (Path(__file__).resolve().parents[1] / "web" / "examples" / f"{kind}.csv").read_text())))
    expert = table[0]["annotator"]
    gold = [r for r in table if r["annotator"] == expert]
    rest = [r for r in table if r["annotator"] != expert]
    item = next(r["item"] for r in rest if any(g["item"] == r["item"] for g in gold))
    detail = ItemDetails(kind, rest, {"reference_rows": gold}).detail(item)
    drawn = [s for s in detail["shapes"] if s["annotator"] == gold_name()]
    expected = [r for r in gold if r["item"] == item and r["start"] != ""]
    assert gold_name() in detail["annotators"] and len(drawn) == len(expected)
    assert sorted(float(s["geometry"]["start"]) for s in drawn) == sorted(float(r["start"]) for r in expected)


def test_the_trace_view_draws_gold_rows_as_the_reference():
    from agreekit.item_detail import ItemDetails
    from agreekit.reference.setup import gold_name
    rows = [{"trace": "t1", "annotator": a, "step": s, "label": label}
            for a, labels in (("amy", "xyx"), ("bob", "xxy")) for s, label in enumerate(labels)]
    gold = [{"trace": "t1", "annotator": "expert", "step": s, "label": label} for s, label in enumerate("xyy")]
    detail = ItemDetails("traces", rows, {"reference_rows": gold}).detail("t1")
    assert detail["annotators"] == sorted(["amy", "bob", gold_name()])
    assert [c["label"] for c in detail["cells"] if c["annotator"] == gold_name()] == ["x", "y", "y"]
    assert gold_name() not in ItemDetails("traces", rows, {}).detail("t1")["annotators"]
