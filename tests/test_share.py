"""Share links: the documented v1 format, round trips, and rejection of damaged links."""
from __future__ import annotations

import base64
import json
import random
import re
import zlib
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

import agreekit
from agreekit.share import MAX_DECODED_BYTES, LongLinkWarning, read_share_fragment, share_fragment, share_link


def decode_by_hand(link):
    """The format as documented, decoded without agreekit: #v1/<kind>/<base64url raw deflate JSON>."""
    version, kind, payload = link.split("#", 1)[1].split("/")
    raw = zlib.decompress(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)), -15)
    return version, kind, json.loads(raw.decode("utf-8"))


def test_link_follows_documented_format():
    rows = "item,annotator,x,y,w,h,label\nimg1,ann,0,0,10,10,café\n"
    link = share_link("boxes", rows, base_url="https://example.org/agreekit/", threshold=0.4, seed=3)
    assert link.startswith("https://example.org/agreekit/#v1/boxes/")
    payload = link.rsplit("/", 1)[1]
    assert "=" not in payload and "+" not in payload and "/" not in payload
    version, kind, document = decode_by_hand(link)
    assert (version, kind) == ("v1", "boxes")
    assert document == {"rows": rows, "options": {"threshold": 0.4, "seed": 3}}


def test_default_base_url_is_the_local_server():
    assert share_link("spans", "x").startswith("http://127.0.0.1:8000/#v1/spans/")


def test_base_url_fragment_is_replaced():
    assert share_link("segments", "x", base_url="http://h/p#old").startswith("http://h/p#v1/segments/")


@given(rows=st.text(max_size=300), kind=st.sampled_from(["boxes", "spans", "segments"]),
       seed=st.integers(0, 2**31), tolerances=st.lists(st.floats(0, 10, allow_nan=False), max_size=4))
def test_round_trip(rows, kind, seed, tolerances):
    link = share_link(kind, rows, seed=seed, tolerances=tolerances)
    assert read_share_fragment(link) == (kind, rows, {"seed": seed, "tolerances": tolerances})
    fragment = "#" + share_fragment(kind, rows, seed=seed, tolerances=tolerances)
    assert read_share_fragment(fragment) == read_share_fragment(link)


def test_list_of_dicts_rows_and_dict_lengths_become_text():
    rows = [{"item": "d1", "annotator": "a", "start": 0, "end": 3, "label": "PER"},
            {"item": "d1", "annotator": "b", "start": None, "end": None, "label": None}]
    kind, text, options = read_share_fragment(share_link("spans", rows, lengths={"d1": "Bob went"}))
    assert text == "item,annotator,start,end,label\nd1,a,0,3,PER\nd1,b,,,\n"
    assert options == {"lengths": "item,text\nd1,Bob went\n"}
    _, _, options = read_share_fragment(share_link("spans", rows, lengths={"d1": 8}))
    assert options == {"lengths": "item,length\nd1,8\n"}
    # the API reads the shared text to the same report as the original objects
    # (apart from source line numbers: list position vs text line, which counts the header)
    original = agreekit.spans(rows, lengths={"d1": 8}, bootstrap=0).to_dict()
    shared = agreekit.spans(text, bootstrap=0, **options).to_dict()
    for key in ("exact_f1", "partial_f1", "char_alpha", "disagreement"):
        assert shared[key] == original[key]


def test_progress_cannot_travel():
    with pytest.raises(ValueError, match="progress"):
        share_link("boxes", "x", progress=print)


@pytest.mark.parametrize("bad, message", [
    ("https://x/#v2/boxes/abc", "not an agreekit v1"),
    ("#v1/voxels/abc", "unknown kind"),
    ("#v1/boxes/ab$c", "not an agreekit v1"),
    ("#v1/boxes/" + base64.urlsafe_b64encode(b"not deflate at all").decode().rstrip("="), "damaged"),
    ("#v1/boxes/" + base64.urlsafe_b64encode(zlib.compress(b'{"rows": 1}')[2:-4]).decode().rstrip("="),
     "carries no rows"),
    ("#v1/boxes/" + base64.urlsafe_b64encode(zlib.compress(b'{"rows": "", "options": []}')[2:-4]).decode().rstrip("="),
     "options are not an object"),
])
def test_damaged_links_are_rejected(bad, message):
    with pytest.raises(ValueError, match=message):
        read_share_fragment(bad)


def deflated_link(document: bytes):
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    payload = compressor.compress(document) + compressor.flush()
    return "#v1/boxes/" + base64.urlsafe_b64encode(payload).decode().rstrip("=")


def test_decompression_bomb_is_refused():
    link = deflated_link(b'{"rows": "' + b"a" * (80 * 1024 * 1024))
    with pytest.raises(ValueError, match="too large"):
        read_share_fragment(link)


def test_the_cap_is_what_a_link_can_carry_and_the_message_says_so():
    assert MAX_DECODED_BYTES == 8 * 1024 * 1024
    # the page's copy of the cap (web/share.mjs) is the same number
    page = (Path(__file__).resolve().parents[1] / "web" / "share.mjs").read_text()
    assert re.search(r"export const MAX_DECODED_BYTES = 8 \* 1024 \* 1024;", page)
    wrapper = len(b'{"rows":"","options":{}}')
    at_cap = deflated_link(b'{"rows":"' + b"a" * (MAX_DECODED_BYTES - wrapper) + b'","options":{}}')
    assert len(read_share_fragment(at_cap)[1]) == MAX_DECODED_BYTES - wrapper
    over = deflated_link(b'{"rows":"' + b"a" * (MAX_DECODED_BYTES - wrapper + 1) + b'","options":{}}')
    with pytest.raises(ValueError, match=r"too large \(over 8 MiB once decompressed; a link carries about 2 MB\)"):
        read_share_fragment(over)


