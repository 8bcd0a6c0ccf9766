# Which guideline should be rewritten first? One of "label_only", "boundary_only", "both", "missed".
shares = span_report.disagreement.total.shares
candidates = {"label_only": shares["label_only"], "boundary_only": shares["boundary_only"],
              "both": shares["both"], "missed": shares["missed_a"] + shares["missed_b"]}
rewrite = max(candidates, key=candidates.get)

check("spans", rewrite, span_report)
