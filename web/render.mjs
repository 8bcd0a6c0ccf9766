// Rendering a report (the core's to_dict()) into the page.
//
// Every numeric result element carries data-metric="<dotted report key>" and
// data-value="<full-precision number or null>". Text from the input (labels, item ids,
// annotator names) is only ever set as text nodes.

import uPlot from "../vendor/uplot/uPlot.esm.js";
import { downloadText, toCsv } from "./download.mjs";
import { h, get, metric, estimate, coefficient, isEstimate, estimateCell, settingsLine, section } from "./dom.mjs";

const TABLE_PREVIEW_ROWS = 50;
const READING_SCALE = "1 = perfect agreement · 0 = no better than annotations of different items (chance) · " +
  "below 0 = systematic disagreement (worse than chance)";
// Remedies that each span outcome points to (issue 3: the five-way table).
const SPAN_OUTCOMES = [
  ["exact", "Exact: same boundaries, same label", "Nothing to fix."],
  ["label_only", "Label only: same boundaries, different label", "Sharpen the label definitions."],
  ["boundary_only", "Boundary only: same label, overlapping but different boundaries", "Write boundary rules (what a span includes)."],
  ["both", "Both: overlapping, boundaries and label differ", "Revisit label definitions and boundary rules together."],
  ["missed_a", "Missed: marked only by the first annotator", "Agree on what counts as an entity."],
  ["missed_b", "Missed: marked only by the second annotator", "Agree on what counts as an entity."],
];

// ------------------------------------------------------------------ tables

/** A record's values by dotted key; with `keepEstimates`, estimate records stay whole (one cell each). */
function flatten(record, prefix = "", out = {}, keepEstimates = false) {
  for (const [key, value] of Object.entries(record)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (keepEstimates && isEstimate(value)) {
      out[name] = value;
    } else if (value && typeof value === "object" && !Array.isArray(value)) {
      if (Object.keys(value).length <= 8) flatten(value, name, out, keepEstimates);
      else out[name] = Object.entries(value).map(([k, v]) => `${k}: ${v}`).join("; ");
    } else if (Array.isArray(value) && value.length === 2 && value.every((v) => v === null || typeof v === "number")) {
      out[`${name}.0`] = value[0];
      out[`${name}.1`] = value[1];
    } else if (Array.isArray(value)) {
      out[name] = value.every((v) => typeof v !== "object") ? value.join(" ") : `${value.length} entries`;
    } else {
      out[name] = value;
    }
  }
  return out;
}

function columnTitle(column) {
  return column.replace(/\.0$/, " low").replace(/\.1$/, " high").replace(/\./g, " ").replace(/_/g, " ");
}

/** A table of report records (list of dicts) with data-metric on every number and a CSV download.
 * Estimate records in a row ({value, ci, reason, …}) are one cell each; the CSV flattens them. */
