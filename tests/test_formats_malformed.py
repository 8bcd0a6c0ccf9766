"""Malformed and hostile exports (issue 22): every reader returns rows or raises InputError naming the
file, the line or field, and the value; never a TypeError, RecursionError or an unbounded allocation.

The inputs are built here from the fixtures under tests/fixtures/formats/ (written for these tests).
"""
import io
import json
import zipfile
from pathlib import Path

import pytest

from agreekit.formats import READERS, convert
from agreekit.formats.base import reader_options
from agreekit.rows import InputError

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "formats"
ONE_PER_FORMAT = {"brat": "brat/corpus", "prodigy": "prodigy/ner_news.jsonl", "doccano": "doccano/all_documents",
                  "potato": "potato/spans", "labelstudio": "labelstudio", "coco": "coco/per_file",
                  "cvat": "cvat/replicas", "rttm": "rttm", "textgrid": "textgrid", "elan": "elan",
                  "audacity": "audacity"}
DEEP = b"[" * 100_000 + b"]" * 100_000


def test_every_format_has_a_fixture_here():
    assert set(ONE_PER_FORMAT) == set(READERS)


@pytest.mark.parametrize("format", sorted(ONE_PER_FORMAT))
def test_an_unknown_option_is_an_input_error_naming_the_formats_options(format):
    with pytest.raises(InputError) as error:
        convert(FIXTURES / ONE_PER_FORMAT[format], format=format, bogus=1)
    assert error.value.column == "bogus" and "unknown option 'bogus'" in str(error.value)
    known = reader_options(READERS[format])
    assert all(name in str(error.value) for name in known) and ("no options" in str(error.value)) == (not known)


@pytest.mark.parametrize("name, data, format", [
    ("deep.json", b'{"images": [], "annotations": ' + DEEP + b"}", "coco"),
    ("deep.json", DEEP, "labelstudio"),
    ("deep.jsonl", b'{"_input_hash": 1, "_task_hash": 2, "spans": ' + DEEP + b"}\n", "prodigy"),
    ("deep.jsonl", b'{"text": "a", "label": ' + DEEP + b"}\n", "doccano"),
    ("user_state.json", b'{"user_id": "a", "instance_id_ordering": [], "instance_id_to_label_to_value": ' + DEEP
     + b"}", "potato"),
])
def test_json_nested_too_deeply_is_an_input_error(name, data, format):
    with pytest.raises(InputError, match=rf"{name}.*nested too deeply"):
        convert([(name, data)], format=format)


@pytest.mark.parametrize("name, data, field", [
    ("a.rttm", b"SPEAKER rec 1 9e999999 1.0 <NA> <NA> alice <NA> <NA>\n", "tbeg"),
    ("a.rttm", b"SPEAKER rec 1 0.5 1e400 <NA> <NA> alice <NA> <NA>\n", "tdur"),
    ("c1_alice.txt", b"9e999999\t1e999999\tx\n", "start"),
])
def test_times_beyond_a_float_are_an_input_error_naming_the_field(name, data, field):
    with pytest.raises(InputError, match="not a finite number") as error:
        convert([(name, data)])
    assert error.value.column == field and error.value.line == 1


def test_textgrid_time_beyond_a_float_names_the_interval_and_line():
    grid = (b'File type = "ooTextFile"\nObject class = "TextGrid"\n0\n10\n<exists>\n1\n"IntervalTier"\n"a"\n0\n10\n'
            b'1\n0\n1e999\n"x"\n')
    with pytest.raises(InputError, match="tier 'a' interval 1: xmax is not a finite number") as error:
        convert([("r.TextGrid", grid)])
    assert error.value.line == 13


@pytest.mark.parametrize("separator", ["", 5, None])
def test_a_separator_that_is_no_text_is_an_input_error(separator):
    with pytest.raises(InputError, match="separator") as error:
        convert(FIXTURES / "textgrid", annotator="file", separator=separator)
    assert error.value.column == "separator"


COCO = json.loads((FIXTURES / "coco" / "per_file" / "alice.json").read_text())


@pytest.mark.parametrize("where, field, value, message", [
    ("annotations", "bbox", [float("inf"), 0, 1, 1], "not finite"),
    ("annotations", "bbox", [float("nan"), 0, 1, 1], "not finite"),
    ("annotations", "category_id", [3], "category_id must be a number or a text"),
    ("annotations", "image_id", {"id": 1}, "image_id is not in 'images'"),
    ("images", "id", [1], "needs an 'id'"),
    ("categories", "id", {"a": 3}, r"categories\[0\] needs an 'id'"),
    ("annotations", "iscrowd", [0], "'iscrowd' must be 0 or 1"),
])
def test_coco_fields_of_the_wrong_type_are_input_errors_naming_them(where, field, value, message):
    data = json.loads(json.dumps(COCO))
    data[where][0][field] = value
    text = json.dumps(data, allow_nan=True).encode()
    with pytest.raises(InputError, match=rf"alice\.json: {where}\[0\].*{message}|{message}"):
        convert([("alice.json", text)], format="coco")


