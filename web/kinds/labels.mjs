// Labels: the page's part of the kind (its report cards: Krippendorff's α and percent agreement, every
// coefficient with its interval, label prevalence, per annotator pair and per annotator, one pair's
// confusion table, the most disputed items; its item view: each annotator's label of a disputed item), read by web/kinds.mjs.
//
// Labels, item ids and annotator names reach the page as text only (dom.mjs h(), svg.mjs).

import { estimateTable, openable, columnTitle } from "../cards.mjs";
import { downloadText, toCsv } from "../download.mjs";
import { referenceCards } from "../reference_cards.mjs";
import { h, get, metric, estimate, coefficient, estimateCell, isEstimate, settingsLine, section } from "../dom.mjs";
import { s, text, title, clip, serialize, toPng, OKABE_ITO } from "../svg.mjs";

/** The words that belong to this kind (its objects, items and measures): other kinds' cards never use them
 *  (tests/browser/test_captions.py scans every tab for the other kinds' nouns). */
export const nouns = ["rating", "ratings", "rater", "raters", "reliability matrix"];

/** Its words in the reference cards (reference_cards.mjs). */
export const referenceWords = { similarity: null, drawn: "labelled" };

// The coefficients' names, in the report's key order; a key not named here is shown by its key.
const COEFFICIENT_NAMES = {
  alpha: "Krippendorff's α",
  alpha_jaccard: "Krippendorff's α (Jaccard distance)",
  percent_agreement: "Percent agreement",
  gwet_ac1: "Gwet's AC1",
  brennan_prediger: "Brennan–Prediger",
  conger_kappa: "Conger's κ",
  gwet_ac2_linear: "Gwet's AC2",
  gwet_ac2_quadratic: "Gwet's AC2",
  cohen_kappa: "Cohen's κ (mean over pairs)",
  cohen_kappa_linear: "Weighted Cohen's κ (mean over pairs)",
  cohen_kappa_quadratic: "Weighted Cohen's κ (mean over pairs)",
  fleiss_kappa: "Fleiss' κ",
  scott_pi: "Scott's π",
  icc_2_1: "ICC(2,1), absolute agreement",
  icc_3_1: "ICC(3,1), consistency",
};

/** The summary card's headline (headline.mjs): Krippendorff's α at the chosen level. */
export const headline = (report) => ({ key: "coefficients.alpha", symbol: "α", scale: "alpha",
  label: `Krippendorff's α (${get(report, "settings.level") ?? ""} level), missing ratings allowed`,
  name: "Agreement on labels", counts: [["n_items", "items"], ["n_annotators", "annotators"], ["n_ratings", "ratings"]] });

export function cards(report, page) {
  const level = String(get(report, "settings.level") ?? "");
  return [
    () => headlineCard(report, level),
    () => coefficientTable(report, level, page),
    ...referenceCards(report, page, referenceWords),
    () => prevalenceTable(report, page),
    () => estimateTable(report, "pairs", "Per annotator pair (items both rated)", pairColumns(report), { page,
      explain: "Cohen's κ and Scott's π of the two annotators over the items both rated; a low pair points to one " +
        "annotator or one pair reading the guidelines differently." }),
    () => estimateTable(report, "annotators", "Per annotator", [
      { path: "annotator", title: "Annotator", type: "text" }, { path: "n_items", title: "Compared items", type: "number" },
      { path: "n_pairs", title: "Pairs", type: "number" }, { path: "cohen_kappa", title: "Mean Cohen's κ", type: "estimate" },
      { path: "percent_agreement", title: "Percent agreement", type: "estimate" }], { page,
      explain: "Each annotator against the others, over the items it shares with them." }),
    () => confusionCard(report),
    () => disputedTable(report, page),
  ];
}

