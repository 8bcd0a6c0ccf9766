// The cards of a report's `reference` section (docs/reference.md): each annotator against the reference
// (an expert of the rows or gold rows). Shared by every kind that takes a reference; names no kind.

import { recordsTable } from "./cards.mjs";
import { h, get, estimate, coefficient, section } from "./dom.mjs";
import { downloadFile } from "./download.mjs";

/**
 * The reference cards of `report`, or none when it was computed without a reference. `words`: the
 * kind's wording (its module's `referenceWords`): `similarity`, the name of what matching compares
 * ("IoU", "temporal IoU"; null when every pair is equally similar, as labels of one item are: then
 * the mean matched similarity, the threshold and low overlap mean nothing and are not shown);
 * `drawn`, the verb of annotating ("drawn", "marked", "labelled"); `blind`, what σ = 0 stands for;
 * `columns`, the headings of the columns the kind adds to the per-annotator table (flattened key → words).
 */
export function referenceCards(report, page, { similarity = "similarity", drawn = "annotated",
  blind = "an annotation made without looking at its item", columns = {} } = {}) {
  const ref = report.reference;
  if (!ref) return [];
  const total = "reference.total";
  const who = ref.source === "annotator" ? `annotator ${ref.annotator}` : ref.source === "rows" ? "the reference rows" : ref.source;
  const conflicts = [["missing", `Missing (in the reference, not ${drawn})`], ["extra", `Extra (${drawn}, not in the reference)`],
    similarity ? ["low_overlap", "Low overlap (below the threshold)"] : null, ["wrong_label", "Wrong label"]].filter(Boolean);
  // Without a similarity, the columns of it (all 1, all 0) are left out of the tables; the CSV keeps them.
  const omit = similarity ? [] : ["mean_matched_iou", "conflicts.low_overlap"];
  return [
    () => section("Against the reference", report,
      h("p", { class: "muted" }, `Each annotator scored against ${who} (left out of the agreement measures when it is an annotator of the rows): `,
        `${ref.n_annotators} annotators on ${ref.n_items} items`,
        similarity ? `, match threshold ${ref.threshold} (${similarity}), low overlap from ${ref.low_overlap}.` : "."),
      h("div", { class: "row" },
        coefficient(report, "Precision", `${total}.precision`),
        coefficient(report, "Recall", `${total}.recall`),
        coefficient(report, "F1", `${total}.f1`),
        similarity ? coefficient(report, `Mean matched ${similarity} (raw)`, `${total}.mean_matched_iou`) : null,
        get(report, `${total}.sigma`) ? coefficient(report, "σ against the reference", `${total}.sigma`, {
          explain: `0 = no closer to the reference on its own item than on others (${blind}); 1 = exact.` }) : null,
        coefficient(report, "κ on matched labels", `${total}.kappa`)),
      h("div", { class: "row" }, conflicts.map(([key, label]) => estimate(report, label, `${total}.conflicts.${key}`))),
      page?.referenceFile ? downloads(page.referenceFile) : null),
    () => recordsTable(report, "reference.annotators", "Per annotator, against the reference", { page, omit, titles: columns }),
    () => recordsTable(report, "reference.labels", "Per label, against the reference", { page, omit }),
    () => recordsTable(report, "reference.items", "Items with most conflicts against the reference (first)", { page, omit }),
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
