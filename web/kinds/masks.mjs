// Masks: the page's part of the kind (its report cards: STAPLE consensus and majority vote, the
// figures of each item's disagreement drawn in a worker of their own; its item view: the figures
// enlarged, masks/view.mjs), read by web/kinds.mjs.

import { estimateTable, openable } from "../cards.mjs";
import { downloadText, toCsv } from "../download.mjs";
import { referenceCards } from "../reference_cards.mjs";
import { h, metric, estimate, coefficient, settingsLine, section } from "../dom.mjs";
import { CLASS, COLOURS } from "./masks/draw.mjs";
import { maskItemDrawer } from "./masks/view.mjs";
import { Requests } from "../protocol.mjs";

/** The words that belong to this kind (its objects, items and measures): other kinds' cards never use them
 *  (tests/browser/test_captions.py scans every tab for the other kinds' nouns). */
export const nouns = ["mask", "masks", "image", "images", "pixel", "pixels", "px", "STAPLE", "Dice", "IoU"];

/** Its words in the reference cards (reference_cards.mjs). */
export const referenceWords = { similarity: "mask IoU", drawn: "marked" };

const MASK_ITEMS_PER_PAGE = 6;
const MASK_DISPLAY_PX = 150;   // longer side of each drawn mask, in CSS pixels
const MASK_MAX_CANVAS = 360;   // longer side of a canvas; larger masks are pooled (any disagreement wins)
const MASK_VIEW_CANVAS = 720;  // the same in an item view (masks/view.mjs), shown 300 px wide: sharp at 2× zoom
// Larger masks are not drawn. The drawing worker's time grows with the runs, not the pixels, but a
// figure of a mask this large pools blocks of 40 × 40 pixels or more into each canvas pixel and shows little.
const MASK_MAX_PIXELS = 200_000_000;

// ------------------------------------------------------------------ masks

const ANNOTATOR_COLUMNS = [
  ["sensitivity", "Sensitivity"],
  ["specificity", "Specificity"],
  ["dice", "Dice vs consensus"],
  ["majority_dice", "Dice vs majority"],
  ["mean_iou", "Mean IoU vs others"],
];

function maskAnnotatorTable(report, page) {
  return estimateTable(report, "annotators", "Per annotator (means over items)", [
    { path: "annotator", title: "Annotator", type: "text" }, { path: "n_items", title: "Items", type: "number" },
    ...ANNOTATOR_COLUMNS.map(([path, title]) => ({ path, title, type: "estimate" }))], { page,
    explain: "Sensitivity: share of the consensus foreground the annotator marked; specificity: share of the " +
      "consensus background it left unmarked (STAPLE's estimates). Low sensitivity means under-segmenting (ask for fuller " +
      "outlines), low specificity over-segmenting (ask for tighter ones): opposite fixes, so both are shown. Dice is against " +
      "the STAPLE consensus and against the majority vote; mean IoU against each other annotator." });
}

function maskItemTable(report, page) {
  const items = Array.isArray(report.items) ? report.items : [];
  const title = "Per item (lowest mean Dice first)";
  const columns = [["mean_pairwise_iou", "Mean pairwise IoU"], ["consensus_area", "Consensus area (px)"],
    ["majority_area", "Majority area (px)"], ["consensus_majority_dice", "Dice consensus vs majority"],
    ["prior", "Prior π"], ["iterations", "EM iterations"]];
  const downloadCsv = () => {
    const names = ["item", "width", "height", ...columns.map(([k]) => k), "converged"];
    downloadText(`agreekit-${page.kind}-items.csv`, toCsv(names, items), "text/csv");
  };
  const opens = page.opener?.("items");
  return h("section", { class: "card table-card", dataset: { table: "items" } }, h("h3", {}, title),
    h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": title },
      h("table", {},
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Item"), h("th", { scope: "col", class: "num" }, "Size"),
          columns.map(([, label]) => h("th", { scope: "col", class: "num" }, label)), h("th", { scope: "col" }, "Converged"))),
        h("tbody", {}, items.map((item, i) => openable(opens, i, h("tr", {},
          h("th", { scope: "row" }, String(item.item)),
          h("td", { class: "num" }, metric(`items.${i}.width`, item.width ?? null), " × ", metric(`items.${i}.height`, item.height ?? null)),
          columns.map(([k]) => h("td", { class: "num" }, metric(`items.${i}.${k}`, item[k] ?? null))),
          h("td", {}, item.converged ? "yes" : "no (stopped at the iteration limit)"))))))),
    h("p", { class: "table-actions" }, h("button", { type: "button", onclick: downloadCsv }, "Download CSV (without runs)")),
    settingsLine(report));
}

