"""The page's tabs and option forms, written at build time from the registry of kinds.

``build.py`` reads the registry (``agreekit.registry.kinds_json()``, also written to
``dist/kinds.json``) and calls :func:`render_page` on the template ``index.html``, so every
tab, option field and default on the page comes from each kind's ``@register(...)``, and the
forms work (read, fill, reach by keyboard) before any script has run.

The template holds the markup and the prose:

* ``<template id="kind-tab">`` and ``<template id="kind-panel">``: one tab and one panel,
  with ``$placeholders`` (:class:`string.Template`) filled per kind;
* ``<template data-kind="…" data-part="hint" data-label="…">``: a kind's paste label and
  row-format hint, and ``<template data-kind="…" data-part="examples">``: its example
  buttons.  A kind without them gets a label and hint made from its title and columns;
* the comments ``<!-- agreekit:kind-list -->``, ``<!-- agreekit:tabs -->`` and
  ``<!-- agreekit:panels -->``: where the kinds go.

This module needs no numpy: it works on the registry's JSON only.  It is not copied to
``dist/``.
"""
from __future__ import annotations

import html
import re
import string

MARKERS = ("kind-list", "tabs", "panels")
_TEMPLATE = re.compile(r"[ \t]*<template\s([^>]*)>(.*?)</template>[ \t]*\n?", re.S)
_ATTRIBUTE = re.compile(r'([\w-]+)="([^"]*)"')
FREE_TEXT = ("text", "labels", "floats", "table")  # types whose format the form spells out


