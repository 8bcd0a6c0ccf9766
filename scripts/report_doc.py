"""Write docs/report.md: every key of every kind's report, from the reports of the page's examples.

    PYTHONPATH=pycore python scripts/report_doc.py            # writes docs/report.md
    PYTHONPATH=pycore python scripts/report_doc.py --check    # exit 1 if docs/report.md is stale
"""
import sys
from pathlib import Path

import agreekit
from agreekit.schema import markdown
from agreekit.schema_text import DESCRIPTIONS, ESTIMATE
from agreekit.simulate import centred_corpus

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "web" / "examples"
DOC = ROOT / "docs" / "report.md"


def example_reports():
    """Each kind's report of its page example (boxes: the centred simulation), in tab order."""
    reports = {}
    for name in agreekit.KINDS:
        options = {} if name == "masks" else {"bootstrap": 20}
        if name == "boxes":
            rows = centred_corpus(20, seed=7)
        else:
            rows = (EXAMPLES / f"{name}.csv").read_text(encoding="utf-8")
        if name == "spans":
            options["lengths"] = (EXAMPLES / "spans-lengths.csv").read_text(encoding="utf-8")
        reports[name] = agreekit.report(name, rows, **options).to_dict()
    return reports


def document():
    return markdown(example_reports(), DESCRIPTIONS, ESTIMATE)


if __name__ == "__main__":
    text = document()
    if "--check" in sys.argv:
        sys.exit(0 if DOC.read_text(encoding="utf-8") == text else 1)
    DOC.write_text(text, encoding="utf-8")