# ----------------------------------------------------------------- XML: entities are never expanded

LAUGHS = ('<!DOCTYPE {root} [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
          '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>')
EXTERNAL = '<!DOCTYPE {root} [<!ENTITY secret SYSTEM "file:///etc/hostname">]>'


def _with_doctype(path, root, doctype, encoding):
    """The fixture with an XML declaration in ``encoding`` and ``doctype`` before its root element."""
    text = path.read_text(encoding="utf-8")
    body = text.split("?>", 1)[1] if text.startswith("<?xml") else text
    return (f'<?xml version="1.0" encoding="{encoding}"?>' + doctype.format(root=root) + body).encode(encoding)


@pytest.mark.parametrize("doctype", [LAUGHS, EXTERNAL])
@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
@pytest.mark.parametrize("path, root, format", [(FIXTURES / "elan" / "session.eaf", "ANNOTATION_DOCUMENT", "elan"),
                                                (FIXTURES / "cvat" / "replicas" / "replica_alice.xml", "annotations",
                                                 "cvat")])
def test_xml_declaring_entities_is_refused_in_any_encoding(path, root, format, doctype, encoding):
    data = _with_doctype(path, root, doctype, encoding)
    with pytest.raises(InputError, match="has entity declarations") as error:
        convert([(path.name, data)], format=format)
    assert error.value.column == "DOCTYPE"


# ----------------------------------------------------------------- zips: unreadable members and caps

def _zip(members):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return bytearray(buffer.getvalue())


def _patch_headers(data, offset, value):
    """Write ``value`` (2 bytes, little-endian) at ``offset`` of every local header and central entry."""
    for signature, at in ((b"PK\x03\x04", offset), (b"PK\x01\x02", offset + 2)):
        start = data.find(signature)
        while start >= 0:
            data[start + at:start + at + 2] = value.to_bytes(2, "little")
            start = data.find(signature, start + 4)
    return bytes(data)


ALICE = (FIXTURES / "coco" / "per_file" / "alice.json").read_bytes()


def test_a_zip_member_with_a_bad_checksum_is_an_input_error_naming_it():
    data = _zip({"export/alice.json": ALICE})
    start = data.find(b"PK\x01\x02")
    data[start + 16] ^= 0xFF  # the CRC-32 in the central directory
    data[data.find(b"PK\x03\x04") + 14] ^= 0xFF
    with pytest.raises(InputError, match=r"x\.zip: export/alice\.json cannot be read from the zip \(Bad CRC"):
        convert([("x.zip", bytes(data))])


def test_an_encrypted_zip_member_is_an_input_error_naming_it():
    data = _patch_headers(_zip({"export/alice.json": ALICE}), 6, 0x0001)  # general purpose flag: encrypted
    with pytest.raises(InputError, match=r"x\.zip: export/alice\.json is encrypted"):
        convert([("x.zip", data)])


def test_an_unsupported_compression_is_an_input_error_naming_it():
    data = _patch_headers(_zip({"export/alice.json": ALICE}), 8, 99)  # compression method 99 (AES)
    with pytest.raises(InputError, match=r"x\.zip: export/alice\.json uses a compression agreekit cannot read"):
        convert([("x.zip", data)])


def test_zip_caps_per_member_and_in_all_are_stated(monkeypatch):
    from agreekit.formats import base

    monkeypatch.setattr(base, "MAX_SOURCE_BYTES", 10_000)
    monkeypatch.setattr(base, "MAX_ZIP_BYTES", 15_000)
    bomb = _zip({"a/big.json": b" " * 10_001})  # 10 kB that compresses to a few bytes
    with pytest.raises(InputError, match=r"a/big\.json is larger than 10,000 bytes uncompressed"):
        convert([("x.zip", bytes(bomb))])
    pair = _zip({"a/one.json": b" " * 8_000, "a/two.json": b" " * 8_000})
    with pytest.raises(InputError, match=r"a/two\.json takes the zip past 15,000 bytes uncompressed in all"):
        convert([("x.zip", bytes(pair))])


# ----------------------------------------------------------------- CVAT: huge images, numbers beyond a float

