// Charts of the report cards (uPlot), each owned by the card it is drawn in and destroyed with it.
//
// A chart is made one frame after its card is built (the card then has its width), and only if the
// card is still in the page: a card replaced meanwhile gets none. `destroyCharts(root)` destroys
// every chart whose card is inside `root` or no longer in the page (render.mjs calls it before it
// replaces a report), so a recompute leaves as many live charts as the new report draws.

import uPlot from "../vendor/uplot/uPlot.esm.js";

const live = new Map();  // uPlot instance -> {card, observer}

/** The width of a chart in `card`, in CSS pixels. */
export function chartWidth(card) {
  return Math.max(280, Math.min(900, (card.clientWidth || 640) - 24));
}

/** A uPlot chart of `data` in `target` (inside `card`) next frame: `options(width)` → uPlot options. */
export function drawChart(card, target, options, data) {
  requestAnimationFrame(() => {
    if (!card.isConnected) return;  // replaced before it was drawn
    const plot = new uPlot(options(chartWidth(card)), data, target);
    const observer = new ResizeObserver(() => plot.setSize({ width: chartWidth(card), height: plot.height }));
    observer.observe(card);
    live.set(plot, { card, observer });
  });
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
