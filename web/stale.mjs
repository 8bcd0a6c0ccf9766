// A report on screen belongs to the input in its tab's form, or says that it does not.
//
// Any change of a tab's input (typing or pasting in the rows, an option, an example, an import,
// a file, a share link) makes its report stale at once: the report is dimmed under a banner and
// its container carries data-stale="true" (for tests and scripts) until a new report replaces
// it. An error replaces the report with the error: a number from a previous input is never left
// looking current. app.mjs says when; this module only draws it.

import { h } from "./dom.mjs";

const STALE_TEXT = {
  computing: "This report is for the previous input — computing…",
  press: "This report is for the previous input — press Compute.",
  cancelled: "This report is for the previous input — the run was cancelled; press Compute.",
};

/** The element above the input that holds the report's summary card (the container's data-summary), if any. */
export function summarySlot(container) {
  return container.dataset.summary ? document.getElementById(container.dataset.summary) : null;
}

/** Put `why`'s banner at the top of `box` and mark it stale. */
function banner(box, why) {
  let line = box.querySelector(":scope > .stale-banner");
  if (!line) {
    line = h("p", { class: "stale-banner", role: "status" });
    box.prepend(line);
  }
  line.textContent = STALE_TEXT[why] ?? STALE_TEXT.press;
  line.dataset.why = why;
  box.dataset.stale = "true";
}

/** True when `container` shows a report (render.mjs writes its head first). */
export function hasReport(container) {
  return Boolean(container.querySelector(":scope > .results-head"));
}

/** Dim the report in `container` under a banner saying why (`why`: "computing", "press" or "cancelled"). */
export function markStale(container, why) {
  if (!hasReport(container)) return;
  banner(container, why);
  const summary = summarySlot(container);
  if (summary?.childElementCount) banner(summary, why);  // the headline above the input, too
}

/** The report in `container` is current again (its input is back to what it was computed from). */
export function clearStale(container) {
  for (const box of [container, summarySlot(container)].filter(Boolean)) {
    box.querySelector(":scope > .stale-banner")?.remove();
    box.dataset.stale = "false";
  }
}

/**
 * Replace whatever `container` shows with `message`: an error ends the previous report's life
 * (`destroy(container)` first releases what it drew, e.g. its charts).
 */
export function replaceWithError(container, message, destroy = null) {
  destroy?.(container);
  container.replaceChildren(h("p", { class: "results-error", role: "status" }, "No report: ", message));
  container.dataset.stale = "false";
  const summary = summarySlot(container);
  if (summary) {
    summary.replaceChildren(h("p", { class: "results-error", role: "status" }, "No report: ", message));
    summary.dataset.stale = "false";
  }
}

/** A note in an empty `container` (e.g. restored rows waiting for Python); never over a report. */
export function showNote(container, message) {
  if (hasReport(container)) return;
  container.replaceChildren(h("p", { class: "results-note muted", role: "status" }, message));
}
