// Polygons: the page's part of the kind (its report cards, its item pictures), read by web/kinds.mjs.

import { objectCards, objectHeadline, OBJECT_ITEMS } from "../object_cards.mjs";
import { imageFrame, border, withTitle, strokeOf, shapeData, matchLines, objectCaption, objectLegend } from "../item_draw.mjs";
import { s, round, exact } from "../svg.mjs";

/** The words that belong to this kind (its objects, items and measures): other kinds' cards never use them
 *  (tests/browser/test_captions.py scans every tab for the other kinds' nouns). */
export const nouns = ["polygon", "polygons", "vertex", "vertices", "image", "images", "IoU", "pixel", "pixels"];

/** Its words in the reference cards (reference_cards.mjs). */
export const referenceWords = { similarity: "IoU", drawn: "drawn", blind: "a polygon drawn without looking" };

export const cards = (report, page) => objectCards(report, page, { objects: "Polygons", one: "polygon", countKey: "n_polygons", reference: referenceWords });

export const headline = objectHeadline({ objects: "polygons", items: "images", countKey: "n_polygons" });

export const items = OBJECT_ITEMS;

export const picture = {
  similarity: "IoU",
  onImages: true,
  height: (detail, thumbnail) => (thumbnail ? 150 : 420),
  caption: (detail) => objectCaption(detail, "IoU"),
  legend: objectLegend,
  draw: drawPolygons,
};

function vertexMean(points) {
  let x = 0, y = 0;
  for (let i = 0; i < points.length; i += 2) { x += points[i]; y += points[i + 1]; }
  return [x / (points.length / 2), y / (points.length / 2)];
}

async function drawPolygons(context, box) {
  const shapes = context.detail.shapes;
  const xs = shapes.flatMap(({ geometry: g }) => g.points.filter((_, i) => i % 2 === 0));
  const ys = shapes.flatMap(({ geometry: g }) => g.points.filter((_, i) => i % 2 === 1));
  const f = imageFrame(context, box, xs, ys);
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
