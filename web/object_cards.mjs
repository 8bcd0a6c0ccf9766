// The report cards of kinds whose report is about matched objects against between-item chance (σ,
// KS, detection and classification α): the kind modules of such kinds list these cards.

import { ecdfChart, recordsTable } from "./cards.mjs";
import { referenceCards } from "./reference_cards.mjs";
import { h, get, estimate, coefficient, settingsLine, section } from "./dom.mjs";

const READING_SCALE = "1 = perfect agreement · 0 = no better than annotations of different items (chance) · " +
  "below 0 = systematic disagreement (worse than chance)";

/** The between-item baseline of the ECDF chart (cards.mjs ecdfChart). */
export const BETWEEN_ITEMS = { key: "between_ecdf", title: "Within-item vs between-item distances (ECDF)", series: "between items",
  text: ["Within-item distances (matched pairs) to the left of the between-item baseline mean agreement beyond chance; ",
    "to the right, annotators of the same item differ more than annotations of different items do. "] };

/** What is wrong on an item of matched objects, in words, from its row's counts (breakdowns.item_problems). */
function objectProblems(entry) {
  const words = [["n_missed", "missed"], ["n_extra", "extra"], ["n_shifted", "shifted"],
    ["n_label_mismatch", "wrong label", "wrong labels"]];
  if (words.every(([key]) => typeof entry[key] !== "number")) return null;  // a report from before these counts
  const found = words.filter(([key]) => entry[key] > 0).map(([key, one, many]) => `${entry[key]} ${entry[key] > 1 && many ? many : one}`);
  if (found.length) return found;
  const distance = typeof entry.mean_within === "number" ? `; mean distance ${entry.mean_within.toPrecision(2)}` : "";
  return [`all found, same labels${distance}`];
}

/** What an item view of matched objects opens from, and how an item's entry reads. `ranking`: the
 * order of breakdowns.item_rows, in words; `problems(entry)`: what is wrong on the item, as phrases. */
export const OBJECT_ITEMS = { list: "items", id: (entry) => entry.item, value: "detection_f1", valueName: "F1",
  ranking: "lowest detection F1 first (mean over the item's annotator pairs); ties: most wrong labels, " +
    "then largest mean distance of the matched pairs",
  problems: objectProblems,
  annotators: (entry) => Object.keys(entry.objects_per_annotator ?? {}),
  opens: { items: "entry", pairs: "pair", "reference.items": (record) => record.item } };

/**
 * The summary card's headline (headline.mjs) of a report on matched objects: σ against between-item
 * chance. `objects`: the plural noun of the kind's objects; `items`: what one item is, in the plural.
 */
export function objectHeadline({ objects, items, countKey }) {
  return () => ({ key: "localization.sigma", symbol: "σ", scale: "chance",
    label: `σ (sigma): localization agreement beyond chance, 1 − mean within-item distance / mean between-item distance`,
    name: "Localization agreement", chance: `chance pairing of ${objects} from different ${items}`,
    counts: [["n_items", "items"], ["n_annotators", "annotators"], [countKey, objects]] });
}

/**
 * The cards of a report on matched objects (boxes, polygons, cuboids): σ against between-item
 * chance, the other baselines, detection and classification α, the raw measures, the ECDF chart
 * and the tables. `objects`: the word for them in the counts; `one`: one of them ("box"); `countKey`:
 * the report's key of their count; `reference`: the kind's words for its reference cards (reference_cards.mjs).
 */
export function objectCards(report, page, { objects, one, countKey, reference }) {
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
          explain: `Baseline from pairs of different annotators on different items: an annotator who draws the same ${one} everywhere no longer lowers its own baseline. The pair and annotator tables use these baselines.` }),
        coefficient(report, "KS D against other annotators", `${loc}.ks_cross`, { interval: false }),
        coefficient(report, "σ_B (Braylan, Alonso & Lease 2022)", `${loc}.significance_share`, {
          explain: "The paper's σ: the share of matched pairs whose distance is below the 5 % quantile of the between-item distances (the level is in the report)." }))),
    () => section("Detection and classification (Krippendorff's α, nominal)", report,
      h("div", { class: "row" },
        coefficient(report, "Detection α (present/absent)", "detection"),
        coefficient(report, "Classification α (labels)", "classification")),
      chanceDetectionNote(report)),
    () => section("Raw measures (as in Potato's report)", report,
      h("div", { class: "row" },
        estimate(report, "Detection F1", "detection_f1"),
        estimate(report, "Mean agreement", "mean_agreement"),
        estimate(report, "Mean object-count difference", "mean_object_count_diff"),
        estimate(report, "Items", "n_items"),
        estimate(report, "Annotators", "n_annotators"),
        estimate(report, objects, countKey))),
    ...referenceCards(report, page, reference),
    () => ecdfChart(report, BETWEEN_ITEMS),
    () => recordsTable(report, "pairs", "Per annotator pair", { page }),
    () => recordsTable(report, "annotators", "Per annotator (against all others)", { page }),
    () => recordsTable(report, "labels", "Per label", { page }),
    () => recordsTable(report, "items", "Items carrying most disagreement (first)", { page }),
  ];
}

/**
 * The sentence beside detection α near 0 with a high F1 (both raw and chance-corrected read the same
 * matches): shown only when α < 0.2 and the detection F1 > 0.8 (docs/web.md), else null.
 */
export function chanceDetectionNote(report) {
  const alpha = get(report, "detection.value"), f1 = get(report, "detection_f1");
  if (typeof alpha !== "number" || typeof f1 !== "number" || !(alpha < 0.2 && f1 > 0.8)) return null;
  return h("p", { class: "note chance-detection-note", dataset: { note: "detection-chance" } },
    `Detection α is near 0 while the detection F1 is ${f1.toFixed(2)}: α corrects for how often objects are found ` +
    "by chance at this item density. When nearly every annotator finds nearly every object, present is expected " +
    "almost always by chance, so even a high F1 is little better than chance; a high F1 alone does not show agreement.");
}
