// Views for polygons, masks, cuboids and traces, added to the box/span/segment renderer.
//
// Same rules as render.mjs: every number is an element with data-metric="<dotted report key>"
// and data-value="<full precision or null>"; text from the input reaches the DOM as text only.

import uPlot from "../vendor/uplot/uPlot.esm.js";
import { VIEWS, boxesView, recordsTable, chartWidth, responsive } from "./render.mjs";
import { h, get, metric, estimate, coefficient, estimateCell, settingsLine, section } from "./dom.mjs";
import { downloadText, toCsv } from "./download.mjs";
import { CLASS, COLOURS } from "./masks_draw.mjs";
import { registerItemDrawer } from "./item_view.mjs";
import { maskItemDrawer } from "./masks_view.mjs";

export { renderReport } from "./render.mjs";

const TABLE_PREVIEW_ROWS = 50;
const MASK_ITEMS_PER_PAGE = 6;
const MASK_DISPLAY_PX = 150;   // longer side of each drawn mask, in CSS pixels
const MASK_MAX_CANVAS = 360;   // longer side of a canvas; larger masks are pooled (any disagreement wins)
const MASK_VIEW_CANVAS = 720;  // the same in an item view (masks_view.mjs), shown 300 px wide: sharp at 2× zoom
// Larger masks are not drawn. The drawing worker's time grows with the runs, not the pixels, but a
// figure of a mask this large pools blocks of 40 × 40 pixels or more into each canvas pixel and shows little.
const MASK_MAX_PIXELS = 200_000_000;

// ------------------------------------------------------------------ tables of records holding estimates

/**
 * A table of report records whose columns are text, numbers or estimates ({value, ci, reason}),
 * each at a dotted path in the record, with a CSV download.
 */
function estimateTable(report, key, title, columns, { kind, explain } = {}) {
  const records = get(report, key);
  if (!Array.isArray(records)) return null;
  const cell = (record, i, { path, type }) => {
    const value = get(record, path);
    const where = `${key}.${i}.${path}`;
    if (type === "estimate") return estimateCell(where, value);
    if (type === "number") return h("td", { class: "num" }, metric(where, typeof value === "number" ? value : null));
    return h("td", {}, value == null ? "" : String(value));
  };
  const row = (record, i) => h("tr", {}, columns.map((column) => cell(record, i, column)));
  const tbody = h("tbody", {}, records.slice(0, TABLE_PREVIEW_ROWS).map(row));
  const card = h("section", { class: "card table-card", dataset: { table: key } }, h("h3", {}, title),
    explain ? h("p", { class: "muted" }, explain) : null,
    h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": title },
      h("table", {}, h("thead", {}, h("tr", {}, columns.map(({ title: name, type }) =>
        h("th", { scope: "col", class: type === "text" ? "" : "num" }, name)))), tbody)));
  const actions = h("p", { class: "table-actions" });
  if (records.length > TABLE_PREVIEW_ROWS) {
    const more = h("button", { type: "button" }, `Show all ${records.length.toLocaleString("en-US")} rows`);
    const note = h("span", { class: "muted" }, `Showing ${TABLE_PREVIEW_ROWS} of ${records.length.toLocaleString("en-US")}. `);
    more.addEventListener("click", async () => {
      note.remove(); more.remove();
      for (let start = TABLE_PREVIEW_ROWS; start < records.length; start += 400) {  // in slices: the page stays responsive
        tbody.append(...records.slice(start, start + 400).map((r, k) => row(r, start + k)));
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    });
    actions.append(note, more, " ");
  }
  const downloadCsv = () => {
    const names = columns.flatMap(({ path, type }) => (type === "estimate"
      ? [path, `${path}_ci_low`, `${path}_ci_high`, `${path}_reason`] : [path]));
    const flat = records.map((record) => Object.fromEntries(columns.flatMap(({ path, type }) => {
      const value = get(record, path);
      if (type !== "estimate") return [[path, value ?? null]];
      return [[path, value?.value ?? null], [`${path}_ci_low`, value?.ci?.[0] ?? null],
        [`${path}_ci_high`, value?.ci?.[1] ?? null], [`${path}_reason`, value?.reason ?? null]];
    })));
    downloadText(`agreekit-${kind}-${key.replace(/\./g, "-")}.csv`, toCsv(names, flat), "text/csv");
  };
  actions.append(h("button", { type: "button", onclick: downloadCsv }, "Download CSV"));
  card.append(actions, settingsLine(report));
  return card;
}

