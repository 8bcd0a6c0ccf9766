# Which guideline should be rewritten first? One of "label_only", "boundary_only", "both", "missed".
shares = span_report.disagreement.total.shares
rewrite = None  # TODO: the outcome with the largest share (missed = missed_a + missed_b)

check("spans", rewrite, span_report)
