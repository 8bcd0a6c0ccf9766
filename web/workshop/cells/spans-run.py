# Two annotators' entity spans on 40 synthetic documents.
span_report = agreekit.spans(simulate.span_corpus(40, seed=5), bootstrap=0)
note("exact_f1", span_report.exact_f1.value)
note("partial_f1", span_report.partial_f1.value)
note("char_alpha", span_report.char_alpha.value)
shares = span_report.disagreement.total.shares
outcomes = ["exact", "label_only", "boundary_only", "both", "missed_a", "missed_b"]
for outcome in outcomes:
    note(f"share.{outcome}", shares[outcome])

fig, ax = plt.subplots(figsize=(6.5, 3.2))
ax.barh(outcomes[::-1], [shares[o] for o in outcomes[::-1]])
ax.set_xlabel("share of compared spans")
ax.set_title(f"exact F1 {span_report.exact_f1.value:.2f}, partial F1 {span_report.partial_f1.value:.2f}")
show(fig, "The five-way disagreement table as shares of compared spans")