JOB12 = (FIXTURES / "cvat" / "shapes" / "job12" / "annotations.xml").read_text()


def test_cvat_mask_on_a_huge_image_is_read_as_runs_without_its_pixels():
    import tracemalloc

    wide = JOB12.replace('name="leaf_a.png" width="20"', 'name="leaf_a.png" width="99999999"')
    tracemalloc.start()
    conversion = convert([("job.xml", wide.encode())], format="cvat", kind="masks")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 50 * 2 ** 20  # the 10 × 99,999,999 image would take a gigabyte as pixels
    row = next(r for r in conversion.rows if r["item"] == "leaf_a.png" and r["rle"])
    runs = [int(v) for v in row["rle"].split()]
    assert row["width"] == 99_999_999 and sum(runs) == 99_999_999 * 10 and sum(runs[1::2]) == 3 + 10 + 2


def test_cvat_mask_on_an_image_above_the_pixel_ceiling_is_an_input_error():
    huge = JOB12.replace('name="leaf_a.png" width="20"', 'name="leaf_a.png" width="999999999999"')
    with pytest.raises(InputError, match="above the ceiling of 1,099,511,627,776 pixels") as error:
        convert([("job.xml", huge.encode())], format="cvat", kind="masks")
    assert error.value.column == "rle"


@pytest.mark.parametrize("attribute, value", [("rotation", "1e400"), ("xtl", "-1e400"), ("ybr", "NaN")])
def test_cvat_numbers_beyond_a_float_are_input_errors(attribute, value):
    text = (FIXTURES / "cvat" / "replicas" / "replica_alice.xml").read_text()
    text = text.replace("<box ", f'<box {attribute}="{value}" ', 1) if attribute == "rotation" else \
        __import__("re").sub(rf'{attribute}="[^"]*"', f'{attribute}="{value}"', text, count=1)
    with pytest.raises(InputError, match=f"'{attribute}' must be a finite number") as error:
        convert([("r.xml", text.encode())], format="cvat", kind="polygons")
    assert error.value.column == attribute


# ----------------------------------------------------------------- lines end at \n only

@pytest.mark.parametrize("folder, expected", [
    ("doccano", {("1", "alice", 9, 21), ("1", "bob", 9, 12)}),
    ("brat", {("doc-1", "alice", 0, 12), ("doc-1", "bob", 4, 12)}),
])
def test_line_separators_inside_a_record_do_not_split_it(folder, expected):
    conversion = convert(FIXTURES / "misreads" / folder / "line_separators")
    assert {(str(r["item"]), r["annotator"], r["start"], r["end"]) for r in conversion.rows
            if r["start"] is not None} == expected


def test_an_empty_potato_user_state_is_warned_about():
    state = (FIXTURES / "potato" / "spans" / "ann_a" / "user_state.json").read_bytes()
    empty = json.dumps({"user_id": "ann_z", "instance_id_ordering": [], "current_instance_index": -1,
                        "instance_id_to_label_to_value": {}, "instance_id_to_span_to_value": {}}).encode()
    conversion = convert([("out/ann_a/user_state.json", state), ("out/ann_z/user_state.json", empty)])
    assert "ann_z" not in {r["annotator"] for r in conversion.rows}
    assert any("ann_z (out/ann_z/user_state.json)" in w and "left out" in w for w in conversion.warnings)


# ----------------------------------------------------------------- format options on the command line

def test_convert_help_lists_every_formats_options(capsys):
    from agreekit.cli import main

    with pytest.raises(SystemExit):
        main(["convert", "--help"])
    text = capsys.readouterr().out
    for name, reader in READERS.items():
        options = reader_options(reader)
        assert any(line.split()[:1] == [name] and all(o in line for o in options) for line in text.splitlines())


