// Item views: a panel showing one item's shapes by annotator (item_draw.mjs, with the kind's
// `picture`), opened from the report's tables that the kind's `items.opens` names (the cards are
// told through render.mjs's `page.opener`) and from the "worst items" gallery at the top of the
// report. A kind whose report carries its pictures has an `itemView` of its own instead (web/kinds.mjs).
//
// The shapes come from the worker on demand (`detail(item)` → bridge.py run_item_detail), one item
// at a time: the report itself carries no shapes. Arrow keys move to the next/previous item of the
// order the view was opened in (the report's disagreement order, or a pair's shared items), Escape
// closes. Text from the input reaches the DOM as text only (dom.mjs h(), svg.mjs).

import { h, get, metric } from "./dom.mjs";
import { MATCH, MISMATCH, addTitles, drawItem } from "./item_draw.mjs";
import { ImageStore, chosenFiles, droppedFiles, hasImages, outcomeText, pngWithImages, svgWithImages } from "./item_images.mjs";
import { annotatorStyle, s, serialize, toPng } from "./svg.mjs";

const GALLERY_ITEMS = 12;
const wired = new WeakMap();  // results container -> the AbortController of its current report's views

/** The annotators of a report's items, sorted (an annotator's colour stays the same from item to item). */
function annotatorsOf(entries, items) {
  const names = new Set();
  for (const entry of entries) for (const name of items.annotators?.(entry) ?? []) names.add(String(name));
  return [...names].sort();
}

/** The shape pictures of item_draw.mjs, as an item view draws them. */
function shapeDrawer(picture) {
  return { draw: (kind, detail, options) => drawItem(picture, detail, { ...options, kind }), titles: addTitles, svg: serialize, png: toPng,
    note: "Hover a shape or a line for its annotator, label, input line and similarity. Arrow keys: next or previous item; Escape closes." };
}

const NO_VIEWS = { gallery: null, opener: () => null, openItem: null };

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
 * The item views of a report: `{gallery, opener, openItem}`: the gallery of the items carrying most
 * disagreement (null for none) for the top of the report; `opener(tableKey)`: for a table whose rows
 * open a view (the kind's `items.opens`), `(row, i) => void` that makes row `i` open it, else null;
 * `openItem(i, from)`: opens item i of the report's list (a kind's own figures), or null.
 * `view`: the kind's view (web/kinds.mjs); `detail(item)`: the Promise of an item's detail.
 */
export function attachItemViews(container, report, { kind, view: kindView, detail }) {
  wired.get(container)?.abort();  // the earlier report's views are gone
  const config = kindView.items;
  const drawer = kindView.itemView ?? (kindView.picture ? shapeDrawer(kindView.picture) : null);
  const items = config && Array.isArray(report[config.list]) ? report[config.list] : [];
  if (kindView.itemView) detail = async (item) => kindView.itemView.detail(report, item);
  if (!detail || !drawer || !items.length) return NO_VIEWS;
  const ids = items.map(config.id);
  const palette = annotatorsOf(items, config);
  const cache = new Map();  // item id -> Promise of its detail
  const fetchDetail = (item) => {
    if (!cache.has(item)) cache.set(item, detail(item).catch((error) => { cache.delete(item); throw error; }));
    return cache.get(item);
  };
  const controller = new AbortController();
  wired.set(container, controller);
  const { signal } = controller;
  // Images under the shapes (item_images.mjs): kept for this report only, freed when it is replaced.
  const images = kindView.picture?.onImages ? new ImageStore(ids) : null;
  signal.addEventListener("abort", () => images?.revoke());
  const units = images && h("select", { class: "item-image-units", "aria-label": "Coordinates of the shapes" },
    h("option", { value: "auto" }, "coordinates: normalized if all within [0, 1], else pixels"),
    h("option", { value: "pixels" }, "coordinates in pixels"), h("option", { value: "normalized" }, "coordinates normalized (0–1)"));
  const imageOf = async (item) => {
    const image = await images?.image(item);
    return image ? { ...image, units: units.value } : null;
  };
  const view = new ItemView({ kind, palette, fetchDetail, report, drawer, imageOf, images });
  container.append(view.dialog);
  const opener = (table) => {
    const how = config.opens?.[table];
    if (!how) return null;
    const records = get(report, table.split(".")[0] === config.list ? config.list : table);
    const open = (i, row) => {
      const record = records?.[i];
      if (!record) return;
      if (how === "entry") view.open(ids, i, { from: row });
      else if (how === "pair") {  // an annotator pair: the items both annotated, in the report's order
        const shared = items.filter((entry) => { const names = config.annotators(entry); return names.includes(record.a) && names.includes(record.b); });
        if (shared.length) view.open(shared.map(config.id), 0, { from: row, focus: [record.a, record.b] });
      } else view.open(ids, Math.max(0, ids.indexOf(how(record))), { from: row });
    };
    return (row, i) => {
      Object.assign(row, { tabIndex: 0, title: "Open the item view (Enter)" });
      row.classList.add("openable");
      row.addEventListener("click", (event) => { if (!event.target.closest("button, a, input, select")) open(i, row); }, { signal });
      row.addEventListener("keydown", (event) => {
        if (event.key === "Enter" && event.target === row) { event.preventDefault(); open(i, row); }
      }, { signal });
    };
  };
  const openItem = (i, from) => { if (ids[i] !== undefined) view.open(ids, i, { from }); };
  if (drawer.gallery === false) return { gallery: null, opener, openItem };
  const card = gallery(report, items, config, { kind, drawer, palette, fetchDetail, view, imageOf,
    key: kindView.itemView ? null : colourKey(palette) });
  if (images) imagesControl(card, view, images, units);
  return { gallery: card, opener, openItem };
}