// ------------------------------------------------------------------ polygons and cuboids: the box view

VIEWS.polygons = (report, kind) => boxesView(report, kind, { objects: "Polygons", countKey: "n_polygons" });
VIEWS.cuboids = (report, kind) => boxesView(report, kind, { objects: "Cuboids", countKey: "n_cuboids" });

// ------------------------------------------------------------------ masks

const ANNOTATOR_COLUMNS = [
  ["sensitivity", "Sensitivity"],
  ["specificity", "Specificity"],
  ["dice", "Dice vs consensus"],
  ["majority_dice", "Dice vs majority"],
  ["mean_iou", "Mean IoU vs others"],
];

function maskAnnotatorTable(report, kind) {
  return estimateTable(report, "annotators", "Per annotator (means over items)", [
    { path: "annotator", title: "Annotator", type: "text" }, { path: "n_items", title: "Items", type: "number" },
    ...ANNOTATOR_COLUMNS.map(([path, title]) => ({ path, title, type: "estimate" }))], { kind,
    explain: "Sensitivity: share of the consensus foreground the annotator marked; specificity: share of the " +
      "consensus background it left unmarked (STAPLE's estimates). Low sensitivity means under-segmenting (ask for fuller " +
      "outlines), low specificity over-segmenting (ask for tighter ones): opposite fixes, so both are shown. Dice is against " +
      "the STAPLE consensus and against the majority vote; mean IoU against each other annotator." });
}

function maskItemTable(report, kind) {
  const items = Array.isArray(report.items) ? report.items : [];
  const title = "Per item (lowest mean Dice first)";
  const columns = [["mean_pairwise_iou", "Mean pairwise IoU"], ["consensus_area", "Consensus area (px)"],
    ["majority_area", "Majority area (px)"], ["consensus_majority_dice", "Dice consensus vs majority"],
    ["prior", "Prior π"], ["iterations", "EM iterations"]];
  const downloadCsv = () => {
    const names = ["item", "width", "height", ...columns.map(([k]) => k), "converged"];
    downloadText(`agreekit-${kind}-items.csv`, toCsv(names, items), "text/csv");
  };
  return h("section", { class: "card table-card", dataset: { table: "items" } }, h("h3", {}, title),
    h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": title },
      h("table", {},
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Item"), h("th", { scope: "col", class: "num" }, "Size"),
          columns.map(([, label]) => h("th", { scope: "col", class: "num" }, label)), h("th", { scope: "col" }, "Converged"))),
        h("tbody", {}, items.map((item, i) => h("tr", {},
          h("th", { scope: "row" }, String(item.item)),
          h("td", { class: "num" }, metric(`items.${i}.width`, item.width ?? null), " × ", metric(`items.${i}.height`, item.height ?? null)),
          columns.map(([k]) => h("td", { class: "num" }, metric(`items.${i}.${k}`, item[k] ?? null))),
          h("td", {}, item.converged ? "yes" : "no (stopped at the iteration limit)")))))),
    h("p", { class: "table-actions" }, h("button", { type: "button", onclick: downloadCsv }, "Download CSV (without runs)")),
    settingsLine(report));
}

// ------------------------------------------------------------------ mask figures, drawn in a worker

/** The mask-drawing worker (masks_worker.mjs): one at a time, replaced when a new report is shown. */
const drawer = {
  worker: null, pending: new Map(), nextId: 1,
  /** Forget the drawings of an earlier report: stop its worker if it is still drawing. */
  reset() {
    if (this.worker && this.pending.size) { this.worker.terminate(); this.worker = null; }
    for (const { reject } of this.pending.values()) reject(new Error("replaced by a newer report"));
    this.pending.clear();
  },
  draw(item, maxCanvas = MASK_MAX_CANVAS) {
    if (!this.worker) {
      this.worker = new Worker(new URL("./masks_worker.mjs", import.meta.url), { type: "module" });
      this.worker.onmessage = ({ data }) => {
        const job = this.pending.get(data.id);
        this.pending.delete(data.id);
        if (data.error) job?.reject(new Error(data.error)); else job?.resolve(data);
      };
    }
    const id = this.nextId++;
    const runs = { width: item.width, height: item.height, consensus: item.consensus_rle,
      majority: item.majority_rle, annotators: item.annotator_rle };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, item: runs, maxCanvas });
    });
  },
};