function recordsTable(report, key, title, { kind, explain } = {}) {
  const records = get(report, key);
  if (!Array.isArray(records)) return null;
  const card = h("section", { class: "card table-card", dataset: { table: key } }, h("h3", {}, title));
  if (explain) card.append(h("p", { class: "muted" }, explain));
  if (!records.length) {
    card.append(h("p", { class: "muted" }, "None."), settingsLine(report));
    return card;
  }
  // Flatten lazily: a crowd corpus has thousands of pairs and only the shown rows need work now.
  const flatRecord = (r, keepEstimates = true) => (r && typeof r === "object" ? flatten(r, "", {}, keepEstimates) : { value: r });
  const sample = records.slice(0, 200).map((r) => flatRecord(r));
  const columns = [...new Set(sample.flatMap(Object.keys))];
  const estimates = new Set(columns.filter((c) => sample.some((r) => isEstimate(r[c]))));
  const numeric = new Set(columns.filter((c) => estimates.has(c) || sample.some((r) => typeof r[c] === "number")));
  const wrap = h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": title });
  const row = (record, i) => {
    const flat = flatRecord(record);
    return h("tr", {}, columns.map((c) => {
      const value = flat[c];
      if (estimates.has(c) && isEstimate(value)) return estimateCell(`${key}.${i}.${c}`, value);
      if (numeric.has(c) && (typeof value === "number" || value === null)) {
        return h("td", { class: "num" }, metric(`${key}.${i}.${c}`, value));
      }
      return h("td", {}, value == null ? "" : typeof value === "boolean" ? (value ? "yes" : "no") : String(value));
    }));
  };
  const tbody = h("tbody", {}, records.length <= TABLE_PREVIEW_ROWS ? records.map(row) : []);
  wrap.append(h("table", {},
    h("thead", {}, h("tr", {}, columns.map((c) => h("th", { scope: "col", class: numeric.has(c) ? "num" : "" }, columnTitle(c))))),
    tbody));
  card.append(wrap);
  const actions = h("p", { class: "table-actions" });
  if (records.length > TABLE_PREVIEW_ROWS) {
    // Pages, not one huge table: laying out thousands of rows blocks the page for most of a second.
    const total = records.length.toLocaleString("en-US");
    let offset = 0;
    const position = h("span", { class: "muted", "aria-live": "polite" });
    const previous = h("button", { type: "button" }, `Previous ${TABLE_PREVIEW_ROWS}`);
    const next = h("button", { type: "button" }, `Next ${TABLE_PREVIEW_ROWS}`);
    const show = () => {
      tbody.replaceChildren(...records.slice(offset, offset + TABLE_PREVIEW_ROWS).map((r, k) => row(r, offset + k)));
      position.textContent = `Rows ${(offset + 1).toLocaleString("en-US")}–` +
        `${Math.min(offset + TABLE_PREVIEW_ROWS, records.length).toLocaleString("en-US")} of ${total}`;
      previous.disabled = offset === 0;
      next.disabled = offset + TABLE_PREVIEW_ROWS >= records.length;
    };
    previous.addEventListener("click", () => { offset = Math.max(0, offset - TABLE_PREVIEW_ROWS); show(); });
    next.addEventListener("click", () => { offset += TABLE_PREVIEW_ROWS; show(); });
    show();
    actions.append(position, previous, next);
  }
  const csvName = `agreekit-${kind}-${key.replace(/\./g, "-")}.csv`;
  const downloadCsv = () => {
    const flat = records.map((r) => flatRecord(r, false));
    downloadText(csvName, toCsv([...new Set(flat.flatMap(Object.keys))], flat), "text/csv");
  };
  actions.append(h("button", { type: "button", onclick: downloadCsv }, "Download CSV"));
  card.append(actions, settingsLine(report));
  return card;
}

/** Rows of a list nested in each record (e.g. each pair's boundary sweep), keyed back to the report. */
function nestedTable(report, key, nestedKey, idColumns, title, { kind } = {}) {
  const records = get(report, key);
  if (!Array.isArray(records) || !records.some((r) => Array.isArray(r?.[nestedKey]) && r[nestedKey].length)) return null;
  // Only the shown rows are flattened now: a large corpus nests hundreds of thousands.
  const flatRows = (limit) => {
    const rows = [];
    for (let i = 0; i < records.length && rows.length < limit; i++) {
      const nested = records[i][nestedKey] || [];
      for (let j = 0; j < nested.length && rows.length < limit; j++) rows.push({ i, j, record: records[i], inner: flatten(nested[j]) });
    }
    return rows;
  };
  const total = records.reduce((n, record) => n + (record[nestedKey]?.length ?? 0), 0);
  const shown = flatRows(TABLE_PREVIEW_ROWS * 4);
  const columns = [...new Set(shown.slice(0, 200).flatMap((r) => Object.keys(r.inner)))];
  const numeric = new Set(columns.filter((c) => shown.some((r) => typeof r.inner[c] === "number")));
  const table = h("table", {},
    h("thead", {}, h("tr", {}, [...idColumns, ...columns].map((c) => h("th", { scope: "col", class: numeric.has(c) ? "num" : "" }, columnTitle(c))))),
    h("tbody", {}, shown.map(({ i, j, record, inner }) => h("tr", {},
      idColumns.map((c) => h("td", {}, String(record[c] ?? ""))),
      columns.map((c) => numeric.has(c) && (typeof inner[c] === "number" || inner[c] === null)
        ? h("td", { class: "num" }, metric(`${key}.${i}.${nestedKey}.${j}.${c}`, inner[c]))
        : h("td", {}, inner[c] == null ? "" : String(inner[c])))))));
  const downloadCsv = () => {
    const flat = flatRows(Infinity).map(({ record, inner }) => ({ ...Object.fromEntries(idColumns.map((c) => [c, record[c]])), ...inner }));
    downloadText(`agreekit-${kind}-${key}-${nestedKey}.csv`, toCsv([...idColumns, ...columns], flat), "text/csv");
  };
  return h("section", { class: "card table-card", dataset: { table: `${key}.${nestedKey}` } }, h("h3", {}, title),
    h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": title }, table),
    h("p", { class: "table-actions" },
      total > shown.length ? h("span", { class: "muted" }, `Showing ${shown.length} of ${total}; the CSV has all. `) : null,
      h("button", { type: "button", onclick: downloadCsv }, "Download CSV")),
    settingsLine(report));
}

