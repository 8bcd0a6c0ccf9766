"""The import form's format options, in real headless Chromium, against the CPython API (issue 22).

Each tab's import form offers the formats that hold its kind, with their declared options
(``Reader.options``); choosing options changes the conversion as ``agreekit.convert`` with those
options does, and a share link made after such an import carries the format and its options: opened
in a fresh page, it sets the import form back, and the same files then convert to the link's rows.
"""
from __future__ import annotations

import base64

import agreekit
from agreekit.formats.base import formats_json
from agreekit.share import read_share

from conftest import LOAD_MS, sent_options, wait_ready, wait_result
from test_import import FORMATS, drop, imported, page, start_on  # noqa: F401 (page: the module's page fixture)

ELAN = FORMATS / "elan" / "session.eaf"
ELAN_OPTIONS = {"tier_pattern": "_(?P<annotator>[^_]+)$", "tiers": "gesture_A, gesture_B",
                "duration": "last_time_slot"}


def form_field(kind, format, name):
    return f'#import-options-{kind} fieldset[data-format="{format}"] [name="{name}"]'


def open_import_options(page, kind):
    """Open ``kind``'s import options (a click on their summary, unless they are open)."""
    if not page.evaluate("(s) => document.querySelector(s).open", f"#import-options-{kind}"):
        page.click(f"#import-options-{kind} > summary")


def set_import_options(page, kind, format, options, choose_format=False):
    """Open ``kind``'s import options and fill ``format``'s fields (selects by value)."""
    open_import_options(page, kind)
    if choose_format:
        page.select_option(f"#import-format-{kind}", format)
    for name, value in options.items():
        selector = form_field(kind, format, name)
        if page.evaluate("(s) => document.querySelector(s).tagName", selector) == "SELECT":
            page.select_option(selector, value)
        else:
            page.fill(selector, value)


def test_every_formats_declared_options_are_fields_of_the_tabs_of_its_kinds(page):
    for record in formats_json():
        for kind in record["kinds"]:
            listed = page.eval_on_selector_all(f"#import-format-{kind} option", "(os) => os.map((o) => o.value)")
            assert record["name"] in listed and listed[0] == "auto"
            for option in record["options"]:
                assert page.locator(form_field(kind, record["name"], option["name"])).count() == 1, \
                    (kind, record["name"], option["name"])


def test_options_chosen_in_the_import_form_convert_like_cpython(page):
    start_on(page, "segments")
    set_import_options(page, "segments", "elan", ELAN_OPTIONS)
    drop(page, "segments", [(ELAN.name, ELAN.read_bytes())])
    text = imported(page, "segments")
    conversion = agreekit.convert(ELAN, **ELAN_OPTIONS)
    assert conversion.to_csv() != agreekit.convert(ELAN).to_csv()  # the options change what is read
    wait_result(page, "segments")
    assert page.input_value("#rows-segments") == conversion.to_csv()
    assert sent_options(page, "segments").get("durations") == conversion.option_tables()["durations"]
    assert "Read with the options tier_pattern = _(?P<annotator>[^_]+)$; tiers = gesture_A, gesture_B; " \
           "duration = last_time_slot." in text


def test_a_chosen_format_hides_the_others_options_and_reads_a_table_as_that_format(page):
    start_on(page, "segments")
    open_import_options(page, "segments")
    page.select_option("#import-format-segments", "audacity")
    assert page.is_visible('#import-options-segments fieldset[data-format="audacity"]')
    assert page.is_hidden('#import-options-segments fieldset[data-format="elan"]')
    page.fill(form_field("segments", "audacity", "item"), "clip9")
    label_track = FORMATS / "audacity" / "c1_alice.txt"
    drop(page, "segments", [(label_track.name, label_track.read_bytes())])
    imported(page, "segments")
    conversion = agreekit.convert(label_track, format="audacity", item="clip9")
    assert page.input_value("#rows-segments") == conversion.to_csv()
    assert {row["item"] for row in conversion.rows} == {"clip9"}
    page.select_option("#import-format-segments", "auto")
    page.fill(form_field("segments", "audacity", "item"), "")
    assert page.is_visible('#import-options-segments fieldset[data-format="elan"]')


def test_a_share_link_after_an_import_carries_the_format_and_options_and_reproduces_the_rows(page, open_page,
                                                                                            site):
    start_on(page, "segments")
    open_import_options(page, "segments")
    page.select_option("#import-format-segments", "auto")
    set_import_options(page, "segments", "elan", ELAN_OPTIONS)
    drop(page, "segments", [(ELAN.name, ELAN.read_bytes())])
    imported(page, "segments")
    wait_result(page, "segments")
    page.click('form[data-kind="segments"] button[data-action="share"]')
    page.wait_for_selector('form[data-kind="segments"] .share[data-state="ok"]')
    link = page.input_value('form[data-kind="segments"] .share-link')
    shared = read_share(link)
    conversion = agreekit.convert(ELAN, **ELAN_OPTIONS)
    assert shared.imported == {"format": "elan", "options": conversion.format_options}
    assert shared.rows == conversion.to_csv()

    fresh = open_page(link)
    wait_ready(fresh)
    note = imported(fresh, "segments", state="shared", timeout=LOAD_MS)
    wait_result(fresh, "segments")
    assert "converted from ELAN files read with the options" in note
    assert fresh.input_value("#import-format-segments") == "elan"
    assert fresh.input_value(form_field("segments", "elan", "tier_pattern")) == ELAN_OPTIONS["tier_pattern"]
    assert fresh.input_value(form_field("segments", "elan", "tiers")) == "gesture_A, gesture_B"
    assert fresh.input_value(form_field("segments", "elan", "duration")) == "last_time_slot"
    assert fresh.input_value("#rows-segments") == shared.rows
    # The recipient drops their copy of the files: the form as the link set it gives the link's rows.
    drop(fresh, "segments", [(ELAN.name, ELAN.read_bytes())])
    imported(fresh, "segments")
    wait_result(fresh, "segments")
    assert fresh.input_value("#rows-segments") == shared.rows
    assert sent_options(fresh, "segments").get("durations") == shared.options["durations"]
    # Edited rows no longer come from the import: a link of them carries no import record.
    fresh.fill("#rows-segments", shared.rows + "rec3,Z,0,1,x\n")
    fresh.click('form[data-kind="segments"] button[data-action="share"]')
    fresh.wait_for_selector('form[data-kind="segments"] .share[data-state="ok"]')
    assert read_share(fresh.input_value('form[data-kind="segments"] .share-link')).imported is None


def test_a_link_with_a_damaged_import_record_computes_nothing(open_page, site):
    import json
    import zlib

    document = json.dumps({"rows": "item,annotator,start,end,label\n", "options": {},
                           "import": {"format": "elan", "options": []}}).encode()
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    payload = base64.urlsafe_b64encode(compressor.compress(document) + compressor.flush()).rstrip(b"=").decode()
    page = open_page(site.url + "#v1/segments/" + payload)
    wait_ready(page)
    page.wait_for_selector('.error:not([hidden]):has-text("import record")', timeout=LOAD_MS)
    assert page.input_value("#rows-segments") == ""
