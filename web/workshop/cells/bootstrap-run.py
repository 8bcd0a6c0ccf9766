# The same annotators on the first n of 160 images: how wide is σ's 95% interval?
rows = simulate.centred_corpus(160, seed=7, annotators=("careful_a", "careful_b"))
sizes = (10, 20, 40, 80, 160)
widths = {}
for n in sizes:
    first = {f"img{i:03d}" for i in range(n)}
    report = agreekit.boxes([row for row in rows if row["item"] in first], bootstrap=500)
    low, high = report.localization.sigma.ci
    widths[n] = high - low
    note(f"sigma@{n}", report.localization.sigma.value)
    note(f"width@{n}", widths[n])

fig, ax = plt.subplots(figsize=(6.5, 3.4))
ax.loglog(sizes, list(widths.values()), "o-", label="interval width")
c = widths[sizes[0]] * np.sqrt(sizes[0])
ax.loglog(sizes, [c / np.sqrt(n) for n in sizes], ":", label="∝ 1/√n")
ax.set_xlabel("images")
ax.set_ylabel("width of σ's 95% interval")
ax.legend()
show(fig, "Width of the bootstrap interval of sigma against the number of images")
