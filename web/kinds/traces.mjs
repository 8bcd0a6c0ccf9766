// Traces: the page's part of the kind (its report cards: α by step position, the units with most
// disagreement; its item pictures: steps × annotators coloured by label), read by web/kinds.mjs.

import { estimateTable, recordsTable } from "../cards.mjs";
import { drawChart } from "../charts.mjs";
import { referenceCards } from "../reference_cards.mjs";
import { h, get, metric, estimate, coefficient, settingsLine, figureSettings, section } from "../dom.mjs";
import { s, text, round, exact, clip, OKABE_ITO } from "../svg.mjs";

/** The words that belong to this kind (its objects, items and measures): other kinds' cards never use them
 *  (tests/browser/test_captions.py scans every tab for the other kinds' nouns). */
export const nouns = ["trace", "traces", "steps", "step position", "judge", "judges"];

/** Its words in the reference cards (reference_cards.mjs). */
export const referenceWords = { similarity: null, drawn: "labelled" };

/** The summary card's headline (headline.mjs): Krippendorff's α over every (trace, step) unit. */
export const headline = (report) => ({ key: "alpha", symbol: "α", scale: "alpha",
  label: `Krippendorff's α (${get(report, "settings.level") ?? "nominal"}) over every step of every trace`,
  name: "Agreement on step labels", counts: [["n_traces", "traces"], ["n_units", "units"], ["n_annotators", "annotators"]] });

export function cards(report, page) {
  const level = get(report, "settings.level") ?? "nominal";
  return [
    () => section("Agreement on per-step labels", report,
      h("div", { class: "contrast" },
        coefficient(report, `Krippendorff's α (${level}), all units`, "alpha", { big: true,
          explain: "1 = perfect agreement · 0 = chance · below 0 = systematic disagreement. A unit is one step of one trace." }),
        coefficient(report, "Percent agreement", "percent_agreement", { big: true,
          explain: "Share of agreeing label pairs within a unit, no chance correction." })),
      h("div", { class: "row" },
        coefficient(report, "Mean Cohen's κ over annotator pairs", "cohen_kappa.mean"),
        coefficient(report, "Fleiss' κ", "fleiss_kappa")),
      h("div", { class: "row" },
        estimate(report, "Traces", "n_traces"), estimate(report, "Step positions", "n_steps"),
        estimate(report, "Units (trace, step)", "n_units"), estimate(report, "Labels", "n_labels"),
        estimate(report, "Annotators", "n_annotators"), estimate(report, "Disputed units", "n_disputed_units"))),
    () => stepChart(report),
    ...referenceCards(report, page, referenceWords),
    () => recordsTable(report, "units", "Units with most disagreement (lowest percent agreement first)", { page,
      explain: "Each unit's labels by annotator: read these steps together to find the unclear guideline." }),
    () => estimateTable(report, "steps", "Per step position", [
      { path: "step", title: "Step", type: "number" }, { path: "alpha", title: `α (${level}) with 95% CI`, type: "estimate" },
      { path: "percent_agreement", title: "Percent agreement", type: "number" }, { path: "n_units", title: "Units", type: "number" },
      { path: "n_labels", title: "Labels", type: "number" }], { page }),
    () => estimateTable(report, "traces", "Per trace (most disagreement first)", [
      { path: "trace", title: "Trace", type: "text" }, { path: "alpha", title: `α (${level})`, type: "estimate" },
      { path: "percent_agreement", title: "Percent agreement", type: "number" }, { path: "n_steps", title: "Steps", type: "number" },
      { path: "n_annotators", title: "Annotators", type: "number" }, { path: "n_disputed_steps", title: "Disputed steps", type: "number" }],
    { page }),
    () => estimateTable(report, "cohen_kappa.pairs", "Cohen's κ per annotator pair (units both labelled)", [
      { path: "a", title: "Annotator", type: "text" }, { path: "b", title: "Annotator", type: "text" },
      { path: "kappa", title: "Cohen's κ", type: "estimate" }, { path: "percent_agreement", title: "Percent agreement", type: "number" },
      { path: "n_units", title: "Shared units", type: "number" }], { page }),
  ];
}


