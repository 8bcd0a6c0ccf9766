// The item view of one mask item, drawn through item_view.mjs's drawer hooks (web/kinds/masks.mjs
// exports it as its item view): the STAPLE consensus, the majority vote and each annotator against the
// consensus, the same panels as the report's figures card, enlarged.
//
// The pixels come from the report's runs through the masks worker (worker.mjs), at up to
// `maxCanvas` canvas pixels a side (the card's figures: 360). The view holds one canvas per panel;
// its downloads lay the panels out once (layout()) and draw that layout twice: PNG on a canvas
// (the canvases' pixels copied unsmoothed), SVG with each canvas as an <image> holding a PNG data
// URL (an SVG has no pixel grid of its own; the panels stay pixels, everything else stays text).
// Both carry the item id, the settings and the legend. Text from the input reaches the DOM and
// both pictures as text only.

import { h, formatNumber } from "../../dom.mjs";
import { CLASS, COLOURS } from "./draw.mjs";
import { clip, s, text, serialize } from "../../svg.mjs";

const PANEL_PX = 300;   // longer side of a panel in the view and in the downloads, CSS pixels
const COLUMNS = 3;      // panels per row of a download
const GAP = 16, MARGIN = 16, CAPTION = 48;
const PNG_SCALE = 2;
const FONT = "system-ui, sans-serif";

export const MASK_LEGEND = [
  [CLASS.agree, "marked, in the consensus"],
  [CLASS.extra, "marked outside the consensus (over-segmenting)"],
  [CLASS.missed, "consensus pixel not marked (under-segmenting)"],
  [CLASS.background, "background in both"],
];

const colour = (cls) => `rgb(${COLOURS[cls].join(",")})`;
const shown = (value) => (typeof value === "number" ? formatNumber(value) : "undefined");

/**
 * The hooks item_view.mjs draws a mask item with: `draw(item)` → the worker's pixels
 * ({cw, ch, step, panels: [{rgba, extra, missed}]}) at `maxCanvas`; masks over `maxPixels` are not drawn.
 */
export function maskItemDrawer({ draw, maxPixels }) {
  return {
    gallery: false,  // the figures card is the masks' gallery (its first items: lowest mean Dice)
    detail(report, item) {
      const entry = (Array.isArray(report.items) ? report.items : []).find((e) => String(e.item) === String(item));
      if (!entry) throw new Error(`the report has no item ${item}`);
      return entry;
    },
    draw: (kind, entry, options) => drawMaskItem(entry, { ...options, draw, maxPixels }),
    titles: async () => {},
    svg: (picture) => serialize(maskSvg(layout(picture))),
    png: (picture) => maskPng(layout(picture)),
    note: "Grey: marked and in the consensus; orange: marked outside it; blue: consensus pixels not marked. " +
      "Arrow keys: next or previous item; Escape closes.",
  };
}

/** The panels of an item: name, caption values and the annotator (null: consensus, majority vote). */
function panelsOf(entry) {
  const panels = [
    { panel: "consensus", name: "STAPLE consensus", values: `area ${shown(entry.consensus_area)} px`, annotator: null },
    { panel: "majority", name: "Majority vote", values: `Dice ${shown(entry.consensus_majority_dice)}`, annotator: null },
  ];
  (entry.annotators || []).forEach((name, j) => panels.push({ panel: "annotator", name: String(name), annotator: String(name),
    values: `Dice ${shown(entry.dice?.[j])} · sens. ${shown(entry.sensitivity?.[j])} · spec. ${shown(entry.specificity?.[j])}` }));
  return panels;
}

