// Segments: the page's part of the kind (its report cards: σ against within-clip chance, the
// boundary sweep; its item pictures: a timeline, one lane per annotator, with the boundary
// sweep's matches under a tolerance slider), read by web/kinds.mjs.

import { ecdfChart, nestedTable, recordsTable, unitizingTable } from "../cards.mjs";
import { drawChart } from "../charts.mjs";
import { h, get, estimate, coefficient, settingsLine, figureSettings, section } from "../dom.mjs";
import { OBJECT_ITEMS, chanceDetectionNote } from "../object_cards.mjs";
import { referenceCards } from "../reference_cards.mjs";
import { FramePacer, withTitle, strokeOf, shapeData, matchLines, objectCaption, objectLegend } from "../item_draw.mjs";
import { s, title, text, round, exact, linear, extent, padded, clip } from "../svg.mjs";

/** The words that belong to this kind (its objects, items and measures): other kinds' cards never use them
 *  (tests/browser/test_captions.py scans every tab for the other kinds' nouns). */
export const nouns = ["segment", "segments", "clip", "clips", "seconds", "temporal IoU", "IoU"];

/** Its words in the reference cards (reference_cards.mjs). */
export const referenceWords = { similarity: "temporal IoU", drawn: "marked" };

/** The chance baseline of the ECDF chart: each clip's segments placed at random inside it. */
const WITHIN_CLIP_CHANCE = { key: "chance_ecdf", title: "Within-clip vs chance distances (ECDF)", series: "chance placements",
  text: ["Matched segments' distances to the left of those matched after each clip's segments are placed at random ",
    "inside the clip mean agreement on timing beyond chance; to the right, worse than random timing. "] };

/** The summary card's headline (headline.mjs): σ against each clip's segments placed at random. */
export const headline = () => ({ key: "localization.sigma", symbol: "σ", scale: "chance",
  label: "σ (sigma): timing agreement beyond chance, 1 − mean within-clip distance / mean distance after random placement",
  name: "Timing agreement", chance: "the same clips' segments placed at random",
  counts: [["n_items", "clips"], ["n_annotators", "annotators"], ["n_segments", "segments"]] });

export function cards(report, page) {
  const loc = "localization";
  return [
    () => h("section", { class: "card headline-card" },
      h("h3", {}, "Timing agreement beyond chance"),
      h("div", { class: "contrast" },
        coefficient(report, "σ (sigma, within-clip chance)", `${loc}.sigma`, { big: true,
          explain: "1 = matched segments coincide · 0 = no closer than the same clip's segments placed at random (each keeps its length) and matched again · below 0 = worse than random timing" }),
        coefficient(report, "Unitizing α_U", "unitizing_alpha", { big: true,
          explain: "Krippendorff's (2004) α_U over the seconds of each clip, the clips laid end to end." })),
      h("div", { class: "row" },
        coefficient(report, "KS statistic D (within vs chance)", `${loc}.ks`, { interval: false }),
        // Potato mode has σ and KS only (both undefined): no ingredients to show.
        get(report, `${loc}.mean_chance`) === undefined ? null : [
          estimate(report, "Mean within-clip distance", `${loc}.mean_within`),
          estimate(report, "Mean chance distance", `${loc}.mean_chance`),
          estimate(report, "Chance placements K", `${loc}.chance_placements`),
          estimate(report, "Standard error of the chance mean", `${loc}.chance_se`)]),
      typeof get(report, `${loc}.assumption`) === "string" ? h("p", { class: "muted" }, get(report, `${loc}.assumption`)) : null,
      settingsLine(report)),
    ...referenceCards(report, page, referenceWords),
    () => section("Segment agreement", report,
      h("div", { class: "row" },
        estimate(report, "Mean matched temporal IoU", "mean_matched_iou", { big: true }),
        estimate(report, "Detection F1", "detection_f1"),
        estimate(report, "Mean agreement", "mean_agreement"),
        estimate(report, "Mean object-count difference", "mean_object_count_diff")),
      h("div", { class: "row" },
        coefficient(report, "Detection α", "detection"),
        coefficient(report, "Classification α", "classification")),
      chanceDetectionNote(report)),
    () => (get(report, `${loc}.chance_ecdf`) ? ecdfChart(report, WITHIN_CLIP_CHANCE) : null),
    () => recordsTable(report, "boundary_sweep", "Boundary-tolerance sweep (starts to starts, ends to ends)", { page,
      explain: "Boundary precision, recall and F1 at each tolerance, pooled over items and annotator pairs." }),
    () => sweepChart(report),
    () => recordsTable(report, "pairs", "Per annotator pair", { page }),
    () => nestedTable(report, "pairs", "boundary_sweep", ["a", "b"], "Boundary sweep per annotator pair", { page }),
    () => recordsTable(report, "annotators", "Per annotator (against all others)", { page }),
    () => unitizingTable(report, page),
    () => recordsTable(report, "items", "Per item", { page }),
  ];
}

