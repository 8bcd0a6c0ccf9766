"""Hostile input: every bad field is an InputError naming its line (and column and value), never a
traceback; no input is silently turned into a wrong number (issue 10).

Each finding is checked through the API and, where cheap, through the command line
(``python -m agreekit KIND FILE``: exit code 2 and one line on standard error).
"""
import json
import warnings
from fractions import Fraction

import numpy as np
import pytest

import agreekit
from agreekit import cli
from agreekit.geometry import polygon_checks
from agreekit.parse import rle
from agreekit.kinds.spans.rows import MAX_CHARACTERS
from agreekit.measures.span_characters import character_labels, item_char_alpha
from agreekit.measures.span_matching import Track
from agreekit.rows import InputError

SPANS_HEADER = "item,annotator,start,end,label\n"
MASKS_HEADER = "item,annotator,width,height,rle\n"
POLYGONS_HEADER = "item,annotator,points,label\n"


def _error(kind, rows, **options):
    """The InputError of ``agreekit.report(kind, rows)``; any other exception fails the test."""
    with pytest.raises(InputError) as error:
        agreekit.report(kind, rows, **options)
    return error.value


def _cli_error(tmp_path, capsys, kind, text):
    """Run the command line on ``text``: it must exit 2 with one line on standard error."""
    path = tmp_path / "input.csv"
    path.write_text(text, encoding="utf-8")
    code = cli.main([kind, str(path)])
    captured = capsys.readouterr()
    assert code == 2, captured.err
    assert captured.err.count("\n") == 1 and captured.err.startswith(f"agreekit: {path}: line ")
    return captured.err


def test_the_command_line_names_the_file_an_error_is_in(tmp_path, capsys):
    """The rows and a table option's file each name themselves before the line (issue 26)."""
    rows = tmp_path / "rows.csv"
    rows.write_text("item,annotator,start,end,label\nd1,a,0,4,L\nd1,b,0,5,L\n", encoding="utf-8")
    lengths = tmp_path / "lengths.csv"
    lengths.write_text("item,length\nd1,ten\n", encoding="utf-8")
    assert cli.main(["spans", str(rows), "--lengths", str(lengths)]) == 2
    assert capsys.readouterr().err == f"agreekit: {lengths}: line 2, column 'length': 'ten' is not a number\n"
    rows.write_text("item,annotator,start,end,label\nd1,a,0,x,L\n", encoding="utf-8")
    assert cli.main(["spans", str(rows)]) == 2
    assert capsys.readouterr().err == f"agreekit: {rows}: line 2, column 'end': 'x' is not a number\n"


