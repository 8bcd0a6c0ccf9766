# Which step do the judges agree on least (α defined)?
worst_step = None  # TODO: the row["step"] of trace_report.steps with the smallest row["alpha"]["value"]

check("traces", worst_step, trace_report)
