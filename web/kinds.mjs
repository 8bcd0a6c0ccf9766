// The page's part of each kind: the module web/kinds/<kind>.mjs of a kind named in the registry
// (dist/kinds.json), or the default view for a kind without one, so that a kind added in Python
// alone still shows its report (each list of records as a table, every value by key).
//
// A kind's module exports `cards(report, page)`: the report's cards, a list of functions each
// making one card (or null); optionally `items`: which report list holds the items and which
// tables open an item view ({list, id(entry), value, valueName, annotators(entry), opens: {table:
// "entry" | "pair" | (record) => item id}}); `headline(report)`: the summary card's coefficient
// (headline.mjs says what it declares); and either `picture` (item_draw.mjs draws the item's
// shapes from the worker's item detail) or `itemView` (a view of the kind's own, from the report).
// build.py lists the modules in web/kinds/index.json; nothing else names a kind.

import { tablesView } from "./cards.mjs";
import { defaultHeadline } from "./headline.mjs";

/** The view of a kind without a module: its report's records as tables, no item views. */
const DEFAULT_VIEW = Object.freeze({ name: null, cards: tablesView, items: null, picture: null, itemView: null,
  headline: defaultHeadline });

let listing = null;  // Promise of the set of kinds with a module (web/kinds/index.json)
const views = new Map();  // kind -> Promise of its view

/** The kinds that have a module of their own, as build.py listed them. */
export function kindsWithModules() {
  listing ??= fetch(new URL("./kinds/index.json", import.meta.url)).then((response) => {
    if (!response.ok) throw new Error(`Could not fetch web/kinds/index.json (HTTP ${response.status}).`);
    return response.json();
  }).then(({ modules }) => new Set(modules));
  listing.catch(() => { listing = null; });  // asked again next time
  return listing;
}

/** The view of `kind`: its module's exports, checked, or the default view; `generic` says which. */
export function kindView(kind) {
  if (!views.has(kind)) {
    const view = loadView(kind);
    views.set(kind, view);
    view.catch(() => views.delete(kind));
  }
  return views.get(kind);
}

async function loadView(kind) {
  if (!(await kindsWithModules()).has(kind)) return { ...DEFAULT_VIEW, name: kind, generic: true };
  const module = await import(new URL(`./kinds/${kind}.mjs`, import.meta.url).href);
  if (typeof module.cards !== "function") throw new Error(`web/kinds/${kind}.mjs exports no cards(report, page)`);
  if (module.picture && module.itemView) throw new Error(`web/kinds/${kind}.mjs exports both a picture and an item view`);
  return { name: kind, generic: false, cards: module.cards, items: module.items ?? null,
    picture: module.picture ?? null, itemView: module.itemView ?? null, headline: module.headline ?? defaultHeadline };
}
