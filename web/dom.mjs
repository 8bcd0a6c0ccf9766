// Small DOM pieces of the report views (cards.mjs, object_cards.mjs and the kind modules, web/kinds/).
//
// Every numeric result element carries data-metric="<dotted report key>" and
// data-value="<full-precision number or null>" (metric()). Text from the input (labels, item
// ids, annotator names) is only ever set as text nodes (h() appends strings as text).

export function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value == null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat(Infinity)) {
    if (child == null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));  // strings become text nodes
  }
  return node;
}

export function get(object, key) {
  let value = object;
  for (const part of key.split(".")) {
    if (value == null || typeof value !== "object") return undefined;
    value = value[part];
  }
  return value;
}

export function formatNumber(value) {
  if (value === null || value === undefined) return "undefined";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Number.isInteger(value)) return value.toLocaleString("en-US");
  const magnitude = Math.abs(value);
  if (magnitude !== 0 && (magnitude < 0.001 || magnitude >= 1e6)) return value.toPrecision(3);
  return value.toFixed(3);
}

/** A number element: data-metric + data-value with full precision, shown rounded. */
export function metric(key, value, { className = "" } = {}) {
  const defined = typeof value === "number";
  return h("span", {
    class: `metric ${className} ${defined ? "" : "undefined"}`.trim(),
    dataset: { metric: key, value: defined ? String(value) : "null" },
    title: defined ? String(value) : null,
  }, defined ? formatNumber(value) : "undefined");
}

function interval(key, ci) {
  if (!Array.isArray(ci)) return h("span", { class: "ci muted" }, "no interval");
  return h("span", { class: "ci" }, "95% CI [", metric(`${key}.0`, ci[0]), ", ", metric(`${key}.1`, ci[1]), "]");
}

/** A headline value with its interval, or "undefined" with the reason. */
export function estimate(report, label, valueKey, { ciKey, reasonKey, big = false, explain } = {}) {
  const value = get(report, valueKey);
  const ci = ciKey ? get(report, ciKey) : undefined;
  const reason = reasonKey ? get(report, reasonKey) : undefined;
  return h("div", { class: `estimate ${big ? "big" : ""}` },
    h("div", { class: "label" }, label),
    h("div", { class: "value" }, metric(valueKey, value ?? null, { className: big ? "headline" : "" })),
    ciKey && value != null ? interval(ciKey, ci) : null,
    value == null ? h("div", { class: "reason" }, reason ? `Undefined: ${reason}` : "Undefined (the report gives no reason).") : null,
    explain ? h("div", { class: "explain muted" }, explain) : null);
}

/** An estimate record of the report ({value, ci, ci_level, reason, n}) at `key`, shown by estimate(). */
export function coefficient(report, label, key, { interval = true, ...options } = {}) {
  return estimate(report, label, `${key}.value`, { ciKey: interval ? `${key}.ci` : undefined, reasonKey: `${key}.reason`, ...options });
}

export function isEstimate(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value) && "value" in value && "ci" in value && "reason" in value;
}

/** A table cell for an estimate record at `key`: the number, its interval if any ("σ [low, high]"), the reason
 * if undefined; why a defined value has no interval (`ci_reason`, e.g. a pair's σ) as the cell's tooltip. */
export function estimateCell(key, record) {
  const value = typeof record?.value === "number" ? record.value : null;
  const noInterval = value !== null && !Array.isArray(record?.ci) && record?.ci_reason ? `no interval: ${record.ci_reason}` : null;
  return h("td", { class: "num", title: noInterval, dataset: noInterval ? { ciReason: record.ci_reason } : {} },
    metric(`${key}.value`, value),
    Array.isArray(record?.ci)
      ? h("div", { class: "cell-ci" }, "[", metric(`${key}.ci.0`, record.ci[0]), ", ", metric(`${key}.ci.1`, record.ci[1]), "]")
      : null,
    value === null && record?.reason ? h("div", { class: "cell-reason" }, record.reason) : null);
}

/** The report's settings in one line ("Settings: threshold 0.5 · distance giou · …"), shown once per report (render.mjs). */
export function reportSettings(report, { figure = false } = {}) {
  const settings = report.settings || {};
  const parts = Object.entries(settings)
    .filter(([, v]) => v !== null && typeof v !== "object")
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${v}`);
  return h("p", { class: "settings muted", dataset: { settings: figure ? "figure" : "report" } }, "Settings: ",
    parts.length ? parts.join(" · ") : "defaults");
}

/**
 * Where a card once repeated the settings line: nothing now (an empty fragment, so callers append
 * it as before). The report shows its settings once, under its head (render.mjs reportSettings).
 * A chart's downloaded SVG, read on its own, names them under it: `figureSettings` is that caption,
 * kept in the chart's card but not shown (the page shows the line once; charts.mjs reads it).
 */
export const figureSettings = (report) => Object.assign(reportSettings(report, { figure: true }), { hidden: true });

export function settingsLine() {
  return document.createDocumentFragment();
}

export function section(title, report, ...children) {
  return h("section", { class: "card" }, h("h3", {}, title), ...children, settingsLine(report));
}