/** Krippendorff's α at the chosen level, percent agreement, the kappa-paradox sentence, the counts. */
function headlineCard(report, level) {
  const metricName = get(report, "coefficients.alpha.metric");
  const distance = metricName && metricName !== level ? `, ${metricName} distance` : "";
  const paradox = get(report, "kappa_paradox");
  return section("Agreement on labels", report,
    h("div", { class: "contrast" },
      coefficient(report, `Krippendorff's α (${level}${distance})`, "coefficients.alpha", { big: true,
        explain: "1 = perfect agreement · 0 = chance · below 0 = systematic disagreement. Missing ratings allowed." }),
      coefficient(report, "Percent agreement", "coefficients.percent_agreement", { big: true,
        explain: "Share of agreeing rating pairs within an item, no chance correction." })),
    typeof paradox === "string" && paradox ? h("p", { class: "kappa-paradox" }, paradox) : null,
    h("div", { class: "row" },
      estimate(report, "Compared items", "n_items"), estimate(report, "Items read", "n_items_total"),
      estimate(report, "Annotators", "n_annotators"), estimate(report, "Ratings", "n_ratings"),
      estimate(report, "Disputed items", "n_disputed_items")),
    get(report, "input.reading") ? h("p", { class: "muted" }, `Input read as ${get(report, "input.reading")}.`) : null);
}

/** How a coefficient was computed, in words: its distance, its weights, the items left out. */
function settingsOf(record, level) {
  const parts = [];
  if (record.metric) parts.push(`${record.metric} distance`);
  if (record.weights) parts.push(`${record.weights} weights`);
  if (!parts.length) parts.push(`level ${level}`);
  if (record.left_out) parts.push(record.left_out);
  return parts.join(" · ");
}

/** Every coefficient estimate of the report: its name, settings, value with interval (or reason), n. */
function coefficientTable(report, level, page) {
  const coefficients = get(report, "coefficients");
  if (!coefficients || typeof coefficients !== "object") return null;
  const rows = Object.entries(coefficients).filter(([, record]) => isEstimate(record));
  const title = "Every coefficient";
  const tbody = h("tbody", {}, rows.map(([key, record]) => h("tr", { dataset: { coefficient: key } },
    h("th", { scope: "row" }, COEFFICIENT_NAMES[key] ?? columnTitle(key)),
    h("td", {}, settingsOf(record, level)),
    estimateCell(`coefficients.${key}`, record),
    h("td", { class: "num" }, metric(`coefficients.${key}.n`, typeof record.n === "number" ? record.n : null)))));
  const downloadCsv = () => downloadText(`agreekit-${page.kind}-coefficients.csv`, toCsv(
    ["coefficient", "settings", "value", "ci_low", "ci_high", "reason", "n"],
    rows.map(([key, record]) => ({ coefficient: key, settings: settingsOf(record, level), value: record.value,
      ci_low: record.ci?.[0] ?? null, ci_high: record.ci?.[1] ?? null, reason: record.reason, n: record.n }))), "text/csv");
  return h("section", { class: "card table-card", dataset: { table: "coefficients" } }, h("h3", {}, title),
    h("p", { class: "muted" }, "All over the same items; a coefficient that does not apply at this level shows why. " +
      "Intervals: bootstrap over items."),
    h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": title },
      h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Coefficient"), h("th", { scope: "col" }, "Computed with"),
        h("th", { scope: "col", class: "num" }, "Value with 95% CI"), h("th", { scope: "col", class: "num" }, "n"))), tbody)),
    h("p", { class: "table-actions" }, h("button", { type: "button", onclick: downloadCsv }, "Download CSV")),
    settingsLine(report));
}

/** Each category's ratings, share and count by annotator (a column per annotator, in `annotators` order). */
function prevalenceTable(report, page) {
  const annotators = Array.isArray(report.annotators) ? report.annotators.map((a) => String(a.annotator)) : [];
  return estimateTable(report, "prevalence", "Prevalence of each label", [
    { path: "label", title: "Label", type: "text" }, { path: "n", title: "Ratings", type: "number" },
    { path: "share", title: "Share", type: "number" },
    ...annotators.map((name, j) => ({ path: `per_annotator.${j}`, title: name, type: "number" }))], { page,
    explain: "One dominant label lowers the chance-corrected coefficients while percent agreement stays high " +
      "(the kappa paradox); a label one annotator uses far more or less than the others points to that annotator." });
}

