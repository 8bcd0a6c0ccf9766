// The pictures of the item views: one item's shapes by annotator, as SVG (item_view.mjs shows them).
// This module is the machinery every kind's picture shares; what a kind draws is its module's
// `picture` (web/kinds/<kind>.mjs): {noun, onImages, similarity, height(detail, thumbnail),
// caption(detail), legend(context), draw(context, box) → {group, height}}.
//
// Input: an item detail from the worker (bridge.py run_item_detail; docs/architecture.md, "Item details"):
// {item, annotators, shapes: [{annotator, line, label, geometry, n_matched}], matches: [{a, b,
// similarity, same_label}], settings}. Every drawn shape carries data-item, data-annotator,
// data-line (its input row), data-label and its geometry in the input's own units (boxes data-x
// data-y data-w data-h, polygons data-points, cuboids data-cx … data-yaw, segments data-start
// data-end); every match line data-line-a, data-line-b and data-similarity. Text from the input
// reaches the picture as text nodes only (svg.mjs).

import { s, title, text, round, exact, extent, padded, annotatorStyle, legend, clip, Pacer } from "./svg.mjs";

const WIDTH = 760;          // the full view's width in CSS pixels
const THUMB_WIDTH = 220;    // a gallery thumbnail's
export const MISMATCH = "#b3261e"; // a matched pair whose labels differ
export const MATCH = "#3c4043";

const pendingTitles = new WeakMap();  // svg -> [[node, text]] still to add (addTitles)

/**
 * The SVG picture of one item.
 *
 * `palette`: the report's annotators in sorted order (an annotator keeps its colour from item to
 * item); `focus`: annotators to draw at full strength (the others faded), or null for all;
 * `thumbnail`: a small picture without header, legend or titles; `mount(svg)`: called with the
 * picture before its shapes are drawn, to put it in the page, so that the shapes are laid out and
 * painted a few hundred at a time as they are added (one task for all 1,500 boxes of a crowded
 * image took 280 ms here, over the 200 ms budget); `image`: `{href, width, height, name, units}`,
 * a picture to draw the shapes over (pictures with `onImages` only; imageFrame says how);
 * `controls(node)`: called with the view's HTML controls of the picture, if it has any (e.g. a
 * boundary tolerance slider).
 */
export async function drawItem(picture, detail, { kind = "", palette = detail.annotators, focus = null, thumbnail = false, mount = null, report = null,
  image = null, controls = null } = {}) {
  const styleOf = new Map(palette.map((name, k) => [name, annotatorStyle(k)]));
  const group = s("g", { class: "plot" });
  const context = { kind, similarity: picture.similarity, detail, thumbnail, focus, group, report, controls,
    image: picture.onImages ? image : null, pacer: new Pacer(), titles: [],
    styleOf: (name) => styleOf.get(name) ?? annotatorStyle(palette.length) };
  const width = thumbnail ? THUMB_WIDTH : WIDTH;
  const top = thumbnail ? 4 : 46;
  const svg = s("svg", { width, height: top, viewBox: `0 0 ${width} ${top}`, class: "item-svg", role: "img",
    "aria-label": `Item ${detail.item}: ${(detail.shapes ?? detail.cells).length} ${picture.noun ?? "shapes"} ` +
      `by ${detail.annotators.length} annotators`,
    dataset: { item: detail.item },
    // no anti-aliasing for crowded pictures: painting thousands of dashed outlines costs less
    "shape-rendering": (detail.shapes ?? detail.cells).length > 400 ? "optimizeSpeed" : null });
  const background = s("rect", { x: 0, y: 0, width, height: top, fill: "#fff" });
  svg.append(background);
  if (!thumbnail) {
    svg.append(text(12, 18, `Item ${clip(detail.item, 80)}`, { "font-size": 15, "font-weight": 600 }),
      text(12, 36, picture.caption(detail), { "font-size": 11, fill: "#555", class: "item-caption" }));
  }
  svg.append(group);
  const resize = (height) => {
    for (const [node, name] of [[svg, "height"], [background, "height"]]) node.setAttribute(name, height);
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  };
  let height = top + picture.height(detail, thumbnail);
  resize(height);
  mount?.(svg);
  const plot = await picture.draw(context, { x: thumbnail ? 4 : 12, y: top, width: width - (thumbnail ? 8 : 24) });
  height = top + plot.height + (thumbnail ? 4 : 14);
  if (!thumbnail) {
    const [entries, legendHeight] = legend(picture.legend(context), 12, height, width - 24);
    svg.append(entries);
    height += legendHeight + 8;
  }
  resize(height);
  pendingTitles.set(svg, context.titles);
  return svg;
}

