"""The package's shape: floors that import only downwards, short modules, short functions.

A module may import from its own floor or a lower one, never a higher one. A module
over MODULE_LINES lines, or a function over FUNCTION_LINES code lines (docstring,
comments and blank lines excluded), must say why in a comment on the line above its
``def`` that starts with ``# Long:``.
"""
import ast
import io
import tokenize
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "pycore" / "agreekit"
MODULE_LINES = 450
FUNCTION_LINES = 60

# Floor of each module (dotted name relative to the package); a package's modules share its floor.
FLOORS = {
    "rows": 0, "results": 0, "arrays": 0, "options": 0, "registry": 0, "lsap": 0, "report_shape": 0,
    "geometry": 1,
    "matching": 2,
    "measures": 3,
    "objects": 4, "object_sets": 4, "breakdowns": 4,
    "kinds": 5, "shapes": 5,
    "__init__": 6, "__main__": 6, "cli": 6, "formats": 6, "share": 6, "simulate": 6, "item_detail": 6,
}

MODULES = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def dotted(path):
    return ".".join(path.relative_to(PACKAGE).with_suffix("").parts)


def floor_of(name):
    """The floor of a dotted module name inside the package (``geometry.boxes`` → 1)."""
    parts = name.split(".")
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return FLOORS[parts[0]]


def imported_modules(path):
    """Dotted names (inside the package) that ``path`` imports, relative imports resolved."""
    here = dotted(path).split(".")
    package = here if here[-1] == "__init__" else here[:-1]
    package = [p for p in package if p != "__init__"]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)]
            elif node.module and node.module.split(".")[0] == "agreekit":
                base, node_module = [], node.module.split(".", 1)[1:]
                out += [".".join(node_module + [alias.name]) if node_module else alias.name
                        for alias in node.names]
                continue
            else:
                continue
            module = base + (node.module.split(".") if node.module else [])
            if node.module:
                out.append(".".join(module) or "__init__")
            else:  # ``from . import x``: x is a module of that package
                out += [".".join(module + [alias.name]) for alias in node.names]
        elif isinstance(node, ast.Import):
            out += [alias.name.split(".", 1)[1] for alias in node.names
                    if alias.name.startswith("agreekit.")]
    return out


@pytest.mark.parametrize("path", MODULES, ids=dotted)
def test_imports_go_down_only(path):
    mine = floor_of(dotted(path))
    for name in imported_modules(path):
        head = name.split(".")[0]
        if head not in FLOORS:  # ``from .module import Name`` named a module above; names inside are fine
            continue
        assert floor_of(name) <= mine, f"{dotted(path)} (floor {mine}) imports {name} (floor {floor_of(name)})"


def test_every_module_has_a_floor():
    assert {dotted(p).split(".")[0] for p in MODULES} <= set(FLOORS)


def _code_lines(source_lines, node):
    """Lines of ``node`` that hold code: no docstring, comments or blank lines."""
    body = node.body
    start = node.lineno
    if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant) \
            and isinstance(body[0].value.value, str):
        skip = set(range(body[0].lineno, body[0].end_lineno + 1))
    else:
        skip = set()
    text = "".join(source_lines[start - 1:node.end_lineno])
    code = set()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                              tokenize.DEDENT, tokenize.ENDMARKER):
            code.update(range(token.start[0] + start - 1, token.end[0] + start))
    return len(code - skip)


def _excused(source_lines, node):
    above = source_lines[node.lineno - 2].strip() if node.lineno >= 2 else ""
    return above.startswith("# Long:")


@pytest.mark.parametrize("path", MODULES, ids=dotted)
def test_functions_are_short(path):
    source_lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    long = []
    for node in ast.walk(ast.parse("".join(source_lines))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            n = _code_lines(source_lines, node)
            if n > FUNCTION_LINES and not _excused(source_lines, node):
                long.append(f"{node.name} ({n} code lines)")
    assert not long, f"{dotted(path)}: " + ", ".join(long)


@pytest.mark.parametrize("path", MODULES, ids=dotted)
def test_modules_are_short(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    short_enough = len(lines) <= MODULE_LINES or lines[0].startswith("# Long:")
    assert short_enough, f"{dotted(path)}: {len(lines)} lines"


def test_the_checks_can_fail(tmp_path):
    """The floor map really rejects an upward import, and the counter counts code only."""
    assert floor_of("kinds.boxes") > floor_of("geometry.boxes")
    source = 'def f():\n    """Doc\n    string."""\n    # comment\n\n    x = 1\n    return x\n'
    node = ast.parse(source).body[0]
    assert _code_lines(source.splitlines(keepends=True), node) == 3
