"""Simulated annotation rounds for the comparison and planner tests (not a test module).

Two rounds on the same images: every image has a true box and a difficulty (a noise scale shared by
both rounds, so items vary alike in A and B); round B's annotators move the edges with a smaller
noise than round A's.
"""
from __future__ import annotations

import numpy as np

from agreekit.simulate import centred_objects

ANNOTATORS = ("ann_1", "ann_2")


def images(n, seed, spread=0.3):
    """True boxes of ``n`` images and each image's difficulty (lognormal, log-sd ``spread``)."""
    rng = np.random.default_rng(seed)
    return centred_objects(n, rng), rng.lognormal(0.0, spread, size=n)


def round_rows(truth, difficulty, noise, seed, annotators=ANNOTATORS):
    """Rows of one round: each annotator's box per image, edges moved by noise × difficulty × side."""
    rng = np.random.default_rng(seed)
    rows = []
    for name in annotators:
        scale = (noise * difficulty)[:, None] * truth[:, 2:4][:, [0, 1, 0, 1]]
        x1, y1 = truth[:, 0], truth[:, 1]
        edges = np.column_stack([x1, y1, x1 + truth[:, 2], y1 + truth[:, 3]]) + rng.normal(size=(len(truth), 4)) * scale
        for i, (a, b, c, d) in enumerate(edges):
            rows.append({"item": f"img{i:04d}", "annotator": name, "x": float(a), "y": float(b),
                         "w": float(c - a), "h": float(d - b), "label": "object"})
    return rows


def labels_rows(n_items, seed, annotators=("r1", "r2", "r3"), accuracy=0.7, categories=("a", "b", "c"),
                prevalence=(0.5, 0.3, 0.2), truth=None):
    """Nominal ratings: each annotator gives the item's true category with ``accuracy``, else a random one."""
    rng = np.random.default_rng(seed)
    truth = rng.choice(len(categories), size=n_items, p=prevalence) if truth is None else truth
    rows = []
    for name in annotators:
        right = rng.random(n_items) < accuracy
        guess = rng.integers(len(categories), size=n_items)
        for i in range(n_items):
            rows.append({"item": f"u{i:04d}", "annotator": name, "label": categories[truth[i] if right[i] else guess[i]]})
    return rows
