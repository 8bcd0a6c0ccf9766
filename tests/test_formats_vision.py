"""Importers of image annotation exports: COCO JSON and CVAT for images 1.1 XML.

Each fixture (tests/fixtures/formats/) is converted and compared row by row with
hand-written rows, and its report with the report of those rows; detection, the
errors, the command line, and a round trip rows → COCO → rows (hypothesis).
"""
import json
import math
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agreekit
from agreekit.formats import READERS, Source, convert
from agreekit.formats.base import detect
from agreekit.formats.cvat import crop_runs_to_coco
from agreekit.formats.submissions import Submission, annotator_names, merge
from agreekit.geometry.rle import decode, encode
from agreekit.parse.rle import parse_rle, rle_to_string
from agreekit.rows import InputError

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "formats"
COCO = FIXTURES / "coco"
CVAT = FIXTURES / "cvat"


# ----------------------------------------------------------------- expected rows

def box(item, annotator, x, y, w, h, label):
    return {"item": item, "annotator": annotator, "x": x, "y": y, "w": w, "h": h, "label": label}


def polygon(item, annotator, points, label):
    return {"item": item, "annotator": annotator, "points": points, "label": label}


def mask(item, annotator, rle, label, width=20, height=10):
    return {"item": item, "annotator": annotator, "width": width, "height": height, "rle": rle, "label": label}


def nothing(kind, item, annotator, width=20, height=10):
    """A saw-nothing row: every column but item and annotator empty (a mask keeps its image size)."""
    columns = agreekit.KINDS[kind].columns
    row = {column: None for column in columns} | {"item": item, "annotator": annotator}
    return row | ({"width": width, "height": height} if kind == "masks" else {})


def drawn(*lines):
    """A boolean mask from rows of '.' and '#'."""
    return np.array([[c == "#" for c in line] for line in lines])


def report(kind, rows):
    options = {"bootstrap": 0} if any(o.name == "bootstrap" for o in agreekit.KINDS[kind].options) else {}
    return agreekit.report(kind, rows, **options).to_dict()


def assert_converts(conversion, expected):
    assert conversion.rows == expected
    assert report(conversion.kind, conversion.rows) == report(conversion.kind, expected)


def reasons(conversion):
    return Counter(s.reason for s in conversion.skipped)


# ----------------------------------------------------------------- COCO

COCO_PER_FILE = [box("img_a.jpg", "alice", 20, 20, 60, 40, "dog"), nothing("boxes", "img_b.jpg", "alice"),
                 box("img_c.jpg", "alice", 100.5, 10, 30, 30.25, "cat"),
                 box("img_a.jpg", "bob", 24, 22, 60, 40, "dog"), box("img_b.jpg", "bob", 5, 5, 10, 10, "dog")]
# export-formats.md §2: img_a r1, img_a r2, img_b r1 saw nothing, img_b r2
COCO_RATERS = [box("img_a.jpg", "r1", 20, 20, 60, 40, "dog"), box("img_a.jpg", "r2", 24, 22, 60, 40, "dog"),
               nothing("boxes", "img_b.jpg", "r1"), box("img_b.jpg", "r2", 5, 5, 10, 10, "dog")]


def test_coco_one_file_per_annotator():
    """Annotator = file stem; an image in a file without annotations = saw nothing; absent = never saw."""
    conversion = convert(COCO / "per_file")
    assert conversion.format == "coco" and conversion.kind == "boxes"  # LS-style empty segmentation lists: boxes
    assert_converts(conversion, COCO_PER_FILE)
    assert conversion.skipped == [] and conversion.warnings == []
    summary = conversion.summary()
    assert (summary["n_items"], summary["n_annotators"], summary["n_saw_nothing"]) == (3, 2, 1)


@pytest.mark.parametrize("field", ["rater", "rater_id"])
def test_coco_rater_field_with_rater_list(field):
    data = (COCO / "rater_field.json").read_bytes().replace(b'"rater":', f'"{field}":'.encode())
    conversion = convert(("rater_field.json", data))
    assert_converts(conversion, COCO_RATERS)
    assert conversion.warnings == []