def test_the_command_line_names_a_file_whose_name_the_message_holds_otherwise(tmp_path, capsys, monkeypatch):
    """A short file name met in the message as something else (a value) is still put in front."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "e.csv").write_text("item,annotator,start,end,label\nd1,a,0,e.csv,L\n", encoding="utf-8")
    assert cli.main(["spans", "e.csv"]) == 2
    assert capsys.readouterr().err == "agreekit: e.csv: line 2, column 'end': 'e.csv' is not a number\n"


# --------------------------------------------------------------------------- 1. span offsets and lengths

HUGE_OFFSETS = ["10000000000", "9223372036854775808", "1e20", "1" * 5000, str(MAX_CHARACTERS + 1)]


@pytest.mark.parametrize("offset", HUGE_OFFSETS, ids=["1e10", "2**63", "1e20", "5000 digits", "ceiling+1"])
def test_span_offsets_above_the_ceiling_are_a_located_error(offset, tmp_path, capsys):
    text = SPANS_HEADER + f"d,a,0,{offset},X\nd,b,0,5,X\n"
    error = _error("spans", text, bootstrap=0)
    assert (error.line, error.column) == (2, "end")
    assert "ceiling" in error.message and len(str(error)) < 200 and len(error.value) <= 60
    assert "ceiling" in _cli_error(tmp_path, capsys, "spans", text)


def test_span_offsets_as_python_ints_above_the_ceiling_are_a_located_error():
    for end in (10 ** 10, 10 ** 400, 10 ** 5000):
        rows = [{"item": "d", "annotator": "a", "start": 0, "end": end, "label": "X"},
                {"item": "d", "annotator": "b", "start": 0, "end": 5, "label": "X"}]
        error = _error("spans", rows, bootstrap=0)
        assert (error.line, error.column) == (1, "end") and "ceiling" in error.message
        json.dumps(error.to_dict())  # a 5000-digit value must not break the error's own output


@pytest.mark.parametrize("lengths, column", [
    (f"item,length\nd,{MAX_CHARACTERS + 1}\n", "length"),
    ("item,length\nd," + "9" * 5000 + "\n", "length"),
    ({"d": 10 ** 30}, "length"),
])
def test_span_lengths_above_the_ceiling_are_a_located_error(lengths, column):
    with pytest.raises(InputError) as error:
        agreekit.spans(SPANS_HEADER + "d,a,0,5,X\nd,b,0,5,X\n", lengths=lengths, bootstrap=0)
    assert error.value.column == column and error.value.line is not None
    assert "ceiling" in error.value.message


def test_character_alpha_at_the_ceiling_takes_memory_of_the_spans_not_the_characters():
    """Three annotators on an item of 10⁹ characters: per-character arrays would take 24 GB."""
    n = MAX_CHARACTERS
    text = SPANS_HEADER + f"d,a,0,{n},X\nd,b,1,{n},X\nd,c,,,\n"
    report = agreekit.spans(text, bootstrap=0).to_dict()
    # By hand: character 0 has values (X, O, O), the other n − 1 (X, X, O); so o_XX = n − 1,
    # o_XO = o_OX = n, o_OO = 1, and α = 1 − (3n − 1)·2n / (2·(2n − 1)(n + 1)).
    expected = 1 - Fraction((3 * n - 1) * n, (2 * n - 1) * (n + 1))
    assert report["char_alpha"]["value"] == pytest.approx(float(expected), rel=1e-12)


def test_character_alpha_on_runs_equals_alpha_on_characters():
    """The run form is exact: each item's α equals α over its characters, for either rule."""
    rng = np.random.default_rng(10)
    for _ in range(300):
        length = int(rng.integers(2, 30))
        counts = rng.integers(0, 4, size=3)
        offsets = np.concatenate([[0], np.cumsum(counts)]).tolist()
        start = rng.integers(0, 32, size=offsets[-1])
        track = Track(start, start + rng.integers(0, 12, size=offsets[-1]), rng.integers(0, 2, size=offsets[-1]))
        for rule in ("optimal", "potato"):
            chars = np.stack([character_labels(track.part(offsets[k], offsets[k + 1]), length, rule)
                              for k in range(3)])
            expected = agreekit.krippendorff_alpha(chars, metric="nominal")
            got = item_char_alpha(track, offsets, length, rule, 3).value
            assert (np.isnan(got) and np.isnan(expected)) or got == pytest.approx(expected, abs=1e-12)


# --------------------------------------------------------------------------- 2. masks

@pytest.mark.parametrize("runs, why", [
    ("[9223372036854775808]", "add up to"),
    ("[9223372036854775807, 9223372036854775807, 6]", "add up to"),  # wrapped around to 4 in int64
    ("[18446744073709551616]", "add up to"),
    ("[1, " + "9" * 5000 + "]", "larger than any mask"),
    ("1 2 " + "9" * 5000, "larger than any mask"),
    ("P" * 100_000 + "0", "larger than any mask"),  # a compressed run that never ends its groups
    ("[true, true, true, true]", "whole numbers"),
])
def test_mask_runs_are_checked_as_python_integers(runs, why, tmp_path, capsys):
    text = MASKS_HEADER + f'i,a,2,2,"{runs}"\ni,b,2,2,\n'
    error = _error("masks", text)
    assert (error.line, error.column) == (2, "rle") and why in error.message
    assert len(error.value) <= 60
    _cli_error(tmp_path, capsys, "masks", text)


def test_mask_runs_summing_past_int64_do_not_wrap_around():
    for runs in ([2 ** 63 - 1, 2 ** 63 - 1, 6], np.array([2 ** 63 - 1, 2 ** 63 - 1, 6], dtype=np.int64)):
        with pytest.raises(ValueError, match="add up to 18446744073709551620"):  # in int64: 4, the mask's size
            rle.checked_runs(runs, 2, 2)


@pytest.mark.parametrize("width, height", [("4294967296", "4294967296"), ("4294967296", "257"),
                                           ("1" * 5000, "2"), ("1e300", "1")])
def test_mask_sizes_above_the_ceiling_are_a_located_error(width, height, tmp_path, capsys):
    text = MASKS_HEADER + f"i,a,{width},{height},\ni,b,{width},{height},\n"
    error = _error("masks", text)
    assert error.line == 2 and error.column == "width"
    _cli_error(tmp_path, capsys, "masks", text)


def test_mask_of_the_ceiling_size_is_accepted():
    side = 2 ** 20
    report = agreekit.masks(MASKS_HEADER + f"i,a,{side},{side},\ni,b,{side},{side},\"0 {side * side}\"\n")
    assert report.to_dict()["items"][0]["width"] == side
    assert rle.MAX_PIXELS == side * side
    error = _error("masks", MASKS_HEADER + f"i,a,{side + 1},{side},\ni,b,{side + 1},{side},\n")
    assert error.line == 2 and "ceiling" in error.message


