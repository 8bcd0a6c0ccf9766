// A small SVG toolkit for the item views (item_view.mjs): elements, scales, annotator styles.
//
// Text from the input (labels, item ids, annotator names) only ever enters a picture as a text
// node (s() appends strings with textContent semantics; title() and text() the same), never as
// markup. Every attribute value is set with setAttribute.

export const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element with attributes (data-* via `dataset`) and children (strings become text nodes). */
export function s(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value == null || value === false) continue;
    // setAttribute, not node.dataset: 3-4 times faster here, and a view sets thousands of them
    if (key === "dataset") for (const [name, v] of Object.entries(value)) { if (v != null) node.setAttribute(dataName(name), String(v)); }
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child == null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const DATA_NAMES = new Map();

/** The attribute of a dataset key: `lineA` → `data-line-a`. */
function dataName(key) {
  let name = DATA_NAMES.get(key);
  if (!name) DATA_NAMES.set(key, (name = `data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`));
  return name;
}

/** Yields to the page's other tasks every `every` calls of tick(): a picture of thousands of
 *  shapes is built over several short tasks, never one long one. */
export class Pacer {
  constructor(every = 150) { this.every = every; this.count = 0; }
  async tick() {
    if (++this.count % this.every === 0) await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

/** A `<title>` (the hover text and accessible name of its parent) holding `text` as text. */
export function title(text) {
  const node = document.createElementNS(SVG_NS, "title");
  node.textContent = String(text);
  return node;
}

/** A `<text>` element at (x, y) holding `content` as text. */
export function text(x, y, content, attributes = {}) {
  const node = s("text", { x: round(x), y: round(y), "font-family": "system-ui, sans-serif", "font-size": 12, ...attributes });
  node.textContent = String(content);
  return node;
}

/** A coordinate for an attribute: 3 decimals are sub-pixel at any zoom of these pictures. */
export function round(value) {
  return Math.round(value * 1000) / 1000;
}

/** A number in a data attribute: the shortest string that reads back as the same double. */
export function exact(value) {
  return String(value);
}

/** A linear map from [d0, d1] to [r0, r1] (a degenerate domain maps to the range's middle). */
export function linear([d0, d1], [r0, r1]) {
  const span = d1 - d0;
  return span > 0 ? (v) => r0 + ((v - d0) / span) * (r1 - r0) : () => (r0 + r1) / 2;
}

/** [min, max] of `values` (finite ones), or [0, 1] when there are none. */
export function extent(values) {
  let lo = Infinity, hi = -Infinity;
  for (const v of values) if (Number.isFinite(v)) { if (v < lo) lo = v; if (v > hi) hi = v; }
  return lo <= hi ? [lo, hi] : [0, 1];
}

/** [lo, hi] widened by `fraction` of its length on each side (a point gets a unit's width). */
export function padded([lo, hi], fraction = 0.04) {
  const pad = hi > lo ? (hi - lo) * fraction : Math.max(1, Math.abs(lo) * 0.05);
  return [lo - pad, hi + pad];
}

// Okabe & Ito (2008) colour-blind-safe palette, yellow last (faint on white); dash patterns in a
// cycle of another length, so annotators differ by colour and dash and the pair reads in grey too.
export const OKABE_ITO = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"];
export const DASHES = ["", "7 3", "2 2.5", "9 3 2 3", "4 4", "1.5 4", "12 3"];

/** The stroke colour and dash of the k-th annotator (in sorted order of the report's annotators). */
export function annotatorStyle(k) {
  return { colour: OKABE_ITO[k % OKABE_ITO.length], dash: DASHES[k % DASHES.length] };
}

/** A legend line sample + name per annotator, from (x, y) down, `width` wide; returns [group, height]. */
export function legend(entries, x, y, width) {
  const group = s("g", { class: "legend" });
  const columnWidth = 240, rowHeight = 18, characters = 30;  // three columns in a full view
  const perRow = Math.max(1, Math.floor(width / columnWidth));
  entries.forEach(({ name, style, marker }, k) => {
    const cx = x + (k % perRow) * columnWidth, cy = y + Math.floor(k / perRow) * rowHeight;
    group.append(s("line", { x1: cx, y1: cy + 6, x2: cx + 28, y2: cy + 6, stroke: style.colour,
      "stroke-width": style.width ?? 2.5, "stroke-dasharray": style.dash || null }),
    marker ?? null, text(cx + 34, cy + 10, clip(name, characters), { dataset: { legend: name } }));
    if (String(name).length > characters) group.lastChild.append(title(name));
  });
  return [group, Math.ceil(entries.length / perRow) * rowHeight];
}

/** `value` shortened to `length` characters with an ellipsis (the full text goes in a title). */
export function clip(value, length) {
  const string = String(value);
  return string.length > length ? `${string.slice(0, length - 1)}…` : string;
}

/** The SVG as a standalone document's text (for download), with its namespace declared. */
export function serialize(svg) {
  const copy = svg.cloneNode(true);
  copy.setAttribute("xmlns", SVG_NS);
  return new XMLSerializer().serializeToString(copy);
}

/** A white canvas `scale` × the size of `svg`, and its 2D context: what the PNG downloads draw on. */
export function whiteCanvas(svg, scale) {
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(Number(svg.getAttribute("width")) * scale);
  canvas.height = Math.round(Number(svg.getAttribute("height")) * scale);
  const context = canvas.getContext("2d");
  context.fillStyle = "#fff";
  context.fillRect(0, 0, canvas.width, canvas.height);
  return { canvas, context };
}

/** A PNG Blob of `svg` drawn at `scale` × its size on a white background. */
export async function toPng(svg, scale = 2) {
  const url = URL.createObjectURL(new Blob([serialize(svg)], { type: "image/svg+xml" }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const { canvas, context } = whiteCanvas(svg, scale);
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    return await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
  } finally {
    URL.revokeObjectURL(url);
  }
}
