"""Synthetic corpora for examples, tests and benchmarks (seeded, reproducible).

``centred_corpus`` is the lesson of the whole tool: on images with one large,
roughly centred object, two careful annotators and an annotator who draws
the same box on every image without looking all reach a high raw IoU, yet
only the careful pair agrees beyond chance (σ > 0); the fixed box is below
chance (σ < 0).
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass

import numpy as np

from .geometry.boxes import iou_matrix
from .matching import match

FIXED_BOX = (0.175, 0.175, 0.65, 0.65)


def centred_objects(n_images, rng):
    """True boxes: centre 0.5 ± 0.04, width and height uniform in [0.55, 0.75]."""
    size = rng.uniform(0.55, 0.75, size=(n_images, 2))
    centre = 0.5 + rng.uniform(-0.04, 0.04, size=(n_images, 2))
    return np.column_stack([centre - size / 2, size])


def careful(truth, rng, noise=0.025):
    """Each edge moved by Gaussian noise of ``noise`` × the box's side."""
    x1, y1 = truth[:, 0], truth[:, 1]
    x2, y2 = x1 + truth[:, 2], y1 + truth[:, 3]
    w, h = truth[:, 2], truth[:, 3]
    x1 = x1 + rng.normal(0, noise, len(w)) * w
    x2 = x2 + rng.normal(0, noise, len(w)) * w
    y1 = y1 + rng.normal(0, noise, len(h)) * h
    y2 = y2 + rng.normal(0, noise, len(h)) * h
    return np.column_stack([x1, y1, x2 - x1, y2 - y1])


def centred_corpus(n_images=50, seed=7, annotators=("careful_a", "careful_b", "fixed")):
    """Rows (dicts) of the centred-object corpus with the chosen annotators."""
    rng = np.random.default_rng(seed)
    truth = centred_objects(n_images, rng)
    drawn = {"careful_a": careful(truth, rng), "careful_b": careful(truth, rng),
             "fixed": np.tile(FIXED_BOX, (n_images, 1))}
    rows = []
    for i in range(n_images):
        for name in annotators:
            x, y, w, h = drawn[name][i]
            rows.append({"item": f"img{i:03d}", "annotator": name, "x": round(float(x), 6),
                         "y": round(float(y), 6), "w": round(float(w), 6), "h": round(float(h), 6),
                         "label": "object"})
    return rows


def to_csv(rows):
    """CSV text (with header) of a list of dicts."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def centred_corpus_csv(n_images=50, seed=7):
    """The page's box example: careful pair plus a fixed-box annotator, as CSV."""
    return to_csv(centred_corpus(n_images, seed))


def crowd_corpus(n_images=200, n_annotators=196, per_image=9, objects=(3, 6), seed=3, truth_as=None):
    """A corpus shaped like crowd data: many annotators, ~9 per image, a few objects each.

    Each annotator misses an object with probability 0.1, adds a spurious box
    with probability 0.05, and draws with edge noise of 4% of the object size.
    ``truth_as`` (a name): also the true boxes and labels, as that annotator's rows
    (the other rows are the same as without it).
    """
    rng = np.random.default_rng(seed)
    rows = []
    labels = np.array(["car", "person", "bike", "dog"])
    for i in range(n_images):
        k = rng.integers(objects[0], objects[1] + 1)
        size = rng.uniform(0.05, 0.3, size=(k, 2))
        corner = rng.uniform(0, 1, size=(k, 2)) * (1 - size)
        truth = np.column_stack([corner, size])
        label = labels[rng.integers(0, len(labels), k)]
        if truth_as is not None:
            rows += [{"item": f"img{i:04d}", "annotator": truth_as, "x": float(x), "y": float(y), "w": float(w),
                      "h": float(h), "label": str(name)} for (x, y, w, h), name in zip(truth, label)]
        for a in rng.choice(n_annotators, size=per_image, replace=False):
            keep = rng.random(k) > 0.1
            drawn = careful(truth[keep], rng, noise=0.04)
            names = label[keep].copy()
            flip = rng.random(len(names)) < 0.05
            names[flip] = labels[rng.integers(0, len(labels), flip.sum())]
            if rng.random() < 0.05:
                extra = rng.uniform(0, 0.8, size=(1, 2))
                drawn = np.vstack([drawn, np.column_stack([extra, rng.uniform(0.05, 0.2, (1, 2))])])
                names = np.append(names, labels[0])
            if len(drawn) == 0:
                rows.append({"item": f"img{i:04d}", "annotator": f"w{a:03d}", "x": "", "y": "", "w": "",
                             "h": "", "label": ""})
            for (x, y, w, h), name in zip(drawn, names):
                rows.append({"item": f"img{i:04d}", "annotator": f"w{a:03d}", "x": float(x), "y": float(y),
                             "w": float(w), "h": float(h), "label": str(name)})
    return rows


