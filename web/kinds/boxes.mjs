// Boxes: the page's part of the kind (its report cards, its item pictures), read by web/kinds.mjs.

import { objectCards, objectHeadline, OBJECT_ITEMS } from "../object_cards.mjs";
import { imageFrame, border, withTitle, strokeOf, shapeData, matchLines, objectCaption, objectLegend } from "../item_draw.mjs";
import { s, round, exact } from "../svg.mjs";

/** The words that belong to this kind (its objects, items and measures): other kinds' cards never use them
 *  (tests/browser/test_captions.py scans every tab for the other kinds' nouns). */
export const nouns = ["box", "boxes", "bounding box", "image", "images", "IoU", "pixel", "pixels"];

/** Its words in the reference cards (reference_cards.mjs). */
export const referenceWords = { similarity: "IoU", drawn: "drawn", blind: "a box drawn without looking" };

export const cards = (report, page) => objectCards(report, page, { objects: "Boxes", one: "box", countKey: "n_boxes", reference: referenceWords });

export const headline = objectHeadline({ objects: "boxes", items: "images", countKey: "n_boxes" });

export const items = OBJECT_ITEMS;

export const picture = {
  similarity: "IoU",
  onImages: true,
  height: (detail, thumbnail) => (thumbnail ? 150 : 420),
  caption: (detail) => objectCaption(detail, "IoU"),
  legend: objectLegend,
  draw: drawBoxes,
};

async function drawBoxes(context, box) {
  const shapes = context.detail.shapes;
  const xs = shapes.flatMap(({ geometry: g }) => [g.x, g.x + g.w]);
  const ys = shapes.flatMap(({ geometry: g }) => [g.y, g.y + g.h]);
  const f = imageFrame(context, box, xs, ys);
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