def test_coco_annotator_on_image_entries_keeps_the_later_submission():
    """kalphacv: one image entry per annotator; coder_b handed img_b in twice (entries 4 and 5)."""
    conversion = convert(COCO / "image_annotator.json")
    assert_converts(conversion, [box("img_a.jpg", "coder_a", 20, 20, 60, 40, "dog"),
                                 box("img_a.jpg", "coder_b", 24, 22, 60, 40, "dog"),
                                 nothing("boxes", "img_b.jpg", "coder_a"),
                                 box("img_b.jpg", "coder_b", 5, 5, 10, 10, "dog")])
    assert reasons(conversion) == {"replaced by a later submission of the same annotator": 1}
    assert any("handed in twice" in w and "coder_b on img_b.jpg" in w for w in conversion.warnings)


def test_coco_label_studio_annotator_field():
    """LABEL_STUDIO_FORCE_ANNOTATOR_EXPORT: one image entry per annotation, the annotator on the annotation."""
    conversion = convert(COCO / "ls_annotator.json")
    assert_converts(conversion, [box("images/img_a.jpg", "alice@example.org", 20.0, 20.0, 60.0, 40.0, "dog"),
                                 box("images/img_a.jpg", "bob@example.org", 24.0, 22.0, 60.0, 40.0, "dog")])
    assert len(conversion.warnings) == 1 and "never seen" in conversion.warnings[0]


def test_coco_segmentation_as_boxes():
    conversion = convert(COCO / "segmentation", kind="boxes")
    assert_converts(conversion, [
        box("img_a.png", "alice", 2, 2, 8, 6, "leaf"), box("img_b.png", "alice", 1, 1, 13, 3, "leaf"),
        nothing("boxes", "img_c.png", "alice"),
        box("img_a.png", "bob", 3, 2, 8, 6.5, "leaf"), box("img_b.png", "bob", 0, 0, 14, 8, "leaf"),
        box("img_b.png", "bob", 1, 1, 4, 4, "leaf"), nothing("boxes", "img_c.png", "bob")])
    assert reasons(conversion) == {"crowd region (iscrowd 1)": 2}


def test_coco_segmentation_as_polygons():
    conversion = convert(COCO / "segmentation", kind="polygons")
    assert_converts(conversion, [
        polygon("img_a.png", "alice", "2 2 10 2 10 8 2 8", "leaf"), nothing("polygons", "img_c.png", "alice"),
        polygon("img_a.png", "bob", "3 2 11 2 11 8.5 3 8.5", "leaf"),
        polygon("img_b.png", "bob", "1 1 5 1 5 5 1 5", "leaf"), nothing("polygons", "img_c.png", "bob")])
    assert reasons(conversion) == {"multi-part polygon": 1, "crowd region (iscrowd 1)": 2,
                                   "RLE mask (not a polygon)": 1}
    # alice's img_b holds only skipped annotations: no row, not "saw nothing"
    assert any("alice on img_b.png" in w and "only skipped" in w for w in conversion.warnings)


def test_coco_segmentation_as_masks_keeps_coco_run_lengths():
    conversion = convert(COCO / "segmentation", kind="masks")
    bob_runs = "0 1 52 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 62"
    assert_converts(conversion, [
        mask("img_b.png", "alice", "Z155000000000000000T2", "leaf"), nothing("masks", "img_c.png", "alice"),
        mask("img_b.png", "bob", bob_runs, "leaf"), nothing("masks", "img_c.png", "bob")])
    assert reasons(conversion) == {"polygon (not an RLE mask; read it as polygons)": 5}
    assert any("crowd region" in w for w in conversion.warnings)
    alice = np.zeros((10, 20), bool)
    alice[2:7, 4:13] = True  # the crowd region, compressed by pycocotools
    bob = np.zeros((10, 20), bool)
    bob[3:8, 5:14] = True
    bob[0, 0] = True
    assert np.array_equal(decode(parse_rle("Z155000000000000000T2", 10, 20), 10, 20), alice)
    assert np.array_equal(decode(parse_rle(bob_runs, 10, 20), 10, 20), bob)
    coco = pytest.importorskip("pycocotools.mask")
    assert coco.decode({"size": [10, 20], "counts": b"Z155000000000000000T2"}).astype(bool).tolist() == alice.tolist()


def test_coco_kind_must_be_chosen_when_there_are_segmentations():
    with pytest.raises(InputError, match="choose the kind"):
        convert(COCO / "segmentation")
    with pytest.raises(InputError, match="hold boxes, polygons, masks, not spans"):
        convert(COCO / "per_file", kind="spans")


