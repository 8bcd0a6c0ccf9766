"""The page's Python files (web/bridge.py, web/forms.py), loaded as modules for the tests.

They are not in the package: the worker and build.py load them by path, and so do the tests.
Each call gives a new module, with its own state (the bridge keeps the last report of each kind).
"""
import importlib.util
from pathlib import Path

WEB = Path(__file__).resolve().parents[1] / "web"


def load_web_module(file_name, module_name):
    """web/``file_name`` as a fresh module called ``module_name``."""
    spec = importlib.util.spec_from_file_location(module_name, WEB / file_name)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
