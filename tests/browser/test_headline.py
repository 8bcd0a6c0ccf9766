"""The headline first (issue 26): a summary card above the input with the kind's headline coefficient,
its interval and a sentence computed from the numbers, inside the first viewport on a desktop and a phone."""
from __future__ import annotations

import pytest

import agreekit

from conftest import lookup, paste, wait_result

# What each kind's module declares as its headline (web/kinds/<kind>.mjs `headline`).
HEADLINES = {"boxes": "localization.sigma", "spans": "char_alpha", "segments": "localization.sigma",
             "polygons": "localization.sigma", "masks": "mean_dice", "cuboids": "localization.sigma",
             "traces": "alpha", "labels": "coefficients.alpha"}


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_the_headline_is_in_the_first_viewport(open_page, site, dist_dir, width, height):
    page = open_page(site.url, viewport={"width": width, "height": height})
    wait_result(page, "boxes")  # the example on first open
    card = page.locator("#summary-boxes .summary-card")
    box = card.bounding_box()
    assert page.evaluate("window.scrollY") == 0
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, box
    report = agreekit.report("boxes", (dist_dir / "examples" / "boxes.csv").read_text()).to_dict()
    sigma = report["localization"]["sigma"]
    shown = card.locator("[data-metric]").evaluate_all("els => els.map(e => [e.dataset.metric, Number(e.dataset.value)])")
    assert dict(shown)["localization.sigma.value"] == pytest.approx(sigma["value"], abs=1e-12)
    assert dict(shown)["localization.sigma.ci.0"] == pytest.approx(sigma["ci"][0], abs=1e-12)
    text = card.inner_text()
    assert f"σ = {sigma['value']:.3f} [{sigma['ci'][0]:.3f}, {sigma['ci'][1]:.3f}]" in " ".join(text.split())
    assert "chance pairing of boxes from different images" in text


def test_every_kind_declares_its_headline_and_a_sentence_from_its_numbers(warm_page):
    page = warm_page
    for kind, key in HEADLINES.items():
        page.click(f"#tab-{kind}")
        page.click(f'form[data-kind="{kind}"] button[data-action="example"]')
        wait_result(page, kind)
        card = page.locator(f"#summary-{kind} .summary-card")
        assert card.get_attribute("data-headline") == key
        options = page.evaluate("kind => JSON.parse(document.querySelector(`#results-${kind}`).dataset.options)", kind)
        report = agreekit.report(kind, page.evaluate("kind => window.agreekit.rows(kind)", kind), **options).to_dict()
        record = lookup(report, key)
        value = float(card.locator(f'[data-metric="{key}.value"]').get_attribute("data-value"))
        assert value == pytest.approx(record["value"], abs=1e-12), kind
        sentence = card.locator(".summary-sentence").inner_text()
        assert len(sentence) > 40 and "undefined" not in sentence, (kind, sentence)


def test_the_sentence_follows_the_numbers(warm_page):
    """headline.mjs's interpretation, on records whose intervals lie above, across and below 0."""
    sentences = warm_page.evaluate("""() => import("./web/headline.mjs").then(({ interpretation }) => {
        const chance = { symbol: "σ", name: "Localization agreement", scale: "chance", chance: "boxes of other images" };
        const alpha = { symbol: "α", name: "Agreement", scale: "alpha" };
        const r = (value, ci) => ({ value, ci, ci_level: 0.95, reason: null });
        return [interpretation(chance, r(0.62, [0.55, 0.68])), interpretation(chance, r(0.05, [-0.02, 0.11])),
                interpretation(chance, r(-0.2, [-0.25, -0.15])), interpretation(alpha, r(0.85, [0.82, 0.9])),
                interpretation(alpha, r(0.7, [0.6, 0.8])), interpretation(alpha, r(0.3, [0.2, 0.4])),
                interpretation(chance, { value: null, ci: null, reason: "no matched pairs" })];
    })""")
    assert "well above chance" in sentences[0] and "62 %" in sentences[0]
    assert "not distinguishable" in sentences[1]
    assert "below" in sentences[2] and "systematically" in sentences[2]
    assert "reaches the 0.800" in sentences[3]
    assert "tentative" in sentences[4]
    assert "even for tentative" in sentences[5]
    assert sentences[6] == "σ is undefined: no matched pairs."


