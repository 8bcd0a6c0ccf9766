// Spans: the page's part of the kind (its report cards: the five-way disagreement table; its item
// pictures: the text with one lane per annotator), read by web/kinds.mjs.

import { recordsTable, nestedTable, unitizingTable, openable } from "../cards.mjs";
import { referenceCards } from "../reference_cards.mjs";
import { downloadText, toCsv } from "../download.mjs";
import { h, get, metric, coefficient, formatNumber, settingsLine, section } from "../dom.mjs";
import { MATCH, MISMATCH, shapeData } from "../item_draw.mjs";
import { s, text, round, exact, extent, linear, clip } from "../svg.mjs";

/** The words that belong to this kind (its objects, items and measures): other kinds' cards never use them
 *  (tests/browser/test_captions.py scans every tab for the other kinds' nouns). */
export const nouns = ["span", "spans", "character", "characters", "character IoU", "IoU"];

/** Its words in the reference cards (reference_cards.mjs): its five-way columns against the reference,
 *  the reference as side a (pycore/agreekit/kinds/spans/reference.py), named from the reader's side. */
const REFERENCE_OUTCOMES = [["exact", "Exact"], ["label_only", "Label only"], ["boundary_only", "Boundary only"],
  ["both", "Both"], ["missed_a", "Found by the reference only"], ["missed_b", "Found by the annotator only"]];
export const referenceWords = { similarity: "character IoU", drawn: "marked", columns: Object.fromEntries([
  ...REFERENCE_OUTCOMES.map(([key, words]) => [`outcomes.${key}`, `Five-way: ${words.toLowerCase()}`]),
  ...REFERENCE_OUTCOMES.map(([key, words]) => [`outcomes.shares.${key}`, `Share: ${words.toLowerCase()}`]),
  ["outcomes.n_spans", "Five-way: spans compared"]]) };

// The matched outcomes of the five-way table and the remedy each points to (issue 3). The spans no
// partner took are named from each pair's side, "found by <annotator> only" (issue 26): with more than
// two annotators a "first" or "second" annotator means nothing to the reader.
const MATCHED_OUTCOMES = [
  ["exact", "Exact: same boundaries, same label", "Nothing to fix."],
  ["label_only", "Label only: same boundaries, different label", "Sharpen the label definitions."],
  ["boundary_only", "Boundary only: same label, overlapping but different boundaries", "Write boundary rules (what a span includes)."],
  ["both", "Both: overlapping, boundaries and label differ", "Revisit label definitions and boundary rules together."],
];
const MISSED_REMEDY = "Agree on what counts as an entity.";
const PAIR_PREVIEW_ROWS = 50;

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
    () => spanOutcomeTable(report, page),
    () => pairOutcomeTable(report, page),
    () => recordsTable(report, "disagreement.labels", "Five-way disagreement per label", { page,
      explain: "Counted in spans, as the total's Spans column: a matched pair adds its outcome to the label of each of " +
        "its two spans, so the rows sum to the total." }),
    () => recordsTable(report, "labels", "Per label", { page }),
    () => recordsTable(report, "items", "Per item", { page }),
    () => nestedTable(report, "items", "examples", ["item"], "Disagreements in context", { page, describe: { outcome: exampleOutcome } }),
  ];
}

/** A disagreement's outcome in words, a span only one annotator of the pair marked by that annotator's name. */
function exampleOutcome(example) {
  if (example.outcome === "missed_a") return `found by ${example.a} only`;
  if (example.outcome === "missed_b") return `found by ${example.b} only`;
  return String(example.outcome).replace(/_/g, " ");
}

