"""Importers of time-segment exports: RTTM, Praat TextGrid, ELAN .eaf and Audacity label tracks.

Every fixture under tests/fixtures/formats/<format>/ is converted and compared row by row with
hand-written rows, and the segment report on the conversion equals the report on those rows.
RTTM and Audacity labels can be written, so they also round-trip (rows → files → rows) under
hypothesis, with the writers below.
"""
import codecs
import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agreekit
from agreekit.formats import READERS, Source, convert, load_sources
from agreekit.formats.base import detect
from agreekit.rows import InputError

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "formats"
MINE = ("rttm", "textgrid", "elan", "audacity")


def seg(item, annotator, start, end, label):
    return {"item": item, "annotator": annotator, "start": start, "end": end, "label": label}


def nothing(item, annotator):
    """The saw-nothing row."""
    return {"item": item, "annotator": annotator, "start": None, "end": None, "label": None}


def assert_same_report(conversion, expected, durations=None):
    """The report on the conversion is the report on the hand-written rows (and clip durations)."""
    assert conversion.durations == durations
    got = agreekit.report("segments", conversion.rows, **conversion.options(), bootstrap=0).to_dict()
    assert got == agreekit.report("segments", expected, bootstrap=0, durations=durations).to_dict()


def error_of(sources, **options):
    with pytest.raises(InputError) as error:
        convert(sources, **options)
    return str(error.value)


# ============================================================================ RTTM

RTTM_ROWS = [seg("r1", "alice", 0.5, 2.5, "anna"), seg("r1", "alice", 2.8, 4.5, "ben"),
             seg("r2", "alice", 0.0, 1.25, "anna"),
             seg("r1", "bob", 0.4, 2.6, "anna"), seg("r1", "bob", 2.9, 4.4, "ben")]


def test_rttm_fixture_rows_skips_and_never_heard():
    conversion = convert(FIXTURES / "rttm")
    assert conversion.format == "rttm" and conversion.kind == "segments"
    assert conversion.rows == RTTM_ROWS
    assert [(s.source, s.where, s.reason) for s in conversion.skipped] == [
        ("rttm/alice.rttm", "line 2", "SPKR-INFO record (not a speaker turn)"),
        ("rttm/bob.rttm", "line 3", "LEXEME record (not a speaker turn)")]
    [warning] = conversion.warnings
    assert "r2 (not bob)" in warning and "never" in warning
    assert_same_report(conversion, RTTM_ROWS)


def test_rttm_recordings_turn_an_empty_recording_into_saw_nothing():
    conversion = convert(FIXTURES / "rttm", recordings=["r1", "r2", "r3"])
    expected = [seg("r1", "alice", 0.5, 2.5, "anna"), seg("r1", "alice", 2.8, 4.5, "ben"),
                seg("r2", "alice", 0.0, 1.25, "anna"), nothing("r3", "alice"),
                seg("r1", "bob", 0.4, 2.6, "anna"), seg("r1", "bob", 2.9, 4.4, "ben"), nothing("r2", "bob"),
                nothing("r3", "bob")]
    assert conversion.rows == expected
    assert conversion.warnings == []
    assert conversion.summary()["n_saw_nothing"] == 3
    assert_same_report(conversion, expected)
    kept = convert(FIXTURES / "rttm", recordings=["r1"])
    assert kept.rows == RTTM_ROWS and "not in the option recordings, kept: r2" in kept.warnings[0]


def test_rttm_onset_plus_duration_is_the_exact_decimal_sum():
    conversion = convert([("a.rttm", b"SPEAKER r 1 0.1 0.2 <NA> <NA> s <NA> <NA>\n"),
                          ("b.rttm", b"SPEAKER r 1 1e-1 2E-1 <NA> <NA> s\n")])
    assert [(row["start"], row["end"]) for row in conversion.rows] == [(0.1, 0.3), (0.1, 0.3)]


def test_rttm_annotator_from_file_field_as_pygamma_agreement():
    data = (b"SPEAKER alice 1 0.0 1.0 <NA> <NA> A <NA> <NA>\nSPEAKER bob 1 0.2 1.0 <NA> <NA> A <NA> <NA>\n"
            b"SPEAKER alice 1 2.0 0.5 <NA> <NA> B <NA> <NA>\n")
    conversion = convert([("meeting.rttm", data)], annotator_from="file")
    expected = [seg("meeting", "alice", 0.0, 1.0, "A"), seg("meeting", "alice", 2.0, 2.5, "B"),
                seg("meeting", "bob", 0.2, 1.2, "A")]
    assert conversion.rows == expected
    assert_same_report(conversion, expected)
    assert "option recordings" in error_of([("meeting.rttm", data)], annotator_from="file", recordings=["x"])
    default = convert([("meeting.rttm", data)])
    assert {row["annotator"] for row in default.rows} == {"meeting"}
    assert any("annotator_from='file'" in w for w in default.warnings)


