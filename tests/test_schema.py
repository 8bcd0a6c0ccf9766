"""docs/report.md lists every key of every kind's report, with a meaning, and is up to date."""
import sys
from pathlib import Path

import pytest

from agreekit.schema import key_paths, markdown
from agreekit.schema_text import DESCRIPTIONS, ESTIMATE

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import report_doc  # noqa: E402


@pytest.fixture(scope="module")
def reports():
    return report_doc.example_reports()


def test_every_key_of_every_example_report_has_a_meaning(reports):
    missing = sorted({p for r in reports.values() for p in key_paths(r)} - set(DESCRIPTIONS))
    assert not missing, missing


def test_no_description_of_a_key_that_no_report_has(reports):
    present = {p for r in reports.values() for p in key_paths(r)}
    assert not sorted(set(DESCRIPTIONS) - present)


def test_docs_report_md_is_generated_from_the_reports(reports):
    expected = markdown(reports, DESCRIPTIONS, ESTIMATE)
    assert (ROOT / "docs" / "report.md").read_text(encoding="utf-8") == expected, \
        "docs/report.md is stale: run PYTHONPATH=pycore python scripts/report_doc.py"


def test_an_undocumented_key_is_refused(reports):
    with pytest.raises(KeyError, match="boxes_extra"):
        markdown({"boxes": {**reports["boxes"], "boxes_extra": 1}}, DESCRIPTIONS, ESTIMATE)