/** The per-pair columns; the weighted κ only when some pair has one (ordered levels). */
function pairColumns(report) {
  const pairs = Array.isArray(report.pairs) ? report.pairs : [];
  const defined = (path) => pairs.some((pair) => typeof get(pair, `${path}.value`) === "number");
  return [
    { path: "a", title: "Annotator", type: "text" }, { path: "b", title: "Annotator", type: "text" },
    { path: "n_items", title: "Shared items", type: "number" },
    { path: "percent_agreement", title: "Percent agreement", type: "estimate" },
    { path: "cohen_kappa", title: "Cohen's κ", type: "estimate" },
    ...(defined("cohen_kappa_linear") ? [{ path: "cohen_kappa_linear", title: "κ, linear weights", type: "estimate" }] : []),
    ...(defined("cohen_kappa_quadratic") ? [{ path: "cohen_kappa_quadratic", title: "κ, quadratic weights", type: "estimate" }] : []),
    { path: "scott_pi", title: "Scott's π", type: "estimate" }];
}

/** One annotator pair's confusion table (rows: the first annotator's label, columns: the second's), pair chosen in a menu. */
function confusionCard(report) {
  const pairs = Array.isArray(report.pairs) ? report.pairs : [];
  const categories = Array.isArray(report.categories) ? report.categories.map(String) : [];
  if (!pairs.length) return null;
  const title = "Confusion between two annotators";
  const choice = h("select", { class: "confusion-pair", "aria-label": "Annotator pair" },
    pairs.map((pair, i) => h("option", { value: String(i) }, `${pair.a} × ${pair.b}`)));
  const wrap = h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": title });
  const show = () => {
    const i = Number(choice.value), pair = pairs[i];
    if (!Array.isArray(pair.confusion)) {
      wrap.replaceChildren(h("p", { class: "muted" }, "No confusion table: the report gives none above 30 categories."));
      return;
    }
    wrap.replaceChildren(confusionMap(pair, i, categories), h("table", { class: "confusion", dataset: { pair: String(i) } },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, `${pair.a} ↓ · ${pair.b} →`),
        categories.map((label) => h("th", { scope: "col", class: "num" }, label)))),
      h("tbody", {}, pair.confusion.map((row, r) => h("tr", {}, h("th", { scope: "row" }, categories[r] ?? ""),
        row.map((count, c) => h("td", { class: r === c ? "num agree" : "num" }, metric(`pairs.${i}.confusion.${r}.${c}`, count))))))));
  };
  choice.addEventListener("change", show);
  show();
  const downloadCsv = () => downloadText("agreekit-labels-confusion.csv",
    toCsv(["a", "b", "label_a", "label_b", "n_items"], confusionRecords(pairs, categories)), "text/csv");
  return h("section", { class: "card table-card", dataset: { table: "confusion" } }, h("h3", {}, title),
    h("p", { class: "muted" }, "Items both annotators rated, by the label each gave: the diagonal agrees; a large off-diagonal " +
      "cell is a pair of labels the guidelines do not tell apart. The heat map shades each cell by its count (darkest: " +
      "the largest); the table below gives the numbers. ", choice),
    wrap, h("p", { class: "table-actions" }, h("button", { type: "button", onclick: downloadCsv }, "Download CSV (every pair)")),
    settingsLine(report));
}

/** Every pair's confusion table, one record per cell (a, b, the label each gave, items): a long table reads
 *  into any spreadsheet or data frame, and holds every pair at once, not only the one chosen in the menu. */
function confusionRecords(pairs, categories) {
  return pairs.filter((pair) => Array.isArray(pair.confusion)).flatMap((pair) => pair.confusion.flatMap((row, r) =>
    row.map((count, c) => ({ a: pair.a, b: pair.b, label_a: categories[r] ?? "", label_b: categories[c] ?? "", n_items: count }))));
}

const MAP_CELL = 34, MAP_LABEL = 120, MAP_TOP = 90, MAP_SIDE = 360;