function maskLegend() {
  const swatch = (cls, text) => h("span", { class: "swatch-item" },
    h("span", { class: "swatch", style: `background: rgb(${COLOURS[cls].join(",")})` }), text);
  return h("p", { class: "legend" }, swatch(CLASS.agree, "marked, in the consensus"),
    swatch(CLASS.extra, "marked outside the consensus (over-segmenting)"),
    swatch(CLASS.missed, "consensus pixel not marked (under-segmenting)"),
    swatch(CLASS.background, "background in both"));
}

/** The panels of an item (consensus, majority vote, each annotator) with their captions; canvases drawn later. */
function maskPanels(item, i) {
  const panel = (title, label, ...extra) => {
    const counts = h("span", { class: "muted counts" });
    const figure = h("figure", { class: "mask-panel" }, h("figcaption", {}, h("strong", {}, title), ...extra, counts));
    return { figure, label, counts };
  };
  const panels = [
    panel("STAPLE consensus", () => `STAPLE consensus of item ${item.item}: ${item.consensus_area} foreground pixels`,
      " ", h("span", { class: "muted" }, "area "), metric(`items.${i}.consensus_area`, item.consensus_area ?? null)),
    panel("Majority vote", (c) => `Majority vote of item ${item.item} against the consensus: ${c.extra} pixels outside it, ` +
      `${c.missed} consensus pixels not in it`,
    " Dice ", metric(`items.${i}.consensus_majority_dice`, item.consensus_majority_dice ?? null)),
  ];
  (item.annotators || []).forEach((name, j) => panels.push(panel(String(name),
    (c) => `Annotator ${name} on item ${item.item}: ${c.extra} pixels marked outside the consensus, ${c.missed} consensus pixels missed`,
    h("span", { class: "panel-values" },
      " Dice ", metric(`items.${i}.dice.${j}`, item.dice?.[j] ?? null),
      " · sens. ", metric(`items.${i}.sensitivity.${j}`, item.sensitivity?.[j] ?? null),
      " · spec. ", metric(`items.${i}.specificity.${j}`, item.specificity?.[j] ?? null)))));
  return panels;
}

/** Put the worker's pixels into each panel: a canvas at most MASK_MAX_CANVAS wide, shown MASK_DISPLAY_PX wide. */
function showDrawing(item, panels, { cw, ch, step, panels: drawn }) {
  const scale = MASK_DISPLAY_PX / Math.max(item.width, item.height);
  panels.forEach(({ figure, label, counts }, k) => {
    const { rgba, extra, missed } = drawn[k];
    const canvas = h("canvas", { width: cw, height: ch, role: "img", "aria-label": label({ extra, missed }), class: "mask-canvas" });
    canvas.style.width = `${Math.round(item.width * scale)}px`;  // height follows the canvas's aspect ratio
    canvas.getContext("2d").putImageData(new ImageData(new Uint8ClampedArray(rgba), cw, ch), 0, 0);
    if (step > 1) canvas.dataset.pooled = String(step);
    figure.prepend(canvas);
    if (k > 0) counts.textContent = `${extra} px outside, ${missed} px missed`;
  });
}

function maskFigure(report, item, i) {
  const { width, height } = item;
  const panels = maskPanels(item, i);
  const box = h("div", { class: "mask-item", dataset: { item: String(i), state: "drawing" } },
    h("h4", {}, "Item ", String(item.item), h("span", { class: "muted" }, ` (${width} × ${height} px) `),
      h("button", { type: "button", class: "mask-open", dataset: { opensItem: String(i) } }, "Enlarge")));  // item_view.mjs opens it
  if (width * height > MASK_MAX_PIXELS) {
    box.dataset.state = "too-large";
    box.append(h("p", { class: "muted mask-note" }, `Not drawn: ${(width * height).toLocaleString("en-US")} pixels is over the `,
      `${MASK_MAX_PIXELS.toLocaleString("en-US")}-pixel limit for figures. The numbers are computed on every pixel.`));
    return box;
  }
  box.append(h("div", { class: "mask-grid" }, panels.map((p) => p.figure)));
  drawer.draw(item).then((drawn) => { showDrawing(item, panels, drawn); box.dataset.state = "drawn"; }, (error) => {
    box.dataset.state = "failed";
    box.append(h("p", { class: "muted mask-note" }, `Not drawn: ${error.message}.`));
  });
  return box;
}

