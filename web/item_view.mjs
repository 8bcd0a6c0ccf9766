// Item views: a panel showing one item's shapes by annotator (item_draw.mjs), opened from the
// report's item and pair tables and from the "worst items" gallery at the top of the report.
//
// The shapes come from the worker on demand (`detail(item)` → bridge.py run_item_detail), one item
// at a time: the report itself carries no shapes. Arrow keys move to the next/previous item of the
// order the view was opened in (the report's disagreement order, or a pair's shared items), Escape
// closes. Text from the input reaches the DOM as text only (dom.mjs h(), svg.mjs).

import { h, metric } from "./dom.mjs";
import { addTitles, canDraw, drawItem } from "./item_draw.mjs";
import { serialize, toPng } from "./svg.mjs";

const GALLERY_ITEMS = 12;
const wired = new WeakMap();  // results container -> the AbortController of its current report's listeners
// The report lists whose rows open a view: its items (traces: its traces), the annotator pairs, and
// a traces report's disputed units (each opens its trace).
const OPENING = ["items", "traces", "pairs", "units"];
const TABLES = OPENING.map((key) => `[data-table="${key}"] tbody tr`).join(", ");
const BODIES = OPENING.map((key) => `:scope > [data-table="${key}"] tbody`).join(", ");

/** The report's list of items in its disagreement order, and each entry's id and headline value. */
function itemList(report) {
  if (Array.isArray(report.items)) return { key: "items", id: (e) => e.item, value: "detection_f1", valueName: "F1" };
  return { key: "traces", id: (e) => e.trace, value: "percent_agreement", valueName: "agreement" };
}

/** The annotators of a report, sorted (an annotator's colour stays the same from item to item). */
function annotatorsOf(report) {
  const names = new Set();
  for (const entry of report.items ?? []) {
    for (const name of Object.keys(entry.objects_per_annotator ?? {})) names.add(name);
    for (const name of Array.isArray(entry.annotators) ? entry.annotators : []) names.add(String(name));  // spans
  }
  return [...names].sort();
}

function fileSafe(text) {
  return String(text).replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 80) || "item";
}