/** A table card of its own making (rows already built) with a CSV download of `records` as `columns`. */
function tableCard(report, page, { key, title, note, head, body, columns, records, more = null }) {
  const downloadCsv = () => downloadText(`agreekit-${page.kind}-${key.replace(/\./g, "-")}.csv`, toCsv(columns, records), "text/csv");
  return h("section", { class: "card table-card", dataset: { table: key } }, h("h3", {}, title),
    note ? h("p", { class: "muted" }, note) : null,
    h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": title },
      h("table", {}, h("thead", {}, h("tr", {}, head.map(([name, numeric]) => h("th", { scope: "col", class: numeric ? "num" : "" }, name)))),
        h("tbody", {}, body))),
    h("p", { class: "table-actions" }, more, h("button", { type: "button", onclick: downloadCsv }, "Download CSV")),
    settingsLine(report));
}

const numberCell = (key, value) => h("td", { class: "num" }, metric(key, value ?? null));
const plainCell = (value) => h("td", { class: "num" }, formatNumber(value));  // "undefined" for null, as metric()

/** The five-way table over every pair, counted in spans as the per-label table is (its rows sum to this). */
function spanOutcomeTable(report, page) {
  const total = get(report, "disagreement.total");
  if (!total || typeof total !== "object") return null;
  const spans = get(report, "disagreement.spans");
  const remedies = get(report, "disagreement.remedies") || {};
  const pairs = get(report, "disagreement.pairs") || [];
  const onePair = pairs.length === 1 && (get(report, "disagreement.n_pairs_total") ?? 1) === 1 ? pairs[0] : null;
  const share = (count) => (spans?.n_spans ? count / spans.n_spans : null);
  const rows = MATCHED_OUTCOMES.map(([name, label, fallback]) => ({ name, label, spans: [`disagreement.spans.${name}`, spans?.[name]],
    share: [`disagreement.total.shares.${name}`, total.shares?.[name]], pairs: [`disagreement.total.${name}`, total[name]],
    remedy: remedies[name] ?? fallback }));
  if (onePair) {  // one pair: its two sides by name
    for (const side of ["a", "b"]) {
      rows.push({ name: `missed_${side}`, label: `Found by ${onePair[side]} only`, spans: [`disagreement.total.missed_${side}`, total[`missed_${side}`]],
        share: [`disagreement.total.shares.missed_${side}`, total.shares?.[`missed_${side}`]], pairs: null, remedy: remedies.missed ?? MISSED_REMEDY });
    }
  } else {  // sides differ from pair to pair: one row here, each side by name in the per-pair table
    rows.push({ name: "missed", label: "Found by one annotator of a pair only (each pair's two sides: the per-pair table)",
      spans: ["disagreement.spans.missed", spans?.missed], share: [null, share(spans?.missed)], pairs: null, remedy: remedies.missed ?? MISSED_REMEDY });
  }
  rows.push({ name: "n_spans", label: "All compared spans", spans: ["disagreement.spans.n_spans", spans?.n_spans ?? total.n_spans],
    share: [null, share(spans?.n_spans)], pairs: null, remedy: "" });
  const cell = (entry) => (entry === null ? h("td", {}, "") : entry[0] ? numberCell(entry[0], entry[1]) : plainCell(entry[1]));
  const body = rows.map((row) => h("tr", { dataset: { outcome: row.name } }, h("th", { scope: "row" }, row.label),
    cell(row.spans), cell(row.share), cell(row.pairs), h("td", {}, row.remedy)));
  const note = "Counted in spans: a matched pair is two spans, a span no partner took is one, and a span counts once " +
    "for each other annotator of its item. The rows sum to all compared spans.";
  return tableCard(report, page, { key: "disagreement.total", title: "Five-way disagreement, all annotator pairs", note, body,
    head: [["Outcome", false], ["Spans", true], ["Share", true], ["Matched pairs", true], ["What it points to", false]],
    columns: ["outcome", "spans", "share", "matched_pairs", "what_it_points_to"],
    records: rows.map((row) => ({ outcome: row.label, spans: row.spans[1] ?? null, share: row.share[1] ?? null,
      matched_pairs: row.pairs?.[1] ?? null, what_it_points_to: row.remedy })) });
}

