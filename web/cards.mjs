// The report cards every kind uses (name no kind): tables of report records, the within-vs-baseline
// ECDF chart, the generic view of a kind without a module of its own, and "all values by key".
//
// Every numeric result element carries data-metric="<dotted report key>" and
// data-value="<full-precision number or null>". Text from the input (labels, item ids,
// annotator names) is only ever set as text nodes.

import { downloadText, toCsv } from "./download.mjs";
import { drawChart, steppedPaths } from "./charts.mjs";
import { h, get, metric, isEstimate, estimateCell, settingsLine, figureSettings } from "./dom.mjs";

const TABLE_PREVIEW_ROWS = 50;

/**
 * What the cards of a report know of the page: `kind` (for file names) and `opener(tableKey)`: for
 * a table whose rows open an item view, `(row, i) => void` that makes row `i` (record i of the
 * table's list) open it; else null. render.mjs makes it (item_view.mjs says which rows open what).
 */
const NO_PAGE = { kind: "report", opener: () => null, openItem: null };

/** `row`, made to open its item view by `opens(row, i)` when the table has one. */
export function openable(opens, i, row) {
  opens?.(row, i);
  return row;
}

// ------------------------------------------------------------------ tables

/** A record's values by dotted key; with `keepEstimates`, estimate records stay whole (one cell each). */
export function flatten(record, prefix = "", out = {}, keepEstimates = false) {
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

export function columnTitle(column) {
  return column.replace(/\.0$/, " low").replace(/\.1$/, " high").replace(/\./g, " ").replace(/_/g, " ");
}

/** A table of report records (list of dicts) with data-metric on every number and a CSV download.
 * Estimate records in a row ({value, ci, reason, …}) are one cell each; the CSV flattens them.
 * `omit`: flattened columns the page leaves out (the CSV has every column); `titles`: a flattened column's
 * heading in the kind's words (`{"outcomes.missed_a": "Found by …"}`; the CSV keeps the key). */
export function recordsTable(report, key, title, { page = NO_PAGE, explain, omit = [], titles = {} } = {}) {
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
  const columns = [...new Set(sample.flatMap(Object.keys))].filter((c) => !omit.includes(c));  // `omit`: not shown, in the CSV
  const estimates = new Set(columns.filter((c) => sample.some((r) => isEstimate(r[c]))));
  const numeric = new Set(columns.filter((c) => estimates.has(c) || sample.some((r) => typeof r[c] === "number")));
  const wrap = h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": title });
  const opens = page.opener?.(key);
  const row = (record, i) => {
    const flat = flatRecord(record);
    return openable(opens, i, h("tr", {}, columns.map((c) => {
      const value = flat[c];
      if (estimates.has(c) && isEstimate(value)) return estimateCell(`${key}.${i}.${c}`, value);
      if (numeric.has(c) && (typeof value === "number" || value === null)) {
        return h("td", { class: "num" }, metric(`${key}.${i}.${c}`, value));
      }
      return h("td", {}, value == null ? "" : typeof value === "boolean" ? (value ? "yes" : "no") : String(value));
    })));
  };
  const tbody = h("tbody", {}, records.length <= TABLE_PREVIEW_ROWS ? records.map(row) : []);
  wrap.append(h("table", {},
    h("thead", {}, h("tr", {}, columns.map((c) => h("th", { scope: "col", class: numeric.has(c) ? "num" : "" },
      Object.hasOwn(titles, c) ? titles[c] : columnTitle(c))))),
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
  const csvName = `agreekit-${page.kind}-${key.replace(/\./g, "-")}.csv`;
  const downloadCsv = () => {
    const flat = records.map((r) => flatRecord(r, false));
    downloadText(csvName, toCsv([...new Set(flat.flatMap(Object.keys))], flat), "text/csv");
  };
  actions.append(h("button", { type: "button", onclick: downloadCsv }, "Download CSV"));
  card.append(actions, settingsLine(report));
  return card;
}

/** Rows of a list nested in each record (e.g. each pair's boundary sweep), keyed back to the report.
 *  `describe[column](row)`: the words a text column shows for a (flattened) nested row; the CSV keeps the value. */
export function nestedTable(report, key, nestedKey, idColumns, title, { page = NO_PAGE, describe = {} } = {}) {
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
  const opens = page.opener?.(`${key}.${nestedKey}`);
  const table = h("table", {},
    h("thead", {}, h("tr", {}, [...idColumns, ...columns].map((c) => h("th", { scope: "col", class: numeric.has(c) ? "num" : "" }, columnTitle(c))))),
    h("tbody", {}, shown.map(({ i, j, record, inner }) => openable(opens, i, h("tr", {},
      idColumns.map((c) => h("td", {}, String(record[c] ?? ""))),
      columns.map((c) => numeric.has(c) && (typeof inner[c] === "number" || inner[c] === null)
        ? h("td", { class: "num" }, metric(`${key}.${i}.${nestedKey}.${j}.${c}`, inner[c]))
        : h("td", {}, inner[c] == null ? "" : describe[c] ? describe[c](inner) : String(inner[c]))))))));
  const downloadCsv = () => {
    const flat = flatRows(Infinity).map(({ record, inner }) => ({ ...Object.fromEntries(idColumns.map((c) => [c, record[c]])), ...inner }));
    downloadText(`agreekit-${page.kind}-${key}-${nestedKey}.csv`, toCsv([...idColumns, ...columns], flat), "text/csv");
  };
  return h("section", { class: "card table-card", dataset: { table: `${key}.${nestedKey}` } }, h("h3", {}, title),
    h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": title }, table),
    h("p", { class: "table-actions" },
      total > shown.length ? h("span", { class: "muted" }, `Showing ${shown.length} of ${total}; the CSV has all. `) : null,
      h("button", { type: "button", onclick: downloadCsv }, "Download CSV")),
    settingsLine(report));
}


/** α_U per label, when α_U is computed (spans without item lengths have none). */
export function unitizingTable(report, page) {
  if (!get(report, "unitizing_alpha.per_label")?.length) return null;
  return recordsTable(report, "unitizing_alpha.per_label", "Unitizing α_U per label", { page,
    explain: "α_c = 1 − D_o / D_e of each label; α_U pools the labels' disagreements (Krippendorff 2004)." });
}

// ------------------------------------------------------------------ tables of records holding estimates

/**
 * A table of report records whose columns are text, numbers or estimates ({value, ci, reason}),
 * each at a dotted path in the record, with a CSV download.
 */
export function estimateTable(report, key, title, columns, { page = NO_PAGE, explain } = {}) {
  const records = get(report, key);
  if (!Array.isArray(records)) return null;
  const cell = (record, i, { path, type }) => {
    const value = get(record, path);
    const where = `${key}.${i}.${path}`;
    if (type === "estimate") return estimateCell(where, value);
    if (type === "number") return h("td", { class: "num" }, metric(where, typeof value === "number" ? value : null));
    return h("td", {}, value == null ? "" : String(value));
  };
  const opens = page.opener?.(key);
  const row = (record, i) => openable(opens, i, h("tr", {}, columns.map((column) => cell(record, i, column))));
  const tbody = h("tbody", {}, records.slice(0, TABLE_PREVIEW_ROWS).map(row));
  const card = h("section", { class: "card table-card", dataset: { table: key } }, h("h3", {}, title),
    explain ? h("p", { class: "muted" }, explain) : null,
    h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": title },
      h("table", {}, h("thead", {}, h("tr", {}, columns.map(({ title: name, type }) =>
        h("th", { scope: "col", class: type === "text" ? "" : "num" }, name)))), tbody)));
  const actions = h("p", { class: "table-actions" });
  if (records.length > TABLE_PREVIEW_ROWS) {
    const more = h("button", { type: "button" }, `Show all ${records.length.toLocaleString("en-US")} rows`);
    const note = h("span", { class: "muted" }, `Showing ${TABLE_PREVIEW_ROWS} of ${records.length.toLocaleString("en-US")}. `);
    more.addEventListener("click", async () => {
      note.remove(); more.remove();
      for (let start = TABLE_PREVIEW_ROWS; start < records.length; start += 400) {  // in slices: the page stays responsive
        tbody.append(...records.slice(start, start + 400).map((r, k) => row(r, start + k)));
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    });
    actions.append(note, more, " ");
  }
  const downloadCsv = () => {
    const names = columns.flatMap(({ path, type }) => (type === "estimate"
      ? [path, `${path}_ci_low`, `${path}_ci_high`, `${path}_reason`] : [path]));
    const flat = records.map((record) => Object.fromEntries(columns.flatMap(({ path, type }) => {
      const value = get(record, path);
      if (type !== "estimate") return [[path, value ?? null]];
      return [[path, value?.value ?? null], [`${path}_ci_low`, value?.ci?.[0] ?? null],
        [`${path}_ci_high`, value?.ci?.[1] ?? null], [`${path}_reason`, value?.reason ?? null]];
    })));
    downloadText(`agreekit-${page.kind}-${key.replace(/\./g, "-")}.csv`, toCsv(names, flat), "text/csv");
  };
  actions.append(h("button", { type: "button", onclick: downloadCsv }, "Download CSV"));
  card.append(actions, settingsLine(report));
  return card;
}

// ------------------------------------------------------------------ the ECDF chart

/** True for the report's ECDF summary {x: ascending, y: fraction ≤ x} with at least one point. */
export function isEcdf(ecdf) {
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

/**
 * ECDFs of within-item distances and a baseline's (`baseline`: {key: the report's
 * localization key of its ECDF, title, series: its curve's name, text: the card's explanation})
 * with the largest vertical gap marked.
 */
export function ecdfChart(report, { key, title, series, text }) {
  const loc = report.localization || {};
  const card = h("section", { class: "card chart-card" }, h("h3", {}, title));
  if (!isEcdf(loc.within_ecdf) || !isEcdf(loc[key])) {
    card.append(h("p", { class: "muted" }, "The report carries no distance distributions to draw."), figureSettings(report));
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
  card.append(figureSettings(report));
  const stepped = steppedPaths({ align: 1 });
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
  drawChart(card, target, (width) => ({
    width, height: 280,
    scales: { x: { time: false }, y: { range: [0, 1] } },
    axes: [{ label: "distance" }, { label: "fraction ≤ distance" }],
    series: [{ label: "distance" },
      { label: "within item", stroke: "#1f5fbf", width: 2, paths: stepped, points: { show: false } },
      { label: series, stroke: "#c26a00", width: 2, paths: stepped, dash: [5, 3], points: { show: false } }],
    hooks: { draw: [markGap] },
  }), [xs, fw, fb]);
  return card;
}

// ------------------------------------------------------------------ any report

/** A kind without a module of its own (web/kinds.mjs): each list of records of its report as a table. */
export function tablesView(report, page) {
  return Object.entries(report)
    .filter(([, value]) => Array.isArray(value) && value.length && value.every((r) => r && typeof r === "object"))
    .map(([key]) => () => recordsTable(report, key, columnTitle(key), { page }));
}
const BULKY = new Set(["within_ecdf", "between_ecdf", "chance_ecdf"]);

/** Every scalar of the report by dotted key (numbers as metrics), skipping tables and chart data. */
export function allValues(report) {
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

// ------------------------------------------------------------------ cite / methods

/** A button that copies `text()` to the clipboard and says so (or selects `fallback`'s text to copy by hand). */
function copyButton(label, text, fallback) {
  const button = h("button", { type: "button", class: "copy" }, label);
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text());
      button.textContent = "Copied";
    } catch {
      getSelection().selectAllChildren(fallback);  // no clipboard access: selected, for Ctrl+C
      button.textContent = "Selected: press Ctrl+C";
    }
    setTimeout(() => { button.textContent = label; }, 2500);
  });
  return button;
}

/**
 * "Cite / methods": the report's methods paragraph (agreekit.methods, written in Python from the
 * report and its settings) with its references as BibTeX, each with a copy button. `methods`:
 * {paragraph, bibtex, references: [{cite, bibtex}]} or null (then the card says it is missing).
 */
export function methodsCard(methods) {
  const card = h("section", { class: "card methods-card", dataset: { card: "methods" } }, h("h3", {}, "Cite / methods"));
  if (!methods || typeof methods.paragraph !== "string") {
    card.append(h("p", { class: "muted" }, "The methods paragraph could not be written for this report."));
    return card;
  }
  const paragraph = h("p", { class: "methods-paragraph" }, methods.paragraph);
  const bibtex = h("pre", { class: "methods-bibtex" }, methods.bibtex);
  card.append(h("p", { class: "muted" }, "A paragraph for a paper's methods section, written from this report's numbers and settings; " +
      "the references it cites follow as BibTeX (agreekit's own first). The same text: agreekit KIND FILE --methods."),
    paragraph,
    h("p", { class: "table-actions" }, copyButton("Copy paragraph", () => methods.paragraph, paragraph),
      copyButton("Copy BibTeX", () => methods.bibtex, bibtex),
      h("button", { type: "button", onclick: () => downloadText("agreekit-references.bib", methods.bibtex + "\n", "application/x-bibtex") },
        "Download .bib")),
    h("details", { class: "methods-references" },
      h("summary", {}, `References (${(methods.references ?? []).length}): `,
        (methods.references ?? []).map((r) => r.cite).join("; ")), bibtex));
  return card;
}
