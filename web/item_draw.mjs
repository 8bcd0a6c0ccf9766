// The pictures of the item views: one item's shapes by annotator, as SVG (item_view.mjs shows them).
//
// Input: an item detail from the worker (bridge.py run_item_detail; docs/architecture.md, "Item details"):
// {item, annotators, shapes: [{annotator, line, label, geometry, n_matched}], matches: [{a, b,
// similarity, same_label}], settings}. Every drawn shape carries data-item, data-annotator,
// data-line (its input row), data-label and its geometry in the input's own units (boxes data-x
// data-y data-w data-h, polygons data-points, cuboids data-cx … data-yaw, segments data-start
// data-end); every match line data-line-a, data-line-b and data-similarity. Text from the input
// reaches the picture as text nodes only (svg.mjs).

import { h } from "./dom.mjs";
import { s, title, text, round, exact, linear, extent, padded, annotatorStyle, legend, clip, Pacer, OKABE_ITO } from "./svg.mjs";

const WIDTH = 760;          // the full view's width in CSS pixels
const THUMB_WIDTH = 220;    // a gallery thumbnail's
const MISMATCH = "#b3261e"; // a matched pair whose labels differ
const MATCH = "#3c4043";

/** Name of the similarity of each kind's matches, for titles. */
const SIMILARITY = { boxes: "IoU", polygons: "IoU", cuboids: "3D IoU", segments: "temporal IoU" };
const TRACES = "traces";  // the one kind drawn as labels by step, not shapes
const SPANS = "spans";    // matched by the five-way table, not by a similarity
// The five-way outcomes, worst last: a span drawn in several pairs shows its worst.
const OUTCOME_ORDER = ["exact", "label_only", "boundary_only", "both", "missed"];
const OUTCOME_STYLE = {
  exact: { "fill-opacity": 0.6, stroke: "none", name: "exact: same boundaries and label (solid)" },
  label_only: { "fill-opacity": 0.6, stroke: "#1b1b1f", "stroke-dasharray": "1.5 2", name: "label only: same boundaries, other label (dotted outline)" },
  boundary_only: { "fill-opacity": 0.22, stroke: "#1b1b1f", name: "boundary only: same label, other boundaries (pale, outlined)" },
  both: { "fill-opacity": 0.22, stroke: "#1b1b1f", "stroke-dasharray": "4 2", name: "both differ (pale, dashed outline)" },
  missed: { "fill-opacity": 0, stroke: MISMATCH, "stroke-width": 2, name: "missed: no partner in some pair (red outline)" },
};

const pendingTitles = new WeakMap();  // svg -> [[node, text]] still to add (addTitles)

/** Whether item views can draw `kind`. */
export function canDraw(kind) {
  return kind in DRAWERS;
}

/** Whether item views of `kind` draw its shapes over the item's image when the user gives one. */
export function drawsOnImages(kind) {
  return DRAWERS[kind] === drawBoxes || DRAWERS[kind] === drawPolygons;
}

/**
 * The SVG picture of one item.
 *
 * `palette`: the report's annotators in sorted order (an annotator keeps its colour from item to
 * item); `focus`: annotators to draw at full strength (the others faded), or null for all;
 * `thumbnail`: a small picture without header, legend or titles; `mount(svg)`: called with the
 * picture before its shapes are drawn, to put it in the page, so that the shapes are laid out and
 * painted a few hundred at a time as they are added (one task for all 1,500 boxes of a crowded
 * image took 280 ms here, over the 200 ms budget); `image`: `{href, width, height, name, units}`,
 * a picture to draw the shapes over (kinds of drawsOnImages only; boxFrame says how);
 * `controls(node)`: called with the view's HTML controls of the picture, if it has any (segments:
 * the boundary tolerance slider).
 */