/** The pair's confusion table as a heat map: one square per (label of a, label of b), darker for more items
 *  (shade = count / the table's largest count), the diagonal outlined; labels and names are SVG text nodes. */
function confusionMap(pair, index, categories) {
  const q = pair.confusion.length;
  const cell = Math.max(8, Math.min(MAP_CELL, MAP_SIDE / Math.max(1, q)));
  const largest = Math.max(0, ...pair.confusion.flat().map(Number).filter(Number.isFinite));
  const width = MAP_LABEL + q * cell + 10, height = MAP_TOP + q * cell + 10;
  const svg = s("svg", { width, height, viewBox: `0 0 ${width} ${height}`, class: "confusion-map", role: "img",
    "aria-label": `Heat map of the confusion between ${pair.a} and ${pair.b}`, dataset: { pair: String(index) } },
  s("rect", { x: 0, y: 0, width, height, fill: "#fff" }),
  text(4, 14, clip(`rows: ${pair.a}`, 30), { "font-size": 11 }), text(4, 28, clip(`columns: ${pair.b}`, 30), { "font-size": 11 }));
  categories.slice(0, q).forEach((label, k) => {
    const middle = MAP_LABEL + k * cell + cell / 2;
    svg.append(text(MAP_LABEL - 6, MAP_TOP + k * cell + cell / 2 + 4, clip(label, 16), { "text-anchor": "end", class: "row-label" }),
      text(middle, MAP_TOP - 6, clip(label, 12), { transform: `rotate(-45 ${middle} ${MAP_TOP - 6})`, class: "column-label" }));
  });
  pair.confusion.forEach((row, r) => row.forEach((count, c) => {
    const n = Number(count), shade = largest > 0 ? n / largest : 0;
    const x = MAP_LABEL + c * cell, y = MAP_TOP + r * cell;
    svg.append(s("g", { class: "map-cell", dataset: { row: r, column: c, count: n } },
      s("rect", { x, y, width: cell, height: cell, fill: r === c ? OKABE_ITO[2] : OKABE_ITO[0], "fill-opacity": shade.toFixed(4),
        stroke: r === c ? "#333" : "#ccc", "stroke-width": r === c ? 1.5 : 0.5 },
      title(`${pair.a}: ${categories[r] ?? ""} · ${pair.b}: ${categories[c] ?? ""} · ${n} item${n === 1 ? "" : "s"}`)),
      cell >= 18 ? text(x + cell / 2, y + cell / 2 + 4, String(n), { "text-anchor": "middle", "font-size": 11,
        fill: shade > 0.6 ? "#fff" : "#222" }) : null));
  }));
  return svg;
}

/** The most disputed items: agreement, ratings and each annotator's label; a row opens the item view. */
function disputedTable(report, page) {
  const entries = Array.isArray(report.items) ? report.items : null;
  if (!entries) return null;
  const total = get(report, "n_disputed_items");
  const title = "Most disputed items (lowest percent agreement first)";
  const card = h("section", { class: "card table-card", dataset: { table: "items" } }, h("h3", {}, title),
    h("p", { class: "muted" }, "Read these items together to find the unclear guideline. ",
      typeof total === "number" && total > entries.length ? `The ${entries.length} most disputed of ${total}.` : ""));
  if (!entries.length) {
    card.append(h("p", { class: "muted" }, "None: every item with two or more ratings has one label."), settingsLine(report));
    return card;
  }
  const opens = page.opener?.("items");
  const ratingsText = (entry) => (Array.isArray(entry.ratings) ? entry.ratings : [])
    .map((r) => `${r.annotator}: ${r.label}`).join(" · ");
  card.append(h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": title },
    h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Item"),
      h("th", { scope: "col", class: "num" }, "Percent agreement"), h("th", { scope: "col", class: "num" }, "Ratings"),
      h("th", { scope: "col" }, "Labels by annotator"))),
    h("tbody", {}, entries.map((entry, i) => openable(opens, i, h("tr", {},
      h("th", { scope: "row" }, String(entry.item)),
      h("td", { class: "num" }, metric(`items.${i}.percent_agreement`, typeof entry.percent_agreement === "number" ? entry.percent_agreement : null)),
      h("td", { class: "num" }, metric(`items.${i}.n_ratings`, typeof entry.n_ratings === "number" ? entry.n_ratings : null)),
      h("td", { class: "ratings" }, (Array.isArray(entry.ratings) ? entry.ratings : []).map((r, k) => [k ? " · " : "",
        h("span", { class: "rating-annotator" }, String(r.annotator)), ": ", h("span", { class: "rating-label" }, String(r.label))])))))))));
  const downloadCsv = () => downloadText(`agreekit-${page.kind}-items.csv`, toCsv(["item", "percent_agreement", "n_ratings", "ratings"],
    entries.map((entry) => ({ item: entry.item, percent_agreement: entry.percent_agreement, n_ratings: entry.n_ratings,
      ratings: ratingsText(entry) }))), "text/csv");
  card.append(h("p", { class: "table-actions" }, h("button", { type: "button", onclick: downloadCsv }, "Download CSV")),
    settingsLine(report));
  return card;
}

