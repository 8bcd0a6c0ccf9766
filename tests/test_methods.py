"""The methods paragraph (agreekit.methods, `agreekit KIND FILE --methods`): every number read from the
report and its settings, the references it cites as BibTeX, agreekit's own entry as CITATION.cff says (issue 26)."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import agreekit
from agreekit import cli
from agreekit.methods import methods
from agreekit.references import AGREEKIT
from agreekit.simulate import centred_corpus, to_csv

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "web" / "examples"


def example(kind):
    """(rows, options) of the kind's example."""
    if kind == "boxes":
        return to_csv(centred_corpus(12, seed=3, annotators=("careful_a", "careful_b", "fixed"))), {}
    options = {"lengths": (EXAMPLES / "spans-lengths.csv").read_text()} if kind == "spans" else {}
    return (EXAMPLES / f"{kind}.csv").read_text(), options


def bootstrapped(kind):
    return any(option.name == "bootstrap" for option in agreekit.KINDS[kind].options)


@pytest.mark.parametrize("kind", list(agreekit.KINDS))
def test_the_paragraph_reads_its_numbers_from_the_report(kind):
    rows, options = example(kind)
    if bootstrapped(kind):
        options |= {"bootstrap": 123, "seed": 7}
    report = agreekit.report(kind, rows, **options)
    data = report.to_dict()
    text = methods(kind, report)
    entry = agreekit.KINDS[kind]
    items_key = entry.methods.items_key
    assert f"{data[items_key]:,} {entry.methods.items}" in text.paragraph
    assert f"{data['n_annotators']:,} annotators" in text.paragraph
    assert f"{data[entry.count_key]:,} " in text.paragraph
    assert f"agreekit {agreekit.__version__}" in text.paragraph
    if bootstrapped(kind):
        assert "123 resamples drawn with seed 7" in text.paragraph
        assert f"{100 * data['settings']['ci_level']:g} % confidence intervals" in text.paragraph
    # every work the paragraph cites is in the references, and every reference is cited
    assert text.references[0].bibtex.startswith("@software{agreekit")
    for reference in text.references[1:]:
        assert reference.cite in text.paragraph, reference.cite
    cited = set(re.findall(r"\b([A-Z][a-z]+(?:,? (?:[A-Z][a-z]+|&|et al\.))*) (\d{4})\b", text.paragraph))
    listed = {reference.cite for reference in text.references}
    for names, year in cited:
        assert any(c.startswith(names.split(",")[0].split(" ")[0]) and c.endswith(year) for c in listed), (names, year)
    assert text == methods(kind, data)  # the report or its dict: the same paragraph


@pytest.mark.parametrize("kind", ["boxes", "polygons", "cuboids"])
def test_object_kinds_state_the_matching_rule_threshold_distance_and_baseline(kind):
    rows, _ = example(kind)
    report = agreekit.report(kind, rows, threshold=0.35, distance="iou", bootstrap=20)
    paragraph = methods(kind, report).paragraph
    assert "IoU ≥ 0.35" in paragraph and "the distance is 1 − " in paragraph
    n_between = report.to_dict()["localization"]["n_between"]
    assert f"({n_between:,} pairs: all such pairs, exactly)" in paragraph
    assert "Rezatofighi" not in paragraph  # GIoU is not used, so not cited
    if kind != "cuboids":  # 1 − IoU₃D is the cuboids' only distance
        giou = methods(kind, agreekit.report(kind, rows, distance="giou", bootstrap=20))
        assert "(1 − GIoU)/2 (Rezatofighi et al. 2019)" in giou.paragraph
        assert any(r.cite == "Rezatofighi et al. 2019" for r in giou.references)


def test_the_paragraph_does_not_depend_on_row_order_or_names():
    rows, _ = example("labels")
    lines = rows.strip().split("\n")
    shuffled = [lines[0]] + random.Random(5).sample(lines[1:], len(lines) - 1)
    first = methods("labels", agreekit.report("labels", rows, bootstrap=50))
    again = methods("labels", agreekit.report("labels", "\n".join(shuffled) + "\n", bootstrap=50))
    assert first == again


def test_agreekits_entry_agrees_with_citation_cff():
    cff = (ROOT / "CITATION.cff").read_text()
    version = re.search(r"^version: (\S+)", cff, re.M).group(1)
    title = re.search(r'^title: "(.+)"', cff, re.M).group(1)
    assert version == agreekit.__version__
    assert f"title = {{{title}}}" in AGREEKIT.bibtex
    entry = methods("traces", agreekit.report("traces", example("traces")[0], bootstrap=10)).references[0]
    assert f"version = {{{version}}}" in entry.bibtex and "@VERSION@" not in entry.bibtex
    cited_doi = re.search(r"doi: (\S+)", cff).group(1)  # the paper CITATION.cff asks users to cite too
    boxes = methods("boxes", agreekit.report("boxes", example("boxes")[0], bootstrap=10))
    assert any(f"doi = {{{cited_doi}}}" in r.bibtex for r in boxes.references)


def test_cli_prints_the_paragraph_and_bibtex(tmp_path, capsys):
    rows, _ = example("boxes")
    path = tmp_path / "boxes.csv"
    path.write_text(rows)
    assert cli.main(["boxes", str(path), "--methods", "--threshold", "0.4", "--bootstrap", "50", "--seed", "9"]) == 0
    out = capsys.readouterr().out
    paragraph, _, references = out.partition("\n\nReferences (BibTeX)\n\n")
    assert "IoU ≥ 0.4" in " ".join(paragraph.split()) and "50 resamples drawn with seed 9" in " ".join(paragraph.split())
    assert max(len(line) for line in paragraph.splitlines()) <= 100
    assert references.startswith("@software{agreekit") and "@inproceedings{braylan2022" in references
    assert cli.main(["boxes", str(tmp_path / "missing.csv"), "--methods"]) == 2  # bad input: as for any report
