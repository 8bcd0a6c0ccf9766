"""Images under the item views' shapes in real Chromium: a generated PNG named like an item is drawn
under its boxes or polygons from a blob: URL, the shapes keep the input's units in their data
attributes, files matching no item are listed, downloads carry the image, and no request leaves the
origin (open_page's guard)."""
from __future__ import annotations

import base64
import math
import struct
import zlib

from item_rows import ROWS, engine_matches, read_rows
from test_item_views import check_item, compute

from conftest import ITEM_VIEW, wait_result, wait_view

COLOUR = (10, 200, 30)


def png(width, height, colour=COLOUR):
    """A solid RGB PNG (8 bits per channel, no filter), made with zlib and struct."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    row = b"\x00" + bytes(colour) * width
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * height)) + chunk(b"IEND", b""))


def gallery(kind):
    return f'#results-{kind} [data-gallery="items"]'


def choose(page, kind, files):
    """Give the images control of ``kind``'s gallery {name: bytes} through its file input."""
    page.wait_for_selector(f'{gallery(kind)}[data-state="drawn"]')
    page.set_input_files(f"{gallery(kind)} input.item-images-files",
                         [{"name": name, "mimeType": "image/png" if name.endswith(".png") else "text/plain", "buffer": data}
                          for name, data in files.items()])


def drop(page, selector, files):
    """Drop {name: bytes} on ``selector`` as a drag and drop does (a DataTransfer of Files)."""
    page.eval_on_selector(selector, """(target, files) => {
        const transfer = new DataTransfer();
        for (const [name, data] of Object.entries(files)) {
            const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
            transfer.items.add(new File([bytes], name, {type: name.endsWith(".png") ? "image/png" : "text/plain"}));
        }
        target.dispatchEvent(new DragEvent("dragover", {dataTransfer: transfer, bubbles: true, cancelable: true}));
        target.dispatchEvent(new DragEvent("drop", {dataTransfer: transfer, bubbles: true, cancelable: true}));
    }""", {name: base64.b64encode(data).decode() for name, data in files.items()})


def open_item(page, kind, report, item):
    rank = [e["item"] for e in report["items"]].index(item)
    page.locator(f'#results-{kind} [data-table="items"] tbody tr').nth(rank).click()
    wait_view(page, kind, rank)
    page.wait_for_selector(f'{ITEM_VIEW.format(kind=kind)}[data-state="shown"][data-image="drawn"]')


def picture(page, kind):
    """The open view's <image> (attributes) and whether it comes before every shape and match line."""
    return page.eval_on_selector(f"{ITEM_VIEW.format(kind=kind)} svg", """svg => {
        const images = [...svg.querySelectorAll("image")];
        const image = images[0];
        const drawn = [...svg.querySelectorAll(".shape, line.match")];
        return {count: images.length, href: image.getAttribute("href"),
                x: Number(image.getAttribute("x")), y: Number(image.getAttribute("y")),
                width: Number(image.getAttribute("width")), height: Number(image.getAttribute("height")),
                natural: [Number(image.dataset.width), Number(image.dataset.height)], units: image.dataset.units,
                under: drawn.length > 0 && drawn.every(n => image.compareDocumentPosition(n) & Node.DOCUMENT_POSITION_FOLLOWING)};
    }""")


def pixel_of_png(page, data, x, y):
    """The RGBA of (x, y) in PNG ``data``, decoded by the page's canvas."""
    return page.evaluate("""async ([data, x, y]) => {
        const image = new Image();
        image.src = "data:image/png;base64," + data;
        await image.decode();
        const canvas = document.createElement("canvas");
        canvas.width = image.naturalWidth; canvas.height = image.naturalHeight;
        const context = canvas.getContext("2d");
        context.drawImage(image, 0, 0);
        return [...context.getImageData(x, y, 1, 1).data];
    }""", [base64.b64encode(data).decode(), x, y])


