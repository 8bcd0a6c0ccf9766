"""The reference cards' downloads: "Download consensus" and "Download adjudication list (CSV)" save files the
worker writes from the last report (bridge.py run_reference_file); each parses back to CPython's."""
from __future__ import annotations

import csv
import io
from pathlib import Path

import agreekit
from agreekit.formats.writers import write
from agreekit.share import share_link

from conftest import sent_options, wait_result

KIND = "polygons"


def download(page, what):
    with page.expect_download() as info:
        page.click(f"#results-{KIND} button.download-{what}")
    return info.value.suggested_filename, open(info.value.path(), encoding="utf-8").read()


def test_the_consensus_and_the_adjudication_list_download(open_page, site, dist_dir):
    rows = (dist_dir / "examples" / f"{KIND}.csv").read_text()
    expert = next(csv.DictReader(io.StringIO(rows)))["annotator"]
    page = open_page(share_link(KIND, rows, base_url=site.url, bootstrap=0, reference=expert))
    wait_result(page, KIND)
    options = sent_options(page, KIND)
    sent_rows = page.evaluate("kind => window.agreekit.rows(kind)", KIND)

    name, text = download(page, "consensus")   # typed rows, no import record: our CSV
    assert name.endswith(".csv")
    consensus = agreekit.consensus_rows(KIND, sent_rows, threshold=options.get("threshold", 0.5))
    assert text == write(KIND, [dict(r) for r in consensus.rows], "csv").content
    back = list(csv.DictReader(io.StringIO(text)))
    assert back and {r["annotator"] for r in back} == {"consensus"}
    assert agreekit.report(KIND, text, bootstrap=0).to_dict()["n_annotators"] == 1   # the importer reads it

    name, text = download(page, "adjudication")
    report = agreekit.report(KIND, sent_rows, **options)
    expected = agreekit.adjudication_csv(agreekit.reference_conflicts(report))
    table = list(csv.reader(io.StringIO(text)))
    assert name.endswith("adjudication.csv") and table[0][:3] == ["rank", "item", "item_weight"]
    assert len(table) > 1 and text == expected
    assert "Saved" in page.text_content(f"#results-{KIND} .reference-download-status")


COCO = Path(__file__).parents[1] / "fixtures" / "formats" / "coco" / "image_annotator.json"


def test_the_consensus_of_imported_rows_downloads_in_their_format(open_page, site, tmp_path):
    """Rows imported from COCO: the consensus comes back as COCO (with the import's image sizes), and agreekit's
    COCO importer reads back the consensus objects."""
    page = open_page(site.url)
    page.set_input_files('form[data-kind="boxes"] input[name="file"]', str(COCO))
    page.wait_for_selector('#import-boxes[data-state="done"]', state="attached", timeout=60000)
    wait_result(page, "boxes")
    page.fill('form[data-kind="boxes"] [name="reference"]', "coder_a")
    page.click('form[data-kind="boxes"] button[type="submit"]')
    page.wait_for_selector("#results-boxes button.download-consensus", timeout=60000)
    wait_result(page, "boxes")
    with page.expect_download() as info:
        page.click("#results-boxes button.download-consensus")
    path = tmp_path / info.value.suggested_filename
    info.value.save_as(path)
    assert path.suffix == ".json"
    conversion = agreekit.convert(COCO)
    consensus = agreekit.consensus_rows("boxes", conversion.rows)
    expected = write("boxes", [dict(r) for r in consensus.rows], "coco", image_sizes=conversion.image_sizes)
    assert path.read_text(encoding="utf-8") == expected.content
    back = agreekit.convert(path)
    drawn = sorted((r["item"], float(r["x"]), float(r["y"])) for r in back.rows if r["x"] not in ("", None))
    assert drawn == sorted((r["item"], float(r["x"]), float(r["y"])) for r in consensus.rows if r["x"] not in ("", None))
    assert drawn
