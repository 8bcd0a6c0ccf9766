"""The package's shape: floors that import only downwards, one package per kind, short modules and functions.

A module may import from its own floor or a lower one, never a higher one. Kinds
(``agreekit.kinds.<kind>``) never import each other, and nothing below the kinds,
nor the shared machinery above them (CLI, item details, share links, the web
bridge), names a kind: no ``if kind == "boxes"`` and no per-kind table.  A module
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
    "errors": 0, "runtime": 0, "rows": 0, "results": 0, "arrays": 0, "options": 0, "registry": 0, "parse": 0,
    "report_shape": 0, "references": 0, "conflicts": 0,
    "text": 0,
    "geometry": 1,
    "matching": 2,
    "measures": 3,
    "objects": 4, "object_sets": 4, "object_blocks": 4, "object_alpha": 4, "object_consensus": 4,
    "annotator_ranking": 4, "breakdowns": 4, "object_detail": 4,
    "object_text": 4, "unitizing_report": 4, "shared_shapes": 4, "reference": 4, "object_methods": 4,
    "kinds": 5,
    "__init__": 6, "__main__": 6, "cli": 6, "cli_args": 6, "cli_compare": 6, "formats": 6, "share": 6,
    "simulate": 6, "item_detail": 6, "shapes": 6,
    "comparison": 6, "methods": 6,
}
KINDS_FLOOR = FLOORS["kinds"]
# Above the kinds, the machinery that serves every kind alike (formats name the kinds they read by design).
SHARED_ABOVE = ("__init__", "__main__", "cli", "cli_args", "cli_compare", "share", "item_detail", "shapes", "comparison", "methods")
BRIDGE = PACKAGE.parents[1] / "web" / "bridge.py"

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


def kind_of(name):
    """The kind package a dotted module name lies in (``kinds.boxes.rows`` → ``boxes``), else None."""
    parts = name.split(".")
    return parts[1] if len(parts) > 2 and parts[0] == "kinds" and parts[1] != "__init__" else None


@pytest.mark.parametrize("path", [p for p in MODULES if kind_of(dotted(p))], ids=dotted)
def test_kinds_never_import_each_other(path):
    mine = kind_of(dotted(path))
    for name in imported_modules(path):
        other = kind_of(name + ".x") if name.startswith("kinds.") else None
        assert other in (None, mine), f"{dotted(path)} (kind {mine}) imports {name} (kind {other})"


def test_every_kind_is_a_package():
    """Each registered kind is one package under kinds/ holding its report, and no module sits beside them."""
    import agreekit

    kinds_dir = PACKAGE / "kinds"
    beside = sorted(p.name for p in kinds_dir.glob("*.py") if p.name != "__init__.py")
    assert not beside, f"modules in kinds/ that are not kind packages: {beside}"
    for name, kind in agreekit.KINDS.items():
        assert (kinds_dir / name / "__init__.py").is_file() and (kinds_dir / name / "report.py").is_file(), name
        assert kind.function.__module__ == f"agreekit.kinds.{name}.report"


def _docstrings(tree):
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}


def kind_names_in(source, kinds):
    """``[(line, text)]`` of the string constants (docstrings and ``__all__`` aside) that are a kind's name."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
            skip |= {id(element) for element in ast.walk(node.value)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
            and node.value in kinds]


def _shared(path):
    name = dotted(path)
    return floor_of(name) < KINDS_FLOOR or name.split(".")[0] in SHARED_ABOVE or name == "kinds.__init__"


@pytest.mark.parametrize("path", [p for p in MODULES if _shared(p)] + [BRIDGE], ids=lambda p: p.stem)
def test_shared_modules_name_no_kind(path):
    """Below the kinds, and in the machinery above them, no kind is named: they read the registry."""
    import agreekit

    from agreekit.options import TYPES
    # "labels" is a kind and also an option type (options.TYPES) and the object breakdowns' report key: as a
    # string it names the kind nowhere below the kinds, so the scan cannot tell and leaves such names out.
    found = kind_names_in(path.read_text(encoding="utf-8"), set(agreekit.KINDS) - set(TYPES))
    assert not found, f"{path.name} names kinds: {found}"
    if path != BRIDGE:
        assert not [n for n in imported_modules(path) if n.startswith("kinds.")], f"{dotted(path)} imports a kind"


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
    """The floor map really rejects an upward import, the kind checks see a kind, the counter counts code only."""
    assert floor_of("kinds.boxes") > floor_of("geometry.boxes")
    assert kind_of("kinds.boxes.rows") == "boxes" and kind_of("kinds.__init__") is None and kind_of("cli") is None
    assert kind_names_in('"""boxes"""\nKIND = {"spans": 1}\nif kind == "boxes": pass\n', {"boxes", "spans"}) == \
        [(2, "spans"), (3, "boxes")]
    source = 'def f():\n    """Doc\n    string."""\n    # comment\n\n    x = 1\n    return x\n'
    node = ast.parse(source).body[0]
    assert _code_lines(source.splitlines(keepends=True), node) == 3