// ------------------------------------------------------------------ charts (uPlot)

function chartWidth(container) {
  return Math.max(280, Math.min(900, (container.clientWidth || 640) - 24));
}

function responsive(plot, container) {
  const observer = new ResizeObserver(() => plot.setSize({ width: chartWidth(container), height: plot.height }));
  observer.observe(container);
}

/** True for the report's ECDF summary {x: ascending, y: fraction ≤ x} with at least one point. */
function isEcdf(ecdf) {
  return Boolean(ecdf && Array.isArray(ecdf.x) && ecdf.x.length && ecdf.x.length === ecdf.y?.length);
}

/**
 * Two step functions ({x: ascending, y}, right-continuous: y of the last x ≤ a value) at the
 * distinct x of both: {x, a, b}. One pass over both lists: the between ECDF of a large corpus
 * has a point at every distinct within distance (a million and more).
 */
function mergeSteps(first, second) {
  const x = [], a = [], b = [];
  let i = 0, j = 0, ya = 0, yb = 0;
  while (i < first.x.length || j < second.x.length) {
    const next = Math.min(i < first.x.length ? first.x[i] : Infinity, j < second.x.length ? second.x[j] : Infinity);
    while (i < first.x.length && first.x[i] === next) ya = first.y[i++];
    while (j < second.x.length && second.x[j] === next) yb = second.y[j++];
    x.push(next); a.push(ya); b.push(yb);
  }
  return { x, a, b };
}

// The chance distribution each kind draws against its within-item distances.
const BASELINES = {
  between: { key: "between_ecdf", title: "Within-item vs between-item distances (ECDF)", series: "between items",
    text: ["Within-item distances (matched pairs) to the left of the between-item baseline mean agreement beyond chance; ",
      "to the right, annotators of the same item differ more than annotations of different items do. "] },
  chance: { key: "chance_ecdf", title: "Within-clip vs chance distances (ECDF)", series: "chance placements",
    text: ["Matched segments' distances to the left of those matched after each clip's segments are placed at random ",
      "inside the clip mean agreement on timing beyond chance; to the right, worse than random timing. "] },
};

/** ECDFs of within-item and chance distances (`baseline`: a key of BASELINES) with the largest vertical gap marked. */
function ecdfChart(report, baseline = "between") {
  const loc = report.localization || {};
  const { key, title, series, text } = BASELINES[baseline];
  const card = h("section", { class: "card chart-card" }, h("h3", {}, title));
  if (!isEcdf(loc.within_ecdf) || !isEcdf(loc[key])) {
    card.append(h("p", { class: "muted" }, "The report carries no distance distributions to draw."), settingsLine(report));
    return card;
  }
  const both = mergeSteps(loc.within_ecdf, loc[key]);
  let gap = 0;
  for (let i = 1; i < both.x.length; i++) if (Math.abs(both.a[i] - both.b[i]) > Math.abs(both.a[gap] - both.b[gap])) gap = i;
  // A canvas 900 px wide needs no more than ~1,500 steps per curve; keep the gap's x exactly.
  const stride = Math.ceil(both.x.length / 1500);
  const kept = [];
  for (let i = 0; i < both.x.length; i++) if (i % stride === 0 || i === both.x.length - 1 || i === gap) kept.push(i);
  const xs = kept.map((i) => both.x[i]), fw = kept.map((i) => both.a[i]), fb = kept.map((i) => both.b[i]);
  const gapAt = kept.indexOf(gap);
  const target = h("div", { class: "chart", role: "img",
    "aria-label": `Empirical distribution functions of within-item distances and ${series}` });
  card.append(h("p", { class: "muted" }, ...text,
    "The marked vertical gap is the largest difference between the two curves (KS statistic D = ",
    metric("localization.ks.value", typeof loc.ks?.value === "number" ? loc.ks.value : null), ")."), target);
  card.append(settingsLine(report));
  const stepped = uPlot.paths.stepped({ align: 1 });
  const markGap = (u) => {
    const x = u.valToPos(xs[gapAt], "x", true);
    const y0 = u.valToPos(fw[gapAt], "y", true), y1 = u.valToPos(fb[gapAt], "y", true);
    const ctx = u.ctx;
    ctx.save();
    ctx.strokeStyle = "#b3261e";
    ctx.lineWidth = 3 * devicePixelRatio;
    ctx.setLineDash([6, 4]);
    ctx.beginPath(); ctx.moveTo(x, y0); ctx.lineTo(x, y1); ctx.stroke();
    ctx.restore();
  };
  requestAnimationFrame(() => {
    const plot = new uPlot({
      width: chartWidth(card), height: 280,
      scales: { x: { time: false }, y: { range: [0, 1] } },
      axes: [{ label: "distance" }, { label: "fraction ≤ distance" }],
      series: [{ label: "distance" },
        { label: "within item", stroke: "#1f5fbf", width: 2, paths: stepped, points: { show: false } },
        { label: series, stroke: "#c26a00", width: 2, paths: stepped, dash: [5, 3], points: { show: false } }],
      hooks: { draw: [markGap] },
    }, [xs, fw, fb], target);
    responsive(plot, card);
  });
  return card;
}