def test_coco_rle_dict_whose_size_disagrees_with_the_row_names_both():
    rows = [{"item": "i", "annotator": "a", "width": 2, "height": 3, "rle": {"size": [2, 3], "counts": [6]}},
            {"item": "i", "annotator": "b", "width": 2, "height": 3, "rle": ""}]
    error = _error("masks", rows)
    assert (error.line, error.column) == (1, "rle")
    assert "[2, 3]" in error.message and "height 3" in error.message and "width 2" in error.message
    rows[0]["rle"] = {"size": [3, 2], "counts": b"6"}  # pycocotools gives bytes
    assert agreekit.masks(rows).to_dict()["n_items"] == 1


# --------------------------------------------------------------------------- 3. nesting and polygon values

DEEP = "[" * 50_000 + "]" * 50_000


def test_deeply_nested_rle_is_a_located_error(tmp_path, capsys):
    text = MASKS_HEADER + f"i,a,2,2,{DEEP}\ni,b,2,2,\n"
    error = _error("masks", text)
    assert (error.line, error.column) == (2, "rle") and "flat list" in error.message
    _cli_error(tmp_path, capsys, "masks", text)


@pytest.mark.parametrize("points", [DEEP, "[" * 3 + "0, 0" + "]" * 3, '[{"x": [0, 0]}, [1, 0], [1, 1]]'])
def test_deeply_nested_points_are_a_located_error(points, tmp_path, capsys):
    text = POLYGONS_HEADER + f'i,a,"{points.replace(chr(34), chr(34) * 2)}",x\ni,b,"0 0 1 0 1 1",x\n'
    error = _error("polygons", text, bootstrap=0)
    assert (error.line, error.column) == (2, "points") and "nested" in error.message
    _cli_error(tmp_path, capsys, "polygons", text)


@pytest.mark.parametrize("points", ["0 0 1 0 1 " + "1" * 400, "[0, 0, 1, 0, 1, " + "1" * 400 + "]",
                                    "[0, 0, 1, 0, 1, " + "1" * 5000 + "]", "[[0, 0], [1, 0], [1, 1e400]]"])
def test_polygon_coordinates_of_hundreds_of_digits_are_a_located_error(points, tmp_path, capsys):
    text = POLYGONS_HEADER + f'i,a,"{points}",x\ni,b,"0 0 1 0 1 1",x\n'
    error = _error("polygons", text, bootstrap=0)
    assert (error.line, error.column) == (2, "points") and "finite" in error.message
    assert error.value.startswith(points[:20]) and len(error.value) <= 60
    _cli_error(tmp_path, capsys, "polygons", text)


@pytest.mark.parametrize("points", ["0 0 1e308 0 1e308 1e308", "0 0 1e101 0 0 1", "[[-2e100, 0], [1, 0], [1, 1]]"])
def test_polygon_coordinates_beyond_the_ceiling_are_a_located_error(points):
    """Finite, but their area moments would overflow to inf and NaN (σ and IoU silently undefined)."""
    text = POLYGONS_HEADER + f'i,a,"{points}",x\ni,b,"0 0 1 0 1 1",x\n'
    error = _error("polygons", text, bootstrap=0)
    assert (error.line, error.column, error.value) == (2, "points", points) and "1e+100" in error.message
    at_ceiling = "0 0 1e100 0 1e100 1e100"
    report = agreekit.polygons(POLYGONS_HEADER + f'i,a,"{at_ceiling}",x\ni,b,"{at_ceiling}",x\n',
                               distance="centroid", bootstrap=0).to_dict()
    assert report["mean_matched_iou"] == 1.0 and report["localization"]["mean_within"] == 0.0


def test_polygon_coordinate_as_a_huge_python_int_is_a_located_error():
    rows = [{"item": "i", "annotator": "a", "points": [[0, 0], [1, 0], [1, 10 ** 400]]},
            {"item": "i", "annotator": "b", "points": "0 0 1 0 1 1"}]
    error = _error("polygons", rows, bootstrap=0)
    assert (error.line, error.column) == (1, "points") and "range of floating point" in error.message


