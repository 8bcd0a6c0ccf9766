# With 90 agreements out of 100 throughout, how many parts must both inspectors call "defect"
# before Cohen's κ reaches 0.6 (the table [[90 − d, 5], [5, d]])?
needed = min(d for d, kappa in kappa_by_defects.items() if kappa >= 0.6)

check("kappa", needed, kappa_by_defects)
