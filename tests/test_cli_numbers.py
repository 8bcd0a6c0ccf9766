"""The CLI's text prints numbers to the estimate's precision: a value that is 0 up to rounding
(−2.2e-16 from summing in floating point) reads "0.0000", not "-0.0000"; ``--json`` keeps the raw value."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from agreekit.text import fixed
from agreekit.simulate import centred_corpus_csv

ROOT = Path(__file__).resolve().parents[1]


def _cli(*args, stdin):
    result = subprocess.run([sys.executable, "-m", "agreekit", *args], input=stdin, capture_output=True, text=True,
                            cwd=ROOT, env={"PYTHONPATH": str(ROOT / "pycore")})
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("value, shown", [(-2.220446049250313e-16, "0.0000"), (-0.0, "0.0000"), (0.0, "0.0000"),
                                          (-0.00004999, "0.0000"), (-0.00005001, "-0.0001"), (-0.5, "-0.5000"),
                                          (0.99995, "1.0000"), (float("nan"), "nan")])
def test_fixed_drops_the_sign_of_what_rounds_to_zero(value, shown):
    assert fixed(value) == shown


def test_a_sigma_that_is_zero_up_to_rounding_prints_as_zero_and_stays_raw_in_json():
    # The page's box example: the "fixed" annotator draws the same box on every image, so its σ with
    # either careful annotator is 0 exactly (its within and between distances are the same set).
    rows = centred_corpus_csv()
    raw = json.loads(_cli("boxes", "-", "--json", "--bootstrap", "0", stdin=rows))
    tiny = [p for p in raw["pairs"] if p["sigma"]["value"] is not None and abs(p["sigma"]["value"]) < 1e-12]
    assert any(p["sigma"]["value"] < 0 for p in tiny), "the example no longer has a negative rounding residue"
    text = _cli("boxes", "-", "--bootstrap", "0", stdin=rows)
    assert "-0.0000" not in text
    for pair in tiny:
        line = next(line for line in text.splitlines() if re.match(rf"{pair['a']}\s+{pair['b']}\s", line))
        assert line.split()[2] == "0.0000", line