def number_text(value):
    """A registry number as a form shows it: ``1000``, ``0.5``, ``1e-10`` (round-trip exact)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"not a number: {value!r}")
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def _attributes(pairs):
    """`` name="value"`` for each pair whose value is not None (values escaped)."""
    return "".join(f' {name}="{html.escape(str(value))}"' for name, value in pairs if value is not None)


def _default_text(option):
    default = option["default"]
    if default is None:
        return None
    if option["type"] in ("float", "int"):
        return number_text(default)
    if option["type"] == "floats":
        return ", ".join(number_text(v) for v in default)
    if option["type"] == "labels":
        return ", ".join(default)
    return str(default)


def option_field(kind, option, prefix="option"):
    """The labelled form field of one option, from its registry record (or a format's: ``prefix`` keeps
    the ids of the import form's fields apart from the kind's).

    Numbers are ``<input type=number>`` with the option's range, a choice a ``<select>``
    with the default selected, a table a ``<textarea>``, the other types text inputs.
    ``data-type`` carries the option's type and ``data-label`` its label for the page's
    messages; the help sentence is the field's description, shown under the free-text
    fields whose format it explains.
    """
    name, kind_of, label = option["name"], option["type"], html.escape(option["label"])
    field_id = f"{prefix}-{kind}-{name}"
    helped = kind_of in FREE_TEXT and option["help"]
    common = _attributes([("name", name), ("id", field_id), ("data-type", kind_of), ("data-label", option["label"]),
                          ("title", None if helped else option["help"] or None),
                          ("aria-describedby", f"{field_id}-help" if helped else None)])
    help_text = f'\n        <span class="help" id="{field_id}-help">{html.escape(option["help"])}</span>' if helped else ""
    default = _default_text(option)
    if kind_of in ("float", "int"):
        bounds = [(key, None if option[bound] is None else number_text(option[bound]))
                  for key, bound in (("min", "minimum"), ("max", "maximum"))]
        step = "1" if kind_of == "int" else "any"
        field = f'<input{common} type="number"{_attributes([*bounds, ("step", step), ("value", default)])}>'
    elif kind_of == "choice":
        choices = "".join(f'\n          <option{_attributes([("value", c["value"])])}'
                          f'{" selected" if c["value"] == option["default"] else ""}>{html.escape(c["label"])}</option>'
                          for c in option["choices"])
        field = f"<select{common}>{choices}\n        </select>"
    elif kind_of == "table":
        return (f'<label for="{field_id}">{label}</label>\n      <textarea{common} rows="4" spellcheck="false">'
                f'{html.escape(default or "")}</textarea>{help_text}')
    else:  # text, labels, floats
        mode = "decimal" if kind_of == "floats" else None
        field = f'<input{common} type="text" autocomplete="off"{_attributes([("inputmode", mode), ("value", default)])}>'
    return f"<label>{label}\n        {field}{help_text}</label>"


def import_options(kind, formats):
    """The import form's options of ``kind``'s tab, from the formats' declarations (``formats_json()``).

    A select of the formats that hold the kind (``auto``: detect from the files), then one fieldset per
    format that has options, ``data-format`` naming it; the fields are the formats' declared options,
    written by :func:`option_field`. They sit outside the kind's ``.options`` fieldset: the page sends
    them with the files (web/import.mjs), never to the report.
    """
    fitting = [f for f in formats if kind in f["kinds"]]
    choices = "".join(f'\n          <option{_attributes([("value", f["name"])])}>{html.escape(f["title"])}</option>'
                      for f in fitting)
    select = (f'<label>Format <select name="import-format" id="import-format-{kind}">\n          '
              f'<option value="auto" selected>detect from the files</option>{choices}\n        </select></label>')
    sets = []
    for f in fitting:
        if not f["options"]:
            continue
        fields = "\n        ".join(option_field(kind, o, prefix=f"import-{f['name']}") for o in f["options"])
        sets.append(f'<fieldset data-format="{html.escape(f["name"])}">\n        <legend>{html.escape(f["title"])} '
                    f'options</legend>\n        {fields}\n      </fieldset>')
    body = "\n      ".join([select, *sets])
    return (f'<details class="import-options" id="import-options-{kind}">\n      <summary>Import options (the '
            f'export\'s format and its options)</summary>\n      {body}\n    </details>')


def _indent(text, spaces):
    """Template text re-indented to sit ``spaces`` deep in the page (its first line follows a tag)."""
    return ("\n" + " " * spaces).join(line.strip() for line in text.strip().splitlines())


def _fallback_prose(kind):
    """Paste label and hint for a kind the template has no prose for: its title and columns."""
    columns = " or ".join(f"<code>{html.escape(', '.join(c))}</code>" for c in [kind["columns"], *kind["alternatives"]])
    return html.escape(kind["title"]) + " rows", f"Columns {columns}: {html.escape(kind['summary'])}."


def read_template(text):
    """``(page, parts)``: the template without its ``<template>`` elements, and those by key.

    Keys are ``"kind-tab"`` and ``"kind-panel"`` (by ``id``) and ``(kind, part)`` for the
    per-kind prose, whose value is ``(attributes, content)``.
    """
    parts = {}

    def take(match):
        attributes = dict(_ATTRIBUTE.findall(match.group(1)))
        key = attributes.get("id") or (attributes.get("data-kind"), attributes.get("data-part"))
        if key in parts:
            raise ValueError(f"index.html: two <template> elements for {key}")
        parts[key] = (attributes, match.group(2).strip("\n"))
        return ""

    page = _TEMPLATE.sub(take, text)
    return page, parts


def render_page(template_text, registry, formats=()):
    """``dist/index.html``: the template with the registry's tabs, panels and option forms, and each
    panel's import options from ``formats`` (``agreekit.formats.base.formats_json()``).

    Raises ``ValueError`` if a marker or the tab/panel template is missing, or if prose
    names a kind the registry does not have (it would never be shown).
    """
    page, parts = read_template(template_text)
    kinds = registry["kinds"]
    names = [kind["name"] for kind in kinds]
    stale = sorted({key[0] for key in parts if isinstance(key, tuple)} - set(names))
    if stale:
        raise ValueError(f"index.html has prose for kinds the registry does not have: {', '.join(stale)}")
    missing = [m for m in MARKERS if f"<!-- agreekit:{m} -->" not in page] + \
        [t for t in ("kind-tab", "kind-panel") if t not in parts]
    if missing:
        raise ValueError(f"index.html lacks {', '.join(missing)}")
    tab, panel = (string.Template(parts[t][1]) for t in ("kind-tab", "kind-panel"))
    tabs, panels = [], []
    for position, kind in enumerate(kinds):
        first = position == 0
        label, hint = _fallback_prose(kind)
        if (kind["name"], "hint") in parts:
            attributes, hint = parts[kind["name"], "hint"]
            label = attributes.get("data-label", html.escape(kind["title"]) + " rows")  # template HTML as is
        fields = {"name": kind["name"], "title": html.escape(kind["title"]),
                  "selected": "true" if first else "false", "tabindex": "" if first else ' tabindex="-1"',
                  "hidden": "" if first else " hidden", "rows_label": label, "hint": _indent(hint, 8),
                  "columns": html.escape(",".join(kind["columns"])),
                  "examples": _indent(parts.get((kind["name"], "examples"), ({}, ""))[1], 6),
                  "options": "\n      ".join(option_field(kind["name"], o) for o in kind["options"]),
                  "import_options": import_options(kind["name"], formats)}
        tabs.append(tab.substitute(fields))
        panels.append(panel.substitute(fields))
    subjects = [html.escape(kind["summary"].split(":")[0]) for kind in kinds]
    kind_list = ", ".join(subjects[:-1]) + (" and " if len(subjects) > 1 else "") + subjects[-1]
    for marker, text in zip(MARKERS, (kind_list, "\n".join(tabs), "\n\n".join(panels))):
        page = page.replace(f"<!-- agreekit:{marker} -->", text)
    return page
