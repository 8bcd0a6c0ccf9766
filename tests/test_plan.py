"""agreekit.plan: items needed for an interval of a given half-width, and Krippendorff's minimum values.

Oracles: the planner's predicted n re-simulated from the same generator (half-width within ±20 %);
Krippendorff's (2004, §11.4.4) table entries 139 (α_min 0.800, p 0.05, P_c 0.25) and 81
(α_min 0.667), as quoted from his table in secondary sources, reproduced by the formula.
"""
from __future__ import annotations

import numpy as np
import pytest

import agreekit
from agreekit.comparison.minimum_sample import minimum_values
from compare_sim import labels_rows


def test_krippendorff_minimum_values_reproduce_his_table():
    assert minimum_values(0.800, 0.05, 0.25) == 139
    assert minimum_values(0.667, 0.05, 0.25) == 81


def _half_width(rows, name):
    ci = agreekit.labels(rows, bootstrap=500).to_dict()["coefficients"][name]["ci"]
    return (ci[1] - ci[0]) / 2


@pytest.mark.parametrize("name", ["percent_agreement", "fleiss_kappa"])
def test_predicted_items_give_the_requested_half_width(name):
    target = 0.05
    p = agreekit.plan("labels", labels_rows(60, seed=11), half_width=target)
    c = p.coefficient(f"coefficients.{name}")
    assert c.predicted_items > 60 and -0.8 < c.free_slope < -0.3
    achieved = np.mean([_half_width(labels_rows(c.predicted_items, seed=100 + k), name) for k in range(3)])
    assert achieved == pytest.approx(target, rel=0.20)
    assert p.krippendorff["rows"][1]["alpha_min"] == 0.8 and p.krippendorff["rows"][1]["values"] > 0


def test_plan_refuses_what_it_cannot_plan():
    with pytest.raises(agreekit.InputError, match="half_width"):
        agreekit.plan("labels", labels_rows(20, seed=1), half_width=0)
    with pytest.raises(agreekit.InputError, match="no bootstrap"):
        agreekit.plan("masks", "item,annotator,rle\n", half_width=0.05)


@pytest.mark.slow
def test_predicted_images_give_the_requested_sigma_half_width():
    from compare_sim import images, round_rows
    target = 0.02
    truth, difficulty = images(60, 21)
    p = agreekit.plan("boxes", round_rows(truth, difficulty, 0.05, seed=22), half_width=target)
    n = p.coefficient("localization.sigma").predicted_items
    widths = []
    for k in range(3):
        truth, difficulty = images(n, 300 + k)
        ci = agreekit.boxes(round_rows(truth, difficulty, 0.05, seed=400 + k), bootstrap=500).localization.sigma.ci
        widths.append((ci[1] - ci[0]) / 2)
    assert np.mean(widths) == pytest.approx(target, rel=0.20)