def test_rttm_recording_on_two_channels_is_two_items():
    conversion = convert([("a.rttm", b"SPEAKER r 1 0 1 <NA> <NA> s\nSPEAKER r 2 0 1 <NA> <NA> t\n"
                                     b"SPEAKER q 1 0 1 <NA> <NA> s\n"),
                          ("b.rttm", b"SPEAKER r 1 0 1 <NA> <NA> s\n")])
    assert [row["item"] for row in conversion.rows] == ["r#1", "r#2", "q", "r#1"]


def test_rttm_speaker_names_shared_by_no_annotator_are_warned_about():
    conversion = convert([("a.rttm", b"SPEAKER r 1 0 1 <NA> <NA> SPEAKER_00\n"),
                          ("b.rttm", b"SPEAKER r 1 0 1 <NA> <NA> anna\n")])
    assert any("share no speaker name" in w for w in conversion.warnings)


def test_rttm_empty_file_counts_with_recordings():
    sources = [("a.rttm", b"SPEAKER r 1 0 1 <NA> <NA> s\n"), ("b.rttm", b";; nothing heard\n")]
    assert any("b.rttm" in w and "left out" in w for w in convert(sources).warnings)
    assert convert(sources, recordings=["r"]).rows[-1] == nothing("r", "b")
    assert "Tried" in error_of([("b.txt", b";; nothing heard\n")])  # detected as empty RTTM only by its name


@pytest.mark.parametrize("line, field, words", [
    ("SPEAKER r 1 x 1 <NA> <NA> s", "tbeg", "'x' is not a finite number"),
    ("SPEAKER r 1 0 nan <NA> <NA> s", "tdur", "not a finite number"),
    ("SPEAKER r 1 2 -1 <NA> <NA> s", "tdur", "negative"),
    ("SPEAKER r 1 0 1", None, "has 5 fields"),
    ("HELLO r 1 0 1 <NA> <NA> s", "type", "not an RTTM record type"),
])
def test_rttm_broken_line_names_the_file_line_and_field(line, field, words):
    data = f"SPEAKER r 1 0 1 <NA> <NA> s <NA> <NA>\n{line}\n".encode()
    with pytest.raises(InputError) as error:
        convert([("ann.rttm", data)])
    assert error.value.line == 2 and error.value.column == field
    assert "ann.rttm" in str(error.value) and words in str(error.value)


def test_rttm_options_are_checked():
    assert "unknown option 'speakers'" in error_of(FIXTURES / "rttm", speakers=1)
    assert "annotator_from must be one of" in error_of(FIXTURES / "rttm", annotator_from="tier")
    assert "list of labels" in error_of(FIXTURES / "rttm", recordings=5)
    # A text (from the command line or the page) is a comma-separated list.
    assert convert(FIXTURES / "rttm", recordings="r1, r9").rows == convert(FIXTURES / "rttm", recordings=["r1", "r9"]).rows


def write_rttm(rows):
    """One RTTM file per annotator (the duration as the exact decimal difference)."""
    files = {}
    for row in rows:
        lines = files.setdefault(row["annotator"], [])
        if row["start"] is not None:
            duration = Decimal(repr(row["end"])) - Decimal(repr(row["start"]))
            lines.append(f"SPEAKER {row['item']} 1 {row['start']!r} {duration} <NA> <NA> {row['label']} <NA> <NA>")
    return [(f"{annotator}.rttm", "".join(line + "\n" for line in lines).encode()) for annotator, lines in files.items()]


NAMES = st.from_regex(r"[a-z][a-z0-9-]{0,5}", fullmatch=True)
TIMES = st.floats(min_value=0, max_value=1e5, allow_nan=False, allow_infinity=False)


