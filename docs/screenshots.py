"""The screenshots of docs/web.md, taken from the built page (so they can be made again after a change).

    python3 build.py build
    .venv/bin/python docs/screenshots.py [--only NAME ...]

Serves ``dist/`` on a free loopback port, opens it in Debian's Chromium (as the browser tests do) and
writes ``docs/images/web-<name>.png``, each reduced to 64 colours (5-60 kB):

- ``desktop``: the Boxes tab at 1280 x 800 with its example computed (the summary card first);
- ``phone``: the same at 390 x 844;
- ``stale``: the summary and report head after the rows were edited (the banner, dimmed numbers);
- ``errors``: three bad rows, listed with their values;
- ``methods``: the "Cite / methods" card.
"""
from __future__ import annotations

import argparse
import io
import sys
import threading
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import build  # noqa: E402  (the repo's build script: make_server)

IMAGES = ROOT / "docs" / "images"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
COMPUTE_MS = 180_000
BAD_ROWS = ("item,annotator,x,y,w,h,label\ni1,a,0,0,10,10,car\ni1,b,1,1,abc,10,car\ni2,a,5,5,4,4,car\n"
            "i2,b,5,five,4,5,car\ni3,a,2,2,6,6,car\ni3,b,2,3,6,six,car\n")


def save(png: bytes, name: str):
    """``png`` reduced to 64 colours, as docs/images/web-<name>.png."""
    image = Image.open(io.BytesIO(png)).convert("RGB").quantize(colors=64, dither=Image.Dither.NONE)
    path = IMAGES / f"web-{name}.png"
    image.save(path, optimize=True)
    print(f"{path.relative_to(ROOT)}: {image.width} x {image.height}, {path.stat().st_size / 1e3:.0f} kB")


def example_page(browser, url, width, height):
    """A new page at ``width`` x ``height`` with the Boxes example computed."""
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(url)
    page.wait_for_selector('#results-boxes[data-state="done"]', state="attached", timeout=COMPUTE_MS)
    page.evaluate("window.scrollTo(0, 0)")
    return page


def shoot(browser, url, only):
    wanted = lambda name: not only or name in only  # noqa: E731
    page = example_page(browser, url, 1280, 800)
    if wanted("desktop"):
        save(page.screenshot(), "desktop")
    if wanted("methods"):
        card = page.locator('#results-boxes [data-card="methods"]')
        card.scroll_into_view_if_needed()
        save(card.screenshot(), "methods")
    if wanted("stale"):
        page.eval_on_selector('#rows-boxes', """area => { area.value = area.value.replace("0.215411", "0.315411");
            area.dispatchEvent(new Event("input", {bubbles: true})); }""")
        page.wait_for_selector('#results-boxes[data-stale="true"]', state="attached")
        page.evaluate("window.scrollTo(0, 0)")
        save(page.locator("#summary-boxes").screenshot(), "stale")
    if wanted("errors"):
        page.eval_on_selector('#rows-boxes', """(area, text) => { area.value = text;
            area.dispatchEvent(new Event("input", {bubbles: true})); }""", BAD_ROWS)
        page.click('form[data-kind="boxes"] button[type="submit"]')
        page.wait_for_selector('#results-boxes[data-state="error"]', state="attached", timeout=COMPUTE_MS)
        save(page.locator("#error-boxes").screenshot(), "errors")
    page.close()
    if wanted("phone"):
        phone = example_page(browser, url, 390, 844)
        save(phone.screenshot(), "phone")
        phone.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=[], help="desktop, phone, stale, errors, methods")
    args = parser.parse_args()
    if not (build.DIST / "index.html").exists():
        raise SystemExit("dist/ is not built: run `python3 build.py build` first")
    server = build.make_server(build.DIST, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            shoot(browser, url, set(args.only))
            browser.close()
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    main()
