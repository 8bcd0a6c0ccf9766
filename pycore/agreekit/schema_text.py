"""Meanings of the report keys (docs/report.md is generated from these and the example reports)."""
ESTIMATE = ""
DESCRIPTIONS = {}
