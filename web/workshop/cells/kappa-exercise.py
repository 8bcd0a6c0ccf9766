# With 90 agreements out of 100 throughout, how many parts must both inspectors call "defect"
# before Cohen's κ reaches 0.6 (the table [[90 − d, 5], [5, d]])?
needed = None  # TODO: the smallest d in kappa_by_defects whose κ is at least 0.6

check("kappa", needed, kappa_by_defects)
