// Compare two rounds (or two groups) and plan how many items: one card under each kind's form.
// Its own module (app.mjs only mounts it): agreekit.compare and agreekit.plan run in the worker
// (requests "compare" and "plan", bridge.py run_compare / run_plan); the answers are drawn here.
// Every label, name and item id reaches the page as text (h() appends strings as text nodes).
//
// A result is drawn from the inputs it was computed from: when either input (the form's rows or
// options, round B, the paired box, the half-width) changes afterwards, the result is marked stale
// as a report is (stale.mjs's look: data-stale="true" on the card's output, dimmed under a
// .stale-banner) until it is computed again. app.mjs's inputChanged tells the form's changes
// (typed, an example, an import, a file, a link) by "agreekit:input" on the form: stale at once,
// as the tab's report; a change of the card's own fields is stale only while the inputs differ
// from those of the result (typing round B back as it was clears it).

import { h, formatNumber } from "./dom.mjs";
import { detachedItemView } from "./item_view.mjs";
import { kindView } from "./kinds.mjs";
import { planChart } from "./plan_chart.mjs";
import { decodeShare, encodeShare } from "./share.mjs";

/**
 * Put a compare-and-plan card after each kind's form. `readOptions(form)`, `rowsOf(form)`: app.mjs's.
 * A share link with a second input (`rows_b`) fills the card of its kind and opens it; app.mjs
 * computes round A's report from the same link as for any link.
 */
export function mountCompare({ forms, engine, readOptions, rowsOf }) {
  for (const [kind, form] of Object.entries(forms)) {
    form.after(compareCard(kind, { form, engine, readOptions, rowsOf }));
  }
  const fillFromLink = () => {
    if (!location.hash.startsWith("#v1/")) return;
    decodeShare(location.hash, Object.keys(forms)).then(({ kind, rowsB }) => {
      if (rowsB === null) return;
      const card = document.querySelector(`details.compare[data-kind="${kind}"]`);
      const area = card.querySelector("textarea.rows-b");
      area.value = rowsB;
      area.dispatchEvent(new Event("input"));  // a result of other inputs is now stale
      card.open = true;
    }).catch(() => {});  // a damaged link: app.mjs shows why
  };
  window.addEventListener("hashchange", fillFromLink);
  fillFromLink();
}

