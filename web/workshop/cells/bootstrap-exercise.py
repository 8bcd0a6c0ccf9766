# Widths shrink like c / √n. How many images for an interval 0.05 wide?
c = None         # TODO: the median over the sweep of widths[n] * np.sqrt(n)
n_needed = None  # TODO: (c / 0.05) ** 2, rounded up to a whole image (math.ceil)

check("bootstrap", n_needed, widths)