/** Boundary precision/recall/F1 against tolerance (segments). */
function sweepChart(report) {
  const sweep = report.boundary_sweep;
  if (!Array.isArray(sweep) || !sweep.length) return null;
  const sorted = [...sweep].sort((a, b) => a.tolerance - b.tolerance);
  const card = h("section", { class: "card chart-card" }, h("h3", {}, "Boundary F1 by tolerance"));
  const target = h("div", { class: "chart", role: "img", "aria-label": "Boundary precision, recall and F1 against tolerance" });
  card.append(h("p", { class: "muted" }, "High F1 at wide tolerance with low F1 at narrow tolerance: annotators agree that an event happened, not exactly when."),
    target, figureSettings(report));
  const positive = sorted.every((r) => r.tolerance > 0);
  drawChart(card, target, (width) => ({
    width, height: 260,
    scales: { x: { time: false, distr: positive && sorted.length > 1 ? 3 : 1 }, y: { range: [0, 1] } },
    axes: [{ label: "tolerance (s)" }, { label: "score" }],
    series: [{ label: "tolerance" },
      { label: "precision", stroke: "#1f5fbf", width: 2, points: { show: true } },
      { label: "recall", stroke: "#c26a00", width: 2, dash: [5, 3], points: { show: true } },
      { label: "F1", stroke: "#2e7d32", width: 3, points: { show: true } }],
  }), [sorted.map((r) => r.tolerance), sorted.map((r) => r.precision ?? null), sorted.map((r) => r.recall ?? null), sorted.map((r) => r.f1 ?? null)]);
  return card;
}

// ------------------------------------------------------------------ item views

export const items = OBJECT_ITEMS;

export const picture = {
  similarity: "temporal IoU",
  height: (detail, thumbnail) => detail.annotators.length * (thumbnail ? 14 : 30),
  caption: (detail) => objectCaption(detail, "temporal IoU"),
  legend: legendEntries,
  draw: drawSegments,
};

/** The objects' legend, and the boundary layer's when the item has boundaries. */
function legendEntries(context) {
  const entries = objectLegend(context);
  if (context.detail.boundaries?.points.length) {
    entries.push({ name: "boundary match within ±τ", style: { colour: BOUNDARY_MATCH, dash: "", width: 1 } },
      { name: "±τ window of a boundary", style: { colour: "#80838b", dash: "", width: 8 } });
  }
  return entries;
}