def test_a_chosen_png_is_drawn_under_the_boxes_and_downloaded_with_them(open_page, site):
    rows = ROWS["boxes"]()
    page = open_page(site.url)
    report = compute(page, "boxes", rows)
    item = report["items"][0]["item"]
    width, height = 240, 160
    hostile = "<img src=x onerror=alert(1)>.png"
    choose(page, "boxes", {f"{item}.png": png(width, height), "nomatch-1.png": png(4, 4), hostile: png(4, 4),
                           "notes.txt": b"not an image"})
    status = page.locator(f"{gallery('boxes')} .item-images")
    assert status.get_attribute("data-images") == "1" and status.get_attribute("data-unmatched") == "2"
    text = status.inner_text()
    assert "1 image matched" in text and "2 matched no item" in text and "nomatch-1.png" in text and "notes.txt" in text
    assert hostile in text and page.locator(f"{gallery('boxes')} img").count() == 0  # a name is text, never markup
    # the thumbnail is drawn again over its image, one thumbnail per task
    page.wait_for_selector(f'{gallery("boxes")} .thumb[data-item="{item}"][data-image="drawn"]')
    assert page.get_attribute(f'{gallery("boxes")} .thumb[data-item="{item}"] image', "href").startswith("blob:")
    assert page.locator(f'{gallery("boxes")} .thumb image').count() == 1

    open_item(page, "boxes", report, item)
    shown = picture(page, "boxes")
    assert shown["count"] == 1 and shown["href"].startswith("blob:") and shown["under"]
    assert shown["natural"] == [width, height] and shown["units"] == "pixels"
    assert math.isclose(shown["width"] / shown["height"], width / height, rel_tol=1e-3)
    check_item(page, "boxes", rows, report, item, engine_matches("boxes", rows))  # data attributes: the input rows
    rects = page.eval_on_selector_all(f"{ITEM_VIEW.format(kind='boxes')} rect.shape",
                                      "els => els.map(e => [Number(e.getAttribute('x')), Number(e.getAttribute('width')), "
                                      "Number(e.dataset.x), Number(e.dataset.w)])")
    scale = shown["width"] / width  # drawn pixels per image pixel
    for x, w, data_x, data_w in rects:
        assert math.isclose(x, shown["x"] + data_x * scale, abs_tol=2e-3) and math.isclose(w, data_w * scale, abs_tol=2e-3)

    with page.expect_download() as download:
        page.get_by_role("dialog").get_by_role("button", name="Download PNG").click()
    assert item in download.value.suggested_filename
    data = open(download.value.path(), "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    # a corner of the image far from every box, at the PNG's scale (2): the image's own colour
    corner = pixel_of_png(page, data, int(2 * (shown["x"] + shown["width"] - 4)), int(2 * (shown["y"] + shown["height"] - 4)))
    assert all(abs(a - b) <= 3 for a, b in zip(corner[:3], COLOUR)), corner
    with page.expect_download() as download:
        page.get_by_role("dialog").get_by_role("button", name="Download SVG").click()
    assert item in download.value.suggested_filename
    svg = open(download.value.path(), encoding="utf-8").read()
    assert 'href="data:image/png;base64,' in svg and "blob:" not in svg and f"Item {item}" in svg


def test_a_dropped_png_is_drawn_under_the_polygons(open_page, site):
    rows = ROWS["polygons"]()
    page = open_page(site.url)
    report = compute(page, "polygons", rows)
    item = report["items"][-1]["item"]
    width, height = 200, 90
    page.wait_for_selector(f'{gallery("polygons")}[data-state="drawn"]')
    drop(page, gallery("polygons"), {f"{item}.png": png(width, height), "stray.png": png(3, 3)})
    page.wait_for_selector(f'{gallery("polygons")} .item-images[data-images="1"]')
    assert "stray.png" in page.inner_text(f"{gallery('polygons')} .item-images")
    open_item(page, "polygons", report, item)
    shown = picture(page, "polygons")
    assert shown["href"].startswith("blob:") and shown["under"] and shown["natural"] == [width, height]
    check_item(page, "polygons", rows, report, item, engine_matches("polygons", rows))
    scale = shown["width"] / width
    polygons = page.eval_on_selector_all(f"{ITEM_VIEW.format(kind='polygons')} polygon.shape",
                                         "els => els.map(e => [e.getAttribute('points'), e.dataset.points])")
    assert polygons
    for drawn, data in polygons:
        first = [float(v) for v in drawn.split()[0].split(",")]
        x, y = (float(v) for v in data.split()[:2])
        assert math.isclose(first[0], shown["x"] + x * scale, abs_tol=2e-3) and math.isclose(first[1], shown["y"] + y * scale, abs_tol=2e-3)
    # dropped on the open view: another item's image replaces nothing of this one
    other = report["items"][0]["item"]
    drop(page, ITEM_VIEW.format(kind="polygons"), {f"{other}.png": png(50, 50)})
    page.wait_for_selector(f'{gallery("polygons")} .item-images[data-images="2"]')
    with page.expect_download() as download:
        page.get_by_role("dialog").get_by_role("button", name="Download PNG").click()
    assert item in download.value.suggested_filename


def test_normalized_boxes_are_drawn_on_the_image_size(open_page, site):
    rows = ("item,annotator,x,y,w,h,label\n"
            "scenes/photo.jpg,ann,0.25,0.5,0.5,0.25,car\n"
            "scenes/photo.jpg,bo,0.26,0.5,0.49,0.25,car\n"
            "other,ann,0.1,0.1,0.2,0.2,car\n"
            "other,bo,0.1,0.1,0.2,0.2,car\n")
    page = open_page(site.url)
    report = compute(page, "boxes", rows)
    choose(page, "boxes", {"photo.png": png(200, 100)})  # the basename of an item id that is a path, other extension
    page.wait_for_selector(f'{gallery("boxes")} .item-images[data-images="1"]')
    open_item(page, "boxes", report, "scenes/photo.jpg")
    shown = picture(page, "boxes")
    assert shown["units"] == "normalized" and shown["natural"] == [200, 100]
    box = page.eval_on_selector(f'{ITEM_VIEW.format(kind="boxes")} rect.shape[data-annotator="ann"]',
                                "e => ({x: Number(e.getAttribute('x')), y: Number(e.getAttribute('y')), "
                                "width: Number(e.getAttribute('width')), height: Number(e.getAttribute('height')), data: {...e.dataset}})")
    assert (box["data"]["x"], box["data"]["w"]) == ("0.25", "0.5")  # the input's own units
    assert math.isclose(box["width"] / shown["width"], 0.5, abs_tol=1e-4)  # 100 of the image's 200 px
    assert math.isclose((box["x"] - shown["x"]) / shown["width"], 0.25, abs_tol=1e-4)
    assert math.isclose((box["y"] - shown["y"]) / shown["height"], 0.5, abs_tol=1e-4)
    assert math.isclose(box["height"] / shown["height"], 0.25, abs_tol=1e-4)
    # the user says the coordinates are pixels: the same box is half a pixel wide on the image
    page.select_option(f"{gallery('boxes')} select.item-image-units", "pixels")
    page.wait_for_function(f"""() => document.querySelector('{ITEM_VIEW.format(kind="boxes")} image')?.dataset.units === "pixels"
        && document.querySelector('{ITEM_VIEW.format(kind="boxes")}').dataset.state === "shown" """)
    shown = picture(page, "boxes")
    width = page.eval_on_selector(f'{ITEM_VIEW.format(kind="boxes")} rect.shape[data-annotator="ann"]', "e => Number(e.getAttribute('width'))")
    assert math.isclose(width / shown["width"], 0.5 / 200, abs_tol=1e-4)
    # a new report of the tab frees the images: the old object URL no longer reads, the new gallery has none
    page.keyboard.press("Escape")
    control = page.query_selector(f"{gallery('boxes')} .item-images")
    page.click('form[data-kind="boxes"] button[type="submit"]')
    page.wait_for_function("control => !control.isConnected", arg=control)
    wait_result(page, "boxes")
    page.wait_for_selector(f'{gallery("boxes")} .item-images[data-images="0"]')
    assert page.evaluate("href => fetch(href).then(() => 'read', () => 'revoked')", shown["href"]) == "revoked"


def test_file_names_match_items_by_the_documented_rules(open_page, site):
    page = open_page(site.url)
    page.wait_for_selector('#status[data-state="ready"]', timeout=90_000)
    result = page.evaluate("""async () => {
        const { itemMatcher } = await import("./web/item_images.mjs");
        const match = itemMatcher(["0001", "imgs/0002.jpg", "a/0003.jpg", "b/0003.jpg", "Cat.JPG", "x.png", "<b>q</b>"]);
        const names = ["0001.png", "0001", "0002.jpg", "0002.png", "photos/imgs/0002.jpg", "0003.jpg", "a/0003.jpg",
                       "cat.jpg", "x.png", "x", "0004.png", "<b>q</b>.png"];
        return Object.fromEntries(names.map((name) => [name, match(name)]));
    }""")
    assert result == {
        "0001.png": {"item": "0001"}, "0001": {"item": "0001"},           # without the extension; exact
        "0002.jpg": {"item": "imgs/0002.jpg"}, "0002.png": {"item": "imgs/0002.jpg"},  # basename of a path id
        "photos/imgs/0002.jpg": {"item": "imgs/0002.jpg"},               # a folder's path ending in the id
        "0003.jpg": {"ambiguous": ["a/0003.jpg", "b/0003.jpg"]}, "a/0003.jpg": {"item": "a/0003.jpg"},
        "cat.jpg": {"item": "Cat.JPG"},                                  # case ignored when nothing matches as given
        "x.png": {"item": "x.png"}, "x": {},                            # an id is never shortened
        "0004.png": {}, "<b>q</b>.png": {"item": "<b>q</b>"},
    }
    assert page.locator("b").count() == 0


def test_a_large_image_is_drawn_under_its_item(open_page, site):
    """A 12-megapixel image: thumbnail and view (its longest task is benchmarks/page_responsiveness.py's)."""
    rows = ROWS["boxes"]()
    page = open_page(site.url)
    report = compute(page, "boxes", rows)
    item = report["items"][0]["item"]
    choose(page, "boxes", {f"{item}.png": png(4000, 3000)})  # 12 megapixels
    page.wait_for_selector(f'{gallery("boxes")} .thumb[data-item="{item}"][data-image="drawn"]')
    open_item(page, "boxes", report, item)
    shown = picture(page, "boxes")
    assert shown["natural"] == [4000, 3000] and shown["under"]


def test_a_chosen_folder_matches_items_by_their_paths(open_page, site, tmp_path):
    rows = ("item,annotator,x,y,w,h,label\n"
            "cam1/0001.jpg,ann,10,10,30,20,car\ncam1/0001.jpg,bo,11,10,30,20,car\n"
            "cam2/0001.jpg,ann,5,40,20,30,car\ncam2/0001.jpg,bo,5,41,20,30,person\n")
    folder = tmp_path / "dataset"
    for camera, size in {"cam1": (100, 50), "cam2": (60, 90)}.items():
        (folder / camera).mkdir(parents=True)
        (folder / camera / "0001.jpg").write_bytes(png(*size))  # PNG bytes under a .jpg name: the browser sniffs them
    (folder / ".DS_Store").write_bytes(b"\0\0\0\1Bud1")
    (folder / "readme.txt").write_text("not an image")
    page = open_page(site.url)
    report = compute(page, "boxes", rows)
    page.wait_for_selector(f'{gallery("boxes")}[data-state="drawn"]')
    page.set_input_files(f"{gallery('boxes')} input.item-images-folder", folder)
    control = f'{gallery("boxes")} .item-images'
    page.wait_for_selector(f'{control}[data-images="2"]')
    assert page.get_attribute(control, "data-skipped") == "2" and page.get_attribute(control, "data-unmatched") == "0"
    for item, size in {"cam1/0001.jpg": [100, 50], "cam2/0001.jpg": [60, 90]}.items():
        open_item(page, "boxes", report, item)
        shown = picture(page, "boxes")
        assert shown["natural"] == size and shown["under"]
        assert page.get_attribute(f"{ITEM_VIEW.format(kind='boxes')} image", "data-file") == f"dataset/{item}"
        page.keyboard.press("Escape")
