"""A big box paste in the page (issue 27): its bootstrap over a sampled baseline moves the progress
bar through the resamples and ends in a report.  Functional, not timed (benchmarks/big_paste.py
times it against the CLI)."""
from __future__ import annotations

import re

from big_inputs import crowd_boxes_csv
from conftest import paste, wait_ready, wait_result, watch, watched

BOOTSTRAP = re.compile(r"\(bootstrap\): (?P<done>\d+) / (?P<total>\d+)$")
RESAMPLES = 1000


def test_a_sampled_baseline_bootstrap_moves_the_progress_bar(open_page, site):
    rows = crowd_boxes_csv(4000, per_image=3, objects_per_image=1)  # 12,000 boxes: 72 M pairs, sampled
    page = open_page(site.url)
    wait_ready(page)
    paste(page, "boxes", rows, bootstrap=RESAMPLES)
    since = watch(page)
    page.click('form[data-kind="boxes"] button[type="submit"]')
    wait_result(page, "boxes")
    _, progress = watched(page, since)
    steps = [(int(m["done"]), int(m["total"]), p.get("value"), p.get("max"))
             for p in progress for m in [BOOTSTRAP.search(p["text"])] if m]
    done = [d for d, *_ in steps]
    assert len(set(done)) >= 3, steps  # not "1/1" held for the whole bootstrap
    assert done == sorted(done) and done[-1] == RESAMPLES and {t for _, t, *_ in steps} == {RESAMPLES}
    assert all(value == d and bar_max == t for d, t, value, bar_max in steps if value is not None), steps
    text = page.locator("#results-boxes").inner_text()
    assert "seeded sample" in text  # the baseline is the sampled one, and the report says so
