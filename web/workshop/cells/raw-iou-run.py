# Two careful annotators, and one who draws the same box on every image.
rows = simulate.centred_corpus(50, seed=7)          # careful_a, careful_b, fixed


def only(*names):
    return [row for row in rows if row["annotator"] in names]


careful_pair = agreekit.boxes(only("careful_a", "careful_b"), bootstrap=0)
with_fixed = agreekit.boxes(only("careful_a", "fixed"), bootstrap=0)
for name, report in [("careful", careful_pair), ("fixed", with_fixed)]:
    note(f"{name}.mean_iou", report.mean_matched_iou)
    note(f"{name}.sigma", report.localization.sigma.value)

fig, axes = plt.subplots(1, 2, figsize=(9, 3.4), sharey=True)
for ax, (title, report) in zip(axes, [("careful_a vs careful_b", careful_pair),
                                      ("careful_a vs fixed box", with_fixed)]):
    loc = report.localization
    ax.step(loc.within_ecdf.x, loc.within_ecdf.y, where="post", label="matched boxes (same image)")
    ax.step(loc.between_ecdf.x, loc.between_ecdf.y, where="post", label="chance (different images)")
    ax.set_title(f"{title}\nIoU {report.mean_matched_iou:.2f}, σ {loc.sigma.value:.2f}")
    ax.set_xlabel("distance (1 − GIoU) / 2")
    ax.set_xlim(0, 0.4)
axes[0].set_ylabel("share of pairs at or below")
axes[0].legend(loc="lower right")
show(fig, "ECDFs of matched and chance distances for the careful pair and for the fixed box")
