# 1. Below chance: one careful annotator against the fixed box (the calculator's example).
fixed = agreekit.boxes(open("examples/boxes-fixed.csv").read(), bootstrap=0)
note("fixed.sigma", fixed.localization.sigma.value)
note("fixed.ks", fixed.localization.ks.value)

# 2. The same σ can hide different stories: a few bad images, or every image a bit off.
concentrated = agreekit.boxes(simulate.concentrated_corpus(), threshold=0.2, bootstrap=0)
spread = agreekit.boxes(simulate.concentrated_corpus(n_careless=0, noise=0.045), threshold=0.2, bootstrap=0)
for name, report in [("concentrated", concentrated), ("spread", spread)]:
    note(f"{name}.sigma", report.localization.sigma.value)
    note(f"{name}.ks", report.localization.ks.value)
print("images with the largest distance (concentrated):",
      [row["item"] for row in concentrated.items[:5]])

fig, axes = plt.subplots(1, 2, figsize=(9, 3.4), sharey=True)
for ax, (title, report) in zip(axes, [("a few bad images", concentrated), ("every image a bit off", spread)]):
    loc = report.localization
    ax.step(loc.within_ecdf.x, loc.within_ecdf.y, where="post", label="matched")
    ax.step(loc.between_ecdf.x, loc.between_ecdf.y, where="post", label="chance")
    ax.set_title(f"{title}: σ {loc.sigma.value:.2f}, KS {loc.ks.value:.2f}")
    ax.set_xlabel("distance (1 − GIoU) / 2")
axes[0].set_ylabel("share of pairs at or below")
axes[0].legend(loc="lower right")
show(fig, "ECDFs of a corpus with a few bad images and of one with evenly spread disagreement")