def test_coco_files_of_one_name_take_their_folders():
    """CVAT's COCO zips all hold annotations/instances_default.json."""
    data = (COCO / "per_file" / "alice.json").read_bytes()
    conversion = convert([("team/alice/annotations/instances_default.json", data),
                          ("team/bob/annotations/instances_default.json", data)])
    assert {row["annotator"] for row in conversion.rows} == {"alice", "bob"}


def _coco(images, annotations, categories=({"id": 1, "name": "dog"},)):
    return ("bad.json", json.dumps({"images": images, "annotations": annotations,
                                    "categories": list(categories)}).encode())


IMAGE = {"id": 1, "file_name": "a.jpg", "width": 20, "height": 10}


@pytest.mark.parametrize("source, kind, message", [
    (("bad.json", b'{"images": [{"id": 1, "file_name": "a.jpg"}], "annotations": [{"id": 1, '), "boxes",
     r"bad.json: not valid JSON"),
    (_coco([IMAGE], [{"id": 5, "image_id": 2, "category_id": 1, "bbox": [1, 1, 2, 2]}]), "boxes",
     r"bad.json: annotations\[0\] \(id 5\): its image_id is not in 'images'"),
    (_coco([IMAGE], [{"id": 5, "image_id": 1, "category_id": 9, "bbox": [1, 1, 2, 2]}]), "boxes",
     r"annotations\[0\] \(id 5\): category_id 9 is not in 'categories'"),
    (_coco([IMAGE], [{"id": 5, "image_id": 1, "category_id": 1, "bbox": [1, 1, 2]}]), "boxes",
     r"annotations\[0\] \(id 5\): 'bbox' must be \[x, y, width, height\]"),
    (_coco([IMAGE], [{"id": 5, "image_id": 1, "category_id": 1, "segmentation": [[1, 1, 2, 2, 3]]}]), "polygons",
     r"at least 3 points as x, y pairs; it has 5 numbers"),
    (_coco([IMAGE], [{"id": 5, "image_id": 1, "segmentation": {"size": [20, 10], "counts": [200]}}]), "masks",
     r"the mask is 10 × 20 but its image is 20 × 10"),
    (_coco([IMAGE], [{"id": 5, "image_id": 1, "segmentation": {"size": [10, 20], "counts": [1, 2]}}]), "masks",
     r"annotations\[0\] \(id 5\): cannot read the run lengths"),
    (_coco([IMAGE, dict(IMAGE, id=2)], []), "boxes", r"bad.json: a.jpg listed more than once in 'images'"),
    (_coco([dict(IMAGE, rater_list={"A": [1, 2]})], []), "boxes", r"images\[0\]: 'rater_list' must be a list"),
    (_coco([dict(IMAGE, annotator="x"), dict(IMAGE, id=2, file_name="b.jpg")], []), "boxes",
     r"images 2 name no 'annotator'"),
    (_coco([IMAGE], [{"id": 5, "image_id": 1, "bbox": [1, 1, 2, 2], "rater": "r1"},
                     {"id": 6, "image_id": 1, "bbox": [1, 1, 2, 2]}]), "boxes",
     r"annotations\[1\] \(id 6\): no 'rater'"),
    (_coco([dict(IMAGE, rater_list=["r1"])], [{"id": 5, "image_id": 1, "bbox": [1, 1, 2, 2]}]), "boxes",
     r"annotations\[0\] \(id 5\): no 'rater_id' naming its annotator"),
    (_coco([dict(IMAGE, width=0)], []), "boxes", r"images\[0\]: 'width' must be a positive whole number"),
])
def test_coco_errors_name_the_file_the_record_and_the_field(source, kind, message):
    with pytest.raises(InputError, match=message):
        convert(source, format="coco", kind=kind)


# ----------------------------------------------------------------- CVAT