/** Boundary precision/recall/F1 against tolerance (segments). */
function sweepChart(report) {
  const sweep = report.boundary_sweep;
  if (!Array.isArray(sweep) || !sweep.length) return null;
  const sorted = [...sweep].sort((a, b) => a.tolerance - b.tolerance);
  const card = h("section", { class: "card chart-card" }, h("h3", {}, "Boundary F1 by tolerance"));
  const target = h("div", { class: "chart", role: "img", "aria-label": "Boundary precision, recall and F1 against tolerance" });
  card.append(h("p", { class: "muted" }, "High F1 at wide tolerance with low F1 at narrow tolerance: annotators agree that an event happened, not exactly when."),
    target, settingsLine(report));
  const positive = sorted.every((r) => r.tolerance > 0);
  requestAnimationFrame(() => {
    const plot = new uPlot({
      width: chartWidth(card), height: 260,
      scales: { x: { time: false, distr: positive && sorted.length > 1 ? 3 : 1 }, y: { range: [0, 1] } },
      axes: [{ label: "tolerance (s)" }, { label: "score" }],
      series: [{ label: "tolerance" },
        { label: "precision", stroke: "#1f5fbf", width: 2, points: { show: true } },
        { label: "recall", stroke: "#c26a00", width: 2, dash: [5, 3], points: { show: true } },
        { label: "F1", stroke: "#2e7d32", width: 3, points: { show: true } }],
    }, [sorted.map((r) => r.tolerance), sorted.map((r) => r.precision ?? null), sorted.map((r) => r.recall ?? null), sorted.map((r) => r.f1 ?? null)], target);
    responsive(plot, card);
  });
  return card;
}

// ------------------------------------------------------------------ per kind