/** The five-way table per annotator pair, each row "A vs B" and the spans only one of them marked by name. */
function pairOutcomeTable(report, page) {
  const pairs = get(report, "disagreement.pairs");
  if (!Array.isArray(pairs)) return null;
  const key = "disagreement.pairs", opens = page.opener?.(key);
  if (!pairs.length) return recordsTable(report, key, "Five-way disagreement per annotator pair", { page });  // "None."
  const who = (name) => h("span", { class: "muted who" }, ` ${name}`);
  const row = (pair, i) => openable(opens, i, h("tr", {}, h("th", { scope: "row" }, `${pair.a} vs ${pair.b}`),
    ...["n_items", "exact_f1", "partial_f1", "exact", "label_only", "boundary_only", "both"].map((name) => numberCell(`${key}.${i}.${name}`, pair[name])),
    h("td", { class: "num", title: `found by ${pair.a} only` }, metric(`${key}.${i}.missed_a`, pair.missed_a ?? null), who(pair.a)),
    h("td", { class: "num", title: `found by ${pair.b} only` }, metric(`${key}.${i}.missed_b`, pair.missed_b ?? null), who(pair.b)),
    numberCell(`${key}.${i}.n_spans`, pair.n_spans)));
  const shown = pairs.slice(0, PAIR_PREVIEW_ROWS);
  const listed = get(report, "disagreement.n_pairs_total");
  const more = pairs.length > shown.length || (listed ?? pairs.length) > pairs.length
    ? h("span", { class: "muted" }, `Showing ${shown.length} of ${(listed ?? pairs.length).toLocaleString("en-US")} pairs; the CSV has the ${pairs.length.toLocaleString("en-US")} listed. `) : null;
  return tableCard(report, page, { key, title: "Five-way disagreement per annotator pair",
    note: "Each row is one pair, A vs B: matched pairs of spans by outcome, then the spans only A marked and those only B marked.",
    head: [["Pair: A vs B", false], ["Items", true], ["Exact F1", true], ["Partial F1", true], ["Exact", true], ["Label only", true],
      ["Boundary only", true], ["Both", true], ["Found by A only", true], ["Found by B only", true], ["Spans compared", true]],
    body: shown.map(row), more,
    columns: ["pair", "a", "b", "n_items", "exact_f1", "partial_f1", "exact", "label_only", "boundary_only", "both",
      "found_by_a_only", "found_by_b_only", "n_spans"],
    records: pairs.map((pair) => ({ ...pair, pair: `${pair.a} vs ${pair.b}`, found_by_a_only: pair.missed_a, found_by_b_only: pair.missed_b })) });
}


// ------------------------------------------------------------------ item views

/** The report's items open their view, and so do the five-way table's pairs and the disagreements in context. */
export const items = { list: "items", id: (entry) => entry.item, value: "detection_f1", valueName: "F1",
  ranking: "largest share of spans in disagreement first, then most disagreements; items not scored last",
  annotators: (entry) => (Array.isArray(entry.annotators) ? entry.annotators.map(String) : []),
  opens: { items: "entry", "disagreement.pairs": "pair", "items.examples": "entry" } };

// The five-way outcomes, best first. A span is drawn with the best outcome it has in any pair: agreeing
// with one annotator is agreement, even where a third marked nothing (that shows as a red underline).
// The legend's names fit its 30 characters; the bars' titles say the outcome in full.
const OUTCOME_ORDER = ["exact", "label_only", "boundary_only", "both", "missed"];
const OUTCOME_STYLE = {
  exact: { "fill-opacity": 0.6, stroke: "none", name: "exact (solid)", about: "best match: exact, same boundaries and label" },
  label_only: { "fill-opacity": 0.6, stroke: "#1b1b1f", "stroke-dasharray": "1.5 2", name: "label only (dotted outline)", about: "best match: label only, same boundaries, other label" },
  boundary_only: { "fill-opacity": 0.22, stroke: "#1b1b1f", name: "boundary only (pale, outlined)", about: "best match: boundary only, same label, other boundaries" },
  both: { "fill-opacity": 0.22, stroke: "#1b1b1f", "stroke-dasharray": "4 2", name: "both differ (pale, dashed)", about: "best match: both differ, overlapping, other boundaries and label" },
  missed: { "fill-opacity": 0, stroke: MISMATCH, "stroke-width": 2, name: "no partner in any pair (red)", about: "no partner in any pair" },
};