export async function drawItem(kind, detail, { palette = detail.annotators, focus = null, thumbnail = false, mount = null, report = null,
  image = null, controls = null } = {}) {
  const styleOf = new Map(palette.map((name, k) => [name, annotatorStyle(k)]));
  const group = s("g", { class: "plot" });
  const context = { kind, detail, thumbnail, focus, group, report, controls, image: drawsOnImages(kind) ? image : null, pacer: new Pacer(), titles: [],
    styleOf: (name) => styleOf.get(name) ?? annotatorStyle(palette.length) };
  const width = thumbnail ? THUMB_WIDTH : WIDTH;
  const top = thumbnail ? 4 : 46;
  const svg = s("svg", { width, height: top, viewBox: `0 0 ${width} ${top}`, class: "item-svg", role: "img",
    "aria-label": `Item ${detail.item}: ${(detail.shapes ?? detail.cells).length} ${kind === TRACES ? "labels" : "shapes"} ` +
      `by ${detail.annotators.length} annotators`,
    dataset: { item: detail.item },
    // no anti-aliasing for crowded pictures: painting thousands of dashed outlines costs less
    "shape-rendering": (detail.shapes ?? detail.cells).length > 400 ? "optimizeSpeed" : null });
  const background = s("rect", { x: 0, y: 0, width, height: top, fill: "#fff" });
  svg.append(background);
  if (!thumbnail) {
    svg.append(text(12, 18, `Item ${clip(detail.item, 80)}`, { "font-size": 15, "font-weight": 600 }),
      text(12, 36, settingsText(kind, detail), { "font-size": 11, fill: "#555" }));
  }
  svg.append(group);
  const resize = (height) => {
    for (const [node, name] of [[svg, "height"], [background, "height"]]) node.setAttribute(name, height);
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  };
  let height = top + layoutHeight(kind, detail, thumbnail);
  resize(height);
  mount?.(svg);
  const plot = await DRAWERS[kind](context, { x: thumbnail ? 4 : 12, y: top, width: width - (thumbnail ? 8 : 24) });
  height = top + plot.height + (thumbnail ? 4 : 14);
  if (!thumbnail) {
    const [entries, legendHeight] = legend(legendEntries(context), 12, height, width - 24);
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
class FramePacer {
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

/** A first guess of the plot's height (the picture is mounted before it is drawn). */
function layoutHeight(kind, detail, thumbnail) {
  if (kind === SPANS) return detail.annotators.length * (thumbnail ? 12 : 26) + (thumbnail ? 0 : 30);
  if (kind === TRACES) return detail.annotators.length * (thumbnail ? 10 : 24) + (thumbnail ? 0 : 30);
  return kind === "segments" ? detail.annotators.length * (thumbnail ? 14 : 30) : (thumbnail ? 150 : 420);
}

function settingsText(kind, detail) {
  if (kind === SPANS) {
    const counts = Object.fromEntries(OUTCOME_ORDER.map((o) => [o, 0]));
    for (const m of detail.matches) counts[m.outcome] += 1;
    const missed = detail.shapes.reduce((n, shape) => n + shape.n_missed, 0);
    return `${detail.shapes.length} spans · exact ${counts.exact} · label only ${counts.label_only} · boundary only ` +
      `${counts.boundary_only} · both ${counts.both} · missed ${missed} · match ${detail.settings.match}`;
  }
  if (kind === TRACES) {
    return `${detail.cells.length} labels · ${detail.steps.length} steps · ${detail.disputed.length} disputed steps · ` +
      `level ${detail.settings.level} · α per step position over all traces above the columns`;
  }
  const { threshold, match } = detail.settings;
  const counts = `${detail.shapes.length} shapes · ${detail.matches.length} matched pairs · ` +
    `${detail.shapes.filter((shape) => shape.n_matched === 0).length} unmatched`;
  return `${counts} · matched at ${SIMILARITY[kind]} ≥ ${threshold} (${match})`;
}

function legendEntries({ kind, detail, styleOf }) {
  if (kind === SPANS) {
    return [...detail.annotators.map((name) => ({ name, style: styleOf(name) })),
      ...OUTCOME_ORDER.map((o) => ({ name: OUTCOME_STYLE[o].name, style: { colour: OUTCOME_STYLE[o].stroke === "none" ? "#80838b" : OUTCOME_STYLE[o].stroke,
        dash: OUTCOME_STYLE[o]["stroke-dasharray"] ?? "", width: 2 } }))];
  }
  if (kind === TRACES) {
    const present = new Set(detail.cells.map((cell) => cell.label));
    return [...detail.labels.filter((label) => present.has(label)).map((label) => ({ name: label,
      style: { colour: labelColour(detail, label), dash: "", width: 10 } })),
    { name: "outlined: disputed step", style: { colour: "#1b1b1f", dash: "", width: 2 } }];
  }
  const entries = detail.annotators.map((name) => ({
    name: detail.empty.includes(name) ? `${name} (drew nothing)` : name, style: styleOf(name) }));
  entries.push({ name: "matched pair (same label)", style: { colour: MATCH, dash: "", width: 1 } },
    { name: "matched pair, labels differ", style: { colour: MISMATCH, dash: "3 2", width: 1.5 } },
    { name: "thick, tinted: unmatched", style: { colour: "#80838b", dash: "", width: 4 } });
  if (kind === "segments" && detail.boundaries?.points.length) {
    entries.push({ name: "boundary match within ±τ", style: { colour: BOUNDARY_MATCH, dash: "", width: 1 } },
      { name: "±τ window of a boundary", style: { colour: "#80838b", dash: "", width: 8 } });
  }
  return entries;
}

// ------------------------------------------------------------------ shared pieces

function shapeTitle({ kind, detail }, shape) {
  const others = detail.annotators.length - 1;
  const matched = shape.n_matched ? `matched by ${shape.n_matched} of ${others} other annotator(s)` : "unmatched";
  return `${shape.annotator} · ${shape.label === "" ? "(no label)" : shape.label} · line ${shape.line} · ${matched} · ` +
    Object.entries(shape.geometry).map(([k, v]) => `${k} ${Array.isArray(v) ? `${v.length / 2} points` : v}`).join(", ") +
    ` (${kind})`;
}

/** The attributes every drawn shape carries: who, which row, which label, its geometry. */
function shapeData({ detail }, shape, geometry) {
  return { item: detail.item, annotator: shape.annotator, line: shape.line, label: shape.label, ...geometry,
    matched: shape.n_matched };
}

function strokeOf(context, shape) {
  const style = context.styleOf(shape.annotator);
  const faded = context.focus && !context.focus.includes(shape.annotator);
  const unmatched = shape.n_matched === 0 && context.detail.annotators.length > 1;
  return { stroke: style.colour, "stroke-dasharray": style.dash || null, "stroke-width": unmatched ? 3.5 : 2,
    // only unmatched shapes are tinted: a fill on every shape doubles the cost of painting a crowded item
    fill: unmatched ? style.colour : "none", "fill-opacity": unmatched ? 0.16 : null, opacity: faded ? 0.25 : null,
    class: unmatched ? "shape unmatched" : "shape" };
}

function withTitle(context, node, shape) {
  if (!context.thumbnail) context.titles.push([node, shapeTitle(context, shape)]);
  return node;
}

/** The match lines between shape anchors (`anchor(shape) → [x, y]`). */
async function matchLines(context, anchor, extra = {}) {
  const { detail, kind } = context;
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
      context.titles.push([line, `${SIMILARITY[kind]} ${m.similarity.toFixed(3)} · ${a.annotator} (line ${a.line}) ↔ ` +
        `${b.annotator} (line ${b.line})${labels}`]);
    }
    group.append(line);
    await context.pacer.tick();
  }
  return group;
}

/** A uniform (aspect-keeping) map of a data rectangle into the plot box; `flipY` puts y up. */
function frame([x0, x1], [y0, y1], box, maxHeight, flipY = false) {
  const k = Math.min(box.width / (x1 - x0), maxHeight / (y1 - y0));
  const height = (y1 - y0) * k;
  return { k, height, X: (x) => box.x + (x - x0) * k,
    Y: flipY ? (y) => box.y + (y1 - y) * k : (y) => box.y + (y - y0) * k };
}

function border(box, height) {
  return s("rect", { x: box.x, y: box.y, width: round(box.width), height: round(height), fill: "none", stroke: "#d0d3d9" });
}

// ------------------------------------------------------------------ boxes and polygons (image coordinates, y down)

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
function boxFrame(context, box, xs, ys) {
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

async function drawBoxes(context, box) {
  const shapes = context.detail.shapes;
  const xs = shapes.flatMap(({ geometry: g }) => [g.x, g.x + g.w]);
  const ys = shapes.flatMap(({ geometry: g }) => [g.y, g.y + g.h]);
  const f = boxFrame(context, box, xs, ys);
  const { group } = context;
  group.append(...f.under, border(box, f.height));
  for (const shape of shapes) {
    const g = shape.geometry;
    group.append(withTitle(context, s("rect", { x: round(f.X(g.x)), y: round(f.Y(g.y)),
      width: round(Math.max(0, g.w * f.kx)), height: round(Math.max(0, g.h * f.ky)), ...strokeOf(context, shape),
      dataset: shapeData(context, shape, { x: exact(g.x), y: exact(g.y), w: exact(g.w), h: exact(g.h) }) }), shape));
    await context.pacer.tick();
  }
  group.append(await matchLines(context, ({ geometry: g }) => [f.X(g.x + g.w / 2), f.Y(g.y + g.h / 2)]));
  return { group, height: f.height };
}

function vertexMean(points) {
  let x = 0, y = 0;
  for (let i = 0; i < points.length; i += 2) { x += points[i]; y += points[i + 1]; }
  return [x / (points.length / 2), y / (points.length / 2)];
}

async function drawPolygons(context, box) {
  const shapes = context.detail.shapes;
  const xs = shapes.flatMap(({ geometry: g }) => g.points.filter((_, i) => i % 2 === 0));
  const ys = shapes.flatMap(({ geometry: g }) => g.points.filter((_, i) => i % 2 === 1));
  const f = boxFrame(context, box, xs, ys);
  const { group } = context;
  group.append(...f.under, border(box, f.height));
  for (const shape of shapes) {
    const p = shape.geometry.points;
    const drawn = [];
    for (let i = 0; i < p.length; i += 2) drawn.push(`${round(f.X(p[i]))},${round(f.Y(p[i + 1]))}`);
    group.append(withTitle(context, s("polygon", { points: drawn.join(" "), ...strokeOf(context, shape),
      dataset: shapeData(context, shape, { points: p.map(exact).join(" ") }) }), shape));
    await context.pacer.tick();
  }
  group.append(await matchLines(context, ({ geometry: g }) => {
    const [x, y] = vertexMean(g.points);
    return [f.X(x), f.Y(y)];
  }));
  return { group, height: f.height };
}

// ------------------------------------------------------------------ cuboids: bird's-eye x–y (yaw) and side x–z

function footprint(g) {
  const c = Math.cos(g.yaw), sn = Math.sin(g.yaw), hx = g.sx / 2, hy = g.sy / 2;
  return [[hx, hy], [-hx, hy], [-hx, -hy], [hx, -hy]].map(([u, v]) => [g.cx + u * c - v * sn, g.cy + u * sn + v * c]);
}

function halfExtentX(g) {
  return (Math.abs(Math.cos(g.yaw)) * g.sx + Math.abs(Math.sin(g.yaw)) * g.sy) / 2;
}

function cuboidData(g) {
  return Object.fromEntries(["cx", "cy", "cz", "sx", "sy", "sz", "yaw"].map((k) => [k, exact(g[k])]));
}

async function drawCuboids(context, box) {
  const shapes = context.detail.shapes;
  const gap = context.thumbnail ? 4 : 16;
  const half = { ...box, width: (box.width - gap) / 2 };
  const side = { ...half, x: box.x + half.width + gap };
  const corners = shapes.map(({ geometry }) => footprint(geometry));
  const xRange = padded(extent(corners.flat().map(([x]) => x)));
  const maxHeight = context.thumbnail ? 150 : 420;
  const top = frame(xRange, padded(extent(corners.flat().map(([, y]) => y))), half, maxHeight, true);
  const zs = shapes.flatMap(({ geometry: g }) => [g.cz - g.sz / 2, g.cz + g.sz / 2]);
  const front = frame(xRange, padded(extent(zs), 0.15), side, maxHeight, true);
  const { group } = context;
  group.append(border(half, top.height), border(side, front.height));
  if (!context.thumbnail) {
    group.append(text(half.x + 4, half.y + 13, "bird's-eye (x–y)", { fill: "#555", "font-size": 11 }),
      text(side.x + 4, side.y + 13, "side (x–z)", { fill: "#555", "font-size": 11 }));
  }
  for (const [k, shape] of shapes.entries()) {
    const g = shape.geometry, style = strokeOf(context, shape);
    const data = shapeData(context, shape, cuboidData(g));
    group.append(withTitle(context, s("polygon", { points: corners[k].map(([x, y]) => `${round(top.X(x))},${round(top.Y(y))}`).join(" "),
      ...style, dataset: data }), shape));
    const hx = halfExtentX(g);
    group.append(withTitle(context, s("rect", { x: round(front.X(g.cx - hx)), y: round(front.Y(g.cz + g.sz / 2)),
      width: round(2 * hx * front.k), height: round(g.sz * front.k), ...style, class: style.class.replace("shape", "shape-side"),
      dataset: data }), shape));
    await context.pacer.tick();
  }
  group.append(await matchLines(context, ({ geometry: g }) => [top.X(g.cx), top.Y(g.cy)]),
    await matchLines(context, ({ geometry: g }) => [front.X(g.cx), front.Y(g.cz)], { class: "match-side" }));
  return { group, height: Math.max(top.height, front.height) };
}

// ------------------------------------------------------------------ segments: a timeline, one lane per annotator

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

// ------------------------------------------------------------------ traces: steps × annotators, coloured by label

function labelColour(detail, label) {
  return OKABE_ITO[Math.max(0, detail.labels.indexOf(label)) % OKABE_ITO.length];
}

async function drawTraces(context, box) {
  const { detail, thumbnail, group } = context;
  const labelWidth = thumbnail ? 0 : 110, header = thumbnail ? 0 : 30, rowHeight = thumbnail ? 10 : 24;
  const column = new Map(detail.steps.map((step, k) => [step, k]));
  const lane = new Map(detail.annotators.map((name, k) => [name, k]));
  const width = Math.max(2, Math.min(56, (box.width - labelWidth) / Math.max(1, detail.steps.length)));
  const x = (step) => box.x + labelWidth + column.get(step) * width;
  const alpha = new Map((context.report?.steps ?? []).map((entry) => [entry.step, entry.alpha?.value ?? null]));
  if (!thumbnail) {
    detail.annotators.forEach((name, k) => group.append(text(box.x, box.y + header + k * rowHeight + rowHeight / 2 + 4, clip(name, 16), { "font-size": 11 })));
    for (const step of detail.steps) {
      const value = alpha.get(step);
      const label = text(x(step) + 2, box.y + 12, width >= 30 ? `s${step}` : "", { "font-size": 10, fill: "#555" });
      const shownAlpha = typeof value === "number" ? value.toFixed(2) : "–";
      const a = text(x(step) + 2, box.y + 25, width >= 30 ? `α ${shownAlpha}` : "", { "font-size": 10, class: "step-alpha",
        dataset: { step, alpha: typeof value === "number" ? exact(value) : "null" } });
      context.titles.push([a, `step ${step}: α over all traces ${typeof value === "number" ? value : "undefined"}`]);
      group.append(label, a);
    }
  }
  for (const cell of detail.cells) {
    const rect = s("rect", { x: round(x(cell.step)), y: round(box.y + header + lane.get(cell.annotator) * rowHeight),
      width: round(Math.max(1, width - 1)), height: rowHeight - 2, fill: labelColour(detail, cell.label), class: "shape",
      opacity: context.focus && !context.focus.includes(cell.annotator) ? 0.25 : null,
      dataset: { item: detail.item, annotator: cell.annotator, line: cell.line, label: cell.label, step: cell.step } });
    if (!thumbnail) context.titles.push([rect, `${cell.annotator} · step ${cell.step} · ${cell.label} · line ${cell.line}`]);
    group.append(rect);
    await context.pacer.tick();
  }
  const bottom = box.y + header + detail.annotators.length * rowHeight;
  for (const step of detail.disputed) {
    group.append(s("rect", { x: round(x(step) - 1), y: round(box.y + header - 1), width: round(width + 1), height: round(bottom - box.y - header),
      fill: "none", stroke: "#1b1b1f", "stroke-width": thumbnail ? 1 : 2, class: "disputed", dataset: { step } }));
  }
  return { group, height: header + detail.annotators.length * rowHeight + 4 };
}

// ------------------------------------------------------------------ spans: the text, one lane per annotator

/** The worst five-way outcome of each span over the pairs it is in. */
function spanOutcomes(detail) {
  const worst = detail.shapes.map((shape) => (shape.n_missed ? 4 : 0));
  for (const m of detail.matches) {
    const rank = OUTCOME_ORDER.indexOf(m.outcome);
    worst[m.a] = Math.max(worst[m.a], rank);
    worst[m.b] = Math.max(worst[m.b], rank);
  }
  return worst.map((rank) => OUTCOME_ORDER[rank]);
}

async function drawSpans(context, box) {
  const { detail, thumbnail, group } = context;
  const labelWidth = thumbnail ? 0 : 110, header = thumbnail ? 0 : 30, laneHeight = thumbnail ? 12 : 26, bar = thumbnail ? 8 : 14;
  const ends = detail.shapes.flatMap(({ geometry: g }) => [g.start, g.end]);
  const length = detail.length ?? Math.max(1, ...ends);
  // A long text is shown around its spans: a character should stay at least ~6 px wide.
  const fits = (box.width - labelWidth) / 6.5;
  let [lo, hi] = length <= fits || !ends.length ? [0, length] : extent(ends);
  if (hi - lo < length) { lo = Math.max(0, lo - 4); hi = Math.min(length, hi + 4); }
  const X = linear([lo, hi], [box.x + labelWidth, box.x + box.width]);
  const lane = new Map(detail.annotators.map((name, k) => [name, k]));
  const top = (name) => box.y + header + lane.get(name) * laneHeight + (laneHeight - bar) / 2;
  if (!thumbnail) {
    if (detail.text) {
      const shown = detail.text.slice(lo, hi);
      group.append(text(X(lo), box.y + 18, shown, { "font-family": "ui-monospace, monospace", "font-size": 12,
        textLength: round(X(hi) - X(lo)), lengthAdjust: "spacingAndGlyphs", class: "span-text" }));
    } else {
      group.append(text(box.x + labelWidth, box.y + 18, `characters ${lo}–${hi} (no text given)`, { "font-size": 11, fill: "#555" }));
    }
    detail.annotators.forEach((name, k) => group.append(text(box.x, box.y + header + k * laneHeight + laneHeight / 2 + 4, clip(name, 16), { "font-size": 11 })));
  }
  const outcomes = spanOutcomes(detail);
  detail.shapes.forEach((shape, k) => { shape.outcome = outcomes[k]; });
  for (const shape of detail.shapes) {
    const g = shape.geometry, style = OUTCOME_STYLE[shape.outcome];
    const node = s("rect", { x: round(X(g.start)), y: round(top(shape.annotator)), width: round(Math.max(2, X(g.end) - X(g.start))),
      height: bar, fill: context.styleOf(shape.annotator).colour, "fill-opacity": style["fill-opacity"], stroke: style.stroke,
      "stroke-dasharray": style["stroke-dasharray"] ?? null, "stroke-width": style["stroke-width"] ?? 1,
      class: `shape outcome-${shape.outcome}`, opacity: context.focus && !context.focus.includes(shape.annotator) ? 0.25 : null,
      dataset: { ...shapeData(context, { ...shape, n_matched: shape.n_missed }, { start: exact(g.start), end: exact(g.end) }),
        matched: null, missed: shape.n_missed, outcome: shape.outcome } });
    if (!thumbnail) context.titles.push([node, `${shape.annotator} · ${shape.label} · characters ${g.start}–${g.end} · line ${shape.line} · ${shape.outcome.replace("_", " ")}` +
      (detail.text ? ` · “${detail.text.slice(g.start, g.end)}”` : "")]);
    group.append(node);
    await context.pacer.tick();
  }
  const lines = s("g", { class: "matches" });
  for (const m of detail.matches) {
    const a = detail.shapes[m.a], b = detail.shapes[m.b];
    const line = s("line", { x1: round(X((a.geometry.start + a.geometry.end) / 2)), y1: round(top(a.annotator) + bar),
      x2: round(X((b.geometry.start + b.geometry.end) / 2)), y2: round(top(b.annotator)),
      stroke: m.outcome === "exact" ? MATCH : MISMATCH, "stroke-width": 1, "stroke-dasharray": m.outcome === "exact" ? null : "3 2",
      class: `match outcome-${m.outcome}`, dataset: { lineA: a.line, lineB: b.line, outcome: m.outcome } });
    if (!thumbnail) context.titles.push([line, `${m.outcome.replace("_", " ")} · ${a.annotator} (line ${a.line}) ↔ ${b.annotator} (line ${b.line})`]);
    lines.append(line);
    await context.pacer.tick();
  }
  group.append(lines);
  if (!thumbnail) highlightPartners(group, detail);
  return { group, height: header + detail.annotators.length * laneHeight + 4 };
}

/** Hovering a span outlines its partners (the spans matched to it in any pair). */
function highlightPartners(group, detail) {
  const partners = detail.shapes.map(() => []);
  for (const m of detail.matches) { partners[m.a].push(m.b); partners[m.b].push(m.a); }
  const nodes = [...group.querySelectorAll(".shape")];
  group.addEventListener("pointerover", (event) => {
    const k = nodes.indexOf(event.target);
    for (const node of group.querySelectorAll(".partner")) node.classList.remove("partner");
    if (k >= 0) for (const p of partners[k]) nodes[p].classList.add("partner");
  });
}

const DRAWERS = { spans: drawSpans, boxes: drawBoxes, polygons: drawPolygons, cuboids: drawCuboids, segments: drawSegments, traces: drawTraces };