function maskFigures(report) {
  drawer.reset();
  const items = Array.isArray(report.items) ? report.items : [];
  const card = h("section", { class: "card mask-card" }, h("h3", {}, "Consensus and each annotator's disagreement"));
  if (!items.length) {
    card.append(h("p", { class: "muted" }, "No item has masks from two or more annotators."), settingsLine(report));
    return card;
  }
  const list = h("div", { class: "mask-items" });
  const more = h("p", { class: "table-actions" });
  let shown = 0;
  const showNext = () => {
    const next = items.slice(shown, shown + MASK_ITEMS_PER_PAGE);
    next.forEach((item, k) => list.append(maskFigure(report, item, shown + k)));
    shown += next.length;
    more.replaceChildren();
    if (shown < items.length) {
      more.append(h("span", { class: "muted" }, `Showing ${shown} of ${items.length} items. `),
        h("button", { type: "button", onclick: showNext }, `Show ${Math.min(MASK_ITEMS_PER_PAGE, items.length - shown)} more`));
    }
  };
  card.append(h("p", { class: "muted" }, "Items with the lowest mean Dice come first. Each annotator's mask is drawn against the ",
    "STAPLE consensus; the majority vote (more than half of the annotators) is drawn the same way. Masks larger than ",
    `${MASK_MAX_CANVAS} px are drawn pooled: a drawn pixel shows any disagreement in its block. Masks over `,
    `${MASK_MAX_PIXELS.toLocaleString("en-US")} pixels are not drawn.`), maskLegend(), list, more);
  showNext();
  card.append(settingsLine(report));
  return card;
}

function masksView(report, kind) {
  return [
    () => section("Mask agreement: STAPLE consensus (Warfield, Zou & Wells 2004) and majority vote", report,
      h("div", { class: "contrast" },
        coefficient(report, "Mean Dice against the STAPLE consensus", "mean_dice", { interval: false, big: true,
          explain: "STAPLE weighs each annotator by its estimated sensitivity and specificity, so careful annotators count for more." }),
        coefficient(report, "Mean Dice against the majority vote", "mean_majority_dice", { interval: false, big: true,
          explain: "Majority vote counts every annotator the same: careless annotators pull it away from the careful ones." })),
      h("div", { class: "row" },
        coefficient(report, "Dice, consensus vs majority vote", "consensus_majority_dice", { interval: false }),
        coefficient(report, "Mean pairwise mask IoU", "mean_pairwise_iou", { interval: false }),
        estimate(report, "Items compared", "n_items"),
        estimate(report, "Annotators", "n_annotators"),
        estimate(report, "Masks", "n_masks"))),
    () => maskAnnotatorTable(report, kind),
    () => maskFigures(report),
    () => maskItemTable(report, kind),
    () => estimateTable(report, "pairs", "Per annotator pair (mean mask IoU over shared items)", [
      { path: "a", title: "Annotator", type: "text" }, { path: "b", title: "Annotator", type: "text" },
      { path: "n_items", title: "Shared items", type: "number" }, { path: "mean_iou", title: "Mean mask IoU", type: "estimate" }], { kind }),
  ];
}

VIEWS.masks = masksView;
// The item view of a mask item: its panels enlarged, from the same worker (masks_view.mjs).
registerItemDrawer("masks", maskItemDrawer({ draw: (item) => drawer.draw(item, MASK_VIEW_CANVAS), maxPixels: MASK_MAX_PIXELS }));

// ------------------------------------------------------------------ traces