def test_cite_methods_card_shows_the_python_paragraph_and_copies_it(warm_page, site):
    from agreekit.methods import methods
    page = warm_page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.url.rstrip("/"))
    rows = "item,annotator,x,y,w,h,label\ni1,a,0,0,10,10,car\ni1,b,1,1,10,10,car\ni2,a,5,5,4,4,car\ni2,b,5,5,4,5,car\n"
    paste(page, "boxes", rows, threshold=0.3, bootstrap=40, seed=5)
    page.click('form[data-kind="boxes"] button[type="submit"]')
    wait_result(page, "boxes")
    options = page.evaluate("() => JSON.parse(document.querySelector('#results-boxes').dataset.options)")
    expected = methods("boxes", agreekit.report("boxes", rows, **options))
    card = page.locator('#results-boxes [data-card="methods"]')
    assert card.locator("h3").inner_text() == "Cite / methods"
    assert card.locator(".methods-paragraph").inner_text() == expected.paragraph
    assert "IoU ≥ 0.3" in expected.paragraph and "40 resamples drawn with seed 5" in expected.paragraph
    assert card.locator(".methods-bibtex").text_content() == expected.bibtex()
    card.get_by_role("button", name="Copy paragraph").click()
    assert page.evaluate("navigator.clipboard.readText()") == expected.paragraph
    card.get_by_role("button", name="Copy BibTeX").click()
    assert page.evaluate("navigator.clipboard.readText()").startswith("@software{agreekit")


def test_charts_download_as_png_and_svg(warm_page, dist_dir):
    import xml.etree.ElementTree as ET
    page = warm_page
    page.click('form[data-kind="boxes"] button[data-example="boxes"]')
    wait_result(page, "boxes")
    card = page.locator("#results-boxes .chart-card").first
    card.locator(".chart-actions").wait_for()
    with page.expect_download() as png:
        card.get_by_role("button", name="Download PNG").click()
    assert png.value.suggested_filename.endswith(".png")
    assert open(png.value.path(), "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    with page.expect_download() as svg:
        card.get_by_role("button", name="Download SVG").click()
    assert svg.value.suggested_filename.startswith("agreekit-chart-within-item-vs-between-item")
    tree = ET.parse(svg.value.path())
    paths = {p.get("data-series"): p for p in tree.iter("{http://www.w3.org/2000/svg}path") if p.get("data-series")}
    assert set(paths) == {"within item", "between items"}
    caption = [t.text for t in tree.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "caption"]
    assert caption and caption[0].startswith("Settings: threshold 0.5")  # the file names its settings
    for path in paths.values():  # a step function: one horizontal and one vertical move per point after the first
        points = int(path.get("data-points"))
        assert points > 10 and path.get("d").count("H") == points - 1 == path.get("d").count("V")


def test_wide_tables_scroll_inside_their_card_on_a_phone(open_page, site):
    page = open_page(site.url, viewport={"width": 390, "height": 844})
    for kind in ("boxes", "cuboids"):
        page.click(f"#tab-{kind}")
        wait_result(page, kind)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, kind  # the page never scrolls sideways
        wraps = page.eval_on_selector_all(f"#results-{kind} .table-wrap", """els => els.map(e => ({
            wide: e.scrollWidth > e.clientWidth, right: e.closest('.card').getBoundingClientRect().right}))""")
        assert any(w["wide"] for w in wraps), kind  # a table wider than the phone, scrolled in its card
        assert all(w["right"] <= 390 for w in wraps), (kind, wraps)
        settings = page.locator(f"#results-{kind} .settings:not([data-settings='figure'])")  # charts name theirs
        assert settings.count() == 1 and settings.inner_text().startswith("Settings: ")  # once per report


def test_the_progress_line_keeps_no_row_on_a_phone(open_page, site):
    """Off, it leaves no gap between the status line and the tabs; on, it shows at the screen's foot and
    moves nothing (a move makes Chromium lay out a large paste again)."""
    page = open_page(site.url, viewport={"width": 390, "height": 844})
    wait_result(page, "boxes")
    top_of_tabs = "document.querySelector('.tabs').getBoundingClientRect().top"
    gap = page.evaluate(f"{top_of_tabs} - document.querySelector('#status').getBoundingClientRect().bottom")
    assert gap <= 20, gap  # the tabs' own margin only
    before = page.evaluate(top_of_tabs)
    page.evaluate("document.querySelector('#progress').dataset.state = 'on'")
    box = page.locator("#progress").bounding_box()
    assert page.locator("#cancel").is_visible() and 844 - 80 <= box["y"] and box["y"] + box["height"] <= 844, box
    assert page.evaluate(top_of_tabs) == before