function boxesView(report, kind, { objects = "Boxes", countKey = "n_boxes" } = {}) {
  const loc = "localization";
  return [
    () => h("section", { class: "card headline-card" },
      h("h3", {}, "Localization agreement beyond chance"),
      h("div", { class: "contrast" },
        coefficient(report, "σ (sigma)", `${loc}.sigma`, { big: true, explain: READING_SCALE }),
        estimate(report, "Raw mean matched IoU", "mean_matched_iou", { big: true,
          explain: "Raw overlap, no chance correction: an easy corpus (large centred objects) scores high even when annotators do not agree beyond chance." })),
      h("div", { class: "row" },
        coefficient(report, "KS statistic D (within vs between)", `${loc}.ks`, { interval: false }),
        estimate(report, "Mean within-item distance", `${loc}.mean_within`),
        estimate(report, "Mean between-item distance", `${loc}.mean_between`),
        estimate(report, "Mean between-item distance, different annotators", `${loc}.mean_between_cross`),
        estimate(report, "Within-item pairs", `${loc}.n_within`),
        estimate(report, "Between-item pairs", `${loc}.n_between`),
        h("div", { class: "estimate" }, h("div", { class: "label" }, "Baseline"),
          h("div", { class: "value" }, get(report, `${loc}.between_exact`) === false ? "sampled pairs" : "exact, all pairs"))),
      settingsLine(report)),
    () => section("Other chance baselines", report,
      h("div", { class: "row" },
        coefficient(report, "σ_cross (sigma against other annotators)", `${loc}.sigma_cross`, {
          explain: "Baseline from pairs of different annotators on different items: an annotator who draws the same box everywhere no longer lowers its own baseline. The pair and annotator tables use these baselines." }),
        coefficient(report, "KS D against other annotators", `${loc}.ks_cross`, { interval: false }),
        coefficient(report, "σ_B (Braylan, Alonso & Lease 2022)", `${loc}.significance_share`, {
          explain: "The paper's σ: the share of matched pairs whose distance is below the 5 % quantile of the between-item distances (the level is in the report)." }))),
    () => section("Detection and classification (Krippendorff's α, nominal)", report,
      h("div", { class: "row" },
        coefficient(report, "Detection α (present/absent)", "detection"),
        coefficient(report, "Classification α (labels)", "classification"))),
    () => section("Raw measures (as in Potato's report)", report,
      h("div", { class: "row" },
        estimate(report, "Detection F1", "detection_f1"),
        estimate(report, "Mean agreement", "mean_agreement"),
        estimate(report, "Mean object-count difference", "mean_object_count_diff"),
        estimate(report, "Items", "n_items"),
        estimate(report, "Annotators", "n_annotators"),
        estimate(report, objects, countKey))),
    () => ecdfChart(report),
    () => recordsTable(report, "pairs", "Per annotator pair", { kind }),
    () => recordsTable(report, "annotators", "Per annotator (against all others)", { kind }),
    () => recordsTable(report, "labels", "Per label", { kind }),
    () => recordsTable(report, "items", "Items carrying most disagreement (first)", { kind }),
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

function spansView(report, kind) {
  return [
    () => section("Span agreement", report,
      h("div", { class: "row" },
        coefficient(report, "Exact F1", "exact_f1", { big: true }),
        coefficient(report, "Partial F1", "partial_f1", { big: true }),
        coefficient(report, "Character-level α", "char_alpha", { big: true,
          explain: "Nominal α over the characters of each item (each character: its span's label or O), averaged over items. Not Krippendorff's unitizing α_U." }),
        coefficient(report, "Unitizing α_U", "unitizing_alpha", { big: true,
          explain: "Krippendorff's (2004) α_U over the characters, the items laid end to end: where units begin and end counts by squared distance, not character by character. Needs item lengths." }))),
    () => unitizingTable(report, kind),
    () => spanOutcomeTable(report, "disagreement.total", "Five-way disagreement, all annotator pairs"),
    () => recordsTable(report, "disagreement.pairs", "Five-way disagreement per annotator pair", { kind }),
    () => recordsTable(report, "disagreement.labels", "Five-way disagreement per label", { kind }),
    () => recordsTable(report, "labels", "Per label", { kind }),
    () => recordsTable(report, "items", "Per item", { kind }),
    () => nestedTable(report, "items", "examples", ["item"], "Disagreements in context", { kind }),
  ];
}

/** α_U per label, when α_U is computed (spans without item lengths have none). */
function unitizingTable(report, kind) {
  if (!get(report, "unitizing_alpha.per_label")?.length) return null;
  return recordsTable(report, "unitizing_alpha.per_label", "Unitizing α_U per label", { kind,
    explain: "α_c = 1 − D_o / D_e of each label; α_U pools the labels' disagreements (Krippendorff 2004)." });
}

function segmentsView(report, kind) {
  const loc = "localization";
  return [
    () => h("section", { class: "card headline-card" },
      h("h3", {}, "Timing agreement beyond chance"),
      h("div", { class: "contrast" },
        coefficient(report, "σ (sigma, within-clip chance)", `${loc}.sigma`, { big: true,
          explain: "1 = matched segments coincide · 0 = no closer than the same clip's segments placed at random (each keeps its length) and matched again · below 0 = worse than random timing" }),
        coefficient(report, "Unitizing α_U", "unitizing_alpha", { big: true,
          explain: "Krippendorff's (2004) α_U over the seconds of each clip, the clips laid end to end." })),
      h("div", { class: "row" },
        coefficient(report, "KS statistic D (within vs chance)", `${loc}.ks`, { interval: false }),
        // Potato mode has σ and KS only (both undefined): no ingredients to show.
        get(report, `${loc}.mean_chance`) === undefined ? null : [
          estimate(report, "Mean within-clip distance", `${loc}.mean_within`),
          estimate(report, "Mean chance distance", `${loc}.mean_chance`),
          estimate(report, "Chance placements K", `${loc}.chance_placements`),
          estimate(report, "Standard error of the chance mean", `${loc}.chance_se`)]),
      typeof get(report, `${loc}.assumption`) === "string" ? h("p", { class: "muted" }, get(report, `${loc}.assumption`)) : null,
      settingsLine(report)),
    () => section("Segment agreement", report,
      h("div", { class: "row" },
        estimate(report, "Mean matched temporal IoU", "mean_matched_iou", { big: true }),
        estimate(report, "Detection F1", "detection_f1"),
        estimate(report, "Mean agreement", "mean_agreement"),
        estimate(report, "Mean object-count difference", "mean_object_count_diff")),
      h("div", { class: "row" },
        coefficient(report, "Detection α", "detection"),
        coefficient(report, "Classification α", "classification"))),
    () => (get(report, `${loc}.chance_ecdf`) ? ecdfChart(report, "chance") : null),
    () => recordsTable(report, "boundary_sweep", "Boundary-tolerance sweep (starts to starts, ends to ends)", { kind,
      explain: "Boundary precision, recall and F1 at each tolerance, pooled over items and annotator pairs." }),
    () => sweepChart(report),
    () => recordsTable(report, "pairs", "Per annotator pair", { kind }),
    () => nestedTable(report, "pairs", "boundary_sweep", ["a", "b"], "Boundary sweep per annotator pair", { kind }),
    () => recordsTable(report, "annotators", "Per annotator (against all others)", { kind }),
    () => unitizingTable(report, kind),
    () => recordsTable(report, "items", "Per item", { kind }),
  ];
}

const VIEWS = { boxes: boxesView, spans: spansView, segments: segmentsView };  // render_more.mjs adds the others

/** A kind without a view of its own (a newly registered one): each list of records as a table. */
function tablesView(report, kind) {
  return Object.entries(report)
    .filter(([, value]) => Array.isArray(value) && value.length && value.every((r) => r && typeof r === "object"))
    .map(([key]) => () => recordsTable(report, key, columnTitle(key), { kind }));
}
const BULKY = new Set(["within_ecdf", "between_ecdf", "chance_ecdf"]);

/** Every scalar of the report by dotted key (numbers as metrics), skipping tables and chart data. */
function allValues(report) {
  const items = [];
  const walk = (value, key) => {
    if (Array.isArray(value)) {
      if (value.length <= 2 && value.every((v) => v === null || typeof v === "number")) value.forEach((v, i) => walk(v, `${key}.${i}`));
      return;  // tables are shown above
    }
    if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) if (!BULKY.has(k)) walk(v, key ? `${key}.${k}` : k);
      return;
    }
    items.push(h("dt", {}, key), h("dd", {}, typeof value === "number" || value === null ? metric(key, value) : String(value)));
  };
  walk(report, "");
  return h("details", { class: "card all-values" }, h("summary", {}, "All report values by key"), h("dl", {}, items));
}

