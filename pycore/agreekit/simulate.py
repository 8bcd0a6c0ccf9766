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


def crowd_corpus(n_images=200, n_annotators=196, per_image=9, objects=(3, 6), seed=3):
    """A corpus shaped like crowd data: many annotators, ~9 per image, a few objects each.

    Each annotator misses an object with probability 0.1, adds a spurious box
    with probability 0.05, and draws with edge noise of 4% of the object size.
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