def test_convert_passes_format_options_and_refuses_unknown_ones(capsys):
    from agreekit.cli import main

    assert main(["convert", str(FIXTURES / "textgrid"), "--option", "annotator=file", "--option", "item=rec",
                 "--to", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert {row["item"] for row in rows} == {"rec"} and {row["annotator"] for row in rows} == {"rec1", "rec2"}
    assert main(["convert", str(FIXTURES / "textgrid"), "--option", "tiers=[1]"]) == 2
    assert "unknown option 'tiers'; its options are annotator, item, separator" in capsys.readouterr().err


def _potato_mask_state(user, size, counts):
    objects = json.dumps([{"type": "mask", "label": "road", "rle": {"counts": counts, "size": size}}])
    return json.dumps({"user_id": user, "instance_id_ordering": ["img"], "current_instance_index": 0,
                       "instance_id_to_label_to_value": {"img": [[{"schema": "objects", "name": "_data"}, objects]]},
                       "instance_id_to_span_to_value": {}}).encode()


def test_potato_mask_on_a_huge_image_is_read_as_runs_without_allocating_its_pixels():
    import tracemalloc

    side = 60_000
    sources = [(f"out/{u}/user_state.json", _potato_mask_state(u, [side, side], [5, 7])) for u in ("a", "b")]
    tracemalloc.start()
    conversion = convert(sources, kind="masks")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 50 * 2 ** 20  # 60,000² pixels took 6.9 GB when masks were reordered as pixels
    # Row 0, columns 5 to 11: in column order one pixel at the top of each of those 7 columns.
    expected = [5 * side] + [1, side - 1] * 6 + [1, side * side - 11 * side - 1]
    from agreekit.parse.rle import rle_to_string

    assert [row["rle"] for row in conversion.rows] == [rle_to_string(expected)] * 2


def test_potato_mask_runs_become_the_same_coco_runs_as_before():
    sources = [(f"out/{u}/user_state.json", _potato_mask_state(u, [2, 3], counts))
               for u, counts in (("a", [1, 2, 2, 1]), ("b", [1, 2, 1]))]
    rows = {r["annotator"]: r["rle"] for r in convert(sources, kind="masks").rows}
    from agreekit.parse.rle import rle_to_string

    # read down the columns; b's runs stop after 4 of the 6 pixels and end in background
    assert rows == {"a": rle_to_string([2, 1, 1, 2]), "b": rle_to_string([2, 1, 1, 1, 1])}


@pytest.mark.parametrize("fixture, old, new, kind, field", [
    ("prodigy/images.jsonl", '"x": 10,', '"x": NaN,', "boxes", "x"),
    ("prodigy/images.jsonl", '[[300, 300]', '[[Infinity, 300]', "polygons", "points"),
    ("potato/images/annotation_output/ann_a/user_state.json", '\\"x\\": 0.1', '\\"x\\": NaN', "boxes", "x"),
    ("potato/images/annotation_output/ann_a/user_state.json", '\\"x\\": 0.9', '\\"x\\": -Infinity', "polygons", "x"),
])
def test_non_finite_coordinates_are_refused_where_they_are_read(fixture, old, new, kind, field):
    text = (FIXTURES / fixture).read_text()
    assert old in text
    with pytest.raises(InputError, match="finite") as error:
        convert([(f"out/ann_a/{Path(fixture).name}", text.replace(old, new, 1).encode())], kind=kind)
    assert error.value.column == field
    assert "line 1, span" in str(error.value) or "instance 'img_a', object" in str(error.value)


# ----------------------------------------------------------------- format options declared once

@pytest.mark.parametrize("format", sorted(READERS))
def test_each_formats_declared_options_are_its_readers_keyword_parameters(format):
    import inspect

    reader = READERS[format]
    parameters = list(inspect.signature(reader.read).parameters.values())[2:]
    keywords = [p.name for p in parameters if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)]
    assert reader_options(reader) == tuple(keywords)
    record = reader.to_json()
    assert [o["name"] for o in record["options"]] == keywords and record["kinds"] == list(reader.kinds)
    assert all(o["label"] and o["help"] for o in record["options"])


def test_formats_json_lists_every_format_in_detection_order():
    from agreekit.formats.base import formats_json

    listed = formats_json()
    assert sorted(f["name"] for f in listed) == sorted(READERS)
    assert [READERS[f["name"]].position for f in listed] == sorted(r.position for r in READERS.values())


def test_a_kinds_command_takes_the_formats_options(capsys):
    from agreekit.cli import main

    assert main(["segments", str(FIXTURES / "textgrid"), "--option", "annotator=file", "--option", "item=rec",
                 "--bootstrap", "0", "--json"]) == 0
    assert "2 annotators" in capsys.readouterr().err
    assert main(["segments", str(FIXTURES / "textgrid"), "--option", "annotator=speaker"]) == 2
    assert "annotator must be one of tier, file" in capsys.readouterr().err


def test_option_texts_are_read_in_the_declared_type():
    # The command line and the page give texts: a number-like clip name stays a text, a list is comma-separated.
    by_text = convert(FIXTURES / "textgrid", format="textgrid", annotator="file", item="5")
    assert {row["item"] for row in by_text.rows} == {"5"} and by_text.format_options == {"annotator": "file",
                                                                                         "item": "5"}
    assert convert(FIXTURES / "elan", tiers='["gesture_A"]').format_options == {"tiers": ["gesture_A"]}
