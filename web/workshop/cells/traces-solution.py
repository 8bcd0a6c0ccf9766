# Which step do the judges agree on least (α defined)?
defined = [row for row in trace_report.steps if row["alpha"]["value"] is not None]
worst_step = min(defined, key=lambda row: row["alpha"]["value"])["step"]

check("traces", worst_step, trace_report)
