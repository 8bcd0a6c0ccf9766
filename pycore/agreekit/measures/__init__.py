"""Measures: agreement coefficients and their ingredients (Krippendorff's α, Cohen's and Fleiss' κ,
the σ/KS chance baseline, the bootstrap, STAPLE, boundary matching, span outcomes).
They take arrays and return numbers; they know nothing of rows or of the page."""