def test_cvat_replicas_annotator_is_the_job_assignee():
    """Two replica jobs of the same images: the export-formats.md §3 fixture, annotators from meta/job/assignee."""
    conversion = convert(CVAT / "replicas")
    assert conversion.format == "cvat" and conversion.kind == "boxes"
    assert_converts(conversion, [box("img_a.jpg", "alice", 20.0, 20.0, 60.0, 40.0, "dog"),
                                 nothing("boxes", "img_b.jpg", "alice"),
                                 box("img_a.jpg", "bob", 24.0, 22.0, 60.0, 40.0, "dog"),
                                 box("img_b.jpg", "bob", 5.0, 5.0, 10.0, 10.0, "dog")])
    assert len(conversion.warnings) == 1
    assert "does not say whether the job was finished" in conversion.warnings[0]
    assert "alice on img_b.jpg" in conversion.warnings[0]


def test_cvat_replicas_give_the_same_report_as_the_coco_fixture():
    """export-formats.md: the CVAT fixture is the COCO fixture with annotators alice and bob."""
    renamed = [row | {"annotator": {"r1": "alice", "r2": "bob"}[row["annotator"]]} for row in COCO_RATERS]
    cvat_rows = convert(CVAT / "replicas").rows
    key = lambda row: (row["annotator"], row["item"])  # noqa: E731
    assert sorted(cvat_rows, key=key) == sorted(renamed, key=key)
    assert report("boxes", cvat_rows) == report("boxes", sorted(renamed, key=key))


def test_cvat_without_assignee_annotator_is_the_folder_of_annotations_xml():
    conversion = convert(CVAT / "shapes", kind="boxes")
    assert {row["annotator"] for row in conversion.rows} == {"job12", "job13"}


def test_cvat_shapes_as_boxes():
    """Rotated boxes, polygons, masks, polylines, points, tags, cuboids and outside boxes are left out of boxes."""
    conversion = convert(CVAT / "shapes", kind="boxes")
    assert_converts(conversion, [
        box("leaf_a.png", "job12", 2.0, 1.0, 6.0, 4.0, "leaf"), nothing("boxes", "leaf_c.png", "job12"),
        box("leaf_a.png", "job13", 2.5, 1.0, 6.0, 4.2, "leaf"), box("leaf_b.png", "job13", 4.5, 2.0, 7.75, 4.1, "leaf"),
        nothing("boxes", "leaf_c.png", "job13")])
    assert reasons(conversion) == {
        "rotated box (read it as polygons)": 1, "polygon (not a box)": 3, "mask (not a box)": 2,
        "polyline (no agreekit kind reads it)": 1, "points (no agreekit kind reads it)": 1,
        "tag (no agreekit kind reads it)": 1, "cuboid (no agreekit kind reads it)": 1,
        "outside (not in view on this image)": 1}
    where = {s.reason: s.where for s in conversion.skipped}
    assert where["rotated box (read it as polygons)"] == "image 1 (leaf_b.png) <box> 0"
    assert any("job12 on leaf_b.png" in w and "only skipped" in w for w in conversion.warnings)


def rotated_corners(xtl, ytl, xbr, ybr, degrees):
    """Reference: shapely turns counter-clockwise in y-up axes, i.e. clockwise on an image, as CVAT does."""
    affinity = pytest.importorskip("shapely.affinity")
    geometry = pytest.importorskip("shapely.geometry")
    corners = [(xtl, ytl), (xbr, ytl), (xbr, ybr), (xtl, ybr)]
    turned = affinity.rotate(geometry.Polygon(corners), degrees, origin=((xtl + xbr) / 2, (ytl + ybr) / 2))
    return list(turned.exterior.coords)[:4]


def test_cvat_shapes_as_polygons_boxes_become_their_corners():
    conversion = convert(CVAT / "shapes", kind="polygons")
    rotated = conversion.rows[2]
    assert (rotated["item"], rotated["annotator"]) == ("leaf_b.png", "job12")
    got = np.array([float(v) for v in rotated["points"].split()]).reshape(-1, 2)
    np.testing.assert_allclose(got, rotated_corners(4, 2, 12, 6, 30), atol=1e-12)
    # the first corner turned by 30° about (8, 4): (8 − 4 cos 30° + 2 sin 30°, 4 − 4 sin 30° − 2 cos 30°)
    assert got[0] == pytest.approx([9 - 2 * math.sqrt(3), 2 - math.sqrt(3)], abs=1e-12)
    assert_converts(conversion, [
        polygon("leaf_a.png", "job12", "2.0 1.0 8.0 1.0 8.0 5.0 2.0 5.0", "leaf"),
        polygon("leaf_a.png", "job12", "2.0 2.0 10.0 2.0 10.0 8.0 2.0 8.0", "leaf"),
        rotated, nothing("polygons", "leaf_c.png", "job12"),
        polygon("leaf_a.png", "job13", "2.5 1.0 8.5 1.0 8.5 5.2 2.5 5.2", "leaf"),
        polygon("leaf_a.png", "job13", "3.0 2.0 11.0 2.0 11.0 8.5", "leaf"),
        polygon("leaf_b.png", "job13", "4.5 2.0 12.25 2.0 12.25 6.1 4.5 6.1", "leaf"),
        polygon("leaf_b.png", "job13", "1.0 1.0 5.0 1.0 5.0 5.0", "leaf"),
        nothing("polygons", "leaf_c.png", "job13")])
    assert reasons(conversion)["mask (not a polygon)"] == 2
    assert "4 box(es) are read as polygons of their four corners (turned by their rotation)" in conversion.warnings