function settingsText(report) {
  const settings = report?.settings || {};
  const parts = Object.entries(settings).filter(([, v]) => v !== null && typeof v !== "object")
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${v}`);
  return `Settings: ${parts.length ? parts.join(" · ") : "defaults"}`;
}

/** The view's picture: heading lines, legend and one figure per panel; canvases once the worker has drawn. */
async function drawMaskItem(entry, { mount, focus, report, draw, maxPixels }) {
  const { width, height } = entry;
  const heading = `Item ${entry.item} (${width} × ${height} px)`;
  const settings = settingsText(report);
  const picture = h("div", { class: "mask-view", dataset: { item: String(entry.item), heading, settings, state: "drawing" } },
    h("p", { class: "mask-view-heading" }, h("strong", {}, heading), " · ", settings),
    h("p", { class: "legend" }, MASK_LEGEND.map(([cls, label]) => h("span", { class: "swatch-item" },
      h("span", { class: "swatch", style: `background: ${colour(cls)}` }), label))));
  // The view's note says it on the page; the downloads say it in the picture.
  if (focus) picture.dataset.focus = `Only ${focus[0]} and ${focus[1]} at full strength; the other annotators faded.`;
  mount(picture);
  if (width * height > maxPixels) {
    picture.dataset.state = "too-large";
    picture.append(h("p", { class: "muted" }, `Not drawn: ${(width * height).toLocaleString("en-US")} pixels is over the `,
      `${maxPixels.toLocaleString("en-US")}-pixel limit for figures.`));
    return picture;
  }
  let drawn;
  try {
    drawn = await draw(entry);
  } catch (error) {
    picture.dataset.state = "failed";
    picture.append(h("p", { class: "muted" }, `Not drawn: ${error.message}.`));
    return picture;
  }
  const scale = PANEL_PX / Math.max(width, height);
  const grid = h("div", { class: "mask-view-grid" });
  panelsOf(entry).forEach(({ panel, name, values, annotator }, k) => {
    const { rgba, extra, missed } = drawn.panels[k];
    const canvas = h("canvas", { width: drawn.cw, height: drawn.ch, class: "mask-canvas", role: "img",
      "aria-label": `${name} on item ${entry.item}` + (k > 0 ? `: ${extra} pixels outside the consensus, ${missed} consensus pixels missed` : "") });
    canvas.style.width = `${Math.round(width * scale)}px`;
    canvas.getContext("2d").putImageData(new ImageData(new Uint8ClampedArray(rgba), drawn.cw, drawn.ch), 0, 0);
    if (drawn.step > 1) canvas.dataset.pooled = String(drawn.step);
    const counts = k > 0 ? `${extra} px outside, ${missed} px missed` : "";
    const faded = Boolean(focus && annotator !== null && !focus.includes(annotator));
    const dataset = { panel, name, values, counts };  // h() would write an undefined value as "undefined"
    if (annotator !== null) dataset.annotator = annotator;
    if (faded) dataset.faded = "yes";
    grid.append(h("figure", { class: `mask-view-panel${faded ? " faded" : ""}`, dataset },
      canvas, h("figcaption", {}, h("strong", {}, name), h("span", {}, values), h("span", { class: "muted" }, counts))));
  });
  picture.append(grid);
  picture.dataset.state = "drawn";
  return picture;
}

/** Lines of `content` at most `chars` characters long, broken at spaces (downloads have no text layout). */
function wrap(content, chars) {
  const lines = [];
  let line = "";
  for (const word of String(content).split(" ")) {
    if (line && line.length + 1 + word.length > chars) { lines.push(line); line = word; } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

/** One layout for both downloads: texts, swatches and images at CSS-pixel positions. */
function layout(picture) {
  const figures = [...picture.querySelectorAll(".mask-view-panel")];
  const columns = Math.max(1, Math.min(COLUMNS, figures.length));
  const width = Math.max(2 * MARGIN + columns * PANEL_PX + (columns - 1) * GAP, 480);
  const chars = Math.floor((width - 2 * MARGIN) / 6.6);
  const texts = [], swatches = [], images = [];
  let y = MARGIN;
  for (const line of wrap(picture.dataset.heading, Math.floor(chars * 0.75))) { texts.push({ x: MARGIN, y: y + 14, text: line, size: 16, bold: true }); y += 20; }
  for (const line of wrap(picture.dataset.settings, chars)) { texts.push({ x: MARGIN, y: y + 12, text: line, size: 12 }); y += 16; }
  for (const line of wrap(picture.dataset.focus ?? "", chars)) { texts.push({ x: MARGIN, y: y + 12, text: line, size: 12 }); y += 16; }
  y += 6;
  MASK_LEGEND.forEach(([cls, label], k) => {
    const x = MARGIN + (k % 2) * Math.floor((width - 2 * MARGIN) / 2), row = y + Math.floor(k / 2) * 18;
    swatches.push({ x, y: row, size: 12, fill: colour(cls) });
    texts.push({ x: x + 18, y: row + 10, text: label, size: 12 });
  });
  y += Math.ceil(MASK_LEGEND.length / 2) * 18 + 8;
  // Every panel of an item has the same size: the longer side PANEL_PX, the aspect the mask's.
  const first = figures[0]?.querySelector("canvas");
  const w = first ? PANEL_PX * Math.min(1, first.width / first.height) : 0;
  const hgt = first ? PANEL_PX * Math.min(1, first.height / first.width) : 0;
  figures.forEach((figure, k) => {
    const x = MARGIN + (k % columns) * (PANEL_PX + GAP), top = y + Math.floor(k / columns) * (hgt + CAPTION + GAP);
    const faded = figure.dataset.faded === "yes";
    images.push({ canvas: figure.querySelector("canvas"), x, y: top, w, h: hgt, faded });
    const caption = [[figure.dataset.name, 12, true], [figure.dataset.values, 10.5, false], [figure.dataset.counts, 10.5, false]];
    caption.forEach(([content, size, bold], line) => {
      if (content) texts.push({ x, y: top + hgt + 16 + 14 * line, text: clip(content, 46), size, bold, faded });
    });
  });
  const height = y + Math.ceil(figures.length / columns) * (hgt + CAPTION + GAP) + MARGIN;
  return { width, height: Math.ceil(height), texts, swatches, images };
}

function maskSvg({ width, height, texts, swatches, images }) {
  return s("svg", { width, height, viewBox: `0 0 ${width} ${height}`, class: "mask-view-svg" },
    s("rect", { x: 0, y: 0, width, height, fill: "#fff" }),
    texts.map((t) => text(t.x, t.y, t.text, { "font-size": t.size, "font-weight": t.bold ? "bold" : null, opacity: t.faded ? 0.45 : null })),
    swatches.map((w) => s("rect", { x: w.x, y: w.y, width: w.size, height: w.size, fill: w.fill, stroke: "#80838b" })),
    images.map((i) => s("image", { x: i.x, y: i.y, width: i.w, height: i.h, href: i.canvas.toDataURL("image/png"),
      preserveAspectRatio: "none", style: "image-rendering: pixelated", opacity: i.faded ? 0.35 : null })),
    images.map((i) => s("rect", { x: i.x, y: i.y, width: i.w, height: i.h, fill: "none", stroke: "#80838b", "stroke-width": 0.5 })));
}

async function maskPng({ width, height, texts, swatches, images }) {
  const canvas = h("canvas", { width: width * PNG_SCALE, height: height * PNG_SCALE });
  const context = canvas.getContext("2d");
  context.scale(PNG_SCALE, PNG_SCALE);
  context.fillStyle = "#fff";
  context.fillRect(0, 0, width, height);
  context.imageSmoothingEnabled = false;  // mask pixels stay square blocks
  for (const i of images) {
    context.globalAlpha = i.faded ? 0.35 : 1;
    context.drawImage(i.canvas, i.x, i.y, i.w, i.h);
    context.globalAlpha = 1;
    context.strokeStyle = "#80838b";
    context.lineWidth = 0.5;
    context.strokeRect(i.x, i.y, i.w, i.h);
  }
  for (const w of swatches) {
    context.fillStyle = w.fill;
    context.fillRect(w.x, w.y, w.size, w.size);
    context.strokeStyle = "#80838b";
    context.strokeRect(w.x, w.y, w.size, w.size);
  }
  context.fillStyle = "#1b1b1f";
  for (const t of texts) {
    context.globalAlpha = t.faded ? 0.45 : 1;
    context.font = `${t.bold ? "bold " : ""}${t.size}px ${FONT}`;
    context.fillText(t.text, t.x, t.y);
  }
  return new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
}
