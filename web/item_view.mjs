// Item views: a panel showing one item's shapes by annotator (item_draw.mjs), opened from the
// report's item and pair tables and from the "worst items" gallery at the top of the report. A kind
// whose report carries its pictures registers its own drawing (masks: masks_view.mjs).
//
// The shapes come from the worker on demand (`detail(item)` → bridge.py run_item_detail), one item
// at a time: the report itself carries no shapes. Arrow keys move to the next/previous item of the
// order the view was opened in (the report's disagreement order, or a pair's shared items), Escape
// closes. Text from the input reaches the DOM as text only (dom.mjs h(), svg.mjs).

import { h, get, metric } from "./dom.mjs";
import { addTitles, canDraw, drawItem, drawsOnImages } from "./item_draw.mjs";
import { ImageStore, chosenFiles, droppedFiles, hasImages, outcomeText, pngWithImages, svgWithImages } from "./item_images.mjs";
import { serialize, toPng } from "./svg.mjs";

const GALLERY_ITEMS = 12;
const wired = new WeakMap();  // results container -> the AbortController of its current report's listeners
// The report lists whose rows open a view: its items (traces: its traces), the annotator pairs (spans:
// the five-way table's), a traces report's disputed units (each opens its trace) and a spans report's
// disagreements in context (each opens its item).
const OPENING = ["items", "traces", "pairs", "units", "disagreement.pairs", "items.examples"];
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

// Kinds whose report carries what their view draws (masks: the runs) register their drawing here
// (render_more.mjs): {detail(report, item) → the item's record, draw (as drawItem), titles(picture),
// svg(picture) → text, png(picture) → Promise of a Blob, note, gallery: false when the report has its own}.
const DRAWERS = new Map();
const SHAPES = { draw: drawItem, titles: addTitles, svg: serialize, png: toPng,
  note: "Hover a shape or a line for its annotator, label, input line and similarity. Arrow keys: next or previous item; Escape closes." };

export function registerItemDrawer(kind, drawer) {
  DRAWERS.set(kind, drawer);
}

/** The annotators an entry of a report's list has (objects: its object counts; spans, masks: its list). */
function entryAnnotators(entry) {
  if (entry.objects_per_annotator) return Object.keys(entry.objects_per_annotator);
  return Array.isArray(entry.annotators) ? entry.annotators.map(String) : [];
}

/**
 * Which record of the report a table row shows, from the row's first metric key: `<table>.<i>.…`,
 * or for a nested table `<list>.<field>` (each record's list `field`), `<list>.<i>.<field>.<j>.…`:
 * record i of `list`.
 */
