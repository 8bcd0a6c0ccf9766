// Rendering a report (the core's to_dict()) into the page: its header and warnings, the item
// gallery and views (item_view.mjs), the kind's cards (web/kinds.mjs: the kind's module or the
// default view) and every value by key.
//
// Every numeric result element carries data-metric="<dotted report key>" and
// data-value="<full-precision number or null>". Text from the input (labels, item ids,
// annotator names) is only ever set as text nodes.

import { allValues, methodsCard } from "./cards.mjs";
import { destroyCharts } from "./charts.mjs";
import { downloadText } from "./download.mjs";
import { h, reportSettings } from "./dom.mjs";
import { summaryCard } from "./headline.mjs";
import { summarySlot } from "./stale.mjs";
import { attachItemViews } from "./item_view.mjs";
import { kindView } from "./kinds.mjs";

/** Release what a report in `container` drew (its charts) when something else replaces it. */
export const releaseCharts = destroyCharts;

const shown = new WeakMap();  // container -> the report it shows (a newer one stops an older one's cards)

/**
 * Show `report` of `kind` in `container`, replacing the report shown there (its charts destroyed).
 * `detail(item)`: the Promise of an item's detail from the worker (item views); `ms`: its time;
 * `methods`: its methods paragraph and references (bridge.py run_methods), shown in "Cite / methods";
 * `referenceFile(what)`: the Promise of a download of the report (bridge.py run_reference_file), for the reference cards.
 */
export async function renderReport(container, report, { kind, ms, detail, methods = null, referenceFile = null }) {
  shown.set(container, report);
  const view = await kindView(kind);
  if (shown.get(container) !== report) return;
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
  destroyCharts(container);
  container.replaceChildren(...[header, reportSettings(report), warningList].filter(Boolean));
  container.dataset.stale = "false";  // a new report: the stale banner went with the old one
  // The headline first: its card goes in the tab's summary slot, above the input (index.html).
  const summary = summarySlot(container);
  const card = summaryCard(report, view.headline?.(report) ?? null);
  if (summary) {
    summary.replaceChildren(...(card ? [card] : []));
    summary.dataset.stale = "false";
  } else if (card) {
    header.after(card);
  }
  // Item views (item_view.mjs), shapes on demand: which table rows open one, told to the cards.
  const { gallery, opener, openItem } = attachItemViews(container, report, { kind, view, detail });
  if (gallery) container.append(gallery);
  const page = { kind, opener, openItem, referenceFile };
  // One card per task: a crowd corpus report would otherwise block the page for ~300 ms.
  for (const part of [...view.cards(report, page), () => methodsCard(methods), () => allValues(report)]) {
    if (shown.get(container) !== report) return;  // replaced meanwhile
    const node = part();
    if (node) container.append(node);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