/** α per step position with its bootstrap band, and percent agreement, across step positions. */
function stepChart(report) {
  const steps = (Array.isArray(report.steps) ? report.steps : []).map((s, i) => ({ s, i })).sort((a, b) => a.s.step - b.s.step);
  const card = h("section", { class: "card chart-card" }, h("h3", {}, "Krippendorff's α by step position"));
  if (!steps.length) {
    card.append(h("p", { class: "muted" }, "No steps to chart."), settingsLine(report));
    return card;
  }
  const level = get(report, "settings.level") ?? "nominal";
  const x = steps.map(({ s }) => s.step);
  const alpha = steps.map(({ s }) => (typeof s.alpha?.value === "number" ? s.alpha.value : null));
  const low = steps.map(({ s }) => (Array.isArray(s.alpha?.ci) ? s.alpha.ci[0] : null));
  const high = steps.map(({ s }) => (Array.isArray(s.alpha?.ci) ? s.alpha.ci[1] : null));
  const agreement = steps.map(({ s }) => (typeof s.percent_agreement === "number" ? s.percent_agreement : null));
  const floor = Math.min(0, ...[...alpha, ...low].filter((v) => v !== null));
  const target = h("div", { class: "chart step-chart", role: "img",
    "aria-label": `${level} Krippendorff's alpha at each step position across traces, with its 95% bootstrap interval, and percent agreement` });
  const gaps = steps.filter(({ s }) => typeof s.alpha?.value !== "number");
  card.append(h("p", { class: "muted" }, `${level[0].toUpperCase()}${level.slice(1)} α over the units at each step position `,
    "(step s of every trace), with its 95% bootstrap interval over traces (shaded), beside percent agreement. ",
    "A gap is a step where α is undefined; the reason is listed below."), target);
  if (gaps.length) {
    card.append(h("ul", { class: "gaps" }, gaps.map(({ s, i }) => h("li", {}, `Step ${s.step}: α `,
      metric(`steps.${i}.alpha.value`, null), ` — ${s.alpha?.reason ?? "no reason given"}`))));
  }
  card.append(settingsLine(report));
  requestAnimationFrame(() => {
    const plot = new uPlot({
      width: chartWidth(card), height: 280,
      scales: { x: { time: false }, y: { range: [Math.max(-1, floor - 0.05), 1] } },
      axes: [{ label: "step position", incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] }, { label: "agreement" }],
      series: [{ label: "step" },
        { label: "α 95% low", stroke: "rgba(31,95,191,0.35)", width: 1, dash: [2, 3], points: { show: false } },
        { label: "α 95% high", stroke: "rgba(31,95,191,0.35)", width: 1, dash: [2, 3], points: { show: false } },
        { label: `α (${level})`, stroke: "#1f5fbf", width: 2, points: { show: true, size: 7 } },
        { label: "percent agreement", stroke: "#c26a00", width: 2, dash: [5, 3], points: { show: true } }],
      bands: [{ series: [2, 1], fill: "rgba(31,95,191,0.12)" }],
    }, [x, low, high, alpha, agreement], target);
    responsive(plot, card);
  });
  return card;
}

function tracesView(report, kind) {
  const level = get(report, "settings.level") ?? "nominal";
  return [
    () => section("Agreement on per-step labels", report,
      h("div", { class: "contrast" },
        coefficient(report, `Krippendorff's α (${level}), all units`, "alpha", { big: true,
          explain: "1 = perfect agreement · 0 = chance · below 0 = systematic disagreement. A unit is one step of one trace." }),
        coefficient(report, "Percent agreement", "percent_agreement", { big: true,
          explain: "Share of agreeing label pairs within a unit, no chance correction." })),
      h("div", { class: "row" },
        coefficient(report, "Mean Cohen's κ over annotator pairs", "cohen_kappa.mean"),
        coefficient(report, "Fleiss' κ", "fleiss_kappa")),
      h("div", { class: "row" },
        estimate(report, "Traces", "n_traces"), estimate(report, "Step positions", "n_steps"),
        estimate(report, "Units (trace, step)", "n_units"), estimate(report, "Labels", "n_labels"),
        estimate(report, "Annotators", "n_annotators"), estimate(report, "Disputed units", "n_disputed_units"))),
    () => stepChart(report),
    () => recordsTable(report, "units", "Units with most disagreement (lowest percent agreement first)", { kind,
      explain: "Each unit's labels by annotator: read these steps together to find the unclear guideline." }),
    () => estimateTable(report, "steps", "Per step position", [
      { path: "step", title: "Step", type: "number" }, { path: "alpha", title: `α (${level}) with 95% CI`, type: "estimate" },
      { path: "percent_agreement", title: "Percent agreement", type: "number" }, { path: "n_units", title: "Units", type: "number" },
      { path: "n_labels", title: "Labels", type: "number" }], { kind }),
    () => estimateTable(report, "traces", "Per trace (most disagreement first)", [
      { path: "trace", title: "Trace", type: "text" }, { path: "alpha", title: `α (${level})`, type: "estimate" },
      { path: "percent_agreement", title: "Percent agreement", type: "number" }, { path: "n_steps", title: "Steps", type: "number" },
      { path: "n_annotators", title: "Annotators", type: "number" }, { path: "n_disputed_steps", title: "Disputed steps", type: "number" }],
    { kind }),
    () => estimateTable(report, "cohen_kappa.pairs", "Cohen's κ per annotator pair (units both labelled)", [
      { path: "a", title: "Annotator", type: "text" }, { path: "b", title: "Annotator", type: "text" },
      { path: "kappa", title: "Cohen's κ", type: "estimate" }, { path: "percent_agreement", title: "Percent agreement", type: "number" },
      { path: "n_units", title: "Shared units", type: "number" }], { kind }),
  ];
}

VIEWS.traces = tracesView;
