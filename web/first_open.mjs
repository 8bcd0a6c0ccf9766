// The example on first open. A tab with no saved input (and not filled by a share link) shows its
// first example (the first example button of its panel) the first time it is shown, and computes
// it once Python is ready: a new visitor sees a result without looking for a button.
//
// A tab with saved input (a reload, a revisit) is computed again from it once Python is ready, so
// rows never stand without their report; until then, or if the user edits them first, the tab
// says so.
//
// Nothing is saved: the tab stays "never filled" until the user edits it, so a revisit opens on
// the example again. Whatever the user does first wins: typing, pasting, a file, a share link or a
// Compute click before the example arrives or before Python is ready leaves the tab alone.

/** The rows and option files of an example button (dist/examples/<data-example>.csv, data-option-files). */
export async function readExample(button) {
  const fetchText = async (path) => {
    const response = await fetch(path);
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
    return response.text();
  };
  const rows = await fetchText(`examples/${button.dataset.example}.csv`);
  const options = {};
  for (const [name, path] of Object.entries(JSON.parse(button.dataset.optionFiles || "{}"))) {
    options[name] = await fetchText(path);
  }
  return { rows, options };
}

import { showNote } from "./stale.mjs";

export class FirstOpen {
  /**
   * forms: {kind: form}; storagePrefix: the saved inputs' localStorage key prefix;
   * writeInputs(kind, rows, options), compute(kind) and rowsOf(form) (shown or held): the page's own.
   */
  constructor({ forms, storagePrefix, writeInputs, compute, rowsOf }) {
    Object.assign(this, { forms, storagePrefix, writeInputs, compute, rowsOf });
    this.shownKinds = new Set();
    // The tabs whose input was kept from an earlier visit (not typed in this one): computed again when shown.
    this.restoredKinds = new Set(Object.keys(forms).filter((kind) => this.hasSavedInput(kind)));
    this.ready = new Promise((resolve) => { this.pythonReady = resolve; });
  }

  /** The page shows tab `kind`: fill its example the first time, if nothing else has filled it. */
  shown(kind) {
    if (this.shownKinds.has(kind)) return;
    this.shownKinds.add(kind);
    if (this.restoredKinds.has(kind)) this.recompute(kind);
    else if (!this.hasSavedInput(kind)) this.fill(kind).catch(() => {});  // an example that fails to load stays a button
  }

  /** Saved rows put back in tab `kind` (inputs.mjs restoreInputs): their report, computed again. */
  async recompute(kind) {
    const form = this.forms[kind];
    const rows = this.rowsOf(form);
    if (!rows.trim()) return;  // cleared on purpose: nothing to report
    const results = document.getElementById(`results-${kind}`);
    let touched = false;
    form.addEventListener("input", () => { touched = true; }, { once: true });
    showNote(results, "Your rows from the last visit are restored; their report is computed as soon as Python has loaded…");
    await this.ready;
    if (results.dataset.state) return;  // a report already asked for (Compute, an example, an import)
    if (touched || this.rowsOf(form) !== rows) {
      showNote(results, "Your rows from the last visit were restored and edited since: press Compute for their report.");
      return;
    }
    this.compute(kind);
  }

  hasSavedInput(kind) {
    try { return localStorage.getItem(this.storagePrefix + kind) !== null; } catch { return false; }
  }

  async fill(kind) {
    const form = this.forms[kind];
    const button = form.querySelector('button[data-action="example"]');
    if (!button) return;
    let touched = false;
    const touch = () => { touched = true; };
    // Focus counts as a touch: text typed or pasted into a box must not land next to an example
    // written while the user was already in it.
    for (const type of ["input", "focusin", "pointerdown"]) form.addEventListener(type, touch, { once: true });
    const untouched = () => !touched && !form.contains(document.activeElement) && this.rowsOf(form) === "";
    const example = await readExample(button);
    const results = document.getElementById(`results-${kind}`);
    // Not beside an answer or error of other input either (a share link that failed to open).
    if (!untouched() || results?.dataset.state) return;
    this.writeInputs(kind, example.rows, example.options);
    await this.ready;
    // Edited since, or a report already asked for (its data-state is set): the user's input wins.
    if (touched || this.rowsOf(form) !== example.rows || results?.dataset.state) return;
    this.compute(kind);
  }
}
