# From which threshold on does the fixed box stop matching often enough for detection α to exist?
lowest_defined = None  # TODO: the smallest t in sweep whose sweep[t].detection.value is not None

check("threshold", lowest_defined, sweep)
