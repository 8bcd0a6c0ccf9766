# Widths shrink like c / √n. How many images for an interval 0.05 wide?
import math

c = float(np.median([width * np.sqrt(n) for n, width in widths.items()]))
n_needed = math.ceil((c / 0.05) ** 2)

check("bootstrap", n_needed, widths)
