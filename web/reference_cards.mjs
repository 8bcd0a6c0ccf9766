// The cards of a report's `reference` section (docs/reference.md): each annotator against the reference
// (an expert of the rows or gold rows). Shared by every kind that takes a reference; names no kind.

import { recordsTable } from "./cards.mjs";
import { h, get, estimate, coefficient, section } from "./dom.mjs";
import { downloadFile } from "./download.mjs";

const CONFLICTS = [["missing", "Missing (in the reference, not drawn)"], ["extra", "Extra (drawn, not in the reference)"],
  ["low_overlap", "Low overlap (below the threshold)"], ["wrong_label", "Wrong label"]];

/** The reference cards of `report`, or none when it was computed without a reference. */
export function referenceCards(report, page) {
  const ref = report.reference;
  if (!ref) return [];
  const total = "reference.total";
  const who = ref.source === "annotator" ? `annotator ${ref.annotator}` : ref.source === "rows" ? "the reference rows" : ref.source;
  return [
    () => section("Against the reference", report,
      h("p", { class: "muted" }, `Each annotator scored against ${who} (left out of the agreement measures when it is an annotator of the rows): `,
        `${ref.n_annotators} annotators on ${ref.n_items} items, match threshold ${ref.threshold}, low overlap from ${ref.low_overlap}.`),
      h("div", { class: "row" },
        coefficient(report, "Precision", `${total}.precision`),
        coefficient(report, "Recall", `${total}.recall`),
        coefficient(report, "F1", `${total}.f1`),
        coefficient(report, "Mean matched IoU (raw)", `${total}.mean_matched_iou`),
        get(report, `${total}.sigma`) ? coefficient(report, "σ against the reference", `${total}.sigma`, {
          explain: "0 = no closer to the reference on its own item than on others (a box drawn without looking); 1 = exact." }) : null,
        coefficient(report, "κ on matched labels", `${total}.kappa`)),
      h("div", { class: "row" }, CONFLICTS.map(([key, label]) => estimate(report, label, `${total}.conflicts.${key}`))),
      page?.referenceFile ? downloads(page.referenceFile) : null),
    () => recordsTable(report, "reference.annotators", "Per annotator, against the reference", { page }),
    () => recordsTable(report, "reference.labels", "Per label, against the reference", { page }),
    () => recordsTable(report, "reference.items", "Items with most conflicts against the reference (first)", { page }),
  ];
}

/** "Download consensus" (in the format the rows were imported from, when agreekit writes it; else CSV) and
 *  "Download adjudication list (CSV)": files the worker writes from the last report (bridge.py run_reference_file). */
function downloads(referenceFile) {
  const status = h("span", { class: "muted reference-download-status", role: "status" });
  const button = (what, label) => h("button", { type: "button", class: `download-${what}`, onclick: async () => {
    status.textContent = "Writing…";
    try {
      const file = await referenceFile(what);
      downloadFile(file);
      status.textContent = [`Saved ${file.filename}.`, ...(file.notes ?? [])].join(" ");
    } catch (error) {
      status.textContent = error?.message ?? String(error);
    }
  } }, label);
  return h("p", { class: "reference-downloads" }, button("consensus", "Download consensus"), " ",
    button("adjudication", "Download adjudication list (CSV)"), " ", status);
}