/**
 * Like svg.mjs's Pacer, but every `every` elements it waits for a frame to be drawn: a long clip
 * adds its elements faster than frames come, and one frame then restyled 6,000 new elements at
 * once (50 ms here, four times that on a loaded machine).
 */
export class FramePacer {
  constructor(every = 400) { this.every = every; this.count = 0; }
  async tick() {
    if (++this.count % this.every === 0) await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  }
}

/**
 * Give each shape and line of a shown picture its `<title>`, a few hundred per task. Titles are
 * added once the picture is in the page: in one task with the shapes, the titles of 1,500 boxes
 * took 250 ms more of the page's thread (measured here).
 */
export async function addTitles(svg) {
  const titles = pendingTitles.get(svg) ?? [];
  pendingTitles.delete(svg);
  const pacer = new FramePacer(300);  // titles are elements too: 6,000 in one frame took 500 ms to restyle on a loaded machine
  for (const [node, content] of titles) {
    node.append(title(content));
    await pacer.tick();
  }
}

/** The caption of a picture of matched objects: its counts and how they were matched. "Unmatched" counts a
 *  shape once for each other annotator it has no partner in, as the per-item table's `n_unmatched` does;
 *  with three or more annotators the shapes without any partner are said apart. */
export function objectCaption(detail, similarity) {
  const { threshold, match } = detail.settings;
  const others = detail.annotators.length - 1;
  const unmatched = detail.shapes.reduce((n, shape) => n + Math.max(0, others - shape.n_matched), 0);
  const alone = detail.shapes.filter((shape) => shape.n_matched === 0).length;
  const counts = `${detail.shapes.length} shapes · ${detail.matches.length} matched pairs · ${unmatched} unmatched` +
    (others > 1 ? ` in pairs (${alone} shape${alone === 1 ? "" : "s"} with no partner)` : "");
  return `${counts} · matched at ${similarity} ≥ ${threshold} (${match})`;
}

/** The legend of a picture of matched objects: each annotator, the match lines, unmatched shapes. */
export function objectLegend({ detail, styleOf }) {
  const entries = detail.annotators.map((name) => ({
    name: detail.empty.includes(name) ? `${name} (drew nothing)` : name, style: styleOf(name) }));
  entries.push({ name: "matched pair (same label)", style: { colour: MATCH, dash: "", width: 1 } },
    { name: "matched pair, labels differ", style: { colour: MISMATCH, dash: "3 2", width: 1.5 } },
    { name: "thick, tinted: unmatched", style: { colour: "#80838b", dash: "", width: 4 } });
  return entries;
}

// ------------------------------------------------------------------ shared pieces

export function shapeTitle({ kind, detail }, shape) {
  const others = detail.annotators.length - 1;
  const matched = shape.n_matched ? `matched by ${shape.n_matched} of ${others} other annotator(s)` : "unmatched";
  return `${shape.annotator} · ${shape.label === "" ? "(no label)" : shape.label} · line ${shape.line} · ${matched} · ` +
    Object.entries(shape.geometry).map(([k, v]) => `${k} ${Array.isArray(v) ? `${v.length / 2} points` : v}`).join(", ") +
    ` (${kind})`;
}

/** The attributes every drawn shape carries: who, which row, which label, its geometry. */
export function shapeData({ detail }, shape, geometry) {
  return { item: detail.item, annotator: shape.annotator, line: shape.line, label: shape.label, ...geometry,
    matched: shape.n_matched };
}

export function strokeOf(context, shape) {
  const style = context.styleOf(shape.annotator);
  const faded = context.focus && !context.focus.includes(shape.annotator);
  const unmatched = shape.n_matched === 0 && context.detail.annotators.length > 1;
  return { stroke: style.colour, "stroke-dasharray": style.dash || null, "stroke-width": unmatched ? 3.5 : 2,
    // only unmatched shapes are tinted: a fill on every shape doubles the cost of painting a crowded item
    fill: unmatched ? style.colour : "none", "fill-opacity": unmatched ? 0.16 : null, opacity: faded ? 0.25 : null,
    class: unmatched ? "shape unmatched" : "shape" };
}