// ------------------------------------------------------------------ mask figures, drawn in a worker

/** The mask-drawing worker (masks/worker.mjs): one at a time, replaced when a new report is shown. */
const drawer = {
  worker: null, requests: null,
  /** Forget the drawings of an earlier report: stop its worker if it is still drawing. */
  reset() {
    if (this.worker && this.requests.size) { this.worker.terminate(); this.worker = null; }
    this.requests?.failAll({ type: "cancelled", message: "replaced by a newer report" });
  },
  async draw(item, maxCanvas = MASK_MAX_CANVAS) {
    if (!this.worker) {
      this.worker = new Worker(new URL("./masks/worker.mjs", import.meta.url), { type: "module" });
      const requests = new Requests((message, transfer) => this.worker.postMessage(message, transfer));
      this.worker.onmessage = ({ data }) => requests.receive(data);
      this.requests = requests;
    }
    const runs = { width: item.width, height: item.height, consensus: item.consensus_rle,
      majority: item.majority_rle, annotators: item.annotator_rle };
    return (await this.requests.request("draw", { item: runs, maxCanvas })).result;
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

function maskFigure(report, item, i, page) {
  const { width, height } = item;
  const panels = maskPanels(item, i);
  const box = h("div", { class: "mask-item", dataset: { item: String(i), state: "drawing" } },
    h("h4", {}, "Item ", String(item.item), h("span", { class: "muted" }, ` (${width} × ${height} px) `),
      page.openItem ? h("button", { type: "button", class: "mask-open", dataset: { opensItem: String(i) },
        onclick: (event) => page.openItem(i, event.currentTarget) }, "Enlarge") : null));
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

function maskFigures(report, page) {
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
    next.forEach((item, k) => list.append(maskFigure(report, item, shown + k, page)));
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

/** The summary card's headline (headline.mjs): mean Dice against the STAPLE consensus (an overlap, not chance-corrected). */
export const headline = () => ({ key: "mean_dice", symbol: "Dice", scale: "share",
  label: "Mean Dice of each annotator's mask against the STAPLE consensus (Warfield, Zou & Wells 2004)",
  name: "Overlap with the consensus", counts: [["n_items", "items"], ["n_annotators", "annotators"], ["n_masks", "masks"]] });

export function cards(report, page) {
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
    ...referenceCards(report, page, referenceWords),
    () => maskAnnotatorTable(report, page),
    () => maskFigures(report, page),
    () => maskItemTable(report, page),
    () => estimateTable(report, "pairs", "Per annotator pair (mean mask IoU over shared items)", [
      { path: "a", title: "Annotator", type: "text" }, { path: "b", title: "Annotator", type: "text" },
      { path: "n_items", title: "Shared items", type: "number" }, { path: "mean_iou", title: "Mean mask IoU", type: "estimate" }], { page }),
  ];
}


// ------------------------------------------------------------------ item views

export const items = { list: "items", id: (entry) => entry.item, value: "mean_dice", valueName: "Dice",
  ranking: "lowest mean Dice of the item's annotators first",
  annotators: (entry) => (Array.isArray(entry.annotators) ? entry.annotators.map(String) : []),
  opens: { items: "entry", pairs: "pair" } };

// The item view of a mask item: its panels enlarged, from the same worker (masks/view.mjs).
export const itemView = maskItemDrawer({ draw: (item) => drawer.draw(item, MASK_VIEW_CANVAS), maxPixels: MASK_MAX_PIXELS });
