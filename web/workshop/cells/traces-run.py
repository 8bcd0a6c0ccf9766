# The calculator's traces example: three judges label each step of 8 agent runs.
trace_report = agreekit.traces(open("examples/traces.csv").read(), bootstrap=500)
for row in trace_report.steps:
    note(f"alpha@step{row['step']}", row["alpha"]["value"])
    note(f"agreement@step{row['step']}", row["percent_agreement"])
print("step 1:", trace_report.steps[0]["alpha"]["reason"])

fig, ax = plt.subplots(figsize=(6.5, 3.4))
steps = [row["step"] for row in trace_report.steps]
alpha = [np.nan if row["alpha"]["value"] is None else row["alpha"]["value"] for row in trace_report.steps]
ci = [row["alpha"]["ci"] or [np.nan, np.nan] for row in trace_report.steps]
ax.errorbar(steps, alpha, yerr=np.abs(np.array(ci).T - alpha), fmt="o-", capsize=3, label="α (95% interval)")
ax.plot(steps, [row["percent_agreement"] for row in trace_report.steps], "s--", label="percent agreement")
ax.set_xlabel("step")
ax.set_ylabel("agreement")
ax.legend()
show(fig, "Alpha and percent agreement per step of the traces")