def _box_rows(drawn, annotators):
    """Rows of one box per (image, annotator): ``drawn[name]`` is an (n_images, 4) array of x, y, w, h."""
    n_images = len(next(iter(drawn.values())))
    return [{"item": f"img{i:03d}", "annotator": name, "x": round(float(x), 6), "y": round(float(y), 6),
             "w": round(float(w), 6), "h": round(float(h), 6), "label": "object"}
            for i in range(n_images) for name in annotators for x, y, w, h in [drawn[name][i]]]


def concentrated_corpus(n_images=50, n_careless=12, noise=0.005, seed=11):
    """Two annotators who agree closely on most images and badly on a few (the workshop's KS lesson).

    Centred objects as in :func:`centred_corpus`; both annotators draw with edge
    noise ``noise`` × the side, except that on ``n_careless`` images chosen at
    random annotator ``b`` draws a box of half the object's width and height in its
    top-left corner (IoU 0.25 with the object). With ``n_careless=0`` and a larger
    ``noise`` the same function gives the contrast: disagreement spread evenly.

    Parameters
    ----------
    n_images : int
        Images, each with one object.
    n_careless : int
        Images on which ``b`` draws the corner box, at most ``n_images``.
    noise : float
        Edge noise of every other box, as a share of the object's side.
    seed : int
        Seed of the generator.

    Returns
    -------
    list of dict
        Box rows (item, annotator ``a`` or ``b``, x, y, w, h, label).
    """
    rng = np.random.default_rng(seed)
    truth = centred_objects(n_images, rng)
    drawn = {"a": careful(truth, rng, noise), "b": careful(truth, rng, noise)}
    careless = rng.choice(n_images, size=n_careless, replace=False)
    drawn["b"][careless] = np.column_stack([truth[careless, :2], truth[careless, 2:] / 2])
    return _box_rows(drawn, ("a", "b"))


SPAN_LABELS = ("PER", "ORG", "LOC", "DATE")


def span_corpus(n_docs=40, seed=5, p_boundary=0.3, p_label=0.08, p_missed=0.05):
    """Two annotators' entity spans on synthetic documents of 200 characters (the workshop's span lesson).

    Each document has 4 to 7 entities of 3 to 15 characters with a label from
    :data:`SPAN_LABELS`, at least 5 characters apart. Annotator ``a`` marks each
    exactly; annotator ``b`` leaves it out with probability ``p_missed``, else
    moves its start or end by 1 to 4 characters with probability ``p_boundary``
    (a title or determiner taken in or left out) and gives it another label with
    probability ``p_label``, each independently.

    Parameters
    ----------
    n_docs : int
        Documents.
    seed : int
        Seed of the generator.
    p_boundary, p_label, p_missed : float
        Probabilities of a boundary change, a label change and a missed entity for ``b``.

    Returns
    -------
    list of dict
        Span rows (item, annotator, start, end, label), offsets in characters, end exclusive.
    """
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(n_docs):
        lengths = rng.integers(3, 16, size=rng.integers(4, 8))
        gaps = rng.integers(5, 20, size=len(lengths))
        starts = np.cumsum(gaps + np.concatenate([[0], lengths[:-1]]))
        for start, length in zip(starts, lengths):
            label = SPAN_LABELS[rng.integers(len(SPAN_LABELS))]
            rows.append({"item": f"doc{d:02d}", "annotator": "a", "start": int(start),
                         "end": int(start + length), "label": label})
            if rng.random() < p_missed:
                continue
            b_start, b_end = int(start), int(start + length)
            if rng.random() < p_boundary:
                shift = int(rng.integers(1, 5)) * (1 if rng.random() < 0.5 else -1)
                if rng.random() < 0.5:
                    b_start = max(0, b_start + shift)
                else:
                    b_end = max(b_start + 1, b_end + shift)
            if rng.random() < p_label:
                label = SPAN_LABELS[(SPAN_LABELS.index(label) + int(rng.integers(1, 4))) % len(SPAN_LABELS)]
            rows.append({"item": f"doc{d:02d}", "annotator": "b", "start": b_start, "end": b_end, "label": label})
    return rows


# ----------------------------------------------------------------- annotators of known quality (ranking)

@dataclass(frozen=True)
class Annotator:
    """A simulated annotator: ``noise`` (edge noise, share of the side), ``miss`` (probability of leaving an
    object out), ``extra`` (expected spurious boxes per image) and ``style``: ``careful`` draws the objects,
    ``spammer`` random boxes, ``fixed`` one box on every image."""

    name: str
    noise: float
    miss: float
    extra: float
    style: str = "careful"


