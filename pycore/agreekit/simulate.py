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

import numpy as np

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