/** Spans left without a partner, once per other annotator: the per-item table's `n_unmatched`. */
const unmatchedInPairs = (detail) => detail.shapes.reduce((n, shape) => n + shape.n_missed, 0);

export const picture = {
  height: (detail, thumbnail) => detail.annotators.length * (thumbnail ? 12 : 26) + (thumbnail ? 0 : 30),
  caption(detail) {
    const counts = Object.fromEntries(OUTCOME_ORDER.map((o) => [o, 0]));
    for (const m of detail.matches) counts[m.outcome] += 1;
    return `${detail.shapes.length} spans · matched pairs: exact ${counts.exact} · label only ${counts.label_only} · boundary only ` +
      `${counts.boundary_only} · both ${counts.both} · ${unmatchedInPairs(detail)} unmatched in pairs · match ${detail.settings.match}`;
  },
  legend({ detail, styleOf }) {
    return [...detail.annotators.map((name) => ({ name, style: styleOf(name) })),
      ...OUTCOME_ORDER.map((o) => ({ name: OUTCOME_STYLE[o].name, style: { colour: OUTCOME_STYLE[o].stroke === "none" ? "#80838b" : OUTCOME_STYLE[o].stroke,
        dash: OUTCOME_STYLE[o]["stroke-dasharray"] ?? "", width: 2 } })),
      { name: "matched pair (dashed: inexact)", style: { colour: MATCH, dash: "", width: 1 } },
      { name: "red underline: partly missed", style: { colour: MISMATCH, dash: "", width: 2 } }];
  },
  draw: drawSpans,
};

/** The best five-way outcome of each span over the pairs it is matched in; "missed" when matched in none. */
function spanOutcomes(detail) {
  const best = detail.shapes.map(() => OUTCOME_ORDER.length - 1);
  for (const m of detail.matches) {
    const rank = OUTCOME_ORDER.indexOf(m.outcome);
    best[m.a] = Math.min(best[m.a], rank);
    best[m.b] = Math.min(best[m.b], rank);
  }
  return best.map((rank) => OUTCOME_ORDER[rank]);
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
    const others = detail.annotators.length - 1;
    if (!thumbnail) context.titles.push([node, `${shape.annotator} · ${shape.label} · characters ${g.start}–${g.end} · line ${shape.line} · ${OUTCOME_STYLE[shape.outcome].about}` +
      (shape.n_missed ? ` · no partner in ${shape.n_missed} of ${others} other annotator(s)` : "") +
      (detail.text ? ` · “${detail.text.slice(g.start, g.end)}”` : "")]);
    group.append(node);
    if (shape.n_missed && shape.outcome !== "missed") {  // agrees with someone, yet some other annotator has no partner for it
      group.append(s("line", { x1: round(X(g.start)), x2: round(X(g.start) + Math.max(2, X(g.end) - X(g.start))),
        y1: round(top(shape.annotator) + bar + 1.5), y2: round(top(shape.annotator) + bar + 1.5), stroke: MISMATCH, "stroke-width": 2,
        class: "missed-mark", dataset: { line: shape.line, missed: shape.n_missed } }));
    }
    await context.pacer.tick();
  }
  const lines = s("g", { class: "matches" });
  for (const m of detail.matches) {
    const a = detail.shapes[m.a], b = detail.shapes[m.b];
    const line = s("line", { x1: round(X((a.geometry.start + a.geometry.end) / 2)), y1: round(top(a.annotator) + bar),
      x2: round(X((b.geometry.start + b.geometry.end) / 2)), y2: round(top(b.annotator)),
      stroke: MATCH, "stroke-width": 1, "stroke-dasharray": m.outcome === "exact" ? null : "3 2",
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