@dataclass(frozen=True)
class RankingCorpus:
    """Box rows of simulated annotators, the true boxes (annotator ``gold``) and the annotators."""

    rows: list
    gold: list
    annotators: tuple


def crowd_annotators(n, seed, spammers=0.05, fixed=0.03, noise=0.15, miss=0.5, extra=0.6):
    """``n`` annotators: edge noise uniform in 1 %–``noise``, miss probability in 0–``miss``, spurious boxes
    per image in 0–``extra``; a share ``spammers`` draws random boxes, a share ``fixed`` one fixed box."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(n):
        u = rng.random()
        style = "spammer" if u < spammers else "fixed" if u < spammers + fixed else "careful"
        out.append(Annotator(f"a{k:03d}", float(rng.uniform(0.01, noise)), float(rng.uniform(0.0, miss)),
                             float(rng.uniform(0.0, extra)), style))
    return tuple(out)


def _drawn(annotator, truth, rng):
    """The boxes (k × 4) one annotator draws for one image's true boxes."""
    if annotator.style == "fixed":
        return np.array([FIXED_BOX]) * 0.5 + 0.2
    n_extra = rng.poisson(annotator.extra)
    extra = np.column_stack([rng.uniform(0, 0.8, (n_extra, 2)), rng.uniform(0.05, 0.2, (n_extra, 2))])
    if annotator.style == "spammer":
        k = max(1, len(truth) + n_extra)
        return np.column_stack([rng.uniform(0, 0.8, (k, 2)), rng.uniform(0.05, 0.3, (k, 2))])
    kept = truth[rng.random(len(truth)) >= annotator.miss]
    return np.vstack([careful(kept, rng, annotator.noise), extra]).reshape(-1, 4)


def ranking_corpus(annotators, n_images=200, per_image=9, objects=(3, 6), seed=1):
    """A :class:`RankingCorpus`: each image has ``objects`` true boxes and ``per_image`` annotators.

    ``per_image`` ≥ the number of annotators gives every annotator every image;
    else each image draws its annotators at random, so they see different numbers of images.
    """
    rng = np.random.default_rng(seed)
    rows, gold = [], []
    for i in range(n_images):
        item = f"img{i:04d}"
        k = int(rng.integers(objects[0], objects[1] + 1))
        size = rng.uniform(0.08, 0.3, size=(k, 2))
        truth = np.column_stack([rng.uniform(0, 1, size=(k, 2)) * (1 - size), size])
        gold += [_box_row(item, "gold", box) for box in truth]
        chosen = range(len(annotators)) if per_image >= len(annotators) else \
            rng.choice(len(annotators), size=per_image, replace=False)
        for a in chosen:
            drawn = _drawn(annotators[a], truth, rng)
            rows += [_box_row(item, annotators[a].name, box) for box in drawn] or \
                [{"item": item, "annotator": annotators[a].name, "x": "", "y": "", "w": "", "h": "", "label": ""}]
    return RankingCorpus(rows, gold, tuple(annotators))


def _box_row(item, name, box):
    x, y, w, h = (float(v) for v in box)
    return {"item": item, "annotator": name, "x": x, "y": y, "w": w, "h": h, "label": "object"}


@dataclass(frozen=True)
class TrueQuality:
    """One simulated annotator against the true boxes on the images it saw (IoU ≥ threshold, one-to-one)."""

    recall: float
    precision: float
    f1: float


def true_quality(corpus, threshold=0.5):
    """``{annotator: TrueQuality}`` of the annotators of a :class:`RankingCorpus`."""
    gold = {}
    for r in corpus.gold:
        gold.setdefault(r["item"], []).append([r["x"], r["y"], r["w"], r["h"]])
    drawn = {}
    for r in corpus.rows:
        boxes = drawn.setdefault(r["annotator"], {}).setdefault(r["item"], [])
        if r["x"] != "":
            boxes.append([r["x"], r["y"], r["w"], r["h"]])
    out = {}
    for name, by_item in drawn.items():
        found = total = n_drawn = 0
        for item, boxes in by_item.items():
            truth = np.array(gold.get(item, []), dtype=float).reshape(-1, 4)
            total += len(truth)
            n_drawn += len(boxes)
            if boxes and len(truth):
                found += len(match(iou_matrix(np.array(boxes, dtype=float), truth), threshold)[0])
        out[name] = TrueQuality(found / total if total else float("nan"),
                                found / n_drawn if n_drawn else float("nan"),
                                2.0 * found / (total + n_drawn) if total + n_drawn else 1.0)
    return out
