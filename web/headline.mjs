// The report's summary card, first on the page: the kind's headline coefficient, its interval and
// one sentence of interpretation computed from the numbers, before any detail.
//
// A kind declares its headline in its module (web/kinds/<kind>.mjs `headline(report)`):
//   {key: the estimate record's dotted key, symbol: "σ", name: what it measures,
//    scale: "chance" | "alpha" | "share", chance: what chance means for it (scale "chance"),
//    counts: [[report key, noun], …] shown under the sentence}
// This module names no kind: it reads the declaration and the numbers.

import { h, get, metric, formatNumber, isEstimate } from "./dom.mjs";

// Krippendorff (2004, p. 241): α ≥ .800 for reliable data, ≥ .667 for tentative conclusions.
const ALPHA_RELIABLE = 0.8;
const ALPHA_TENTATIVE = 0.667;

/** The headline of a kind without one of its own: its report's first top-level estimate record. */
export function defaultHeadline(report) {
  const key = Object.keys(report).find((k) => isEstimate(report[k]));
  return key ? { key, symbol: key.replace(/_/g, " "), name: key.replace(/_/g, " "), scale: "share" } : null;
}

/** Where the interval lies against `zero`: "above", "below" or "includes" (null: no interval). */
function side(ci, zero) {
  if (!Array.isArray(ci) || typeof ci[0] !== "number" || typeof ci[1] !== "number") return null;
  if (ci[0] > zero) return "above";
  if (ci[1] < zero) return "below";
  return "includes";
}

const pct = (value) => `${(100 * value).toFixed(value >= 0.995 || value < 0.1 ? 1 : 0)} %`;

/**
 * One sentence saying what the headline's numbers mean (without the numbers' own "σ = … [..]",
 * which the card writes before it). `record`: the estimate record {value, ci, ci_level, reason}.
 */
export function interpretation(spec, record) {
  const value = record?.value;
  if (typeof value !== "number") return `${spec.symbol} is undefined: ${record?.reason ?? "the report gives no reason"}.`;
  const where = side(record.ci, 0);
  const level = typeof record.ci_level === "number" ? `${Math.round(100 * record.ci_level)} %` : "the";
  if (spec.scale === "chance") {
    const chance = spec.chance ?? "chance";
    if (value >= 1) return `${spec.name} is perfect: every matched pair is at distance 0.`;
    if (where === "below") return `${spec.name} is below what ${chance} gives: the annotators disagree systematically, and the whole ${level} interval is below 0.`;
    if (where === "includes") return `${spec.name} is not distinguishable from what ${chance} gives: the ${level} interval includes 0.`;
    const degree = value >= 0.8 ? "far above" : value >= 0.5 ? "well above" : value >= 0.2 ? "above" : "only slightly above";
    const sure = where === "above" ? `; the whole ${level} interval is above 0` : " (no interval)";
    return `${spec.name} is ${degree} chance (${spec.symbol} = 0 is what ${chance} gives): ` +
      `${pct(value)} of the way from chance to perfect agreement${sure}.`;
  }
  if (spec.scale === "alpha") {
    const low = Array.isArray(record.ci) ? record.ci[0] : null;
    if (where === "below") return `${spec.name} is below chance agreement: the whole ${level} interval is below 0 (systematic disagreement).`;
    if (where === "includes") return `${spec.name} is not distinguishable from chance: the ${level} interval includes 0.`;
    if (value >= ALPHA_RELIABLE) {
      return low !== null && low < ALPHA_RELIABLE
        ? `${spec.name} reaches the ${ALPHA_RELIABLE.toFixed(3)} Krippendorff (2004) asks of reliable data, but the ${level} interval reaches down to ${formatNumber(low)}.`
        : `${spec.name} reaches the ${ALPHA_RELIABLE.toFixed(3)} Krippendorff (2004) asks of reliable data.`;
    }
    if (value >= ALPHA_TENTATIVE) return `${spec.name} is above chance but below ${ALPHA_RELIABLE.toFixed(3)}: by Krippendorff's (2004) rule, enough only for tentative conclusions (≥ ${ALPHA_TENTATIVE}).`;
    return `${spec.name} is above chance but below the ${ALPHA_TENTATIVE} Krippendorff (2004) asks even for tentative conclusions.`;
  }
  // "share": an overlap or agreement rate in [0, 1], not corrected for chance
  return `${spec.name}: ${pct(value)} on average, not corrected for chance (1 = identical, 0 = no overlap).`;
}

function interval(key, record) {
  if (!Array.isArray(record?.ci)) return null;
  return h("span", { class: "ci" }, " [", metric(`${key}.ci.0`, record.ci[0]), ", ", metric(`${key}.ci.1`, record.ci[1]), "]");
}

/** The summary card of `report` under its kind's headline declaration `spec` (null: no card). */
export function summaryCard(report, spec) {
  if (!spec) return null;
  const record = get(report, spec.key);
  if (!record || typeof record !== "object") return null;
  const value = typeof record.value === "number" ? record.value : null;
  const counts = (spec.counts ?? []).filter(([key]) => typeof get(report, key) === "number")
    .map(([key, noun]) => [metric(key, get(report, key)), ` ${noun}`]);
  return h("section", { class: "card summary-card", dataset: { headline: spec.key } },
    h("p", { class: "summary-label muted" }, spec.label ?? spec.name),
    h("p", { class: "summary-figure" },
      h("span", { class: "summary-symbol" }, spec.symbol), " = ",
      metric(`${spec.key}.value`, value, { className: "headline" }), value === null ? null : interval(spec.key, record)),
    h("p", { class: "summary-sentence" }, interpretation(spec, record)),
    counts.length ? h("p", { class: "summary-counts muted" }, counts.flatMap((c, i) => (i ? [" · ", ...c] : c)),
      " · details below the input") : null);
}