@pytest.mark.parametrize("points, why", [
    ("0 0 1 0 nan 1", "finite"),
    ("0 0 2 2 2 0 0 2", "self-intersecting"),
    ("0 0 1 0 2 0", "self-intersecting"),
    ("0 0 1 0 0 0", "at least 3"),
    ("[0, 0, 1, 0, true, 1]", "true and false"),
])
def test_polygon_faults_carry_the_points_as_their_value(points, why):
    text = POLYGONS_HEADER + f'i,b,"0 0 1 0 1 1",x\ni,a,"{points}",x\n'
    error = _error("polygons", text, bootstrap=0)
    assert (error.line, error.column, error.value) == (3, "points", points) and why in error.message


def test_polygon_fault_values_are_shortened():
    points = " ".join(["0 0 1 1 1 0 0 1"] * 200)  # a long bow tie
    error = _error("polygons", POLYGONS_HEADER + f'i,a,"{points}",x\ni,b,"0 0 1 0 1 1",x\n', bootstrap=0)
    assert error.value.startswith("0 0 1 1") and error.value.endswith("…") and len(error.value) == 60
    with pytest.raises(InputError) as direct:  # through the API without the text: the first coordinates
        polygon_checks.validate_polygon([[0, 0], [2, 2], [2, 0], [0, 2]], line=4)
    assert direct.value.value == "0 0 2 2 2 0 0 2"


@pytest.mark.parametrize("time", ["1e308", "-1e301", "1.7976931348623157e308", "2e100"])
def test_segment_times_beyond_the_ceiling_are_a_located_error(time, tmp_path, capsys):
    """Found by the fuzz: identical segments [0, 1e308) had an infinite union, so IoU 0 and no match;
    and α_U's cubed lengths overflowed (to a wrong "no expected disagreement") from ~1e102."""
    text = f"item,annotator,start,end,label\nc,a,{time},{time},x\nc,b,0,1,x\n"
    error = _error("segments", text, bootstrap=0)
    assert (error.line, error.column, error.value) == (2, "start", time) and "1e+100" in error.message
    _cli_error(tmp_path, capsys, "segments", text)
    at_ceiling = "item,annotator,start,end,label\nc,a,0,1e100,x\nc,b,0,1e100,x\nd,a,0,5e99,x\nd,b,5e99,1e100,y\n"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow on the way
        report = agreekit.segments(at_ceiling, bootstrap=0).to_dict()
    assert report["mean_matched_iou"] == 1.0
    assert report["unitizing_alpha"]["expected_disagreement"] > 0 and report["unitizing_alpha"]["value"] is not None


# --------------------------------------------------------------------------- 4. zero-size boxes at threshold 0

@pytest.mark.parametrize("kind, rows", [
    ("boxes", "item,annotator,x,y,w,h,label\ni,a,0,0,0,0,c\ni,b,5,5,1,1,c\n"),
    ("cuboids", "item,annotator,cx,cy,cz,sx,sy,sz,yaw,label\ni,a,0,0,0,0,1,1,0,c\ni,b,5,5,5,1,1,1,0,c\n"),
])
def test_flat_objects_warning_says_what_happens_at_threshold_0(kind, rows):
    for threshold, matched in ((0.0, 1), (0.01, 0)):
        for match in ("optimal", "potato"):
            report = agreekit.report(kind, rows, threshold=threshold, match=match, bootstrap=0).to_dict()
            assert report["n_matched_pairs"] == matched
            note = next(w for w in report["warnings"] if "lines 2" in w)
            assert "match nothing above threshold 0" in note


def test_zero_length_segments_warning_says_what_happens_at_threshold_0():
    rows = "item,annotator,start,end,label\nc,a,1,1,x\nc,b,1,1,x\n"
    for threshold, matched in ((0.0, 1), (0.5, 0)):
        report = agreekit.segments(rows, threshold=threshold, match="potato", bootstrap=0).to_dict()
        assert report["n_matched_pairs"] == matched
    assert any("match nothing above threshold 0" in w for w in report["warnings"])


@pytest.mark.parametrize("kind, start, end", [("spans", "2345678", "1234567"), ("segments", "1.25", "0.5")])
def test_an_end_before_its_start_is_one_located_error_for_every_reader(kind, start, end):
    """One check (rows.check_order) for the span and segment rows and the segment writer: the numbers
    as read, not rounded (offsets of seven digits once read 1.23457e+06)."""
    rows = f"item,annotator,start,end,label\ni1,a,0,1,x\ni1,b,{start},{end},x\n"
    readers = [lambda: agreekit.report(kind, rows)]
    if kind == "segments":
        from agreekit.formats.writers import write
        readers.append(lambda: write(kind, rows, "rttm"))
    for read in readers:
        with pytest.raises(InputError) as error:
            read()
        assert f"end {end} is before start {start}" in str(error.value)
        assert "line 3" in str(error.value) and "end" in str(error.value)
