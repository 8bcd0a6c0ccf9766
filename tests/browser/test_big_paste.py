"""A big box paste in the page (issue 27): its bootstrap over a sampled baseline moves the progress
bar through the resamples and ends in a report.  Functional, not timed (benchmarks/big_paste.py
times it against the CLI)."""
from __future__ import annotations

import json
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


# A sample of 1,000 pairs on 300 items: in the page its item-pair terms are sparse (runtime.DENSE_ELEMENT_COST),
# so the report needs scipy's second part (docs/architecture.md, "scipy in two parts").
SAMPLED = dict(bootstrap=200, pair_budget=1000)
STAGE = re.compile(r"\((?P<stage>[^)]*)\)(?:: (?P<done>\d+) / (?P<total>\d+))?")


def stages_seen(page, since):
    """[(stage, done, total)] of the progress texts since ``since`` (done/total None without counts)."""
    out = []
    for p in watched(page, since)[1]:
        m = STAGE.search(p["text"])
        if m:
            out.append((m["stage"], m["done"] and int(m["done"]), m["total"] and int(m["total"])))
    return out


def matched_once(seen):
    """Whether the matching stage ran to its end exactly once (the report was not run again)."""
    return sum(1 for stage, done, total in seen if stage == "matching" and done == total) == 1


def test_a_first_call_that_needs_scipy_sparse_installs_it_before_matching(open_page, site):
    page = open_page(site.url)
    paste(page, "boxes", crowd_boxes_csv(300, per_image=3, objects_per_image=2), **SAMPLED)
    # Pasted before Python is ready: no example is computed, this report is the worker's first call.
    assert page.get_attribute("#status", "data-state") != "ready"
    since = watch(page)
    page.click('form[data-kind="boxes"] button[type="submit"]')
    wait_result(page, "boxes")
    seen = stages_seen(page, since)
    names = [stage for stage, *_ in seen]
    assert "loading scipy.sparse" in names and "matching" in names, seen
    assert names.index("loading scipy.sparse") < names.index("matching"), seen  # asked for before its first step
    assert matched_once(seen), seen
    assert "seeded sample" in page.locator("#results-boxes").inner_text()


def test_after_the_first_result_the_sparse_part_installs_before_the_next_report(open_page, site, dist_dir):
    sparse = json.loads((dist_dir / "build-info.json").read_text())["scipy"]["sparse"].rsplit("/", 1)[-1]
    requested = []
    page = open_page(site.url)
    page.on("request", lambda request: requested.append(request.url.rsplit("/", 1)[-1]))
    wait_result(page, "boxes")  # the example: the page then sends "prepare"
    for _ in range(300):  # with no other call, the idle worker fetches the sparse part
        if sparse in requested:
            break
        page.wait_for_timeout(100)
    assert sparse in requested, requested
    paste(page, "boxes", crowd_boxes_csv(300, per_image=3, objects_per_image=2), **SAMPLED)
    since = watch(page)
    page.click('form[data-kind="boxes"] button[type="submit"]')
    wait_result(page, "boxes")
    seen = stages_seen(page, since)
    names = [stage for stage, *_ in seen]
    assert "reading rows" in names and matched_once(seen), seen
    # Installed in the background after the example (or still installing: then said, before the report starts).
    assert "loading scipy.sparse" not in names[names.index("reading rows"):], seen
    assert "seeded sample" in page.locator("#results-boxes").inner_text()