def test_a_link_the_page_would_refuse_is_not_written():
    rows = "a" * MAX_DECODED_BYTES  # compresses to a short link, but decodes over the cap
    with pytest.raises(ValueError, match="too large for a share link .over 8 MiB"):
        share_link("boxes", rows)


def test_long_link_warns_but_still_works():
    rng = random.Random(2)
    rows = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(12000))
    with pytest.warns(LongLinkWarning, match="characters long"):
        link = share_link("boxes", rows)
    assert read_share_fragment(link)[1] == rows


def test_every_registered_kind_travels_and_only_those():
    for kind in agreekit.KINDS:
        assert read_share_fragment(share_link(kind, "rows"))[0] == kind
    with pytest.raises(ValueError, match="expected one of " + ", ".join(agreekit.KINDS)):
        share_link("voxels", "rows")


def test_the_kinds_are_read_from_the_registry(monkeypatch):
    """A kind registered later is shareable at once; no list of kinds is kept apart from the registry."""
    fragment = "#v1/voxels/" + share_fragment("boxes", "rows").split("/", 2)[2]
    with pytest.raises(ValueError, match="unknown kind 'voxels'"):
        read_share_fragment(fragment)
    monkeypatch.setitem(agreekit.KINDS, "voxels", agreekit.KINDS["boxes"])
    assert read_share_fragment(fragment) == ("voxels", "rows", {})
    assert read_share_fragment(share_link("voxels", "rows", seed=1)) == ("voxels", "rows", {"seed": 1})


def test_compare_link_carries_both_inputs():
    from agreekit.share import compare_link, read_compare_fragment
    a = "item,annotator,label\nu1,r1,x\nu1,r2,y\n"
    b = [{"item": "u1", "annotator": "r1", "label": "x"}, {"item": "u1", "annotator": "r2", "label": "x"}]
    link = compare_link("labels", a, b, base_url="https://example.org/", seed=4)
    _, _, document = decode_by_hand(link)
    assert document == {"rows": a, "rows_b": "item,annotator,label\nu1,r1,x\nu1,r2,x\n", "options": {"seed": 4}}
    assert read_compare_fragment(link) == ("labels", a, document["rows_b"], {"seed": 4})
    assert read_share_fragment(link) == ("labels", a, {"seed": 4})  # a one-input reader opens A
    assert read_compare_fragment(share_link("labels", a))[2] is None
    kind, rows_a, rows_b, options = read_compare_fragment(link)
    c = agreekit.compare(kind, rows_a, rows_b, bootstrap=0, **options)
    assert c.coefficient("coefficients.percent_agreement").delta == 1.0

# ----------------------------------------------------------------- rows converted from a tool's export

FORMATS = Path(__file__).resolve().parent / "fixtures" / "formats"


def test_a_link_of_converted_rows_carries_the_format_and_its_options_and_reproduces_the_rows():
    import agreekit
    from agreekit.share import read_share

    conversion = agreekit.convert(FORMATS / "elan" / "session.eaf", tier_pattern="_(?P<annotator>[^_]+)$",
                                  tiers="gesture_A, gesture_B", duration="last_time_slot")
    link = share_link(conversion.kind, conversion.to_csv(), imported=conversion, **conversion.option_tables())
    shared = read_share(link)
    assert shared.imported == {"format": "elan", "options": {"tier_pattern": "_(?P<annotator>[^_]+)$",
                                                            "tiers": ["gesture_A", "gesture_B"],
                                                            "duration": "last_time_slot"}}
    assert read_share_fragment(link) == (shared.kind, shared.rows, shared.options)
    # The same files read with the link's format and options give the link's rows and durations.
    again = agreekit.convert(FORMATS / "elan" / "session.eaf", format=shared.imported["format"],
                             **shared.imported["options"])
    assert again.to_csv() == shared.rows and again.option_tables() == shared.options
    # Read without them, the rows differ: the record is what makes the link reproducible.
    assert agreekit.convert(FORMATS / "elan" / "session.eaf").to_csv() != shared.rows
    assert read_share(share_link("boxes", "x")).imported is None


def test_a_link_of_labels_carries_the_question_read():
    import agreekit
    from agreekit.share import read_share

    answers = FORMATS / "labels" / "labelstudio_answers.json"  # answers to 5 questions: one is chosen
    conversion = agreekit.convert(answers, kind="labels", question="quality")
    shared = read_share(share_link(conversion.kind, conversion.to_csv(), imported=conversion))
    assert shared.imported == {"format": "labelstudio", "options": {"question": "quality"}}
    again = agreekit.convert(answers, kind="labels", format=shared.imported["format"], **shared.imported["options"])
    assert again.to_csv() == shared.rows
    assert agreekit.convert(answers, kind="labels", question="blurry").to_csv() != shared.rows


@pytest.mark.parametrize("record", [{"format": "ELAN!"}, {"format": 3}, {"format": "elan", "options": []}, [1]])
def test_a_damaged_import_record_is_refused(record):
    from agreekit.share import read_share

    with pytest.raises(ValueError, match="imported must be"):
        share_link("segments", "x", imported=record)
    document = json.dumps({"rows": "x", "options": {}, "import": record}).encode()
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    payload = base64.urlsafe_b64encode(compressor.compress(document) + compressor.flush()).rstrip(b"=").decode()
    with pytest.raises(ValueError, match="import record"):
        read_share("v1/segments/" + payload)


def test_json_nested_too_deeply_in_a_link_is_a_damaged_link():
    document = b'{"rows": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    payload = base64.urlsafe_b64encode(compressor.compress(document) + compressor.flush()).rstrip(b"=").decode()
    with pytest.raises(ValueError, match="nested too deeply"):
        read_share_fragment("v1/boxes/" + payload)