def test_cvat_shapes_as_masks_crop_runs_become_whole_image_coco_runs():
    conversion = convert(CVAT / "shapes", kind="masks")
    job12 = drawn("....................",
                  "...###..............",  # rle "1, 3, 1, 10, 1, 2, 2" over the 5 × 4 crop at (2, 1)
                  "..#####.............",
                  "..#####.............",
                  "...##...............",
                  *["...................."] * 5)
    job13 = drawn("....................", "....................",
                  "...####.............",  # rle "0, 10, 2" over the 4 × 3 crop at (3, 2)
                  "...####.............",
                  "...##...............",
                  *["...................."] * 5)
    runs12, runs13 = (" ".join(str(r) for r in encode(m)) for m in (job12, job13))
    assert runs12 == "22 2 7 4 6 4 6 3 8 2 136"
    assert_converts(conversion, [mask("leaf_a.png", "job12", runs12, "leaf"), nothing("masks", "leaf_c.png", "job12"),
                                 mask("leaf_a.png", "job13", runs13, "leaf"), nothing("masks", "leaf_c.png", "job13")])
    assert any("automatic annotation" in w for w in conversion.warnings)  # job12's mask is semi-auto
    coco = pytest.importorskip("pycocotools.mask")
    reference = coco.encode(np.asfortranarray(job12.astype(np.uint8)))["counts"].decode()
    assert rle_to_string([int(r) for r in runs12.split()]) == reference


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_crop_runs_to_coco_places_the_crop_in_the_image(data):
    image_height, image_width = data.draw(st.integers(1, 9)), data.draw(st.integers(1, 9))
    top, left = data.draw(st.integers(0, image_height - 1)), data.draw(st.integers(0, image_width - 1))
    height, width = data.draw(st.integers(1, image_height - top)), data.draw(st.integers(1, image_width - left))
    crop = np.array(data.draw(st.lists(st.booleans(), min_size=width * height, max_size=width * height)))
    flat = np.concatenate([[False], crop])  # CVAT's runs: row-major over the crop, background first
    change = np.flatnonzero(flat[1:] != flat[:-1])
    counts = np.diff(np.concatenate([[0], change, [crop.size]])).tolist()
    expected = np.zeros((image_height, image_width), bool)
    expected[top:top + height, left:left + width] = crop.reshape(height, width)
    runs = crop_runs_to_coco(counts, left, top, width, height, image_width, image_height)
    assert np.array_equal(decode(runs, image_height, image_width), expected)


def _with_assignee(path, name, updated):
    text = path.read_text()
    assignee = text[text.index("<assignee>"):text.index("</assignee>")]
    text = text.replace(assignee, f"<assignee><username>{name}</username>")
    return text.replace(text[text.index("<updated>"):text.index("</updated>")], f"<updated>{updated}").encode()


