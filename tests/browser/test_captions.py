"""Every card's wording fits its kind (issue 26): on each tab, at phone size, the rendered report
(summary card, cards, reference cards, methods paragraph, an item view) names none of the other kinds' nouns, shows
its "Settings:" line once, and its wide tables scroll inside their card.

Each kind declares its own nouns in its module (``nouns`` in web/kinds/<kind>.mjs): the words that
belong to it (its objects, its items, its measures' names). A word several kinds declare (images:
boxes, polygons and masks) is allowed on each of them. Text from the input (item ids, annotator
names, labels, span texts) is left out of the scan: table cells, and every value of the rows.
"""
from __future__ import annotations

import csv
import io
import re

import pytest

import agreekit

from conftest import wait_result

KINDS = sorted(agreekit.KINDS, key=lambda name: agreekit.KINDS[name].position)
PHONE = {"width": 390, "height": 844}

# The text a reader sees on the tab: its summary card and its report, table cells left out (their
# content is the input's: item ids, labels, annotators), folded parts left out (innerText skips them).
SHOWN_TEXT = """kind => {
    const parts = [document.querySelector(`#summary-${kind}`), document.querySelector(`#results-${kind}`)];
    return parts.map((part) => {
        const copy = part.cloneNode(true);
        copy.querySelectorAll("td, .all-values").forEach((node) => node.remove());
        const holder = document.createElement("div");
        holder.style.cssText = "position: absolute; left: -10000px; width: 1200px";
        holder.append(copy);
        document.body.append(holder);
        const text = copy.innerText;
        holder.remove();
        return text;
    }).join("\\n");
}"""


@pytest.fixture(scope="module")
def nouns(module_page):
    """{kind: [its nouns]}, as each kind's module declares them."""
    return module_page.evaluate("""async kinds => Object.fromEntries(await Promise.all(kinds.map(async (kind) =>
        [kind, (await import(`./web/kinds/${kind}.mjs`)).nouns ?? null])))""", KINDS)


def input_tables(page, kind):
    """The tab's rows and its other tables (spans' lengths), each as a list of CSV records."""
    texts = page.eval_on_selector_all(f'form[data-kind="{kind}"] textarea', "els => els.map(e => e.value)")
    texts[0] = page.evaluate("kind => window.agreekit.rows(kind)", kind)  # the rows, held or not
    return [list(csv.reader(io.StringIO(text))) for text in texts]


def input_words(page, kind):
    """Every text value of the tab's input (ids, names, labels, texts), longest first."""
    values = {value for table in input_tables(page, kind) for record in table[1:] for value in record}
    return sorted((v for v in values if len(v) > 1), key=len, reverse=True)


def foreign_nouns_in(text, kind, nouns):
    """[(noun, its kind, context)] of the other kinds' nouns (not also ``kind``'s own) in ``text``."""
    own = {noun.lower() for noun in nouns[kind]}
    found = []
    for other, words in nouns.items():
        for noun in words:
            if other == kind or noun.lower() in own:
                continue
            for match in re.finditer(rf"(?<![\w-]){re.escape(noun)}(?![\w-])", text, flags=re.IGNORECASE):
                found.append((noun, other, " ".join(text[max(0, match.start() - 60):match.end() + 60].split())))
    return found


def assert_own_words(text, input_words, kind, nouns, where):
    """``text``, the input's words left out, names none of the other kinds' nouns."""
    for word in input_words:
        text = re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", " ", text)
    found = foreign_nouns_in(text, kind, nouns)
    assert not found, "\n".join(f"{kind} ({where}) says {noun!r} ({other}): …{context}…" for noun, other, context in found)


def item_view_text(page, kind):
    """The text of the first item of the tab's gallery, opened in its item view ("" without a gallery)."""
    gallery = f'#results-{kind} [data-gallery="items"]'
    if not page.locator(gallery).count():
        return ""
    page.wait_for_selector(f'{gallery}[data-state="drawn"]')
    page.locator(f"{gallery} .thumb").first.click()
    view = f'#results-{kind} dialog.item-view[data-state="shown"]'
    page.wait_for_selector(view)
    text = page.inner_text(view)
    page.keyboard.press("Escape")
    return text


def run_example(page, kind, reference=""):
    """The tab's (first) example, computed with ``reference`` as its reference annotator ("" for none)."""
    page.click(f"#tab-{kind}")
    form = f'form[data-kind="{kind}"]'
    page.click(f"{form} button[data-example]")
    wait_result(page, kind)
    page.fill(f'{form} [name="reference"]', reference)
    page.click(f'{form} button[type="submit"]')
    wait_result(page, kind)  # "done" once every card is drawn (app.mjs)


def test_every_kind_declares_its_nouns(nouns):
    assert set(nouns) == set(KINDS)
    for kind, words in nouns.items():
        assert isinstance(words, list) and len(words) >= 2, (kind, words)


@pytest.mark.parametrize("kind", KINDS)
def test_the_report_names_no_other_kinds_nouns_and_fits_a_phone(warm_page, nouns, kind):
    page = warm_page
    page.set_viewport_size(PHONE)
    try:
        run_example(page, kind)
        header, first = input_tables(page, kind)[0][:2]
        expert = first[header.index("annotator")]
        for reference in ("", expert):  # without, then with the reference cards
            if reference:
                run_example(page, kind, reference)
            assert (page.locator(f"#results-{kind} .reference-downloads").count() > 0) == bool(reference)
            words = input_words(page, kind)
            text = page.evaluate(SHOWN_TEXT, kind)
            assert_own_words(text, words, kind, nouns, f"report, reference {reference!r}")
            if not reference:
                assert_own_words(item_view_text(page, kind), words, kind, nouns, "item view")
            assert text.count("Settings:") == 1, (kind, reference)  # once per report, not under every card
            assert page.locator(f"#results-{kind} .settings:not([hidden])").count() == 1, (kind, reference)
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], kind
            cards = page.eval_on_selector_all(f"#results-{kind} .card", "els => els.map(e => e.getBoundingClientRect().right)")
            assert cards and max(cards) <= PHONE["width"], (kind, cards)  # wide tables scroll inside their card
    finally:
        page.fill(f'form[data-kind="{kind}"] [name="reference"]', "")
        page.set_viewport_size({"width": 1280, "height": 800})
