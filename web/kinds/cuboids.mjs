// Cuboids: the page's part of the kind (its report cards, its item pictures: bird's-eye x–y with
// the yaw, and side x–z), read by web/kinds.mjs.

import { objectCards, objectHeadline, OBJECT_ITEMS } from "../object_cards.mjs";
import { frame, border, withTitle, strokeOf, shapeData, matchLines, objectCaption, objectLegend } from "../item_draw.mjs";
import { s, text, round, exact, extent, padded } from "../svg.mjs";

/** The words that belong to this kind (its objects, items and measures): other kinds' cards never use them
 *  (tests/browser/test_captions.py scans every tab for the other kinds' nouns). */
export const nouns = ["cuboid", "cuboids", "scene", "scenes", "3D", "3D IoU", "IoU", "yaw", "bird's-eye"];

/** Its words in the reference cards (reference_cards.mjs). */
export const referenceWords = { similarity: "3D IoU", drawn: "placed", blind: "a cuboid placed without looking" };

export const cards = (report, page) => objectCards(report, page, { objects: "Cuboids", one: "cuboid", countKey: "n_cuboids", reference: referenceWords });

export const headline = objectHeadline({ objects: "cuboids", items: "scenes", countKey: "n_cuboids" });

export const items = OBJECT_ITEMS;

export const picture = {
  similarity: "3D IoU",
  height: (detail, thumbnail) => (thumbnail ? 150 : 420),
  caption: (detail) => objectCaption(detail, "3D IoU"),
  legend: objectLegend,
  draw: drawCuboids,
};

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