@pytest.mark.parametrize("order", [1, -1])
def test_cvat_one_annotator_twice_keeps_the_later_updated_job(order):
    newer = ("newer.xml", _with_assignee(CVAT / "replicas" / "replica_bob.xml", "carol", "2025-05-02 10:00:00+00:00"))
    older = ("older.xml", _with_assignee(CVAT / "replicas" / "replica_alice.xml", "carol", "2025-05-01 10:00:00+00:00"))
    conversion = convert([newer, older][::order])
    assert sorted(conversion.rows, key=lambda row: row["item"]) == [
        box("img_a.jpg", "carol", 24.0, 22.0, 60.0, 40.0, "dog"),
        box("img_b.jpg", "carol", 5.0, 5.0, 10.0, 10.0, "dog")]
    # the older job's box on img_a is left out; its empty img_b had no rows to leave out
    assert [(s.source, s.where, s.reason) for s in conversion.skipped] == [
        ("older.xml", "img_a.jpg", "replaced by a later submission of the same annotator")]
    assert any(w.startswith("2 item(s) were handed in twice") for w in conversion.warnings)


def _cvat(body, name="job.xml"):
    return (name, f'<?xml version="1.0" encoding="utf-8"?>\n<annotations><version>1.1</version>'
                  f'<meta><job><id>1</id></job></meta>{body}</annotations>'.encode())


def test_cvat_tracks_are_left_out_with_a_hint():
    source = _cvat('<image id="0" name="a.jpg" width="20" height="10"><box label="dog" xtl="1" ytl="1" xbr="5" '
                   'ybr="5"/></image><track id="0" label="dog"><box frame="0" outside="0" occluded="0" keyframe="1" '
                   'xtl="1" ytl="1" xbr="5" ybr="5"/><box frame="1" outside="1" occluded="0" keyframe="1" xtl="1" '
                   'ytl="1" xbr="5" ybr="5"/></track>')
    conversion = convert(source)
    assert conversion.rows == [box("a.jpg", "job", 1.0, 1.0, 4.0, 4.0, "dog")]
    assert [s.where for s in conversion.skipped] == ["track 0 frame 0", "track 0 frame 1"]
    assert any("export the job as 'CVAT for images 1.1'" in w for w in conversion.warnings)


IMG = '<image id="3" name="a.jpg" width="20" height="10">{}</image>'


@pytest.mark.parametrize("source, kind, message", [
    (("job.xml", b"<?xml version='1.0'?>\n<annotations><version>1.1</version>\n<image id='0' name='a.jpg'>"),
     "boxes", r"line \d+: job.xml: not well-formed XML"),
    (_cvat(IMG.format('<mask label="m" rle="2, 2" left="19" top="0" width="2" height="2"/>')), "masks",
     r"job.xml: image 3 \(a.jpg\) <mask> 0: the crop 2 × 2 at \(19, 0\) is not inside the 20 × 10 image"),
    (_cvat(IMG.format('<mask label="m" rle="2, 3" left="0" top="0" width="2" height="2"/>')), "masks",
     r"<mask> 0: the runs add up to 5, not the crop's 2 × 2 pixels"),
    (_cvat(IMG.format('<polygon label="p" points="1,1;2,2"/>')), "polygons",
     r"image 3 \(a.jpg\) <polygon> 0: 'points' must be at least 3 points"),
    (_cvat(IMG.format('<box xtl="1" ytl="1" xbr="5" ybr="5"/>')), "boxes", r"<box> 0: a shape needs a 'label'"),
    (_cvat(IMG.format('<box label="b" xtl="1" ytl="one" xbr="5" ybr="5"/>')), "boxes",
     r"<box> 0: 'ytl' must be a number"),
    (_cvat('<image id="3" name="a.jpg" width="20" height="10"/><image id="4" name="a.jpg"/>'), "boxes",
     r"job.xml: image a.jpg is listed more than once"),
    (_cvat(IMG.format('<box label="b" xtl="1" ytl="1" xbr="5" ybr="5"/><polygon label="p" points="1,1;2,2;3,1"/>')),
     None, r"the files hold boxes and polygons; choose the kind"),
    (("job.xml", b'<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x "xx">]><annotations><version>1.1</version>'
                 b'</annotations>'), "boxes", r"entity declarations"),
])
def test_cvat_errors_name_the_file_the_image_and_the_field(source, kind, message):
    with pytest.raises(InputError, match=message):
        convert(source, format="cvat", kind=kind)


def test_cvat_project_export_names_repeated_images_by_task():
    source = _cvat('<image id="0" name="a.jpg" subset="train" task_id="4" width="20" height="10"/>'
                   '<image id="1" name="a.jpg" subset="test" task_id="5" width="20" height="10"/>')
    assert [row["item"] for row in convert(source).rows] == ["a.jpg (task 4)", "a.jpg (task 5)"]