// ------------------------------------------------------------------ item views

/** A disputed item is the item: its row opens the view, which lists each annotator's label. */
export const items = { list: "items", id: (entry) => entry.item, value: "percent_agreement", valueName: "agreement",
  ranking: "lowest percent agreement first (only items whose annotators disagree are listed)",
  annotators: (entry) => (Array.isArray(entry.ratings) ? entry.ratings.map((r) => String(r.annotator)) : []),
  opens: { items: "entry" } };

const ROW = 24, NAME_WIDTH = 150, LABEL_WIDTH = 260, HEADER = 30;

/** The view of one item from the report: one row per annotator, its label in the label's colour. */
export const itemView = {
  gallery: false,  // the disputed items table is the gallery
  detail(report, item) {
    const entry = (Array.isArray(report.items) ? report.items : []).find((e) => String(e.item) === String(item));
    if (!entry) throw new Error(`the report has no item ${item}`);
    return { entry, categories: Array.isArray(report.categories) ? report.categories.map(String) : [] };
  },
  async draw(kind, { entry, categories }, { mount, focus }) {
    const ratings = Array.isArray(entry.ratings) ? entry.ratings : [];
    const width = NAME_WIDTH + LABEL_WIDTH + 20;
    const height = HEADER + ratings.length * ROW + 8;
    const agreement = typeof entry.percent_agreement === "number" ? entry.percent_agreement.toFixed(3) : "undefined";
    const svg = s("svg", { width, height, viewBox: `0 0 ${width} ${height}`, class: "label-item", role: "img",
      "aria-label": `Labels of item ${entry.item} by annotator`, dataset: { item: entry.item } },
    s("rect", { x: 0, y: 0, width, height, fill: "#fff" }),
    text(8, 18, `Item ${clip(entry.item, 40)} · percent agreement ${agreement}`, { "font-weight": "bold" }));
    ratings.forEach((rating, k) => {
      const y = HEADER + k * ROW;
      const colour = OKABE_ITO[Math.max(0, categories.indexOf(String(rating.label))) % OKABE_ITO.length];
      const faded = focus && !focus.includes(String(rating.annotator)) ? 0.3 : null;
      svg.append(s("g", { class: "rating", opacity: faded, dataset: { annotator: rating.annotator, label: rating.label } },
        text(8, y + 16, clip(rating.annotator, 22)),
        s("rect", { x: NAME_WIDTH, y: y + 2, width: LABEL_WIDTH, height: ROW - 4, fill: colour, "fill-opacity": 0.18, stroke: colour }),
        text(NAME_WIDTH + 6, y + 16, clip(rating.label, 38))));
    });
    mount(svg);
    return svg;
  },
  titles: async () => {},
  svg: serialize,
  png: toPng,
  note: "Each annotator's label of the item, coloured by label. Arrow keys: next or previous item; Escape closes.",
};
