# How much of the matched boxes' distance do the 12 worst images carry?
within = [row["mean_within"] for row in concentrated.items]
share_worst = None  # TODO: the 12 largest values of within, summed, over the sum of all of them

check("ks", share_worst, concentrated)