/**
 * An item view outside a report (web/compare.mjs: the items of one round of a comparison), or null
 * when the kind draws no items. `fetchItem(item)`: the Promise of `{detail, entry, list, report}`
 * (bridge.py run_round_item): the shapes of a kind with a picture, or for a kind whose view is drawn
 * from the report its row of the report's item table; `label`: what the heading names after the item.
 */
export function detachedItemView(kind, kindView, fetchItem, label) {
  const drawer = kindView.itemView ?? (kindView.picture ? shapeDrawer(kindView.picture) : null);
  if (!drawer) return null;
  const cache = new Map();  // item id -> Promise of its detail
  const fetchDetail = (item) => {
    if (!cache.has(item)) {
      cache.set(item, fetchItem(item).then(({ detail, entry, list, report }) => {
        view.report = report;  // the round's (e.g. the α per step above a trace), the same for all its items
        return kindView.itemView ? kindView.itemView.detail({ ...report, [list ?? "items"]: entry ? [entry] : [] }, item) : detail;
      }).catch((error) => { cache.delete(item); throw error; }));
    }
    return cache.get(item);
  };
  const view = new ItemView({ kind, palette: undefined, fetchDetail, report: null, drawer, imageOf: async () => null, images: null, label });
  return view;
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

/** The key of the thumbnails' colours: each annotator's colour and dash (as item_draw.mjs draws them), the lines, unmatched. */
function colourKey(palette) {
  const swatch = (style, width = 2) => s("svg", { class: "key-swatch", width: 22, height: 8, "aria-hidden": "true" },
    s("line", { x1: 1, y1: 4, x2: 21, y2: 4, stroke: style.colour, "stroke-width": width, "stroke-dasharray": style.dash || null }));
  const entry = (style, name, width) => h("span", { class: "key-entry" }, swatch(style, width), " ", name);
  return h("p", { class: "gallery-key muted", dataset: { key: "colours" } }, "Colours: ",
    palette.map((name, k) => entry(annotatorStyle(k), name)),
    entry({ colour: MATCH, dash: "" }, "matched pair", 1), entry({ colour: MISMATCH, dash: "3 2" }, "labels differ", 1.5),
    entry({ colour: "#80838b", dash: "" }, "thick, tinted: unmatched", 4));
}

/** The 12 items carrying most disagreement (the report's order), each a thumbnail that opens its view. */
function gallery(report, items, list, { kind, drawer, palette, fetchDetail, view, imageOf, key }) {
  const shown = items.slice(0, GALLERY_ITEMS);
  const order = items.map(list.id);
  const grid = h("div", { class: "item-gallery-grid" });
  const card = h("section", { class: "card item-gallery", dataset: { gallery: "items" } },
    h("h3", {}, "Items carrying most disagreement"),
    h("p", { class: "gallery-ranking", dataset: { shown: String(shown.length), total: String(items.length) } },
      `${list.ranking ? `Ranked by ${list.ranking}` : "In the report's order, most disagreement first"}. `,
      h("span", { class: "gallery-count" }, `${shown.length} of ${items.length} items shown.`)),
    h("p", { class: "muted" }, "Click one to enlarge; the arrow keys then step through every item in this order."),
    key, grid);
  shown.forEach((entry, rank) => {
    const figure = h("span", { class: "thumb-figure muted" }, "drawing…");
    const value = entry[list.value];
    const problems = list.problems?.(entry);
    const shownValue = problems ? h("span", { class: "thumb-problems" }, problems.join(" · "))
      : typeof value === "number" || value === null
        ? h("span", { class: "thumb-value" }, ` · ${list.valueName} `, metric(`${list.list}.${rank}.${list.value}`, value)) : null;
    const id = String(order[rank]);
    const button = h("button", { type: "button", class: "thumb", dataset: { item: id, rank: String(rank) },
      "aria-label": `Open item ${id}` }, figure, h("span", { class: "thumb-caption" }, h("span", { class: "thumb-item" }, id),
      problems ? h("br") : null, shownValue));
    button.addEventListener("click", () => view.open(order, rank, { from: button }));
    grid.append(button);
  });
  const draw = async (button) => {
    try {
      const detail = await fetchDetail(button.dataset.item);
      performance.mark("agreekit:gallery:detail");
      const figure = button.querySelector(".thumb-figure");
      const image = await imageOf(button.dataset.item);
      await drawer.draw(kind, detail, { palette, report, thumbnail: true, image, mount: (svg) => figure.replaceChildren(svg) });
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
  constructor({ kind, palette, fetchDetail, report, drawer, imageOf, images, label = null }) {
    Object.assign(this, { kind, palette, fetchDetail, report, drawer, imageOf, images, label, order: [], index: 0, focus: null, shown: null, request: 0 });
    this.heading = h("h3", { id: `item-view-title-${kind}${label ? `-${label.replace(/\W+/g, "-")}` : ""}` });
    this.position = h("span", { class: "muted", "aria-live": "polite" });
    this.previous = h("button", { type: "button", onclick: () => this.step(-1) }, "← Previous");
    this.next = h("button", { type: "button", onclick: () => this.step(1) }, "Next →");
    this.figure = h("div", { class: "item-figure" });
    this.note = h("p", { class: "muted item-note" });
    this.controls = h("div", { class: "item-view-controls" });  // a picture's own controls (e.g. a tolerance slider)
    const close = h("button", { type: "button", class: "item-close", onclick: () => this.close() }, "Close");
    this.dialog = h("dialog", { class: "item-view", "aria-labelledby": this.heading.id, "aria-modal": "true",
      tabindex: "-1", dataset: label ? { kind, round: label } : { kind } },
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
    this.heading.textContent = `Item ${item}${this.label ? ` · ${this.label}` : ""}`;
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
