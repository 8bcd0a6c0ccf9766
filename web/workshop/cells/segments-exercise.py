# From which tolerance on do boundaries agree, with F1 at least 0.75?
claim_tolerance = None  # TODO: the smallest row["tolerance"] in clip_report.boundary_sweep with row["f1"] >= 0.75

check("segments", claim_tolerance, clip_report)
