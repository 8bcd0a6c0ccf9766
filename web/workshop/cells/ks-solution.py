# How much of the matched boxes' distance do the 12 worst images carry?
within = [row["mean_within"] for row in concentrated.items]
share_worst = sum(sorted(within, reverse=True)[:12]) / sum(within)

check("ks", share_worst, concentrated)
