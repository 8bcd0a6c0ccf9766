// Charts of the report cards (uPlot), each owned by the card it is drawn in and destroyed with it.
//
// A chart is made one frame after its card is built (the card then has its width), and only if the
// card is still in the page: a card replaced meanwhile gets none. `destroyCharts(root)` destroys
// every chart whose card is inside `root` or no longer in the page (render.mjs calls it before it
// replaces a report), so a recompute leaves as many live charts as the new report draws.

import uPlot from "../vendor/uplot/uPlot.esm.js";
import { downloadBlob } from "./download.mjs";
import { s, serialize, linear } from "./svg.mjs";

const live = new Map();  // uPlot instance -> {card, observer}

/** The width of a chart in `card`, in CSS pixels. */
export function chartWidth(card) {
  return Math.max(280, Math.min(900, (card.clientWidth || 640) - 24));
}

/** A uPlot chart of `data` in `target` (inside `card`) next frame: `options(width)` → uPlot options. */
export function drawChart(card, target, options, data) {
  requestAnimationFrame(() => {
    if (!card.isConnected) return;  // replaced before it was drawn
    const settings = options(chartWidth(card));
    const plot = new uPlot(settings, data, target);
    const observer = new ResizeObserver(() => plot.setSize({ width: chartWidth(card), height: plot.height }));
    observer.observe(card);
    live.set(plot, { card, observer });
    addDownloads(card, target, plot, settings, data);
  });
}

/** The chart's file name: the card's title, as a slug. */
function chartName(card) {
  const title = card.querySelector("h3")?.textContent ?? "chart";
  return `agreekit-chart-${title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 60) || "chart"}`;
}

/** "Download PNG" (the drawn chart on white) and "Download SVG" (the same data as vector paths) under the chart. */
function addDownloads(card, target, plot, settings, data) {
  if (card.querySelector(":scope > .chart-actions")) return;
  const button = (label, onclick) => Object.assign(document.createElement("button"), { type: "button", textContent: label, onclick });
  const actions = document.createElement("p");
  actions.className = "table-actions chart-actions";
  actions.append(
    button("Download PNG", () => {
      const canvas = document.createElement("canvas");
      canvas.width = plot.ctx.canvas.width;
      canvas.height = plot.ctx.canvas.height;
      const context = canvas.getContext("2d");
      context.fillStyle = "#fff";
      context.fillRect(0, 0, canvas.width, canvas.height);
      context.drawImage(plot.ctx.canvas, 0, 0);
      canvas.toBlob((blob) => downloadBlob(`${chartName(card)}.png`, blob), "image/png");
    }),
    button("Download SVG", () => downloadBlob(`${chartName(card)}.svg`,
      new Blob([serialize(chartSvg(plot, settings, data, card.querySelector("[data-settings]")?.textContent ?? ""))],
        { type: "image/svg+xml" }))));
  target.after(actions);
}

/** "M x y L …" of one series in pixels (`stepped`: a step function, right-continuous); a null starts a new piece. */
function seriesPath(xs, ys, X, Y, stepped) {
  const parts = [];
  let previous = null;
  for (let i = 0; i < xs.length; i++) {
    if (ys[i] == null || xs[i] == null) { previous = null; continue; }
    const x = X(xs[i]).toFixed(2), y = Y(ys[i]).toFixed(2);
    if (previous === null) parts.push(`M${x} ${y}`);
    else if (stepped) parts.push(`H${x}V${y}`);
    else parts.push(`L${x} ${y}`);
    previous = i;
  }
  return parts.join("");
}

/**
 * The chart as SVG: its axes (range and labels), each shown series as a path with its colour,
 * dash and name (data-series, data-points: how many points it draws), a legend, and `caption` (the
 * report's settings) under it, so that the file names what it was computed with.
 */
export function chartSvg(plot, settings, data, caption = "") {
  const width = plot.width, height = plot.height, m = { l: 58, r: 14, t: 28, b: 42 };
  const total = height + (caption ? 20 : 0);
  const [x0, x1] = [plot.scales.x.min, plot.scales.x.max];
  const [y0, y1] = [plot.scales.y.min, plot.scales.y.max];
  const X = linear([x0, x1], [m.l, width - m.r]), Y = linear([y0, y1], [height - m.b, m.t]);
  const label = (i) => settings.axes?.[i]?.label ?? "";
  const svg = s("svg", { width, height: total, viewBox: `0 0 ${width} ${total}`, "font-family": "sans-serif", "font-size": 12 },
    s("rect", { x: 0, y: 0, width, height: total, fill: "#fff" }),
    caption ? s("text", { x: 4, y: total - 6, "font-size": 10, fill: "#555", class: "caption" }, caption) : null,
    s("path", { d: `M${m.l} ${m.t}V${height - m.b}H${width - m.r}`, fill: "none", stroke: "#555" }),
    [[x0, m.l, "start"], [x1, width - m.r, "end"]].map(([v, x, anchor]) =>
      s("text", { x, y: height - m.b + 16, "text-anchor": anchor }, Number(v.toPrecision(4)).toString())),
    [[y0, height - m.b], [y1, m.t + 10]].map(([v, y]) => s("text", { x: m.l - 6, y, "text-anchor": "end" }, Number(v.toPrecision(4)).toString())),
    s("text", { x: (m.l + width - m.r) / 2, y: height - 8, "text-anchor": "middle" }, label(0)),
    s("text", { x: 14, y: (m.t + height - m.b) / 2, "text-anchor": "middle", transform: `rotate(-90 14 ${(m.t + height - m.b) / 2})` }, label(1)));
  let legendX = m.l;
  settings.series.forEach((series, i) => {
    if (i === 0 || series.show === false || !series.stroke) return;
    const points = data[0].filter((x, k) => x != null && data[i][k] != null).length;
    svg.append(s("path", { d: seriesPath(data[0], data[i], X, Y, Boolean(series.paths)), fill: "none", stroke: series.stroke,
      "stroke-width": series.width ?? 1.5, "stroke-dasharray": series.dash ? series.dash.join(" ") : null,
      dataset: { series: series.label ?? `series ${i}`, points } }));
    svg.append(s("line", { x1: legendX, y1: 12, x2: legendX + 22, y2: 12, stroke: series.stroke, "stroke-width": 2,
      "stroke-dasharray": series.dash ? series.dash.join(" ") : null }),
    s("text", { x: legendX + 26, y: 16 }, series.label ?? ""));
    legendX += 40 + 7 * String(series.label ?? "").length;
  });
  return svg;
}

/** Destroy the charts whose card is inside `root` or out of the page. */
export function destroyCharts(root) {
  for (const [plot, { card, observer }] of live) {
    if (card.isConnected && !root.contains(card)) continue;
    observer.disconnect();
    plot.destroy();
    live.delete(plot);
  }
}

/** How many charts are alive (tests/browser/test_kind_modules.py counts them across recomputes). */
export function liveCharts() {
  return live.size;
}

/** uPlot's stepped path builder (for step functions). */
export const steppedPaths = (options) => uPlot.paths.stepped(options);