export async function renderReport(container, report, { kind, ms }) {
  const warnings = Array.isArray(report.warnings) ? report.warnings : [];
  const header = h("div", { class: "results-head" },
    h("h2", {}, `${kind[0].toUpperCase()}${kind.slice(1)} report`),
    h("span", { class: "muted" }, `computed in ${(ms / 1000).toFixed(2)} s in this tab`),
    h("button", { type: "button", onclick: () => downloadText(`agreekit-${kind}-report.json`, JSON.stringify(report, null, 1), "application/json") },
      "Download report (JSON)"));
  const warningList = warnings.length
    ? h("section", { class: "card warnings" }, h("h3", {}, `Warnings (${warnings.length})`),
      h("ul", {}, warnings.map((w) => h("li", {}, typeof w === "string" ? w : (w.message ?? JSON.stringify(w))))))
    : null;
  container.replaceChildren(...[header, warningList].filter(Boolean));
  // One section per task: a crowd corpus report would otherwise block the page for ~300 ms.
  for (const part of [...(VIEWS[kind] ?? tablesView)(report, kind), () => allValues(report)]) {
    const node = part();
    if (node) container.append(node);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

// For the views of further kinds (render_more.mjs), which reuse these pieces.
export { VIEWS, boxesView, recordsTable, nestedTable, chartWidth, responsive };