/** α per step position with its bootstrap band, and percent agreement, across step positions. */
function stepChart(report) {
  const steps = (Array.isArray(report.steps) ? report.steps : []).map((s, i) => ({ s, i })).sort((a, b) => a.s.step - b.s.step);
  const card = h("section", { class: "card chart-card" }, h("h3", {}, "Krippendorff's α by step position"));
  if (!steps.length) {
    card.append(h("p", { class: "muted" }, "No steps to chart."), settingsLine(report));
    return card;
  }
  const level = get(report, "settings.level") ?? "nominal";
  const x = steps.map(({ s }) => s.step);
  const alpha = steps.map(({ s }) => (typeof s.alpha?.value === "number" ? s.alpha.value : null));
  const low = steps.map(({ s }) => (Array.isArray(s.alpha?.ci) ? s.alpha.ci[0] : null));
  const high = steps.map(({ s }) => (Array.isArray(s.alpha?.ci) ? s.alpha.ci[1] : null));
  const agreement = steps.map(({ s }) => (typeof s.percent_agreement === "number" ? s.percent_agreement : null));
  const floor = Math.min(0, ...[...alpha, ...low].filter((v) => v !== null));
  const target = h("div", { class: "chart step-chart", role: "img",
    "aria-label": `${level} Krippendorff's alpha at each step position across traces, with its 95% bootstrap interval, and percent agreement` });
  const gaps = steps.filter(({ s }) => typeof s.alpha?.value !== "number");
  card.append(h("p", { class: "muted" }, `${level[0].toUpperCase()}${level.slice(1)} α over the units at each step position `,
    "(step s of every trace), with its 95% bootstrap interval over traces (shaded), beside percent agreement. ",
    "A gap is a step where α is undefined; the reason is listed below."), target);
  if (gaps.length) {
    card.append(h("ul", { class: "gaps" }, gaps.map(({ s, i }) => h("li", {}, `Step ${s.step}: α `,
      metric(`steps.${i}.alpha.value`, null), ` — ${s.alpha?.reason ?? "no reason given"}`))));
  }
  card.append(figureSettings(report));
  drawChart(card, target, (width) => ({
    width, height: 280,
    scales: { x: { time: false }, y: { range: [Math.max(-1, floor - 0.05), 1] } },
    axes: [{ label: "step position", incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] }, { label: "agreement" }],
    series: [{ label: "step" },
      { label: "α 95% low", stroke: "rgba(31,95,191,0.35)", width: 1, dash: [2, 3], points: { show: false } },
      { label: "α 95% high", stroke: "rgba(31,95,191,0.35)", width: 1, dash: [2, 3], points: { show: false } },
      { label: `α (${level})`, stroke: "#1f5fbf", width: 2, points: { show: true, size: 7 } },
      { label: "percent agreement", stroke: "#c26a00", width: 2, dash: [5, 3], points: { show: true } }],
    bands: [{ series: [2, 1], fill: "rgba(31,95,191,0.12)" }],
  }), [x, low, high, alpha, agreement]);
  return card;
}

// ------------------------------------------------------------------ item views

/** A trace is the item: the traces table opens it, and each disputed unit opens its trace. */
export const items = { list: "traces", id: (entry) => entry.trace, value: "percent_agreement", valueName: "agreement",
  ranking: "lowest percent agreement first; traces without one last",
  annotators: (entry) => (Array.isArray(entry.annotators) ? entry.annotators.map(String) : []),
  opens: { traces: "entry", units: (record) => record.trace } };

export const picture = {
  noun: "labels",
  height: (detail, thumbnail) => detail.annotators.length * (thumbnail ? 10 : 24) + (thumbnail ? 0 : 30),
  caption(detail) {
    return `${detail.cells.length} labels · ${detail.steps.length} steps · ${detail.disputed.length} disputed steps · ` +
      `level ${detail.settings.level} · α per step position over all traces above the columns`;
  },
  legend({ detail }) {
    const present = new Set(detail.cells.map((cell) => cell.label));
    return [...detail.labels.filter((label) => present.has(label)).map((label) => ({ name: label,
      style: { colour: labelColour(detail, label), dash: "", width: 10 } })),
      { name: "outlined: disputed step", style: { colour: "#1b1b1f", dash: "", width: 2 } }];
  },
  draw: drawTraces,
};

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