@st.composite
def segment_rows(draw, labels, annotator_names=NAMES, item_names=NAMES):
    """Rows where every annotator went through every item (segments, or nothing)."""
    items = draw(st.lists(item_names, min_size=1, max_size=3, unique=True))
    annotators = draw(st.lists(annotator_names, min_size=1, max_size=3, unique=True))
    rows = []
    for annotator in annotators:
        for item in items:
            found = draw(st.lists(st.tuples(TIMES, TIMES, labels), max_size=3))
            rows += [seg(item, annotator, min(a, b), max(a, b), label) for a, b, label in found]
            rows += [] if found else [nothing(item, annotator)]
    return items, rows


def as_set(rows):
    return sorted(repr(tuple(row[c] for c in ("item", "annotator", "start", "end", "label"))) for row in rows)


@settings(max_examples=60, deadline=None)
@given(segment_rows(labels=st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,6}", fullmatch=True)))
def test_rttm_round_trip(drawn):
    items, rows = drawn
    conversion = convert(write_rttm(rows), format="rttm", recordings=items)
    assert as_set(conversion.rows) == as_set(rows)


# ============================================================================ Praat TextGrid

TEXTGRID_ROWS = [seg("rec1", "alice", 1.2, 3.4, "speech"), seg("rec1", "alice", 4.0, 5.0, "laugh"),
                 seg("rec1", "bob", 1.0, 3.5, "speech"), nothing("rec1", "carol"),
                 seg("rec2", "alice", 0.5, 2.0, 'say "hi"'), seg("rec2", "bob", 0.6, 2.1, "café")]


def test_textgrid_fixtures_long_and_short_utf16_gaps_points_and_an_empty_tier():
    conversion = convert(FIXTURES / "textgrid")
    assert conversion.format == "textgrid"
    assert conversion.rows == TEXTGRID_ROWS
    assert [(s.where, s.reason) for s in conversion.skipped] == [
        ("tier 'bell' point 1", "point tier (TextTier): a point has no duration"),
        ("tier 'bell' point 2", "point tier (TextTier): a point has no duration")]
    assert conversion.warnings == []
    assert_same_report(conversion, TEXTGRID_ROWS, durations={"rec1": 5.0, "rec2": 3.0})  # the files' xmax


def _rec2_text():
    data = (FIXTURES / "textgrid" / "rec2.TextGrid").read_bytes()
    assert data[:2] == codecs.BOM_UTF16_BE
    return data.decode("utf-16")


def _long(text):
    """The short-format TextGrid ``text`` in the long format, as Praat writes it."""
    values = [line for line in text.splitlines()[3:]]
    out = ['File type = "ooTextFile"', 'Object class = "TextGrid"', "", f"xmin = {values[0]} ", f"xmax = {values[1]} ",
           "tiers? <exists> ", f"size = {values[3]} ", "item []: "]
    rest = values[4:]
    for tier in range(int(values[3])):
        cls, name, low, high, count, rest = *rest[:5], rest[5:]
        out += [f"    item [{tier + 1}]:", f"        class = {cls} ", f"        name = {name} ",
                f"        xmin = {low} ", f"        xmax = {high} ", f"        intervals: size = {count} "]
        for number in range(int(count)):
            (start, end, label), rest = rest[:3], rest[3:]
            out += [f"        intervals [{number + 1}]:", f"            xmin = {start} ",
                    f"            xmax = {end} ", f"            text = {label} "]
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("variant", ["utf-8 short", "utf-8-sig short", "utf-16-le short", "utf-16 long",
                                     "utf-8 long crlf", "short with comments"])
def test_textgrid_every_text_format_and_encoding_reads_the_same(variant):
    text = _rec2_text()
    if "long" in variant:
        text = _long(text)
    if "crlf" in variant:
        text = text.replace("\n", "\r\n")
    if "comments" in variant:  # Praat ignores "!" comments and reads "0s" as 0
        text = text.replace('"IntervalTier"', '! a tier\n"IntervalTier"').replace("\n0\n", "\n0s ! start\n")
        text = text.replace('"ooTextFile"', '"ooTextFile short"', 1)
    encoding = "utf-8" if "comments" in variant else variant.split()[0]
    data = text.encode(encoding)
    if encoding == "utf-16-le":
        data = codecs.BOM_UTF16_LE + data
    source = ("rec2.TextGrid", data)
    assert detect(load_sources(source)) == "textgrid"
    assert convert(source).rows == TEXTGRID_ROWS[4:]


def _grid(*tiers):
    """A short-format TextGrid from ``(name, [(start, end, text), ...])`` tiers."""
    lines = ['File type = "ooTextFile"', 'Object class = "TextGrid"', "", "0", "10", "<exists>", str(len(tiers))]
    for name, intervals in tiers:
        lines += ['"IntervalTier"', f'"{name}"', "0", "10", str(len(intervals))]
        for start, end, text in intervals:
            lines += [str(start), str(end), f'"{text}"']
    return ("\n".join(lines) + "\n").encode()


def test_textgrid_one_file_per_annotator():
    sources = [("c1_alice.TextGrid", _grid(("words", [(0, 1, "yes"), (1, 10, "")]))),
               ("c1_bob.TextGrid", _grid(("words", [(0, 10, "")]))),
               ("c1_carol.TextGrid", _grid(("words", [(0, 2, "yes"), (2, 10, "")]),
                                           ("events", [(0, 5, ""), (5, 6, "cough"), (6, 10, "")])))]
    conversion = convert(sources, annotator="file")
    expected = [seg("c1", "alice", 0.0, 1.0, "yes"), nothing("c1", "bob"), seg("c1", "carol", 0.0, 2.0, "yes"),
                seg("c1", "carol", 5.0, 6.0, "cough")]
    assert conversion.rows == expected
    [warning] = conversion.warnings
    assert "c1_carol.TextGrid" in warning and "words, events" in warning and "merged" in warning
    assert_same_report(conversion, expected, durations={"c1": 10.0})
    default = convert(sources[:2])  # each tier an annotator, each file an item: nothing to compare, and why
    assert any("annotator='file'" in w for w in default.warnings)
    assert convert(sources[:1], annotator="file", item="clip9").rows[0]["item"] == "clip9"
    assert "cannot tell the clip" in error_of([("alice.TextGrid", sources[0][1])], annotator="file")


def test_textgrid_two_tiers_of_one_name_keep_the_later():
    conversion = convert([("r.TextGrid", _grid(("a", [(0, 1, "x")]), ("a", [(0, 2, "y")]),
                                               ("b", [(0, 2, "y")])))])
    assert conversion.rows == [seg("r", "a", 0.0, 2.0, "y"), seg("r", "b", 0.0, 2.0, "y")]
    assert "two submissions" in conversion.warnings[0]


@pytest.mark.parametrize("data, words", [
    (_grid(("a", [(0, 1, "x"), (2, 3, "y")]))[:-4], "tier 'a' interval 2: the file ends where the text"),
    (_grid(("a", [(0, 1, "x")])).replace(b'"x"', b'"x'), "not closed"),
    (_grid(("a", [(2, 1, "x")])), "ends (1) before it starts (2)"),
    (_grid(("a", [(0, 1, "x")])).replace(b"IntervalTier", b"PitchTier"), "unknown tier class"),
    (_grid(("a", [(0, 1, "x")])).replace(b"\n1\n0\n", b"\n1.5\n0\n"), "whole number"),
    (_grid(("", [(0, 1, "x")])), "without a name"),
    (b"ooBinaryFile\x08TextGrid\x00\x00", "binary TextGrid"),
    ('"Praat chronological TextGrid text file"\n0 1 ! Time domain.\n'.encode(), "chronological"),
])
def test_textgrid_broken_file_names_file_tier_and_line(data, words):
    message = error_of([("bad.TextGrid", data)])
    assert "bad.TextGrid" in message and words in message


def test_textgrid_cut_short_names_the_line():
    data = (FIXTURES / "textgrid" / "rec1.TextGrid").read_bytes()
    with pytest.raises(InputError) as error:
        convert([("rec1.TextGrid", data[:len(data) // 2])])
    assert error.value.line is not None and "cut short" in str(error.value)
    assert "rec1.TextGrid: tier 'bob'" in str(error.value)


def test_textgrid_options_are_checked():
    assert "annotator must be one of" in error_of(FIXTURES / "textgrid", annotator="speaker")
    assert "unknown option 'tiers'" in error_of(FIXTURES / "textgrid", tiers=["a"])


# ============================================================================ ELAN

ELAN_ROWS = [seg("rec3", "A", 0.44, 2.96, "beat"), seg("rec3", "A", 3.1, 4.1, "deictic"),
             seg("rec3", "B", 0.5, 2.35, "beat"), seg("rec3", "B", 2.35, 4.2, "deictic"), nothing("rec3", "C")]


def test_elan_fixture_annotator_attribute_unaligned_slot_and_ref_tier():
    conversion = convert(FIXTURES / "elan")
    assert conversion.format == "elan"
    assert conversion.rows == ELAN_ROWS
    assert [(s.where, s.reason) for s in conversion.skipped] == [
        ("tier 'gloss_A' annotation a5", "REF_ANNOTATION (symbolic tier: no times of its own)")]
    [warning, no_duration] = conversion.warnings
    assert warning.startswith("2 annotation(s) on unaligned time slots")
    assert no_duration.startswith("an .eaf file does not store its media's duration") and conversion.durations is None
    assert_same_report(conversion, ELAN_ROWS)


def _eaf(slots, tiers, media="rec.wav", origin=None, units="milliseconds"):
    """A small .eaf: ``slots`` id → ms (None: unaligned), ``tiers`` (id, attributes, [(id, ref1, ref2, value)])."""
    origin_attribute = f' TIME_ORIGIN="{origin}"' if origin else ""
    media_element = f'<MEDIA_DESCRIPTOR MEDIA_URL="file:///data/{media}"{origin_attribute}/>' if media else ""
    slot_elements = "".join(f'<TIME_SLOT TIME_SLOT_ID="{s}"' + ("" if v is None else f' TIME_VALUE="{v}"') + "/>"
                            for s, v in slots.items())
    tier_elements = ""
    for tier_id, attributes, annotations in tiers:
        body = "".join(f'<ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="{a}" TIME_SLOT_REF1="{r1}" '
                       f'TIME_SLOT_REF2="{r2}"><ANNOTATION_VALUE>{v}</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION>'
                       "</ANNOTATION>" for a, r1, r2, v in annotations)
        tier_elements += f'<TIER TIER_ID="{tier_id}" LINGUISTIC_TYPE_REF="lt" {attributes}>{body}</TIER>'
    return (f'<?xml version="1.0" encoding="UTF-8"?><ANNOTATION_DOCUMENT FORMAT="3.0" VERSION="3.0">'
            f'<HEADER TIME_UNITS="{units}">{media_element}</HEADER><TIME_ORDER>{slot_elements}</TIME_ORDER>'
            f'{tier_elements}<LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="lt" TIME_ALIGNABLE="true"/>'
            "</ANNOTATION_DOCUMENT>").encode()


SLOTS = {"t1": 0, "t2": 1000, "t3": 1500, "t4": 3000}


def test_elan_one_file_per_annotator_takes_the_file_name_and_the_media_name():
    sources = [("alice.eaf", _eaf(SLOTS, [("gesture", "", [("a1", "t1", "t2", "beat")])])),
               ("bob.eaf", _eaf(SLOTS, [("gesture", "", [("a1", "t1", "t3", "beat")])]))]
    conversion = convert(sources)
    expected = [seg("rec", "alice", 0.0, 1.0, "beat"), seg("rec", "bob", 0.0, 1.5, "beat")]
    assert conversion.rows == expected
    assert "2 tier(s) without an ANNOTATOR attribute" in conversion.warnings[0]
    assert_same_report(conversion, expected)
    assert {row["item"] for row in convert(sources, item="session").rows} == {"session"}


def test_elan_tier_pattern_names_annotators_and_skips_the_rest():
    tiers = [("gesture_A", "", [("a1", "t1", "t2", "beat")]), ("gesture_B", "", [("a2", "t1", "t3", "beat")]),
             ("notes", "", [("a3", "t1", "t4", "x")]), ("gesture_C", "", [])]
    conversion = convert([("s.eaf", _eaf(SLOTS, tiers))], tier_pattern=r"_(?P<annotator>[^_]+)$")
    expected = [seg("rec", "A", 0.0, 1.0, "beat"), seg("rec", "B", 0.0, 1.5, "beat"), nothing("rec", "C")]
    assert conversion.rows == expected
    assert [(s.where, s.reason) for s in conversion.skipped] == [
        ("tier 'notes' annotation a3", "tier name does not match tier_pattern")]
    assert_same_report(conversion, expected)
    unnamed_group = convert([("s.eaf", _eaf(SLOTS, tiers))], tier_pattern=r"_(\w)$")
    assert [row["annotator"] for row in unnamed_group.rows] == ["A", "B", "C"]


def test_elan_tiers_of_one_annotator_are_merged_unless_chosen():
    tiers = [("gesture_A", 'ANNOTATOR="A"', [("a1", "t1", "t2", "beat")]),
             ("words_A", 'ANNOTATOR="A"', [("a2", "t2", "t4", "hello")]),
             ("gesture_B", 'ANNOTATOR="B"', [("a3", "t1", "t2", "beat")])]
    merged = convert([("s.eaf", _eaf(SLOTS, tiers))])
    assert [row["label"] for row in merged.rows] == ["beat", "hello", "beat"]
    assert "A on rec (gesture_A, words_A)" in merged.warnings[0]
    chosen = convert([("s.eaf", _eaf(SLOTS, tiers))], tiers=["gesture_A", "gesture_B"])
    assert [row["label"] for row in chosen.rows] == ["beat", "beat"]
    assert [w.split(":")[0] for w in chosen.warnings] == ["an .eaf file does not store its media's duration"]
    assert [s.reason for s in chosen.skipped] == ["tier not selected (option tiers)"]


def test_elan_unaligned_slots_spread_evenly_or_are_skipped_without_an_aligned_side():
    slots = {"t1": 0, "u1": None, "u2": None, "t2": 3000, "u3": None}
    tiers = [("sub", 'ANNOTATOR="A"', [("a1", "t1", "u1", "x"), ("a2", "u1", "u2", "y"), ("a3", "u2", "t2", "z"),
                                       ("a4", "t2", "u3", "w")]),
             ("top", 'ANNOTATOR="B"', [("b1", "t1", "t2", "x")])]
    conversion = convert([("s.eaf", _eaf(slots, tiers))])
    assert conversion.rows == [seg("rec", "A", 0.0, 1.0, "x"), seg("rec", "A", 1.0, 2.0, "y"),
                               seg("rec", "A", 2.0, 3.0, "z"), seg("rec", "B", 0.0, 3.0, "x")]
    assert [(s.where, s.reason) for s in conversion.skipped] == [
        ("tier 'sub' annotation a4", "unaligned time slot with no aligned slot on one side")]
    assert conversion.warnings[0].startswith("3 annotation(s) on unaligned time slots")


def test_elan_time_origin_is_reported_not_applied():
    conversion = convert([("s.eaf", _eaf(SLOTS, [("g", 'ANNOTATOR="A"', [("a1", "t1", "t2", "x")])], origin=500))])
    assert conversion.rows[0]["start"] == 0.0
    assert any("TIME_ORIGIN" in w and "500 ms" in w for w in conversion.warnings)


@pytest.mark.parametrize("data, words", [
    ((FIXTURES / "elan" / "session.eaf").read_bytes()[:1500], "not well-formed XML"),
    (_eaf(SLOTS, [("g", "", [("a1", "t1", "t9", "x")])]), "annotation a1: time slot 't9' is not in the TIME_ORDER"),
    (_eaf(SLOTS, [("g", "", [("a1", "t2", "t1", "x")])]), "annotation a1 ends (0 ms) before it starts (1000 ms)"),
    (_eaf({"t1": "abc", "t2": 5}, [("g", "", [])]), "TIME_SLOT t1: TIME_VALUE 'abc' is not a finite number"),
    (_eaf(SLOTS, [], units="PAL-frames"), "TIME_UNITS is 'PAL-frames'"),
    (_eaf(SLOTS, [("g", "", [("a1", "t1", "t2", "x")])]).replace(b' TIME_SLOT_REF2="t2"', b""), "TIME_SLOT_REF2"),
])
def test_elan_broken_file_names_file_and_record(data, words):
    message = error_of([("bad.eaf", data)])
    assert "bad.eaf" in message and words in message


def test_elan_leaves_clip_durations_unset_unless_asked_for_the_last_time_slot():
    # EAF 3.0 stores no media duration: none is invented; the option takes each file's last aligned slot.
    tiers = [("g", 'ANNOTATOR="A"', [("a1", "t1", "t2", "x")])]
    alice = _eaf({"t1": 0, "t2": 1000, "t3": 2500, "u": None}, tiers, media="c1.wav")
    bob = _eaf({"t1": 0, "t2": 1250}, [("g", 'ANNOTATOR="B"', [("a1", "t1", "t2", "x")])], media="c1.wav")
    plain = convert([("alice.eaf", alice), ("bob.eaf", bob)])
    assert plain.durations is None and "durations" not in plain.options()
    assert any("does not store its media's duration" in w for w in plain.warnings)
    lower = convert([("alice.eaf", alice), ("bob.eaf", bob)], duration="last_time_slot")
    assert lower.durations == {"c1": 2.5}  # the later of the files' last slots, an unaligned slot has no time
    assert lower.options() == {"durations": {"c1": 2.5}}
    assert lower.option_tables() == {"durations": "item,duration\nc1,2.5\n"}
    assert any("last time slot" in w and "lower bound" in w for w in lower.warnings)
    assert not any("are not set" in w for w in lower.warnings)
    report = agreekit.report("segments", lower.rows, bootstrap=0, **lower.options())
    assert report.to_dict() == agreekit.report("segments", lower.rows, bootstrap=0, durations={"c1": 2.5}).to_dict()
    unaligned = convert([("u.eaf", _eaf({"u1": None, "u2": None}, [("g", 'ANNOTATOR="A"', [])]))],
                        duration="last_time_slot")
    assert unaligned.durations is None and any("no aligned time slot" in w and "u.eaf" in w
                                               for w in unaligned.warnings)


def test_elan_options_are_checked():
    assert "duration must be one of" in error_of(FIXTURES / "elan", duration="media")
    assert "not a regular expression" in error_of(FIXTURES / "elan", tier_pattern="(")
    assert "list of labels" in error_of(FIXTURES / "elan", tiers={"gesture_A": 1})
    assert "list of names" in error_of(FIXTURES / "elan", tiers=["gesture_A", " "])
    assert convert(FIXTURES / "elan", tiers="gesture_A").rows == convert(FIXTURES / "elan", tiers=["gesture_A"]).rows
    assert "unknown option 'annotator'" in error_of(FIXTURES / "elan", annotator="tier")


# ============================================================================ Audacity labels

AUDACITY_ROWS = [seg("c1", "alice", 0.0, 2.0, "x"), seg("c1", "alice", 1.0, 3.0, "y"),
                 seg("c1", "bob", 0.1, 2.0, "x"), seg("c1", "bob", 1.0, 3.3, "y")]


def test_audacity_fixture_is_the_segments_doc_example():
    conversion = convert(FIXTURES / "audacity")
    assert conversion.format == "audacity"
    assert conversion.rows == AUDACITY_ROWS
    assert conversion.skipped == []
    [warning] = conversion.warnings
    assert warning.startswith("1 spectral-selection line(s)")
    assert_same_report(conversion, AUDACITY_ROWS)


def test_audacity_item_option_names_the_clip_and_the_file_the_annotator():
    sources = [("alice.txt", (FIXTURES / "audacity" / "c1_alice.txt").read_bytes()),
               ("bob.txt", (FIXTURES / "audacity" / "c1_bob.txt").read_bytes())]
    assert convert(sources, item="c1").rows == AUDACITY_ROWS
    message = error_of(sources)
    assert "alice.txt" in message and "cannot tell the clip" in message
    dashed = [("c1-alice.txt", sources[0][1]), ("c1-bob.txt", sources[1][1])]
    assert convert(dashed, separator="-").rows == AUDACITY_ROWS


def test_audacity_empty_file_point_label_no_text_decimal_comma_and_crlf():
    sources = [("clip_7_alice.txt", b"1.5\t1.5\tclick\r\n2,25\t3,5\r\n"), ("clip_7_bob.txt", b"")]
    conversion = convert(sources, format="audacity")
    expected = [seg("clip_7", "alice", 1.5, 1.5, "click"), seg("clip_7", "alice", 2.25, 3.5, ""),
                nothing("clip_7", "bob")]
    assert conversion.rows == expected
    assert_same_report(conversion, expected)


@pytest.mark.parametrize("data, line, words", [
    (b"0\t1\tx\n1\t2\tx\ty\n", 2, "found 4 tab-separated field(s)"),
    (b"0\t1\tx\n1\tlater\tx\n", 2, "end 'later' is not a finite number"),
    (b"0\t1\tx\n\n3\t2\tx\n", 3, "ends (2) before it starts (3)"),
    (b"0\t1\tx\n1.000000\t", 2, "end '' is not a finite number"),
])
def test_audacity_broken_line_names_file_and_line(data, line, words):
    with pytest.raises(InputError) as error:
        convert([("c_a.txt", data)])
    assert error.value.line == line and "c_a.txt" in str(error.value) and words in str(error.value)


@pytest.mark.parametrize("text", [
    "item\tannotator\tstart\tend\tlabel\nc1\ta\t0\t1\tx\n",  # an agreekit TSV with a header
    "c1\ta\t0\t1\tx\n",                                     # …and without one
    "0\t1\tx\tc1\ta\n",                                     # five fields
    "start,end,label\n0,1,x\n",                             # CSV
    "0 1 x\n",                                              # spaces, not tabs
    "\\\t-1\t4000\n0\t1\tx\n",                              # a spectral line cannot come first
])
def test_audacity_detection_leaves_tables_alone(text):
    assert READERS["audacity"].detect(Source("labels.txt", text.encode())) is not None


def test_cli_reads_an_agreekit_tsv_named_txt_as_a_table(tmp_path):
    table = tmp_path / "rows.txt"
    table.write_text("item\tannotator\tstart\tend\tlabel\nc1\ta\t0\t1\tx\nc1\tb\t0\t1\tx\n")
    result = cli("segments", str(table), "--json")
    assert result.returncode == 0, result.stderr
    assert "imported" not in result.stderr


def write_audacity(rows):
    """One label file ``<item>_<annotator>.txt`` per annotator and clip."""
    files = {}
    for row in rows:
        lines = files.setdefault(f"{row['item']}_{row['annotator']}.txt", [])
        if row["start"] is not None:
            lines.append(f"{row['start']!r}\t{row['end']!r}\t{row['label']}\n")
    return [(name, "".join(lines).encode()) for name, lines in files.items()]


LABEL_TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=8).map(str.strip)


@settings(max_examples=60, deadline=None)
@given(segment_rows(labels=LABEL_TEXT, annotator_names=st.from_regex(r"[a-z][a-z0-9]{0,5}", fullmatch=True),
                    item_names=st.from_regex(r"[a-z][a-z0-9_]{0,5}", fullmatch=True)))
def test_audacity_round_trip(drawn):
    _, rows = drawn
    files = write_audacity(rows)
    for name, data in files:
        if data:
            assert detect([Source(name, data)]) == "audacity"
    assert as_set(convert(files, format="audacity").rows) == as_set(rows)


# ============================================================================ detection and the CLI

FIXTURE_FILES = [(folder, path) for folder in MINE for path in sorted((FIXTURES / folder).iterdir())]


@pytest.mark.parametrize("folder, path", FIXTURE_FILES, ids=[p.name for _, p in FIXTURE_FILES])
def test_each_fixture_is_detected_as_its_format_and_no_other(folder, path):
    [source] = load_sources(str(path))
    assert detect([source]) == folder
    claimed = [name for name, reader in READERS.items() if name != folder and reader.detect(source) is None]
    assert claimed == []


@pytest.mark.parametrize("data", [b"", b"\x00\x01\x02garbage\xff", b"hello world\n", b'{"annotations": []}',
                                  b"<html><body>no</body></html>"])
def test_garbage_is_no_format(data):
    with pytest.raises(InputError) as error:
        detect(load_sources(("mystery.dat", data)))
    assert "mystery.dat: not a format agreekit reads. Tried" in str(error.value)
    for reader in MINE:
        assert READERS[reader].title in str(error.value)


@pytest.mark.parametrize("folder, path", FIXTURE_FILES, ids=[p.name for _, p in FIXTURE_FILES])
def test_truncated_fixture_is_no_format_or_an_error_naming_the_file(folder, path):
    data = path.read_bytes()
    for cut in (len(data) // 3, len(data) // 2, len(data) - 7):
        try:
            conversion = convert([(path.name, data[:cut])])
        except InputError as error:
            assert path.name in str(error)
            continue
        # a cut at a record boundary is a shorter valid file: then it reads fewer annotations
        assert len(conversion.rows) <= len(convert(path).rows)


def cli(*args):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "pycore")}
    return subprocess.run([sys.executable, "-m", "agreekit", *args], capture_output=True, text=True, cwd=ROOT,
                          env=env)


@pytest.mark.parametrize("folder, expected", [("rttm", RTTM_ROWS), ("textgrid", TEXTGRID_ROWS),
                                              ("elan", ELAN_ROWS), ("audacity", AUDACITY_ROWS)])
def test_cli_reports_and_converts_each_format(folder, expected):
    report = cli("segments", str(FIXTURES / folder), "--bootstrap", "0")
    assert report.returncode == 0, report.stderr
    assert report.stdout.startswith("agreekit segments:") and f"imported {folder}:" in report.stderr
    converted = cli("convert", str(FIXTURES / folder))
    assert converted.returncode == 0, converted.stderr
    lines = converted.stdout.splitlines()
    assert lines[0] == "item,annotator,start,end,label" and len(lines) == len(expected) + 1
    rows = agreekit.report("segments", converted.stdout, bootstrap=0).to_dict()
    assert rows == agreekit.report("segments", expected, bootstrap=0).to_dict()
