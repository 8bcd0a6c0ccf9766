// Images under the item views' shapes (item_view.mjs): files the user drops or chooses, matched to
// the report's item ids by name and kept in the tab as object URLs. Nothing is fetched or uploaded:
// a file is read only by the browser's image decoder (from its blob: URL) and, for a download, by
// FileReader; it lives as long as the report it was matched to (revoke() when a new one replaces it).
//
// Matching a file to an item (the first rule that finds an item decides; each rule is tried with
// names as given, then ignoring case):
//   1. its path is the item id: the file's name, its path inside a chosen or dropped folder, or the
//      end of that path ("photos/imgs/0001.jpg" is item "imgs/0001.jpg");
//   2. its name without the extension is the item id ("0001.jpg" is item "0001");
//   3. its name, with or without the extension, is the last part of an item id that is a path
//      ("0001.jpg" or "0001.png" is item "imgs/0001.jpg").
// A rule that finds several items (rule 3 with "a/0001.jpg" and "b/0001.jpg") matches none: the file
// is listed as ambiguous. A later file for an item replaces the earlier one.

import { droppedFiles } from "./dropped.mjs";
import { serialize, whiteCanvas } from "./svg.mjs";

export { droppedFiles };

const IMAGE_EXTENSIONS = /\.(png|jpe?g|gif|webp|bmp|avif|svg|ico|tiff?)$/i;

/** The last part of a slash-separated path. */
function basename(path) {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** A name without its last extension ("a.b.png" → "a.b"; a name that starts with its only dot stays whole). */
function stem(name) {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}

/** Whether `file` is an image the browser may decode (by its type, or its extension when it has none). */
export function isImage(file) {
  return file.type ? file.type.startsWith("image/") : IMAGE_EXTENSIONS.test(file.name);
}

/** name → Set of item ids, as given and lower-cased. */
function nameIndex(ids, keysOf) {
  const exact = new Map(), folded = new Map();
  const add = (map, key, id) => { if (!map.has(key)) map.set(key, new Set()); map.get(key).add(id); };
  for (const id of ids) {
    for (const key of keysOf(id)) { add(exact, key, id); add(folded, key.toLowerCase(), id); }
  }
  return { exact, folded };
}

/**
 * The matcher of file paths to `ids` (the report's item ids, as strings): `match(path)` →
 * `{item}`, `{ambiguous: [ids]}` or `{}` for a path ("0001.jpg", or "folder/imgs/0001.jpg" from a folder).
 */
export function itemMatcher(ids) {
  const strings = [...new Set(ids.map(String))];
  const known = new Set(strings), knownFolded = new Map();
  for (const id of strings) {
    const key = id.toLowerCase();
    knownFolded.set(key, [...(knownFolded.get(key) ?? []), id]);
  }
  const byStem = nameIndex(strings, (id) => [id]);
  const byBasename = nameIndex(strings.filter((id) => id.includes("/")), (id) => [basename(id), stem(basename(id))]);
  const pick = (found) => (!found || !found.size ? null : found.size === 1 ? { item: [...found][0] } : { ambiguous: [...found].sort() });
  // Rule 1: the path or one of its tails ("a/b/c" → "a/b/c", "b/c", "c"), longest first.
  const byPath = (path, folded) => {
    const parts = path.split("/");
    for (let k = 0; k < parts.length; k++) {
      const tail = parts.slice(k).join("/");
      if (!folded && known.has(tail)) return { item: tail };
      if (folded) {
        const found = knownFolded.get(tail.toLowerCase());
        if (found) return pick(new Set(found));
      }
    }
    return null;
  };
  return function match(path) {
    const name = basename(path);
    for (const folded of [false, true]) {
      const hit = byPath(path, folded);
      if (hit) return hit;
    }
    const rules = [[byStem, [stem(name)]], [byBasename, [name, stem(name)]]];
    for (const [index, keys] of rules) {
      for (const folded of [false, true]) {
        const map = folded ? index.folded : index.exact;
        const found = new Set(keys.flatMap((key) => [...(map.get(folded ? key.toLowerCase() : key) ?? [])]));
        const hit = pick(found);
        if (hit) return hit;
      }
    }
    return {};
  };
}

/** The files of a file input as `{path, file}` (a chosen folder's files by their path in it). */
export function chosenFiles(input) {
  return [...input.files].map((file) => ({ path: file.webkitRelativePath || file.name, file }));
}

/**
 * The images of one report's items: `add(files)` matches `{path, file}` records to item ids and
 * keeps each matched image as an object URL; `image(item)` → Promise of `{href, width, height,
 * name}` (its natural size) or null; `revoke()` frees them all.
 */
export class ImageStore {
  constructor(ids) {
    this.match = itemMatcher(ids);
    this.images = new Map();  // item id -> {href, file, name, size: Promise<{width, height}>}
    this.revoked = false;
  }

  get count() {
    return this.images.size;
  }

  /** The item ids that have an image. */
  get items() {
    return [...this.images.keys()];
  }

  /**
   * Match and keep `files`; returns `{matched: [{item, name}], unmatched: [name], ambiguous:
   * [{name, items}], skipped: [name]}` (skipped: not image files; hidden files like .DS_Store are
   * skipped too). Nothing is left out of the answer.
   */
  add(files) {
    const outcome = { matched: [], unmatched: [], ambiguous: [], skipped: [] };
    if (this.revoked) return outcome;
    for (const { path, file } of files) {
      if (basename(path).startsWith(".") || !isImage(file)) { outcome.skipped.push(path); continue; }
      const hit = this.match(path);
      if (hit.ambiguous) { outcome.ambiguous.push({ name: path, items: hit.ambiguous }); continue; }
      if (hit.item === undefined) { outcome.unmatched.push(path); continue; }
      const earlier = this.images.get(hit.item);
      if (earlier) URL.revokeObjectURL(earlier.href);
      this.images.set(hit.item, { href: URL.createObjectURL(file), file, name: path, size: null });
      outcome.matched.push({ item: hit.item, name: path });
    }
    return outcome;
  }

  /** The item's image with its natural size, or null (none, or one the browser cannot decode). */
  async image(item) {
    const entry = this.images.get(String(item));
    if (!entry) return null;
    entry.size ??= naturalSize(entry.href);
    const size = await entry.size;
    return size && { href: entry.href, name: entry.name, ...size };
  }

  /** The image's bytes as a data: URL (for a standalone SVG download). */
  async dataUrl(href) {
    const entry = [...this.images.values()].find((image) => image.href === href);
    if (!entry) return null;
    return new Promise((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result);
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(entry.file);
    });
  }

  revoke() {
    this.revoked = true;
    for (const { href } of this.images.values()) URL.revokeObjectURL(href);
    this.images.clear();
  }
}