# ----------------------------------------------------------------- shared helpers

def test_annotator_names_use_the_parts_of_paths_that_differ():
    names = annotator_names([Source(n, b"") for n in ("export/alice/annotations/instances_default.json",
                                                      "export/bob/annotations/instances_default.json",
                                                      "carol.json", "a/x/job.xml", "b/y/job.xml")])
    assert list(names.values()) == ["alice", "bob", "carol", "a/x", "b/y"]
    assert annotator_names([Source("only/annotations.xml", b"")]) == {"only/annotations.xml": "annotations"}


def test_merge_saw_nothing_needs_no_skipped_annotations_and_a_mask_size():
    skipped = [object()]
    merged = merge([Submission("f", "a", "i1", [], []), Submission("f", "a", "i2", [], skipped),
                    Submission("f", "a", "i3", [], [], (4, 3))], "masks")
    assert merged.rows == [nothing("masks", "i3", "a", width=4, height=3)]
    assert merged.saw_nothing == ["a on i3"]
    assert len(merged.warnings) == 2 and "no width and height" in merged.warnings[1]


# ----------------------------------------------------------------- detection and the command line

FIXTURE_FILES = sorted(p for folder in ("coco", "cvat") for p in (FIXTURES / folder).rglob("*") if p.is_file())


@pytest.mark.parametrize("path", [p for p in FIXTURE_FILES if p.suffix in (".json", ".xml")],
                         ids=lambda p: str(p.relative_to(FIXTURES)))
def test_each_fixture_is_detected_as_its_own_format_and_no_other(path):
    source = Source(path.name, path.read_bytes())
    own = {".json": "coco", ".xml": "cvat"}[path.suffix]
    assert detect([source]) == own
    assert [name for name, reader in READERS.items() if name != own and reader.detect(source) is None] == []


@pytest.mark.parametrize("name, data", [
    ("garbage.json", bytes(range(256))), ("list.json", b'[{"id": 1, "annotations": []}]'),
    ("voc.xml", b"<annotation><filename>a.jpg</filename></annotation>"), ("notes.txt", b"hello"),
    ("drawing.xml", b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"></svg>'),
])
def test_other_files_are_not_a_format_agreekit_reads(name, data):
    with pytest.raises(InputError, match=rf"{name}: not a format agreekit reads. Tried .*COCO JSON: .*CVAT"):
        detect([Source(name, data)])


def test_a_truncated_coco_file_is_detected_then_named_with_its_line():
    data = (COCO / "per_file" / "alice.json").read_bytes()[:-40]
    with pytest.raises(InputError, match=r"alice.json: not valid JSON") as error:
        convert(("alice.json", data))
    assert error.value.line is not None


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "agreekit", *args], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT / "pycore")})


@pytest.mark.parametrize("kind, path", [("boxes", COCO / "per_file"), ("boxes", CVAT / "replicas"),
                                        ("masks", CVAT / "shapes")])
def test_cli_reports_from_an_export(kind, path):
    result = _cli(kind, str(path), "--bootstrap", "0") if kind == "boxes" else _cli(kind, str(path))
    assert result.returncode == 0, result.stderr
    assert "agreekit: imported" in result.stderr
    assert result.stdout.startswith(f"agreekit {kind}: 2 comparable")


@pytest.mark.parametrize("path, fmt", [(COCO / "per_file", "coco"), (CVAT / "replicas", "cvat")])
def test_cli_convert_prints_the_rows_as_csv(path, fmt):
    result = _cli("convert", str(path))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "item,annotator,x,y,w,h,label"
    assert len(lines) == 1 + len(convert(path).rows)
    assert f"imported {fmt}" in result.stderr


# ----------------------------------------------------------------- round trip rows → COCO → rows

SIZES = {"i1.jpg": (5, 4), "i2.jpg": (3, 6), "i3.jpg": (7, 2)}  # (width, height)
coordinates = st.floats(0, 500, allow_nan=False, allow_infinity=False)


