"""The ``pycore`` folder of another commit, for benchmarks that time two versions side by side.

Usage: python benchmarks/git_export.py COMMIT FOLDER (prints the exported folder)
"""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def export(commit, folder):
    """The ``pycore`` folder of ``commit`` (a hash or a branch name), written under ``folder``."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "pycore"], check=True,
                             capture_output=True).stdout
    target = Path(folder) / commit.replace("/", "_")
    target.mkdir()
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target / "pycore"


if __name__ == "__main__":
    print(export(*sys.argv[1:3]))