/** {width, height} of the image at an object URL, or null when it does not decode. */
async function naturalSize(href) {
  const image = new Image();
  image.src = href;
  try {
    await image.decode();
  } catch {
    return null;
  }
  return image.naturalWidth > 0 && image.naturalHeight > 0 ? { width: image.naturalWidth, height: image.naturalHeight } : null;
}

/** A sentence of what a drop did: how many items got images, and every file that got none (count + the first few). */
export function outcomeText(outcome, total) {
  const few = (names) => names.slice(0, 5).join(", ") + (names.length > 5 ? `, … (${names.length - 5} more)` : "");
  const parts = [`${outcome.matched.length} image${outcome.matched.length === 1 ? "" : "s"} matched ` +
    `(${total} item${total === 1 ? " of this report has" : "s of this report have"} one).`];
  if (outcome.unmatched.length) parts.push(`${outcome.unmatched.length} matched no item: ${few(outcome.unmatched)}.`);
  if (outcome.ambiguous.length) {
    parts.push(`${outcome.ambiguous.length} matched several items, so none: ` +
      `${few(outcome.ambiguous.map(({ name, items }) => `${name} (${items.slice(0, 3).join(", ")}${items.length > 3 ? ", …" : ""})`))}.`);
  }
  if (outcome.skipped.length) parts.push(`${outcome.skipped.length} not image files, left out: ${few(outcome.skipped)}.`);
  return parts.join(" ");
}

/** Whether a picture has images under its shapes (drawn from blob: URLs). */
export function hasImages(svg) {
  return svg.querySelector("image.item-image") !== null;
}

/** The picture as a standalone SVG text, its images embedded as data: URLs (a blob: URL dies with the tab). */
export async function svgWithImages(svg, store) {
  const copy = svg.cloneNode(true);
  for (const node of copy.querySelectorAll("image.item-image")) {
    const data = await store.dataUrl(node.getAttribute("href"));
    if (data) node.setAttribute("href", data);
    else node.remove();
  }
  return serialize(copy);
}

/**
 * A PNG Blob of a picture with images, at `scale` × its size: white, then each image drawn from its
 * blob: URL (same origin: the canvas stays readable), then the picture without its images and
 * background over them. (An SVG drawn as an image may load no blob: URL of its own.)
 */
export async function pngWithImages(svg, scale = 2) {
  const { canvas, context } = whiteCanvas(svg, scale);
  const copy = svg.cloneNode(true);
  for (const node of copy.querySelectorAll("image.item-image")) {
    const image = new Image();
    image.src = node.getAttribute("href");
    await image.decode();
    const [x, y, w, h] = ["x", "y", "width", "height"].map((name) => Number(node.getAttribute(name)) * scale);
    context.drawImage(image, x, y, w, h);
    node.remove();
  }
  copy.querySelector(":scope > rect")?.setAttribute("fill", "none");  // the picture's white background
  const url = URL.createObjectURL(new Blob([serialize(copy)], { type: "image/svg+xml" }));
  try {
    const picture = new Image();
    picture.src = url;
    await picture.decode();
    context.drawImage(picture, 0, 0, canvas.width, canvas.height);
  } finally {
    URL.revokeObjectURL(url);
  }
  return new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
}
