# One corpus, many match thresholds: where does the disagreement go?
rows = simulate.centred_corpus(50, seed=7)          # careful_a, careful_b, fixed
thresholds = [round(t, 2) for t in np.arange(0.5, 0.96, 0.05)]
sweep = {t: agreekit.boxes(rows, threshold=t, bootstrap=0) for t in thresholds}
for t, report in sweep.items():
    note(f"detection@{t}", report.detection.value)
    note(f"sigma@{t}", report.localization.sigma.value)
print("why α is missing at 0.5:", sweep[0.5].detection.reason)

fig, ax = plt.subplots(figsize=(6.5, 3.4))
alpha = [np.nan if r.detection.value is None else r.detection.value for r in sweep.values()]
sigma = [r.localization.sigma.value for r in sweep.values()]
ax.plot(thresholds, alpha, "o-", label="detection α")
ax.plot(thresholds, sigma, "s-", label="σ (localization)")
ax.axhline(0, color="grey", lw=0.8)
ax.set_xlabel("match threshold (IoU)")
ax.set_ylabel("agreement")
ax.legend()
show(fig, "Detection alpha and sigma against the match threshold")