function compareCard(kind, page) {
  const rowsB = h("textarea", { rows: 6, "aria-label": "Rows of round B", spellcheck: "false", class: "rows-b",
    placeholder: "Rows of the second round or group (same columns); items are matched by id" });
  const paired = h("input", { type: "checkbox", checked: "", name: "paired" });
  const halfWidth = h("input", { type: "number", step: "any", min: "0", max: "1", value: "0.05", name: "half_width",
    "aria-label": "Requested half-width" });
  const out = h("div", { class: "compare-out", "aria-live": "polite" });
  const sentence = h("span", { class: "compare-sentence" });
  // What the result shown was computed from: a change of it marks the result stale.
  const inputs = (what) => basisOf(page, what === "compare" ? [rowsB.value, paired.checked] : [halfWidth.value]);
  let shown = null;  // {what, basis} of the result in `out`
  const reset = () => {  // `out` is about to show something else
    shown = null;
    out.dataset.stale = "false";
    sentence.textContent = "";
    sentence.classList.remove("stale");
  };
  const run = (what) => async () => {
    const basis = inputs(what);
    reset();
    out.replaceChildren(h("p", { class: "muted" }, what === "compare" ? "Comparing…" : "Planning…"));
    try {
      const result = what === "compare"
        ? await compareRounds(kind, page, rowsB.value, paired.checked)
        : await planItems(kind, page, Number(halfWidth.value));
      out.replaceChildren(what === "compare" ? await comparisonView(result, kind, page.engine) : planView(result));
      if (what === "compare") sentence.textContent = ` — ${result.summary}`;
      shown = { what, basis };
      markStale();
    } catch (error) {
      out.replaceChildren(h("p", { class: "error", role: "alert" }, error?.message ?? String(error)));
    }
  };
  // `changed`: the form's input changed (app.mjs), perhaps not yet in the form (a file being read).
  const markStale = (changed = false) => {
    const stale = shown !== null && (changed === true || inputs(shown.what) !== shown.basis);
    if (stale === (out.dataset.stale === "true")) return;
    out.dataset.stale = String(stale);
    sentence.classList.toggle("stale", stale);  // the sentence in the card's title line, too
    if (stale) {
      out.prepend(h("p", { class: "stale-banner", role: "status" }, `This ${shown.what === "compare" ? "comparison" : "plan"} ` +
        `is for the previous inputs — press ${shown.what === "compare" ? "Compare A and B" : "How many items?"}.`));
    } else {
      out.querySelector(":scope > .stale-banner")?.remove();
    }
  };
  page.form.addEventListener("agreekit:input", () => markStale(true));
  for (const field of [rowsB, paired, halfWidth]) for (const type of ["input", "change"]) field.addEventListener(type, () => markStale());
  return h("details", { class: "card compare", dataset: { kind } },
    h("summary", {}, "Compare with a second round or group · How many items?", sentence),
    h("p", { class: "muted" }, "Round A is the input above. Items both rounds share are resampled jointly " +
      "(paired bootstrap), so the interval of B − A is narrower than two separate intervals suggest."),
    rowsB,
    h("p", {}, h("label", {}, paired, " paired (resample shared items jointly)"), " ",
      h("button", { type: "button", class: "run-compare", onclick: run("compare") }, "Compare A and B"), " ",
      h("button", { type: "button", class: "share-compare", onclick: () => { reset(); shareBoth(kind, page, rowsB.value, out); } },
        "Share both inputs")),
    h("p", {}, h("label", {}, "Half-width ", halfWidth), " ",
      h("button", { type: "button", class: "run-plan", onclick: run("plan") }, "How many items?")),
    out);
}

/** A link carrying round A (the form), round B and the form's options, shown as text to copy. */
async function shareBoth(kind, { form, readOptions, rowsOf }, rowsB, out) {
  try {
    const fragment = await encodeShare(kind, rowsOf(form), readOptions(form), null, rowsB);
    const link = location.href.split("#")[0] + fragment;
    out.replaceChildren(h("p", {}, "Link with both inputs: ", h("input", { class: "compare-link", readonly: "", value: link,
      "aria-label": "Share link with both inputs" })));
  } catch (error) {
    out.replaceChildren(h("p", { class: "error", role: "alert" }, error?.message ?? String(error)));
  }
}

/** The inputs a result depends on, as one string: round A's rows and options, and `more`. */
function basisOf({ form, readOptions, rowsOf }, more) {
  let options;
  try { options = readOptions(form); } catch (error) { options = `invalid: ${error?.message}`; }
  return JSON.stringify([rowsOf(form), options, ...more]);
}

function compareRounds(kind, { form, engine, readOptions, rowsOf }, rowsB, paired) {
  return engine.request("compare", { kind, rowsA: rowsOf(form), rowsB, options: { ...readOptions(form), paired } })
    .then((reply) => reply.result);
}

function planItems(kind, { form, engine, readOptions, rowsOf }, halfWidth) {
  const { bootstrap, seed, ...options } = readOptions(form);  // the planner's own resamples per check point
  return engine.request("plan", { kind, rows: rowsOf(form), options: { ...options, half_width: halfWidth } })
    .then((reply) => reply.result);
}

const number = (value) => (value === null || value === undefined ? "—" : formatNumber(value));
const interval = (ci) => (ci ? `[${number(ci[0])}, ${number(ci[1])}]` : "");

function differenceRow(d) {
  return h("tr", { dataset: { metric: d.name } }, h("th", { scope: "row" }, d.name), h("td", {}, number(d.value_a)),
    h("td", {}, number(d.value_b)), h("td", { dataset: { value: String(d.delta) } }, number(d.delta)),
    h("td", {}, interval(d.ci)), h("td", {}, d.p_value === null ? "" : number(d.p_value)));
}

