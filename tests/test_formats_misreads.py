"""Exports that were read without an error but gave wrong numbers (issue 22), one regression test each.

Every fixture under tests/fixtures/formats/ used here was written for these tests in the
shape the tool exports (see docs/import.md); each test fails on the misreading it guards.
"""
import io
import zipfile
from pathlib import Path

import pytest

from agreekit.formats import convert
from agreekit.rows import InputError

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "formats"


def annotators(conversion):
    return sorted({row["annotator"] for row in conversion.rows})


# ----------------------------------------------------------------- hidden folders

def test_hidden_folders_of_a_folder_are_not_annotators():
    conversion = convert(FIXTURES / "coco" / "hidden_folders")
    assert annotators(conversion) == ["alice", "bob"]
    assert not any(".ipynb_checkpoints" in name or "__MACOSX" in name for name in conversion.sources)


def test_hidden_folders_of_a_zip_are_not_annotators():
    folder = FIXTURES / "coco" / "hidden_folders"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in ("alice.json", "bob.json"):
            archive.writestr(f"export/{name}", (folder / name).read_bytes())
            archive.writestr(f"export/.git/{name}", (folder / ".ipynb_checkpoints" / "alice-checkpoint.json").read_bytes())
        archive.writestr("export/.ipynb_checkpoints/alice-checkpoint.json",
                         (folder / ".ipynb_checkpoints" / "alice-checkpoint.json").read_bytes())
        archive.writestr("__MACOSX/export/._alice.json", (folder / "__MACOSX" / "._bob.json").read_bytes())
    conversion = convert([("export.zip", buffer.getvalue())])
    assert annotators(conversion) == ["alice", "bob"]
    assert conversion.summary()["n_saw_nothing"] == 0
