# Two inspectors mark the same 100 parts "ok" or "defect". In both factories they agree on 90 parts.
def rows_from_table(table, labels=("ok", "defect")):
    """Rows of two annotators whose confusion table is `table` (rows: inspector a, columns: inspector b)."""
    rows, item = [], 0
    for a, counts in enumerate(table):
        for b, n in enumerate(counts):
            for _ in range(n):
                rows += [{"item": f"part{item}", "annotator": "a", "label": labels[a]},
                         {"item": f"part{item}", "annotator": "b", "label": labels[b]}]
                item += 1
    return rows


tables = {"balanced": [[45, 5], [5, 45]], "skewed": [[85, 5], [5, 5]]}
reports = {name: agreekit.labels(rows_from_table(table), bootstrap=500) for name, table in tables.items()}
for name, report in reports.items():
    for key in ("percent_agreement", "cohen_kappa", "gwet_ac1", "alpha"):
        note(f"{key}@{name}", report["coefficients"][key]["value"])
print("skewed:", reports["skewed"]["kappa_paradox"])

# The same 90 agreements, 10 disagreements: d parts both call "defect", 90 − d both call "ok".
kappa_by_defects, ac1_by_defects = {}, {}
for d in range(0, 46):
    coefficients = agreekit.labels(rows_from_table([[90 - d, 5], [5, d]]), bootstrap=0)["coefficients"]
    kappa_by_defects[d] = coefficients["cohen_kappa"]["value"]
    ac1_by_defects[d] = coefficients["gwet_ac1"]["value"]
note("kappa@d=0", kappa_by_defects[0])
note("kappa@d=45", kappa_by_defects[45])

fig, ax = plt.subplots(figsize=(6.5, 3.4))
shares = [(5 + d) / 100 for d in kappa_by_defects]
ax.plot(shares, list(kappa_by_defects.values()), "o-", markersize=3, label="Cohen's κ")
ax.plot(shares, list(ac1_by_defects.values()), "s-", markersize=3, label="Gwet's AC1")
ax.axhline(0.9, color="grey", linestyle="--", label="percent agreement (0.90 throughout)")
ax.set_xlabel("share of 'defect' in each inspector's labels")
ax.set_ylabel("coefficient")
ax.legend()
show(fig, "Cohen's kappa and Gwet's AC1 against the share of the rare label, percent agreement fixed at 0.9")
