# From which threshold on does the fixed box stop matching often enough for detection α to exist?
lowest_defined = min(t for t, report in sweep.items() if report.detection.value is not None)

check("threshold", lowest_defined, sweep)
