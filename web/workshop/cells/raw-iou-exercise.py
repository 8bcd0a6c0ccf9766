# σ by hand: 1 − (mean distance of matched boxes) / (mean distance at chance).
loc = careful_pair.localization
my_sigma = None  # TODO: compute it from loc.mean_within and loc.mean_between

check("raw-iou", my_sigma, careful_pair)