def shapes(kind, item):
    if kind == "boxes":
        return st.tuples(coordinates, coordinates, st.floats(0.5, 50), st.floats(0.5, 50)).map(
            lambda b: dict(zip("xywh", b)))
    if kind == "polygons":
        return st.lists(coordinates, min_size=6, max_size=12).filter(lambda v: len(v) % 2 == 0).map(
            lambda v: {"points": " ".join(repr(c) for c in v)})
    width, height = SIZES[item]
    return st.tuples(st.lists(st.booleans(), min_size=width * height, max_size=width * height), st.booleans()).map(
        lambda m: {"width": width, "height": height, "rle": _rle_text(np.reshape(m[0], (height, width)), m[1])})


def _rle_text(array, compressed):
    runs = encode(array)
    return rle_to_string(runs) if compressed else " ".join(str(r) for r in runs)


@st.composite
def corpora(draw, kind):
    """Rows of ``kind``: each (annotator, item) pair drawn saw nothing or 1–3 shapes."""
    pairs = draw(st.lists(st.tuples(st.sampled_from(["ann1", "ann2", "ann3"]), st.sampled_from(sorted(SIZES))),
                          min_size=1, max_size=6, unique=True))
    rows = []
    for annotator, item in pairs:
        n = draw(st.integers(0, 3))
        if n == 0:
            width, height = SIZES[item]
            rows.append(nothing(kind, item, annotator, width, height))
        for _ in range(n):
            label = draw(st.sampled_from(["cat", "dog"]))
            rows.append({"item": item, "annotator": annotator, **draw(shapes(kind, item)), "label": label})
    return rows


def _segmentation(row, kind):
    if kind == "boxes":
        return {"bbox": [row["x"], row["y"], row["w"], row["h"]]}
    if kind == "polygons":
        values = [float(v) for v in row["points"].split()]
        return {"segmentation": [values], "bbox": [min(values[::2]), min(values[1::2]), 1.0, 1.0]}
    text = row["rle"]
    counts = [int(c) for c in text.split()] if " " in text or text.isdigit() else text
    if text.isdigit() and text != str(row["width"] * row["height"]):
        counts = text  # a compressed string of digits only
    return {"segmentation": {"size": [row["height"], row["width"]], "counts": counts}}


def write_coco(rows, kind, layout):
    """COCO files ``(name, bytes)`` holding ``rows``: one file per annotator, or one with annotator fields."""
    labels = {name: k + 1 for k, name in enumerate(sorted({r["label"] for r in rows if r["label"]}))}
    categories = [{"id": k, "name": name} for name, k in labels.items()]
    pairs = list(dict.fromkeys((r["annotator"], r["item"]) for r in rows))
    if layout == "per_file":
        files = {annotator: [p for p in pairs if p[0] == annotator] for annotator, _ in pairs}
    else:
        files = {"all": pairs}
    out = []
    for name, file_pairs in files.items():
        items = list(dict.fromkeys(item for _, item in file_pairs))
        entries = file_pairs if layout == "image_annotator" else [(None, item) for item in items]
        images = [{"id": k, "file_name": item, "width": SIZES[item][0], "height": SIZES[item][1]}
                  | ({"annotator": annotator} if layout == "image_annotator" else {})
                  | ({"rater_list": [a for a, i in file_pairs if i == item]} if layout == "rater_field" else {})
                  for k, (annotator, item) in enumerate(entries)]
        image_id = {(image.get("annotator"), image["file_name"]): image["id"] for image in images}
        annotations = [{"id": k, "image_id": image_id[(r["annotator"] if layout == "image_annotator" else None,
                                                         r["item"])],
                        "category_id": labels[r["label"]], "iscrowd": 0, **_segmentation(r, kind)}
                       | ({"rater_id": r["annotator"]} if layout == "rater_field" else {})
                       for k, r in enumerate(rows) if r["label"] and (r["annotator"], r["item"]) in file_pairs]
        out.append((f"{name}.json", json.dumps({"images": images, "annotations": annotations,
                                                 "categories": categories}).encode()))
    return out


@pytest.mark.parametrize("layout", ["per_file", "rater_field", "image_annotator"])
@pytest.mark.parametrize("kind", ["boxes", "polygons", "masks"])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_rows_to_coco_to_rows(kind, layout, data):
    rows = data.draw(corpora(kind))
    conversion = convert(write_coco(rows, kind, layout), format="coco", kind=kind)
    key = lambda row: json.dumps(row, sort_keys=True)  # noqa: E731
    assert sorted(conversion.rows, key=key) == sorted(rows, key=key)
    assert conversion.skipped == []