function ticks([lo, hi], count) {
  const raw = (hi - lo) / count, power = 10 ** Math.floor(Math.log10(raw || 1));
  const step = [1, 2, 5, 10].map((m) => m * power).find((v) => v >= raw) ?? raw;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

async function drawSegments(context, box) {
  const { detail, thumbnail } = context;
  if (!thumbnail) context.pacer = new FramePacer();
  const lanes = detail.annotators;
  const laneHeight = thumbnail ? 14 : 30, barHeight = thumbnail ? 9 : 16, axis = thumbnail ? 0 : 22;
  const labelWidth = thumbnail ? 0 : 110;
  const range = padded(extent(detail.shapes.flatMap(({ geometry: g }) => [g.start, g.end])), 0.02);
  const X = linear(range, [box.x + labelWidth, box.x + box.width]);
  const laneOf = new Map(lanes.map((name, k) => [name, k]));
  const barTop = (name) => box.y + laneOf.get(name) * laneHeight + (laneHeight - barHeight) / 2;
  let height = lanes.length * laneHeight + axis;
  const { group } = context;
  lanes.forEach((name, k) => {
    group.append(s("rect", { x: box.x + labelWidth, y: box.y + k * laneHeight, width: round(box.width - labelWidth),
      height: laneHeight, fill: k % 2 ? "#f7f8fa" : "#fff" }));
    if (!thumbnail) group.append(text(box.x, box.y + k * laneHeight + laneHeight / 2 + 4, clip(name, 16), { "font-size": 11 }));
  });
  if (!thumbnail) {
    const bottom = box.y + lanes.length * laneHeight;
    for (const t of ticks(range, 8)) {
      group.append(s("line", { x1: round(X(t)), x2: round(X(t)), y1: box.y, y2: bottom + 4, stroke: "#e3e5e8" }),
        text(X(t) - 10, bottom + 16, `${t} s`, { "font-size": 10, fill: "#555" }));
    }
  }
  const boundaries = !thumbnail && detail.boundaries?.points.length
    ? new BoundaryLayer(context, { X, laneTop: (name) => box.y + laneOf.get(name) * laneHeight, laneHeight, range }) : null;
  if (boundaries) group.append(boundaries.windows);  // under the bars
  for (const shape of detail.shapes) {
    const g = shape.geometry;
    group.append(withTitle(context, s("rect", { x: round(X(g.start)), y: round(barTop(shape.annotator)),
      width: round(Math.max(1, X(g.end) - X(g.start))), height: barHeight, ...strokeOf(context, shape),
      fill: context.styleOf(shape.annotator).colour, "fill-opacity": shape.n_matched === 0 && lanes.length > 1 ? 0.5 : 0.25,
      dataset: shapeData(context, shape, { start: exact(g.start), end: exact(g.end) }) }), shape));
    await context.pacer.tick();
  }
  group.append(await matchLines(context, (shape, side) => {
    const g = shape.geometry;
    return [X((g.start + g.end) / 2), barTop(shape.annotator) + (side === "a" ? barHeight : 0)];
  }));
  if (boundaries) {
    height += await boundaries.draw({ x: box.x + labelWidth, y: box.y + height + 4, width: box.width - labelWidth });
    context.controls?.(boundaries.control());
  }
  return { group, height };
}

// ------------------------------------------------------------------ segments: the boundary sweep's matches

const BOUNDARY_MATCH = "#0b57d0";  // a boundary match at the chosen tolerance

/** Seconds as the slider and the counts show them: ±0.25 s. */
function seconds(value) {
  return `±${Number(value.toPrecision(6))} s`;
}

/**
 * The boundaries of a segments item (detail.boundaries: bridge.py → item_detail.boundary_detail):
 * a tick per start and end on its annotator's lane, a ±τ window around each (one path per lane,
 * whose stroke width is the window: a slider change rewrites one attribute per lane), the
 * boundary matches at τ (a layer per tolerance, drawn when first shown and kept) and the count of
 * matched boundaries of each pair at τ. Only this layer changes with the slider.
 */
class BoundaryLayer {
  constructor(context, { X, laneTop, laneHeight, range }) {
    const { boundaries } = context.detail;
    Object.assign(this, { context, X, laneTop, laneHeight, boundaries, layers: new Map(), counts: [], request: 0 });
    this.index = Math.floor((boundaries.tolerances.length - 1) / 2);  // the middle tolerance first
    this.secondWidth = Math.abs(X(range[0] + 1) - X(range[0]));       // pixels per second
    const paths = new Map(context.detail.annotators.map((name) => [name, []]));
    for (const p of boundaries.points) {
      const top = laneTop(p.annotator);
      paths.get(p.annotator)?.push(`M${round(X(p.time))} ${round(top + 1)}V${round(top + laneHeight - 1)}`);
    }
    this.windows = s("g", { class: "tolerance-windows" });
    this.bands = [...paths].map(([name, parts]) => s("path", { d: parts.join("") || "M0 0", fill: "none",
      stroke: context.styleOf(name).colour, "stroke-opacity": 0.16, class: "tolerance-window", dataset: { annotator: name } }));
    this.windows.append(...this.bands);
    this.matches = s("g", { class: "boundary-matches" });
  }

  /** The ticks, the first tolerance's matches and the counts under the lanes; returns the height used. */
  async draw(box) {
    const { context, X, laneTop, laneHeight } = this;
    const ticks = s("g", { class: "boundaries" });
    context.group.append(ticks, this.matches);  // in the page first: each frame styles only its new ticks
    // Titles when first hovered: thousands of boundaries would double the picture's elements.
    for (const layer of [ticks, this.matches]) layer.addEventListener("pointerover", (event) => this.addTitle(event.target));
    for (const p of this.boundaries.points) {
      const top = laneTop(p.annotator), x = round(X(p.time));
      // starts hang from the lane's top, ends stand on its bottom (not dashed: 3,000 dashed ticks cost paint)
      const [y1, y2] = p.kind === "start" ? [top + 2, top + laneHeight * 0.7] : [top + laneHeight * 0.3, top + laneHeight - 2];
      const node = s("line", { x1: x, x2: x, y1: round(y1), y2: round(y2), stroke: context.styleOf(p.annotator).colour, "stroke-width": 1,
        opacity: context.focus && !context.focus.includes(p.annotator) ? 0.25 : null, class: `boundary boundary-${p.kind}`, dataset: { annotator: p.annotator, time: exact(p.time), kind: p.kind, line: p.line } });
      ticks.append(node);
      await context.pacer.tick();
    }
    const perRow = Math.max(1, Math.floor(box.width / 220));
    this.caption = text(box.x, box.y + 10, "", { "font-size": 11, fill: "#555", class: "boundary-caption" });
    const counts = s("g", { class: "boundary-counts" }, this.caption);
    this.boundaries.pairs.forEach((pair, k) => {
      const node = text(box.x + (k % perRow) * 220, box.y + 26 + Math.floor(k / perRow) * 14, "", { "font-size": 11,
        class: "boundary-count", dataset: { a: pair.a, b: pair.b } });
      this.counts.push(node);
      counts.append(node);
    });
    context.group.append(counts);
    await this.show(this.index);
    return 30 + Math.ceil(this.boundaries.pairs.length / perRow) * 14;
  }

  /** The slider: steps over the report's tolerances; moving it redraws this layer only. */
  control() {
    const { tolerances } = this.boundaries;
    const output = h("output", { class: "boundary-tolerance-value" }, seconds(tolerances[this.index]));
    const input = h("input", { type: "range", min: "0", max: String(tolerances.length - 1), step: "1", value: String(this.index),
      "aria-valuetext": seconds(tolerances[this.index]), dataset: { tolerance: exact(tolerances[this.index]) } });
    input.addEventListener("input", () => {
      const index = Number(input.value), value = tolerances[index];
      output.textContent = seconds(value);
      input.setAttribute("aria-valuetext", seconds(value));
      input.dataset.tolerance = exact(value);
      this.show(index);
    });
    return h("div", { class: "item-controls boundary-control" },
      h("label", {}, "Boundary tolerance ", input), " ", output,
      h("span", { class: "muted" }, ` (the report's sweep: ${tolerances.map((t) => `${t} s`).join(", ")})`));
  }

  /** Show tolerance `index`: window widths, its matches (drawn once, then kept), its counts. */
  async show(index) {
    const request = ++this.request;
    const tolerance = this.boundaries.tolerances[index];
    this.index = index;
    Object.assign(this.matches.dataset, { tolerance: exact(tolerance), state: "drawing" });
    const width = String(round(2 * tolerance * this.secondWidth));
    for (const band of this.bands) { band.setAttribute("stroke-width", width); band.dataset.tolerance = exact(tolerance); }
    this.caption.textContent = `Ticks: starts (from the top), ends (from the bottom) · bands: ${seconds(tolerance)} · ` +
      "blue: matched one-to-one (the sweep's)";
    this.boundaries.pairs.forEach((pair, k) => {
      const row = pair.by_tolerance[index];
      this.counts[k].textContent = `${clip(pair.a, 14)}–${clip(pair.b, 14)}: ${row.matched} matched of ${pair.n_a} + ${pair.n_b}`;
      Object.assign(this.counts[k].dataset, { tolerance: exact(tolerance), matched: row.matched, nA: pair.n_a, nB: pair.n_b });
    });
    if (this.layers.has(index)) {
      this.matches.replaceChildren(this.layers.get(index));
    } else {
      const layer = s("g", { dataset: { tolerance: exact(tolerance) } });
      this.matches.replaceChildren(layer);  // drawn in place, a frame at a time
      if (!await this.drawMatches(layer, index, () => request === this.request)) return;  // the slider moved on
      this.layers.set(index, layer);
    }
    this.matches.dataset.state = "drawn";
  }

  /** A boundary's or a boundary match's `<title>`, from its data attributes. */
  addTitle(node) {
    if (node.firstChild || !(node.classList.contains("boundary") || node.classList.contains("boundary-match"))) return;
    const d = node.dataset;
    node.append(title(node.classList.contains("boundary") ? `${d.annotator} · ${d.kind} ${d.time} s · line ${d.line}`
      : `${d.kind} ${d.timeA} s (${d.a}, line ${d.lineA}) ↔ ${d.timeB} s (${d.b}, line ${d.lineB}) · ` +
        `|Δ| ${Math.abs(d.timeA - d.timeB).toPrecision(3)} s within ${seconds(Number(d.tolerance))}`));
  }

  /** Add to `layer` the lines joining the boundary matches at tolerance `index`; false if `current()` turns false. */
  async drawMatches(layer, index, current) {
    const { X, laneTop, laneHeight, boundaries } = this;
    const { points, tolerances } = boundaries;
    const tolerance = tolerances[index];
    const pacer = new FramePacer(800);  // plain lines without titles: more per frame than the picture
    for (const pair of boundaries.pairs) {
      const row = pair.by_tolerance[index];
      const down = laneTop(pair.a) < laneTop(pair.b);
      for (let k = 0; k < row.a.length; k += 1) {
        const p = points[row.a[k]], q = points[row.b[k]];
        const line = s("line", { x1: round(X(p.time)), y1: round(laneTop(p.annotator) + (down ? laneHeight - 2 : 2)),
          x2: round(X(q.time)), y2: round(laneTop(q.annotator) + (down ? 2 : laneHeight - 2)), stroke: BOUNDARY_MATCH,
          "stroke-width": 1, class: "boundary-match", dataset: { a: p.annotator, b: q.annotator, kind: p.kind,
            timeA: exact(p.time), timeB: exact(q.time), lineA: p.line, lineB: q.line, tolerance: exact(tolerance) } });
        layer.append(line);
        await pacer.tick();
        if (!current()) return false;
      }
    }
    return true;
  }
}
