"""The gallery of items carrying most disagreement (issue 26): how items are ranked and how many are shown,
what is wrong on each tile in words, a colour key; and the sentence beside detection α near 0 with a high F1."""
from __future__ import annotations

import agreekit

from conftest import paste, wait_result

# 20 images whose one box both annotators find, and one where b misses a's second box: F1 0.98, detection α 0.
NEAR_ZERO_ALPHA = ("item,annotator,x,y,w,h,label\n" +
                   "".join(f"img{i:02d},a,10,10,20,20,car\nimg{i:02d},b,11,10,20,20,car\n" for i in range(20)) +
                   "img20,a,10,10,20,20,car\nimg20,a,60,60,20,20,car\nimg20,b,10,10,20,20,car\n")
GALLERY = '#results-boxes [data-gallery="items"]'


def _report(page):
    options = page.evaluate("() => JSON.parse(document.querySelector('#results-boxes').dataset.options)")
    return agreekit.report("boxes", page.evaluate("() => window.agreekit.rows('boxes')"), **options).to_dict()


def test_the_example_gallery_says_how_items_are_ranked_how_many_are_shown_and_keys_its_colours(warm_page):
    page = warm_page
    report = _report(page)
    ranking = page.locator(f"{GALLERY} .gallery-ranking")
    text = " ".join(ranking.inner_text().split())
    assert "lowest detection F1 first" in text and "wrong labels" in text
    shown = page.locator(f"{GALLERY} .thumb").count()
    assert shown == min(12, len(report["items"])) and f"{shown} of {len(report['items'])} items shown" in text
    assert [page.get_attribute(f"{GALLERY} .thumb >> nth={k}", "data-item") for k in range(shown)] \
        == [row["item"] for row in report["items"][:shown]]
    key = page.locator(f'{GALLERY} .gallery-key[data-key="colours"]')
    annotators = sorted({a for row in report["items"] for a in row["objects_per_annotator"]})
    assert key.locator(".key-entry svg line").count() == len(annotators) + 3
    assert all(name in key.inner_text() for name in annotators)
    colours = key.locator(".key-entry svg line").evaluate_all(
        "lines => lines.map(l => [l.namespaceURI, l.getBBox().width, l.getAttribute('stroke')])")
    assert all(ns == "http://www.w3.org/2000/svg" and width > 0 for ns, width, _ in colours)  # drawn, not inert
    assert len({stroke for *_, stroke in colours[:len(annotators)]}) == len(annotators)
    assert "F1 1" not in page.locator(f"{GALLERY} .thumb-caption >> nth=0").inner_text()
    assert page.locator('#results-boxes [data-note="detection-chance"]').count() == 0  # α undefined on the example


def test_a_tile_says_missed_and_detection_alpha_near_zero_beside_a_high_f1_is_explained(warm_page):
    page = warm_page
    paste(page, "boxes", NEAR_ZERO_ALPHA, bootstrap=0)
    page.click('form[data-kind="boxes"] button[type="submit"]')
    wait_result(page, "boxes")
    report = _report(page)
    assert report["detection"]["value"] < 0.2 and report["detection_f1"] > 0.8
    tile = page.locator(f'{GALLERY} .thumb[data-item="img20"]')
    assert tile.get_attribute("data-rank") == "0"
    assert "1 missed" in tile.locator(".thumb-problems").inner_text()
    note = page.locator('#results-boxes [data-note="detection-chance"]')
    assert note.count() == 1 and "by chance at this item density" in note.inner_text()
    assert "12 of 21 items shown" in page.inner_text(f"{GALLERY} .gallery-ranking")
