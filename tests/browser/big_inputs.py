"""Large inputs for the page's hardening tests and measurements (seeded, built with numpy).

``crowd_boxes_csv`` is crowd-shaped box data like ``agreekit.simulate.crowd_corpus`` (about nine
annotators per image, a few objects each, 4 % edge noise), written with five decimals so that
385,600 boxes make a paste of about 20 MB, as in issue 10.
"""
from __future__ import annotations

import numpy as np

LABELS = np.array(["car", "person", "bike", "dog"])


def crowd_boxes_csv(n_images, per_image=9, n_annotators=196, objects_per_image=5, seed=3):
    """CSV text of ``n_images × per_image × objects_per_image`` boxes (header first)."""
    rng = np.random.default_rng(seed)
    size = rng.uniform(0.05, 0.3, size=(n_images, objects_per_image, 2))
    corner = rng.uniform(0, 1, size=(n_images, objects_per_image, 2)) * (1 - size)
    label = rng.integers(0, len(LABELS), size=(n_images, objects_per_image))
    annotators = np.argsort(rng.random((n_images, n_annotators)), axis=1)[:, :per_image]
    noise = rng.normal(0, 0.04, size=(n_images, per_image, objects_per_image, 4))
    x1 = corner[:, None, :, 0] + noise[..., 0] * size[:, None, :, 0]
    y1 = corner[:, None, :, 1] + noise[..., 1] * size[:, None, :, 1]
    x2 = corner[:, None, :, 0] + size[:, None, :, 0] * (1 + noise[..., 2])
    y2 = corner[:, None, :, 1] + size[:, None, :, 1] * (1 + noise[..., 3])
    lines = ["item,annotator,x,y,w,h,label"]
    for i in range(n_images):
        for k in range(per_image):
            who = f"img{i:05d},w{annotators[i, k]:03d},"
            for j in range(objects_per_image):
                lines.append(f"{who}{x1[i, k, j]:.5f},{y1[i, k, j]:.5f},{x2[i, k, j] - x1[i, k, j]:.5f},"
                             f"{y2[i, k, j] - y1[i, k, j]:.5f},{LABELS[label[i, j]]}")
    return "\n".join(lines) + "\n"