function downloadBlob(name, blob) {
  const url = URL.createObjectURL(blob);
  const link = h("a", { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/**
 * Wire item views into a rendered report: rows of the items and pairs tables open the view, and
 * the returned gallery (or null for a kind without item views) goes at the top of the report.
 */
export function attachItemViews(container, report, { kind, detail }) {
  wired.get(container)?.abort();  // the earlier report's rows and views are gone
  const list = itemList(report);
  const items = Array.isArray(report[list.key]) ? report[list.key] : [];
  if (!detail || !canDraw(kind) || !items.length) return null;
  const ids = items.map(list.id);
  const palette = annotatorsOf(report);
  const cache = new Map();  // item id -> Promise of its detail
  const fetchDetail = (item) => {
    if (!cache.has(item)) cache.set(item, detail(item).catch((error) => { cache.delete(item); throw error; }));
    return cache.get(item);
  };
  const view = new ItemView({ kind, palette, fetchDetail, report });
  container.append(view.dialog);
  const controller = new AbortController();
  wired.set(container, controller);
  const { signal } = controller;
  container.addEventListener("click", (event) => {
    if (event.target.closest("button, a, input, select")) return;
    const row = event.target.closest(TABLES);
    if (row) openRow(row);
  }, { signal });
  container.addEventListener("keydown", (event) => {
    const row = event.key === "Enter" && event.target.matches?.(TABLES) ? event.target : null;
    if (row) { event.preventDefault(); openRow(row); }
  }, { signal });
  const openRow = (row) => {
    const key = row.querySelector("[data-metric]")?.dataset.metric ?? "";
    const [table, index] = key.split(".");
    const record = report[table]?.[Number(index)];
    if (!record) return;
    if (table === list.key) view.open(ids, Number(index), { from: row });
    else if (table === "units") view.open(ids, Math.max(0, ids.indexOf(record.trace)), { from: row });
    else {
      const shared = items.filter((entry) => record.a in (entry.objects_per_annotator ?? {}) && record.b in entry.objects_per_annotator);
      if (shared.length) view.open(shared.map((entry) => entry.item), 0, { from: row, focus: [record.a, record.b] });
    }
  };
  // Rows are made by the table code (and again on each page of a long table): mark them openable.
  // Watched per table body, not the whole report: a subtree observer on the report made adding a
  // picture's titles (thousands of nodes) take seconds.
  const mark = (root) => {
    for (const row of root.querySelectorAll("tr")) {
      if (row.tabIndex === 0) continue;
      row.tabIndex = 0;
      row.classList.add("openable");
      row.title = "Open the item view (Enter)";
    }
  };
  const rows = new MutationObserver((records) => records.forEach((record) => mark(record.target)));
  const cards = new MutationObserver(() => {
    for (const body of container.querySelectorAll(BODIES)) {
      if (body.dataset.watched) continue;
      body.dataset.watched = "rows";
      mark(body);
      rows.observe(body, { childList: true });
    }
  });
  cards.observe(container, { childList: true });
  signal.addEventListener("abort", () => { cards.disconnect(); rows.disconnect(); });
  return gallery(report, items, list, { kind, palette, fetchDetail, view });
}

/** The 12 items carrying most disagreement (the report's order), each a thumbnail that opens its view. */
function gallery(report, items, list, { kind, palette, fetchDetail, view }) {
  const shown = items.slice(0, GALLERY_ITEMS);
  const order = items.map(list.id);
  const grid = h("div", { class: "item-gallery-grid" });
  const card = h("section", { class: "card item-gallery", dataset: { gallery: "items" } },
    h("h3", {}, `Items carrying most disagreement (first ${shown.length})`),
    h("p", { class: "muted" }, "Each annotator in its own colour and dash; thin lines join matched shapes ",
      "(red dashed: labels differ), thick tinted shapes are unmatched. Click one to enlarge; ",
      "the arrow keys then step through every item in this order."), grid);
  shown.forEach((entry, rank) => {
    const figure = h("span", { class: "thumb-figure muted" }, "drawing…");
    const value = entry[list.value];
    const shownValue = typeof value === "number" || value === null
      ? h("span", { class: "thumb-value" }, ` · ${list.valueName} `, metric(`${list.key}.${rank}.${list.value}`, value)) : null;
    const id = String(order[rank]);
    const button = h("button", { type: "button", class: "thumb", dataset: { item: id, rank: String(rank) },
      "aria-label": `Open item ${id}` }, figure, h("span", { class: "thumb-caption" }, h("span", { class: "thumb-item" }, id), shownValue));
    button.addEventListener("click", () => view.open(order, rank, { from: button }));
    grid.append(button);
  });
  (async () => {  // one thumbnail per task, in rank order
    for (const button of grid.children) {
      try {
        const detail = await fetchDetail(button.dataset.item);
        performance.mark("agreekit:gallery:detail");
        const figure = button.querySelector(".thumb-figure");
        await drawItem(kind, detail, { palette, report, thumbnail: true, mount: (svg) => figure.replaceChildren(svg) });
        button.dataset.state = "drawn";
      } catch (error) {
        button.querySelector(".thumb-figure").textContent = "not drawn";
        button.dataset.state = "failed";
      }
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    card.dataset.state = "drawn";
    performance.mark("agreekit:gallery:drawn");
  })();
  return card;
}

/** The panel: a modal dialog with the item's picture, stepping through an order of items. */
class ItemView {
  constructor({ kind, palette, fetchDetail, report }) {
    Object.assign(this, { kind, palette, fetchDetail, report, order: [], index: 0, focus: null, shown: null, request: 0 });
    this.heading = h("h3", { id: `item-view-title-${kind}` });
    this.position = h("span", { class: "muted", "aria-live": "polite" });
    this.previous = h("button", { type: "button", onclick: () => this.step(-1) }, "← Previous");
    this.next = h("button", { type: "button", onclick: () => this.step(1) }, "Next →");
    this.figure = h("div", { class: "item-figure" });
    this.note = h("p", { class: "muted item-note" });
    this.controls = h("div", { class: "item-view-controls" });  // a picture's own controls (segments: the tolerance slider)
    const close = h("button", { type: "button", class: "item-close", onclick: () => this.close() }, "Close");
    this.dialog = h("dialog", { class: "item-view", "aria-labelledby": this.heading.id, "aria-modal": "true",
      tabindex: "-1", dataset: { kind } },
      h("div", { class: "item-view-head" }, this.heading, this.position, this.previous, this.next,
        h("button", { type: "button", onclick: () => this.downloadSvg() }, "Download SVG"),
        h("button", { type: "button", onclick: () => this.downloadPng() }, "Download PNG"), close),
      this.note, this.controls, this.figure);
    // On the document while open: a disabled button (the end of the order) drops the focus to the body.
    this.onKey = (event) => {
      if (event.key === "Escape") { event.preventDefault(); this.close(); return; }
      const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
      if (step && !event.target.matches?.("input, select, textarea")) { event.preventDefault(); this.step(step); }
    };
    this.dialog.addEventListener("close", () => {
      document.removeEventListener("keydown", this.onKey);
      // A closed dialog's picture would be restyled whole when it opens again (166 ms for a 3,000-segment clip).
      this.request += 1;  // a picture still being drawn is dropped
      this.figure.replaceChildren();
      this.controls.replaceChildren();
      this.shown = null;
      this.from?.focus?.();
    });
  }

  open(order, index, { from = null, focus = null } = {}) {
    Object.assign(this, { order, from, focus });
    if (!this.dialog.open) {
      // Not showModal(): making the rest of the page inert restyles all of it (300 ms for a report
      // with a gallery of 1,500 boxes, measured here). The CSS draws the backdrop; Escape closes.
      this.dialog.show();
      this.dialog.focus();
      document.addEventListener("keydown", this.onKey);
    }
    this.show(index);
  }

  close() {
    this.dialog.close();
  }

  step(delta) {
    const index = this.index + delta;
    if (index >= 0 && index < this.order.length) this.show(index);
  }

  async show(index) {
    const item = this.order[index];
    const request = ++this.request;
    this.index = index;
    Object.assign(this.dialog.dataset, { item, index: String(index), state: "loading" });
    this.heading.textContent = `Item ${item}`;
    this.position.textContent = `${index + 1} of ${this.order.length}` +
      (this.focus ? ` items shared by ${this.focus[0]} and ${this.focus[1]}` : "");
    this.previous.disabled = index === 0;
    this.next.disabled = index === this.order.length - 1;
    this.note.textContent = "Loading the item's shapes…";
    this.controls.replaceChildren();
    let detail;
    try {
      detail = await this.fetchDetail(item);
    } catch (error) {
      if (request !== this.request) return;
      this.figure.replaceChildren();
      this.note.textContent = `Not drawn: ${error.message}`;
      this.dialog.dataset.state = "error";
      return;
    }
    if (request !== this.request) return;  // the user moved on meanwhile
    performance.mark("agreekit:item-view:detail");
    const picture = await drawItem(this.kind, detail, { palette: this.palette, focus: this.focus, report: this.report,
      mount: (svg) => this.figure.replaceChildren(svg), controls: (node) => { if (request === this.request) this.controls.replaceChildren(node); } });
    if (request !== this.request) return;
    this.shown = picture;
    performance.mark("agreekit:item-view:drawn");
    await addTitles(picture);
    performance.mark("agreekit:item-view:titled");
    if (request !== this.request) return;
    this.note.textContent = this.focus ? `Only ${this.focus[0]} and ${this.focus[1]} at full strength. ` : "";
    this.note.append("Hover a shape or a line for its annotator, label, input line and similarity. ",
      "Arrow keys: next or previous item; Escape closes.");
    this.dialog.dataset.state = "shown";
  }

  fileName(extension) {
    return `agreekit-${this.kind}-item-${fileSafe(this.order[this.index])}.${extension}`;
  }

  downloadSvg() {
    if (this.shown) downloadBlob(this.fileName("svg"), new Blob([serialize(this.shown)], { type: "image/svg+xml" }));
  }

  async downloadPng() {
    if (this.shown) downloadBlob(this.fileName("png"), await toPng(this.shown));
  }
}
