// Spans: the page's part of the kind (its report cards: the five-way disagreement table; its item
// pictures: the text with one lane per annotator), read by web/kinds.mjs.

import { recordsTable, nestedTable, unitizingTable } from "../cards.mjs";
import { referenceCards } from "../reference_cards.mjs";
import { h, get, metric, coefficient, settingsLine, section } from "../dom.mjs";
import { MATCH, MISMATCH, shapeData } from "../item_draw.mjs";
import { s, text, round, exact, extent, linear, clip } from "../svg.mjs";

/** The words that belong to this kind (its objects, items and measures): other kinds' cards never use them
 *  (tests/browser/test_captions.py scans every tab for the other kinds' nouns). */
export const nouns = ["span", "spans", "character", "characters", "character IoU", "IoU"];

/** Its words in the reference cards (reference_cards.mjs). */
export const referenceWords = { similarity: "character IoU", drawn: "marked" };

// Remedies that each span outcome points to (issue 3: the five-way table).
const SPAN_OUTCOMES = [
  ["exact", "Exact: same boundaries, same label", "Nothing to fix."],
  ["label_only", "Label only: same boundaries, different label", "Sharpen the label definitions."],
  ["boundary_only", "Boundary only: same label, overlapping but different boundaries", "Write boundary rules (what a span includes)."],
  ["both", "Both: overlapping, boundaries and label differ", "Revisit label definitions and boundary rules together."],
  ["missed_a", "Missed: marked only by the first annotator", "Agree on what counts as an entity."],
  ["missed_b", "Missed: marked only by the second annotator", "Agree on what counts as an entity."],
];

/** The summary card's headline (headline.mjs): character-level α. */
export const headline = () => ({ key: "char_alpha", symbol: "α", scale: "alpha",
  label: "Character-level α (nominal): each character's label, chance-corrected, averaged over items",
  name: "Character-level agreement", counts: [["n_items", "items"], ["n_annotators", "annotators"], ["n_spans", "spans"]] });

export function cards(report, page) {
  return [
    () => section("Span agreement", report,
      h("div", { class: "row" },
        coefficient(report, "Exact F1", "exact_f1", { big: true }),
        coefficient(report, "Partial F1", "partial_f1", { big: true }),
        coefficient(report, "Character-level α", "char_alpha", { big: true,
          explain: "Nominal α over the characters of each item (each character: its span's label or O), averaged over items. Not Krippendorff's unitizing α_U." }),
        coefficient(report, "Unitizing α_U", "unitizing_alpha", { big: true,
          explain: "Krippendorff's (2004) α_U over the characters, the items laid end to end: where units begin and end counts by squared distance, not character by character. Needs item lengths." }))),
    ...referenceCards(report, page, referenceWords),
    () => unitizingTable(report, page),
    () => spanOutcomeTable(report, "disagreement.total", "Five-way disagreement, all annotator pairs"),
    () => recordsTable(report, "disagreement.pairs", "Five-way disagreement per annotator pair", { page }),
    () => recordsTable(report, "disagreement.labels", "Five-way disagreement per label", { page }),
    () => recordsTable(report, "labels", "Per label", { page }),
    () => recordsTable(report, "items", "Per item", { page }),
    () => nestedTable(report, "items", "examples", ["item"], "Disagreements in context", { page }),
  ];
}

function spanOutcomeTable(report, key, title) {
  const counts = get(report, key);
  if (!counts || typeof counts !== "object") return null;
  const remedies = get(report, "disagreement.remedies") || {};
  const rows = SPAN_OUTCOMES.filter(([name]) => name in counts).map(([name, label, fallback]) => {
    const remedy = remedies[name] ?? remedies[name.replace(/_[ab]$/, "")] ?? fallback;  // the core's wording first
    const share = counts.shares?.[name] ?? counts[`${name}_share`];
    return h("tr", {}, h("th", { scope: "row" }, label),
      h("td", { class: "num" }, metric(`${key}.${name}`, counts[name] ?? null)),
      share !== undefined ? h("td", { class: "num" }, metric(counts.shares ? `${key}.shares.${name}` : `${key}.${name}_share`, share)) : h("td", {}, ""),
      h("td", {}, remedy));
  });
  const note = get(report, "disagreement.note");
  return h("section", { class: "card table-card" }, h("h3", {}, title),
    typeof note === "string" ? h("p", { class: "muted" }, note) : null,
    h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": title },
      h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Outcome"), h("th", { scope: "col", class: "num" }, "Count"),
        h("th", { scope: "col", class: "num" }, "Share"), h("th", { scope: "col" }, "What it points to"))),
      h("tbody", {}, rows))),
    settingsLine(report));
}


// ------------------------------------------------------------------ item views

/** The report's items open their view, and so do the five-way table's pairs and the disagreements in context. */
export const items = { list: "items", id: (entry) => entry.item, value: "detection_f1", valueName: "F1",
  ranking: "largest share of spans in disagreement first, then most disagreements; items not scored last",
  annotators: (entry) => (Array.isArray(entry.annotators) ? entry.annotators.map(String) : []),
  opens: { items: "entry", "disagreement.pairs": "pair", "items.examples": "entry" } };

// The five-way outcomes, worst last: a span drawn in several pairs shows its worst.
const OUTCOME_ORDER = ["exact", "label_only", "boundary_only", "both", "missed"];
const OUTCOME_STYLE = {
  exact: { "fill-opacity": 0.6, stroke: "none", name: "exact: same boundaries and label (solid)" },
  label_only: { "fill-opacity": 0.6, stroke: "#1b1b1f", "stroke-dasharray": "1.5 2", name: "label only: same boundaries, other label (dotted outline)" },
  boundary_only: { "fill-opacity": 0.22, stroke: "#1b1b1f", name: "boundary only: same label, other boundaries (pale, outlined)" },
  both: { "fill-opacity": 0.22, stroke: "#1b1b1f", "stroke-dasharray": "4 2", name: "both differ (pale, dashed outline)" },
  missed: { "fill-opacity": 0, stroke: MISMATCH, "stroke-width": 2, name: "missed: no partner in some pair (red outline)" },
};

export const picture = {
  height: (detail, thumbnail) => detail.annotators.length * (thumbnail ? 12 : 26) + (thumbnail ? 0 : 30),
  caption(detail) {
    const counts = Object.fromEntries(OUTCOME_ORDER.map((o) => [o, 0]));
    for (const m of detail.matches) counts[m.outcome] += 1;
    const missed = detail.shapes.reduce((n, shape) => n + shape.n_missed, 0);
    return `${detail.shapes.length} spans · exact ${counts.exact} · label only ${counts.label_only} · boundary only ` +
      `${counts.boundary_only} · both ${counts.both} · missed ${missed} · match ${detail.settings.match}`;
  },
  legend({ detail, styleOf }) {
    return [...detail.annotators.map((name) => ({ name, style: styleOf(name) })),
      ...OUTCOME_ORDER.map((o) => ({ name: OUTCOME_STYLE[o].name, style: { colour: OUTCOME_STYLE[o].stroke === "none" ? "#80838b" : OUTCOME_STYLE[o].stroke,
        dash: OUTCOME_STYLE[o]["stroke-dasharray"] ?? "", width: 2 } }))];
  },
  draw: drawSpans,
};

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
