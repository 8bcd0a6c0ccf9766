"""The command-line text of a comparison and of a plan."""
from __future__ import annotations


def _number(value, digits=4):
    return "—" if value is None else f"{value:.{digits}f}".replace("-0.0000", "0.0000")


def _row(d):
    ci = f"[{_number(d.ci[0])}, {_number(d.ci[1])}]" if d.ci else ""
    p = f"p {d.p_value:.3g}" if d.p_value is not None else ""
    return f"{d.name:<34} {_number(d.value_a):>8} {_number(d.value_b):>8} {_number(d.delta):>8}  {ci:<20} {p}"


def format_comparison(c, groups=("A", "B")):
    """A comparison as text: the headline sentence, every coefficient, the tables and the items."""
    lines = [f"agreekit compare {c.kind}: {groups[0]} vs {groups[1]}", c.resampling.description, "",
             c.summary, "", f"{'coefficient':<34} {'A':>8} {'B':>8} {'B − A':>8}  {'95% interval of B − A':<20}"]
    lines += [_row(d) for d in c.coefficients if d.delta is not None]
    undefined = [d for d in c.coefficients if d.delta is None]
    lines += [f"{d.name:<34} {d.reason}" for d in undefined]
    for title, rows in (("per annotator (in both)", c.annotators), ("per pair (in both)", c.pairs),
                        ("per label (in both)", c.labels)):
        if rows:
            lines += ["", title]
            for row in rows:
                name = " / ".join(str(v) for v in row.key.values())
                lines += [f"  {name} [{row.table}]"] + ["    " + _row(d) for d in row.differences if d.delta is not None]
    if c.items_changed:
        first = c.items_changed[0]
        better = "higher" if first.higher_is_better else "lower"
        lines += ["", f"items whose agreement changed most ({first.measure}, {better} is more agreement)"]
        lines += [f"  {ch.item:<30} {_number(ch.value_a):>8} → {_number(ch.value_b):>8}  ({ch.delta:+.4f})"
                  for ch in c.items_changed]
    for path, keys in {**{f"A only: {k}": v for k, v in c.only_in_a.items()},
                       **{f"B only: {k}": v for k, v in c.only_in_b.items()}}.items():
        lines.append(f"{path}: " + ", ".join(" / ".join(k.values()) for k in keys[:10]) + (" …" if len(keys) > 10 else ""))
    lines += [f"warning: {w}" for w in c.warnings]
    return "\n".join(lines)


def format_plan(p):
    """A plan as text: the predicted items per coefficient, its fit and check points, Krippendorff's guidance."""
    lines = [f"agreekit plan {p.kind}: items for a 95% interval of half-width {p.half_width:g} "
             f"(pilot: {p.n_pilot_items:,} items)", p.method, ""]
    for c in p.coefficients:
        if c.predicted_items is None:
            lines.append(f"{c.name:<34} {c.reason}")
            continue
        lines.append(f"{c.name:<34} n ≈ {c.predicted_items:,} items   (pilot half-width {c.pilot_half_width:.4f}; "
                     f"fit h = {c.constant:.3f}·n^-1/2, free slope {c.free_slope:.2f})")
        lines.append("    check points: " + ", ".join(
            f"n={k.n_items}: {k.half_width:.4f} (fit {k.fitted:.4f})" for k in c.check_points if k.half_width))
    if p.krippendorff:
        k = p.krippendorff
        lines += ["", f"Krippendorff's minimum values ({k['source']}); least frequent category share "
                      f"{k['least_frequent_share']:.3f}, {k['coders']} coders: " + k["question"]]
        lines += [f"  α_min {r['alpha_min']:.3f}: {r['values']:,} values ≈ {r['items']:,} items" for r in k["rows"]]
    return "\n".join(lines)