function rowRecord(table, key) {
  if (key.startsWith(`${table}.`)) return { list: table, index: Number(key.slice(table.length + 1).split(".")[0]) };
  const [list, field] = table.split(".");
  const parts = key.split(".");
  return field && parts[0] === list && parts[2] === field ? { list, index: Number(parts[1]) } : null;
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
  const drawer = DRAWERS.get(kind);
  if (drawer) detail = async (item) => drawer.detail(report, item);
  if (!detail || !(drawer || canDraw(kind)) || !items.length) return null;
  const ids = items.map(list.id);
  const palette = annotatorsOf(report);
  const cache = new Map();  // item id -> Promise of its detail
  const fetchDetail = (item) => {
    if (!cache.has(item)) cache.set(item, detail(item).catch((error) => { cache.delete(item); throw error; }));
    return cache.get(item);
  };
  const controller = new AbortController();
  wired.set(container, controller);
  const { signal } = controller;
  // Images under the shapes (item_images.mjs): kept for this report only, freed when it is replaced.
  const images = drawsOnImages(kind) ? new ImageStore(ids) : null;
  signal.addEventListener("abort", () => images?.revoke());
  const units = images && h("select", { class: "item-image-units", "aria-label": "Coordinates of the shapes" },
    h("option", { value: "auto" }, "coordinates: normalized if all within [0, 1], else pixels"),
    h("option", { value: "pixels" }, "coordinates in pixels"), h("option", { value: "normalized" }, "coordinates normalized (0–1)"));
  const imageOf = async (item) => {
    const image = await images?.image(item);
    return image ? { ...image, units: units.value } : null;
  };
  const view = new ItemView({ kind, palette, fetchDetail, report, drawer: drawer ?? SHAPES, imageOf, images });
  container.append(view.dialog);
  container.addEventListener("click", (event) => {
    const figure = event.target.closest("[data-opens-item]");  // a report's own figure of item i (masks)
    if (figure && ids[Number(figure.dataset.opensItem)] !== undefined) {
      view.open(ids, Number(figure.dataset.opensItem), { from: figure });
      return;
    }
    if (event.target.closest("button, a, input, select")) return;
    const row = event.target.closest(TABLES);
    if (row) openRow(row);
  }, { signal });
  container.addEventListener("keydown", (event) => {
    const row = event.key === "Enter" && event.target.matches?.(TABLES) ? event.target : null;
    if (row) { event.preventDefault(); openRow(row); }
  }, { signal });
  const openRow = (row) => {
    const at = rowRecord(row.closest("[data-table]")?.dataset.table ?? "", row.querySelector("[data-metric]")?.dataset.metric ?? "");
    const record = at && get(report, at.list)?.[at.index];
    if (!record) return;
    if (at.list === list.key) view.open(ids, at.index, { from: row });
    else if (at.list === "units") view.open(ids, Math.max(0, ids.indexOf(record.trace)), { from: row });
    else {  // an annotator pair: the items both annotated, in the report's order
      const shared = items.filter((entry) => { const names = entryAnnotators(entry); return names.includes(record.a) && names.includes(record.b); });
      if (shared.length) view.open(shared.map(list.id), 0, { from: row, focus: [record.a, record.b] });
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
  if (drawer?.gallery === false) return null;
  const card = gallery(report, items, list, { kind, palette, fetchDetail, view, imageOf });
  if (images) imagesControl(card, view, images, units);
  return card;
}

/**
 * The images control of a gallery: choose files or a folder, or drop them on the gallery or an open
 * view; each drop says how many items have an image and lists every file that got none. The
 * thumbnails and the open view with a new image are drawn again.
 */
function imagesControl(card, view, images, units) {
  const status = h("p", { class: "muted item-images-status", "aria-live": "polite" },
    "The files stay in this tab: nothing is uploaded.");
  const files = h("input", { type: "file", multiple: "", accept: "image/*", class: "item-images-files" });
  const folder = h("input", { type: "file", multiple: "", webkitdirectory: "", class: "item-images-folder" });
  const control = h("div", { class: "item-images", dataset: { images: "0" } },
    h("span", {}, "Images: drop image files or a folder here, or choose "),
    h("label", { class: "item-images-choose" }, "files ", files), " ",
    h("label", { class: "item-images-choose" }, "a folder ", folder), " ", units, status);
  card.querySelector(".item-gallery-grid").before(control);
  const take = (records) => {
    const outcome = images.add(records);
    status.textContent = outcomeText(outcome, images.count);
    Object.assign(control.dataset, { images: String(images.count), matched: String(outcome.matched.length),
      unmatched: String(outcome.unmatched.length + outcome.ambiguous.length), skipped: String(outcome.skipped.length) });
    redraw(new Set(outcome.matched.map(({ item }) => item)));
  };
  const redraw = (items) => {
    card.redraw(items);
    if (view.dialog.open && items.has(String(view.order[view.index]))) view.show(view.index);
  };
  for (const input of [files, folder]) {
    input.addEventListener("change", () => { take(chosenFiles(input)); input.value = ""; });
  }
  units.addEventListener("change", () => redraw(new Set(images.items)));
  for (const target of [card, view.dialog]) {
    target.addEventListener("dragover", (event) => {
      if (!event.dataTransfer?.types?.includes("Files")) return;
      event.preventDefault();
      target.classList.add("image-drop");
    });
    target.addEventListener("dragleave", () => target.classList.remove("image-drop"));
    target.addEventListener("drop", (event) => {
      if (!event.dataTransfer?.types?.includes("Files")) return;
      event.preventDefault();
      event.stopPropagation();  // not the tab's own drop (rows)
      target.classList.remove("image-drop");
      droppedFiles(event.dataTransfer).then(take);
    });
  }
}

/** The 12 items carrying most disagreement (the report's order), each a thumbnail that opens its view. */
function gallery(report, items, list, { kind, palette, fetchDetail, view, imageOf }) {
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
  const draw = async (button) => {
    try {
      const detail = await fetchDetail(button.dataset.item);
      performance.mark("agreekit:gallery:detail");
      const figure = button.querySelector(".thumb-figure");
      const image = await imageOf(button.dataset.item);
      await drawItem(kind, detail, { palette, report, thumbnail: true, image, mount: (svg) => figure.replaceChildren(svg) });
      Object.assign(button.dataset, { state: "drawn", image: image ? "drawn" : "none" });
    } catch (error) {
      button.querySelector(".thumb-figure").textContent = "not drawn";
      button.dataset.state = "failed";
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  let drawing = (async () => {  // one thumbnail per task, in rank order
    for (const button of grid.children) await draw(button);
    card.dataset.state = "drawn";
    performance.mark("agreekit:gallery:drawn");
  })();
  /** Draw the thumbnails of `items` again (new images), after those drawing now, one per task. */
  card.redraw = (changed) => {
    drawing = drawing.then(async () => {
      for (const button of grid.children) if (changed.has(button.dataset.item)) await draw(button);
    });
  };
  return card;
}

/** The panel: a modal dialog with the item's picture, stepping through an order of items. */
class ItemView {
  constructor({ kind, palette, fetchDetail, report, drawer, imageOf, images }) {
    Object.assign(this, { kind, palette, fetchDetail, report, drawer, imageOf, images, order: [], index: 0, focus: null, shown: null, request: 0 });
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
    const image = await this.imageOf(item);
    if (request !== this.request) return;  // the user moved on meanwhile
    performance.mark("agreekit:item-view:detail");
    const picture = await this.drawer.draw(this.kind, detail, { palette: this.palette, focus: this.focus, report: this.report,
      image, mount: (svg) => this.figure.replaceChildren(svg),
      controls: (node) => { if (request === this.request) this.controls.replaceChildren(node); } });
    if (request !== this.request) return;
    this.shown = picture;
    performance.mark("agreekit:item-view:drawn");
    await this.drawer.titles(picture);
    performance.mark("agreekit:item-view:titled");
    if (request !== this.request) return;
    this.note.textContent = this.focus ? `Only ${this.focus[0]} and ${this.focus[1]} at full strength. ` : "";
    this.note.append(this.drawer.note);
    if (image) this.note.append(` Drawn over ${image.name} (${image.width} × ${image.height} px, shapes in ` +
      `${picture.querySelector("image.item-image")?.dataset.units ?? "pixels"}); the SVG download embeds it.`);
    this.dialog.dataset.image = image ? "drawn" : "none";
    this.dialog.dataset.state = "shown";
  }

  fileName(extension) {
    return `agreekit-${this.kind}-item-${fileSafe(this.order[this.index])}.${extension}`;
  }

  async downloadSvg() {
    if (!this.shown) return;
    const text = hasImages(this.shown) ? await svgWithImages(this.shown, this.images) : await this.drawer.svg(this.shown);
    downloadBlob(this.fileName("svg"), new Blob([text], { type: "image/svg+xml" }));
  }

  async downloadPng() {
    if (this.shown) downloadBlob(this.fileName("png"), await (hasImages(this.shown) ? pngWithImages(this.shown) : this.drawer.png(this.shown)));
  }
}
