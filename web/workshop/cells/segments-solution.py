# From which tolerance on do boundaries agree, with F1 at least 0.75?
claim_tolerance = min(row["tolerance"] for row in clip_report.boundary_sweep
                      if row["f1"] is not None and row["f1"] >= 0.75)

check("segments", claim_tolerance, clip_report)