export function withTitle(context, node, shape) {
  if (!context.thumbnail) context.titles.push([node, shapeTitle(context, shape)]);
  return node;
}

/** The match lines between shape anchors (`anchor(shape) → [x, y]`). */
export async function matchLines(context, anchor, extra = {}) {
  const { detail } = context;
  const group = s("g", { class: "matches" });
  for (const m of detail.matches) {
    const a = detail.shapes[m.a], b = detail.shapes[m.b];
    const [x1, y1] = anchor(a, "a"), [x2, y2] = anchor(b, "b");
    const line = s("line", { x1: round(x1), y1: round(y1), x2: round(x2), y2: round(y2),
      stroke: m.same_label ? MATCH : MISMATCH, "stroke-width": m.same_label ? 1 : 1.5,
      "stroke-dasharray": m.same_label ? null : "3 2", class: m.same_label ? "match" : "match label-mismatch",
      dataset: { lineA: a.line, lineB: b.line, similarity: exact(m.similarity) }, ...extra });
    if (!context.thumbnail) {
      const labels = m.same_label ? "" : ` · labels differ: ${a.label || "(none)"} vs ${b.label || "(none)"}`;
      context.titles.push([line, `${context.similarity} ${m.similarity.toFixed(3)} · ${a.annotator} (line ${a.line}) ↔ ` +
        `${b.annotator} (line ${b.line})${labels}`]);
    }
    group.append(line);
    await context.pacer.tick();
  }
  return group;
}

/** A uniform (aspect-keeping) map of a data rectangle into the plot box; `flipY` puts y up. */
export function frame([x0, x1], [y0, y1], box, maxHeight, flipY = false) {
  const k = Math.min(box.width / (x1 - x0), maxHeight / (y1 - y0));
  const height = (y1 - y0) * k;
  return { k, height, X: (x) => box.x + (x - x0) * k,
    Y: flipY ? (y) => box.y + (y1 - y) * k : (y) => box.y + (y - y0) * k };
}

export function border(box, height) {
  return s("rect", { x: box.x, y: box.y, width: round(box.width), height: round(height), fill: "none", stroke: "#d0d3d9" });
}

// ------------------------------------------------------------------ pictures in image coordinates (y down)

/**
 * Whether an item's coordinates are normalized to the image ([0, 1] of its width and height): as the
 * user said (`units`), or, for "auto", when every coordinate of every shape of the item is in [0, 1].
 */
function isNormalized(units, xs, ys) {
  if (units !== "auto") return units === "normalized";
  const inUnit = (v) => v >= 0 && v <= 1;
  return xs.every(inUnit) && ys.every(inUnit);
}

/**
 * The map of the item's coordinates into the plot box: `X`, `Y`, the scales `kx`, `ky` (plot pixels
 * per input unit) and the plot's height. Without an image: the shapes' extent with a margin. With
 * one (`context.image`: `{href, width, height, units}`): the image's natural size in pixels, widened
 * to any shape beyond it, and the `<image>` drawn first, under the shapes; normalized coordinates are
 * scaled by the image's width and height (for drawing only: the data attributes keep the input's).
 */
export function imageFrame(context, box, xs, ys) {
  const maxHeight = context.thumbnail ? 150 : 520;
  const { image } = context;
  if (!image) {
    const f = frame(padded(extent(xs)), padded(extent(ys)), box, maxHeight);
    return { ...f, kx: f.k, ky: f.k, under: [] };
  }
  const normalized = isNormalized(image.units, xs, ys);
  const [ux, uy] = normalized ? [image.width, image.height] : [1, 1];
  const [x0, x1] = extent([0, image.width].concat(xs.map((x) => x * ux)));  // not spread: an item may have 10⁵ coordinates
  const [y0, y1] = extent([0, image.height].concat(ys.map((y) => y * uy)));
  const f = frame([x0, x1], [y0, y1], box, maxHeight);
  const picture = s("image", { href: image.href, x: round(f.X(0)), y: round(f.Y(0)), width: round(image.width * f.k),
    height: round(image.height * f.k), preserveAspectRatio: "none", class: "item-image",
    dataset: { width: image.width, height: image.height, units: normalized ? "normalized" : "pixels", file: image.name } });
  return { height: f.height, kx: f.k * ux, ky: f.k * uy, X: (x) => f.X(x * ux), Y: (y) => f.Y(y * uy), under: [picture] };
}
