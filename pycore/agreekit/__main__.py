"""``python -m agreekit KIND FILE ...``: see :mod:`agreekit.cli`."""
import sys

from .cli import main

sys.exit(main())
