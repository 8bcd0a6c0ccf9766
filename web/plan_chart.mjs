// The "How many items?" chart (web/compare.mjs): the 95 % interval's half-width against the number
// of items, per coefficient of a plan (agreekit.plan): its check points (resampled corpora of n'
// items), the fitted curve h = c · n^(−½), the requested half-width as a line and the predicted n
// marked on it. n is on a log axis (the predictions reach far past the pilot).
//
// Every name reaches the picture as text (svg.mjs text()). The SVG carries its scales (data-x-domain,
// data-y-domain, data-plot: left top right bottom) so a test reads the points back in data units.

import { DASHES, OKABE_ITO, exact, legend, linear, round, s, text, title } from "./svg.mjs";

const WIDTH = 640, PLOT_HEIGHT = 240, LEFT = 56, RIGHT = 16, TOP = 14, AXIS = 40;
const CURVE_POINTS = 64;

/** The chart of `plan` (Plan.to_dict()), or null when no coefficient has a fit. */
export function planChart(plan) {
  const fitted = plan.coefficients.filter((c) => c.constant !== null && c.constant > 0);
  if (!fitted.length) return null;
  const [x0, x1] = nDomain(fitted);
  const y1 = 1.1 * Math.max(plan.half_width, ...fitted.flatMap((c) => [c.constant / Math.sqrt(x0),
    ...c.check_points.map((k) => k.half_width ?? 0)]));
  const [left, right, top, bottom] = [LEFT, WIDTH - RIGHT, TOP, TOP + PLOT_HEIGHT];
  const logX = linear([Math.log(x0), Math.log(x1)], [left, right]);
  const x = (n) => logX(Math.log(n));
  const y = linear([0, y1], [bottom, top]);
  // The number first: a long name is clipped in the legend (its full text in the entry's title).
  const entries = fitted.map((c, k) => ({ name: c.predicted_items === null ? c.name : `n ≈ ${c.predicted_items.toLocaleString("en-US")}: ${c.name}`,
    style: { colour: OKABE_ITO[k % OKABE_ITO.length], dash: DASHES[k % DASHES.length] } }));
  const [key, keyHeight] = legend(entries, left, bottom + AXIS, WIDTH - left);
  const height = bottom + AXIS + keyHeight + 6;
  const svg = s("svg", { width: WIDTH, height, viewBox: `0 0 ${WIDTH} ${height}`, class: "plan-chart", role: "img",
    "aria-label": `Half-width of the 95% interval against the number of items; requested ${plan.half_width}`,
    dataset: { xDomain: `${exact(x0)} ${exact(x1)}`, yDomain: `0 ${exact(y1)}`, plot: `${left} ${top} ${right} ${bottom}` } },
  s("rect", { x: 0, y: 0, width: WIDTH, height, fill: "#fff" }),
  axes({ x0, x1, y1, x, y, left, right, top, bottom }),
  s("line", { class: "requested", x1: left, x2: right, y1: round(y(plan.half_width)), y2: round(y(plan.half_width)),
    stroke: "#555", "stroke-dasharray": "5 4", dataset: { halfWidth: exact(plan.half_width) } },
  title(`requested half-width ${plan.half_width}`)),
  text(left + 4, y(plan.half_width) + 14, `requested ${plan.half_width}`, { fill: "#555" }));
  fitted.forEach((c, k) => svg.append(series(c, entries[k].style, { x, y, x0, x1, half: plan.half_width })));
  svg.append(key);
  return svg;
}

/** The n axis: from half the smallest check point to past the largest check point and prediction. */
function nDomain(coefficients) {
  const ns = coefficients.flatMap((c) => [...c.check_points.map((k) => k.n_items), c.predicted_items ?? 0]).filter((n) => n > 0);
  return [Math.min(...ns) / 1.5, Math.max(...ns) * 1.5];
}

/** One coefficient: its fitted curve, its check points and its predicted n on the requested line. */
function series(c, { colour, dash }, { x, y, x0, x1, half }) {
  const curve = Array.from({ length: CURVE_POINTS }, (_, i) => Math.exp(Math.log(x0) + (i / (CURVE_POINTS - 1)) * (Math.log(x1) - Math.log(x0))))
    .map((n, i) => `${i ? "L" : "M"}${round(x(n))},${round(y(c.constant / Math.sqrt(n)))}`).join(" ");
  const group = s("g", { class: "plan-series", dataset: { metric: c.name } },
    s("path", { class: "fit", d: curve, fill: "none", stroke: colour, "stroke-width": 2, "stroke-dasharray": dash || null,
      dataset: { constant: exact(c.constant) } }, title(`${c.name}: h = ${c.constant.toFixed(3)} · n^(−½)`)));
  for (const k of c.check_points) {
    if (k.half_width === null) continue;
    group.append(s("circle", { class: "check-point", cx: round(x(k.n_items)), cy: round(y(k.half_width)), r: 4, fill: colour,
      dataset: { n: String(k.n_items), halfWidth: exact(k.half_width) } }, title(`${c.name}: ${k.n_items} items, half-width ${k.half_width.toFixed(3)}`)));
  }
  if (c.predicted_items !== null) {
    const [px, py] = [round(x(c.predicted_items)), round(y(half))];
    group.append(s("path", { class: "predicted", d: `M${px},${py - 7} L${px + 6},${py} L${px},${py + 7} L${px - 6},${py} Z`,
      fill: "#fff", stroke: colour, "stroke-width": 2, dataset: { n: String(c.predicted_items), x: String(px), y: String(py) } },
    title(`${c.name}: ${c.predicted_items.toLocaleString("en-US")} items for a half-width of ${half}`)));
  }
  return group;
}

/** Frame, log ticks of n (1, 2, 5 × 10^k) and linear ticks of the half-width, with their titles. */
function axes({ x0, x1, y1, x, y, left, right, top, bottom }) {
  const group = s("g", { class: "axes", "font-size": 11 },
    s("rect", { x: left, y: top, width: right - left, height: bottom - top, fill: "none", stroke: "#999" }),
    text((left + right) / 2, bottom + 30, "items (n, log scale)", { "text-anchor": "middle" }),
    text(12, (top + bottom) / 2, "half-width", { "text-anchor": "middle", transform: `rotate(-90 12 ${round((top + bottom) / 2)})` }));
  for (let power = Math.floor(Math.log10(x0)); power <= Math.ceil(Math.log10(x1)); power += 1) {
    for (const m of [1, 2, 5]) {
      const n = m * 10 ** power;
      if (n < x0 || n > x1) continue;
      group.append(s("line", { x1: round(x(n)), x2: round(x(n)), y1: bottom, y2: bottom + 4, stroke: "#999" }),
        text(x(n), bottom + 16, n.toLocaleString("en-US"), { "text-anchor": "middle" }));
    }
  }
  const step = niceStep(y1 / 5);
  for (let v = 0; v <= y1 + 1e-12; v += step) {
    group.append(s("line", { x1: left - 4, x2: left, y1: round(y(v)), y2: round(y(v)), stroke: "#999" }),
      text(left - 6, y(v) + 4, Number(v.toPrecision(6)).toString(), { "text-anchor": "end" }));
  }
  return group;
}

/** 1, 2 or 5 × 10^k: the round step nearest above `raw`. */
function niceStep(raw) {
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= raw);
}
