# The calculator's segments example: three annotators, speech and music in four clips.
tolerances = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0)
clip_report = agreekit.segments(open("examples/segments.csv").read(), tolerances=tolerances, bootstrap=200)
for row in clip_report.boundary_sweep:
    note(f"f1@{row['tolerance']}", row["f1"])
note("detection", clip_report.detection.value)

fig, ax = plt.subplots(figsize=(6.5, 3.4))
f1 = [row["f1"] for row in clip_report.boundary_sweep]
low = [row["f1_ci"][0] if row["f1_ci"] else np.nan for row in clip_report.boundary_sweep]
high = [row["f1_ci"][1] if row["f1_ci"] else np.nan for row in clip_report.boundary_sweep]
ax.fill_between(tolerances, low, high, alpha=0.25, label="95% interval")
ax.plot(tolerances, f1, "o-", label="boundary F1")
ax.set_xscale("log")
ax.set_xlabel("tolerance ± seconds")
ax.set_ylabel("F1")
ax.set_ylim(0, 1)
ax.legend()
show(fig, "Boundary F1 against the tolerance")