function differencesTable(rows, caption) {
  return h("table", { class: "compare-table" }, h("caption", {}, caption),
    h("thead", {}, h("tr", {}, ["", "A", "B", "B − A", "95% interval of B − A", "p"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rows.filter((d) => d.delta !== null).map(differenceRow)));
}

/** A comparison: its sentence, every coefficient's difference, the annotators', the items changed most. */
async function comparisonView(c, kind, engine) {
  const view = h("div", { class: "comparison" }, h("p", { class: "headline" }, c.summary),
    h("p", { class: "muted" }, c.resampling.description),
    differencesTable(c.coefficients, "Every coefficient: A, B and the difference"));
  for (const row of c.annotators) {
    view.append(differencesTable(row.differences, `Annotator ${Object.values(row.key).join(" / ")}`));
  }
  if (c.items_changed.length) view.append(...await itemsChanged(c.items_changed, kind, engine));
  for (const warning of c.warnings) view.append(h("p", { class: "warning" }, warning));
  return view;
}

/**
 * The items whose agreement changed most, each with buttons opening its item view in round A and in
 * round B (item_view.mjs, shapes from the rounds the worker compared), for a kind that draws items.
 */
async function itemsChanged(changes, kind, engine) {
  const order = changes.map((i) => i.item);
  const view = await kindView(kind);
  const views = Object.fromEntries(["A", "B"].map((round) => [round, detachedItemView(kind, view,
    (item) => engine.request("round_item", { kind, round, item }).then((reply) => reply.result), `round ${round}`)]));
  const opens = (round, i) => views[round] && h("button", { type: "button", class: "open-item", dataset: { round },
    "aria-label": `Open item ${order[i]} in round ${round}`,
    onclick: (event) => views[round].open(order, i, { from: event.currentTarget }) }, round);
  return [h("h4", {}, `Items whose agreement changed most (${changes[0].measure})`),
    h("ul", { class: "items-changed" }, changes.map((change, i) =>
      h("li", { dataset: { item: change.item } },
        `${change.item}: ${number(change.value_a)} → ${number(change.value_b)} (${change.delta > 0 ? "+" : ""}${number(change.delta)}) `,
        opens("A", i), " ", opens("B", i)))),
    ...Object.values(views).filter(Boolean).map((v) => v.dialog)];
}

function planView(p) {
  const rows = p.coefficients.map((c) => h("tr", { dataset: { metric: c.name } }, h("th", { scope: "row" }, c.name),
    h("td", {}, c.predicted_items === null ? (c.reason ?? "") : c.predicted_items.toLocaleString("en-US")),
    h("td", {}, number(c.pilot_half_width)), h("td", {}, number(c.free_slope)),
    h("td", {}, c.check_points.filter((k) => k.half_width !== null)
      .map((k) => `n ${k.n_items}: ${number(k.half_width)}`).join(", "))));
  const view = h("div", { class: "plan" }, h("p", { class: "muted" }, p.method),
    h("table", { class: "plan-table" }, h("caption", {}, `Items for a 95% interval of half-width ${p.half_width}`),
      h("thead", {}, h("tr", {}, ["", "items", "pilot half-width", "fitted slope", "check points"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, rows)));
  const chart = planChart(p);
  if (chart) {
    view.append(h("figure", { class: "plan-figure" }, chart, h("figcaption", { class: "muted" },
      "Points: the half-width at each check point (the pilot's items resampled to n); lines: the fit c · n^(−½); ",
      "dashed: the half-width asked for; diamonds: the predicted n where each fit meets it.")));
  }
  if (p.krippendorff) {
    view.append(h("p", {}, `Krippendorff's minimum values (${p.krippendorff.source}): ` +
      p.krippendorff.rows.map((r) => `α_min ${r.alpha_min}: ${r.values} values ≈ ${r.items} items`).join("; ")));
  }
  return view;
}
