// The page: tabs, inputs, the worker conversation, and rendering reports as text-only DOM.
//
// The tabs, forms and option defaults are written into index.html by build.py from the registry
// of kinds (dist/kinds.json); this module reads the kinds and their fields from that DOM.
//
// Safety rule: every string that came from the user (labels, item ids, annotator names, error
// values) reaches the DOM through textContent or attribute values only, never as HTML.

import { Engine } from "./engine.mjs";
import { encodeShare, decodeShare, TooLargeError } from "./share.mjs";
// The renderer (and the chart library under it) loads after the worker has started, so the
// page's own module graph does not delay Python's start-up.
const renderer = () => import("./render.mjs");  // the kinds' modules load when a report first needs them (kinds.mjs)
import { downloadText } from "./download.mjs";
import { createImporter } from "./import.mjs";
import { FirstOpen, readExample } from "./first_open.mjs";
import { STORAGE_PREFIX, holdLargeRows, isHeld, lineOf, restoreInputs, rowsOf, saveInputs, setRows } from "./inputs.mjs";
import { clearStale, hasReport, markStale, replaceWithError, showNote } from "./stale.mjs";

const params = new URLSearchParams(location.search);
// No loading step for this long means a hang (the worker reports a wrong .wasm type at once;
// this is the backstop). Each step restarts the clock. ?loadTimeout=ms overrides it.
const LOAD_TIMEOUT_MS = Number(params.get("loadTimeout")) || 120000;
const LINK_WARN_CHARS = 8000;        // e-mail and chat programs often cut longer links
const LINK_MAX_CHARS = 2 * 1024 * 1024;  // Chromium's URL limit

const $ = (selector, root = document) => root.querySelector(selector);
const tabs = [...document.querySelectorAll('[role="tab"]')];
const KINDS = tabs.map((tab) => tab.dataset.kind);  // the registry's kinds, in its order
const forms = Object.fromEntries(KINDS.map((kind) => [kind, $(`form[data-kind="${kind}"]`)]));
const statusLine = $("#status");
const loadError = $("#load-error");
const progressBox = $("#progress");
const progressBar = $("#progress-bar");
const progressText = $("#progress-text");
let activeKind = KINDS[0];

// ------------------------------------------------------------------ engine (worker) and status

const engine = new Engine({
  timeoutMs: LOAD_TIMEOUT_MS,
  onStatus(message) { statusLine.textContent = message; statusLine.dataset.state = "loading"; },
  onReady(versions, timings) {
    performance.mark("agreekit:ready");
    statusLine.textContent = `Ready: Python ${versions.python}, numpy ${versions.numpy}, scipy ${versions.scipy}, ` +
      `agreekit ${versions.agreekit} (loaded in ${(timings.ready / 1000).toFixed(1)} s).`;
    statusLine.dataset.state = "ready";
    loadError.hidden = true;
    firstOpen.pythonReady();
  },
  onFatal(message) {
    statusLine.textContent = "Python could not be loaded.";
    statusLine.dataset.state = "failed";
    loadError.replaceChildren();
    loadError.append(message, " ");
    const retry = document.createElement("button");
    retry.type = "button";
    retry.textContent = "Retry";
    retry.addEventListener("click", () => { loadError.hidden = true; engine.restart(); });
    loadError.append(retry);
    loadError.hidden = false;
  },
});

// ------------------------------------------------------------------ tabs

function selectTab(kind, { focus = false } = {}) {
  activeKind = kind;
  for (const tab of tabs) {
    const on = tab.dataset.kind === kind;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    if (on && focus) tab.focus();
    $(`#${tab.getAttribute("aria-controls")}`).hidden = !on;
  }
  try { localStorage.setItem(STORAGE_PREFIX + "tab", kind); } catch { /* storage may be off */ }
  firstOpen.shown(kind);
}

for (const tab of tabs) {
  tab.addEventListener("click", () => selectTab(tab.dataset.kind));
  tab.addEventListener("keydown", (event) => {
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    let index = tabs.indexOf(tab);
    if (step) index = (index + step + tabs.length) % tabs.length;
    else if (event.key === "Home") index = 0;
    else if (event.key === "End") index = tabs.length - 1;
    else return;
    event.preventDefault();
    selectTab(tabs[index].dataset.kind, { focus: true });
  });
}

// ------------------------------------------------------------------ reading and writing the form

/** The form's options by the registry's types (each field's data-type); blank fields are left out. */
function readOptions(form) {
  const options = {};
  for (const field of form.querySelectorAll(".options [name]")) {
    // A number field holding text reads as "" (the browser drops it): say so, never use the default.
    if (field.validity?.badInput) throw new OptionError(`${labelOf(field)}: not a number`);
    const raw = field.value.trim();
    if (raw === "") continue;  // blank: the core's default
    const type = field.dataset.type;
    if (type === "table") options[field.name] = field.value;  // rows: kept as typed
    else if (type === "text" || type === "choice" || type === "labels") options[field.name] = raw;  // the core splits labels
    else if (type === "int" || type === "float") {
      const value = Number(raw);
      if (!Number.isFinite(value) || (type === "int" && !Number.isInteger(value))) {
        throw new OptionError(`${labelOf(field)}: "${raw}" is not ${type === "int" ? "a whole number" : "a number"}`);
      }
      options[field.name] = value;
    } else if (type === "floats") {
      const values = raw.split(/[\s,;]+/).filter(Boolean).map(Number);
      if (!values.length || values.some((v) => !Number.isFinite(v))) {
        throw new OptionError(`${labelOf(field)}: "${raw}" is not a list of numbers`);
      }
      options[field.name] = values;
    } else {
      throw new Error(`option ${field.name}: unknown type ${type}`);  // a registry type this page does not know
    }
  }
  return options;
}

class OptionError extends Error {}

function labelOf(field) {
  return field.dataset.label || field.name;
}

function writeInputs(kind, rows, options) {
  const form = forms[kind];
  setRows(form, rows);
  const unknown = [];
  for (const field of form.querySelectorAll(".options [name]")) {  // back to the defaults first
    if (field.tagName === "SELECT") field.value = [...field.options].find((o) => o.defaultSelected)?.value ?? field.options[0].value;
    else field.value = field.defaultValue;
  }
  for (const [name, value] of Object.entries(options)) {
    const field = form.querySelector(`.options [name="${CSS.escape(name)}"]`);
    if (!field) { unknown.push(name); continue; }
    const text = Array.isArray(value) ? value.join(", ") : String(value);
    if (field.tagName === "SELECT" && ![...field.options].some((o) => o.value === text)) {
      unknown.push(`${name}=${text}`);
      continue;
    }
    field.value = text;
    if (field.type === "number" && field.value !== text) unknown.push(`${name}=${text}`);  // not a number
  }
  return unknown;
}

// ------------------------------------------------------------------ errors next to the paste area

/**
 * The error next to the paste area. An input error names the line and column, and the input it
 * is in: the rows, or the option field named by `error.field` (e.g. the span lengths box). Several
 * rows in error (`error.errors`, the first 20 of `error.total`) are listed, each with its place.
 */
function showError(kind, error) {
  const box = $(`#error-${kind}`);
  box.replaceChildren();
  if (!error) { box.hidden = true; return; }
  if (error.errors?.length > 1) { showErrors(kind, box, error); return; }
  const form = forms[kind];
  const { line = null, field = null } = error.where ?? {};  // an input error's place (protocol.mjs)
  const target = field ? form.querySelector(`.options [name="${CSS.escape(field)}"]`) : form.elements.rows;
  box.append(errorLine(form, error));
  if (line != null && !field && isHeld(form)) {  // no box to select in: show the line
    const quoted = document.createElement("pre");
    quoted.className = "error-line";
    quoted.textContent = lineOf(rowsOf(form), line);
    box.append(quoted);
  } else if (line != null && target?.tagName === "TEXTAREA") {
    const go = document.createElement("button");
    go.type = "button";
    go.textContent = `Go to line ${line}` + (field ? ` of “${labelOf(target)}”` : "");
    go.addEventListener("click", () => selectLine(target, line));
    box.append(go);
  }
  box.dataset.line = line ?? "";
  box.dataset.field = field ?? "rows";
  box.hidden = false;
}

/**
 * One input error as the page words it: where (the field's label, line, column) in bold, then what
 * is wrong. An option's own error names the option by its label, not by its command-line name.
 */
function errorLine(form, error, tag = "p") {
  const { line = null, column = null, field = null } = error.where ?? {};
  const target = field ? form.querySelector(`.options [name="${CSS.escape(field)}"]`) : form.elements.rows;
  const text = document.createElement(tag);
  const where = document.createElement("strong");
  const detail = error.detail ?? error.message;
  if (line != null) {
    const inField = field && target ? `${labelOf(target)}, line` : "Line";
    where.textContent = `${inField} ${line}` + (column != null ? `, column "${column}"` : "") + ": ";
    text.append(where, detail);
  } else if (field && target && error.type === "input") {
    where.textContent = `${labelOf(target)}: `;
    text.append(where, detail.replace(`option ${field} `, ""));
  } else {
    text.textContent = error.message;
  }
  return text;
}

/** Several rows in error: a count, then each (the first 20), its line a button that selects it. */
function showErrors(kind, box, error) {
  const form = forms[kind];
  const total = error.total ?? error.errors.length;
  const head = document.createElement("p");
  const count = document.createElement("strong");
  count.textContent = `${total.toLocaleString("en-US")} errors in the input`;
  head.append(count, total > error.errors.length ? ` (the first ${error.errors.length} are listed):` : ":");
  const list = document.createElement("ol");
  list.className = "error-list";
  for (const each of error.errors) {
    const item = errorLine(form, each, "li");
    const { line = null, field = null } = each.where ?? {};
    const target = field ? form.querySelector(`.options [name="${CSS.escape(field)}"]`) : form.elements.rows;
    if (line != null && !field && isHeld(form)) {  // no box to select in: quote the line
      const quoted = document.createElement("pre");
      quoted.className = "error-line";
      quoted.textContent = lineOf(rowsOf(form), line);
      item.append(quoted);
    } else if (line != null && target?.tagName === "TEXTAREA") {
      const go = document.createElement("button");
      go.type = "button";
      go.className = "go-to-line";
      go.textContent = "Go to line";
      go.addEventListener("click", () => selectLine(target, line));
      item.append(" ", go);
    }
    list.append(item);
  }
  box.append(head, list);
  box.dataset.line = error.errors[0].where?.line ?? "";
  box.dataset.field = error.errors[0].where?.field ?? "rows";
  box.dataset.count = String(total);
  box.hidden = false;
}

function selectLine(textarea, line) {
  const lines = textarea.value.split("\n");
  const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
  textarea.focus();
  textarea.setSelectionRange(start, start + (lines[line - 1] ?? "").length);
}

// ------------------------------------------------------------------ compute

let prepared = null;  // the worker's "prepare" (scipy.sparse), sent after the first result

async function compute(kind) {
  const form = forms[kind];
  showError(kind, null);
  const rows = rowsOf(form);
  const results = $(`#results-${kind}`);
  const version = inputVersion[kind] ?? 0;  // the input this run reports on
  let options;
  try { options = readOptions(form); } catch (error) {
    if (error instanceof OptionError) { failed(kind, { message: error.message }); return; }
    throw error;
  }
  if (!rows.trim()) { failed(kind, { message: "Paste some rows first (or load the example)." }); return; }
  const run = latestRun[kind] = (latestRun[kind] ?? 0) + 1;
  const superseded = () => run !== latestRun[kind];  // a newer run of this tab renders instead
  if (shownVersion[kind] !== version) markStale(results, "computing");
  results.setAttribute("aria-busy", "true");
  results.dataset.state = "computing";
  results.dataset.options = JSON.stringify(options);  // what was sent, for tests and scripts
  showProgress(kind, 0, 0, engine.ready ? "starting" : "waiting for Python to load");
  try {
    // A superseded run (the first-open example, say) still runs in the worker; its news is not this run's.
    const onProgress = (done, total, stage) => { if (!superseded()) showProgress(kind, done, total, stage); };
    const { report, ms, methods } = await engine.compute(kind, rows, options, onProgress);
    if (superseded()) return;
    performance.mark("agreekit:computed", { detail: { kind, ms } });  // the report is here; rendering follows
    const { renderReport } = await renderer();
    await renderReport(results, report, { kind, ms, methods, detail: (item) => engine.itemDetail(kind, item),
      referenceFile: (what) => engine.referenceFile(kind, what, importer.shareImport(kind)?.format ?? "") });
    if (superseded()) return;
    shownVersion[kind] = version;
    clearStale(results);
    if ((inputVersion[kind] ?? 0) !== version) markStale(results, "press");  // edited while it computed
    performance.mark("agreekit:result", { detail: { kind, ms } });
    // Once the first result is shown (not before: its bytes would count before it), scipy's second part.
    prepared ??= engine.prepare().catch((error) => console.warn("agreekit: scipy.sparse not installed ahead:", error));
    results.dataset.state = "done";
    $("#announce").textContent = `${kind} report ready, computed in ${(ms / 1000).toFixed(1)} seconds.`;
  } catch (error) {
    if (superseded()) return;
    if (error.cancelled) {
      prepared = null;  // the new worker installs scipy's second part after its first result, as the first did
      results.dataset.state = "cancelled";
      statusLine.textContent = "Cancelled. Restarting Python…";
      if (shownVersion[kind] !== (inputVersion[kind] ?? 0)) markStale(results, "cancelled");
    } else {
      failed(kind, error.data ?? { message: String(error.message || error) });
    }
  } finally {
    if (!superseded()) { results.removeAttribute("aria-busy"); hideProgress(); }
  }
}

const latestRun = {};  // kind -> number of its latest report run
const inputVersion = {};  // kind -> how many times its input has changed (inputChanged)
const shownVersion = {};  // kind -> the input version its shown report was computed from

/**
 * The input of `kind` changed (typed, pasted, an option, an example, an import, a file, a share
 * link): its report, if any, is stale from now on (stale.mjs); `why` is what happens next
 * ("computing" when a run follows, "press" when the user must press Compute).
 */
function inputChanged(kind, why = "press") {
  inputVersion[kind] = (inputVersion[kind] ?? 0) + 1;
  markStale($(`#results-${kind}`), why);
  forms[kind].dispatchEvent(new Event("agreekit:input"));  // the compare card's results too (compare.mjs)
}

/**
 * A run of `kind` ended in an error, or its input was refused before one started (a share link's
 * options): shown by the rows, and in place of the report it replaces.
 */
function failed(kind, error) {
  const results = $(`#results-${kind}`);
  results.dataset.state = "error";
  results.removeAttribute("aria-busy");
  showError(kind, error);
  const count = error.errors?.length ? error.total ?? error.errors.length : 0;
  // Shown below the form and in the summary above it: "under the rows" is true in both places.
  replaceWithError(results, count > 1 ? `the input has ${count} errors (listed under the rows).`
    : `${error.message} (also shown under the rows).`, releaseCharts);
  shownVersion[kind] = undefined;
}

function releaseCharts(container) {
  renderer().then(({ releaseCharts: release }) => release(container)).catch(() => {});
}

function showProgress(kind, done, total, stage) {
  progressBox.dataset.state = "on";
  if (total > 0) { progressBar.max = total; progressBar.value = done; } else progressBar.removeAttribute("value");
  progressText.textContent = `Computing ${kind}` + (stage ? ` (${stage})` : "") + (total > 0 ? `: ${done} / ${total}` : "…");
}

function hideProgress() { progressBox.dataset.state = "off"; }

$("#cancel").addEventListener("click", () => engine.cancel());

// ------------------------------------------------------------------ share links and downloads

async function share(kind) {
  const form = forms[kind];
  const out = $(".share", form);
  out.replaceChildren();
  delete out.dataset.state;
  out.hidden = false;
  let options;
  try { options = readOptions(form); } catch (error) { showError(kind, { message: error.message }); return; }
  let fragment;
  try { fragment = await encodeShare(kind, rowsOf(form), options, importer.shareImport(kind)); } catch (error) {
    if (!(error instanceof TooLargeError)) throw error;
    out.append(note(`${error.message[0].toUpperCase()}${error.message.slice(1)}. Use “Download input” and send the file instead.`),
      downloadInputButton(kind));
    out.dataset.state = "too-long";
    return;
  }
  const url = location.href.split("#")[0] + fragment;
  if (url.length > LINK_MAX_CHARS) {
    out.append(note(`This input is too large for a link (${url.length.toLocaleString()} characters; browsers stop at about 2 million). ` +
      "Use “Download input” and send the file instead."), downloadInputButton(kind));
    out.dataset.state = "too-long";
    return;
  }
  history.replaceState(null, "", fragment);
  const field = document.createElement("input");
  field.type = "text";
  field.readOnly = true;
  field.value = url;
  field.setAttribute("aria-label", "Share link");
  field.className = "share-link";
  const copy = document.createElement("button");
  copy.type = "button";
  copy.textContent = "Copy";
  copy.addEventListener("click", async () => {
    field.select();
    try { await navigator.clipboard.writeText(url); copy.textContent = "Copied"; } catch { document.execCommand?.("copy"); }
  });
  out.append(field, copy);
  const imported = importer.shareNote(kind);
  if (imported) out.append(note(imported));
  const long = url.length > LINK_WARN_CHARS;
  if (long) {
    out.append(note(`Warning: this link is ${url.length.toLocaleString()} characters long. Many e-mail and chat programs ` +
      `cut links longer than about ${LINK_WARN_CHARS.toLocaleString()} characters; if it arrives broken, send the input file instead.`),
    downloadInputButton(kind));
  }
  out.dataset.state = long ? "long" : "ok";
  field.focus();
  field.select();
}

function note(text) {
  const p = document.createElement("p");
  p.className = "warning";
  p.textContent = text;
  return p;
}

function downloadInputButton(kind) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = "Download input";
  button.addEventListener("click", () => downloadInput(kind));
  return button;
}

function downloadInput(kind) {
  const form = forms[kind];
  let options = {};
  try { options = readOptions(form); } catch { /* the rows still download */ }
  downloadText(`agreekit-${kind}-input.csv`, rowsOf(form), "text/csv");
  if (Object.keys(options).length) {
    downloadText(`agreekit-${kind}-options.json`, JSON.stringify(options, null, 1), "application/json");
  }
}

async function openShareFragment(fragment) {
  // The tab the link names ("#v1/<kind>/…") stops showing its earlier answer at once, before the link
  // is decoded (a moment, asynchronous), as an example's button does.
  const named = KINDS.find((kind) => fragment.split("/")[1] === kind);
  if (named) supersede(named);
  let data;
  try { data = await decodeShare(fragment, KINDS); } catch (error) {
    const message = `Share link: ${error.message}.`;
    if (!named) { showError(activeKind, { message }); return; }
    if (named !== activeKind) selectTab(named);
    failed(named, { message });
    return;
  }
  selectTab(data.kind);
  inputChanged(data.kind, "computing");
  const unknown = writeInputs(data.kind, data.rows, data.options);
  const unread = importer.restore(data.kind, data.imported);  // the import form, set as the rows were converted
  if (unread.length) unknown.push(...unread.map((name) => `import ${name}`));
  if (unknown.length) {
    failed(data.kind, { message: `The share link carries options this page cannot use: ${unknown.join(", ")}. Nothing was computed.` });
    return;
  }
  saveInputs(forms[data.kind]);
  await compute(data.kind);
}

// ------------------------------------------------------------------ examples and files

/** New input is on its way to `kind`'s form: its earlier result is no longer the answer, at once. */
function supersede(kind) {
  $(`#results-${kind}`).dataset.state = "loading";
  inputChanged(kind, "computing");
  latestRun[kind] = (latestRun[kind] ?? 0) + 1;  // and a run still computing (the first-open example) renders nothing
}

/** An example button's rows and option files, written into the form and computed. */
async function loadExample(kind, button) {
  supersede(kind);
  try {
    const { rows, options } = await readExample(button);
    writeInputs(kind, rows, options);
  } catch (error) {
    failed(kind, { message: `The example could not be loaded (${error.message}).` });
    return;
  }
  saveInputs(forms[kind]);
  await compute(kind);
}

async function readFileInto(kind, file) {
  if (!file) return;
  inputChanged(kind, "press");
  setRows(forms[kind], await file.text());
  saveInputs(forms[kind]);
  showError(kind, null);
}

// ------------------------------------------------------------------ wiring

// Dropped or chosen files: a plain table is read as before, a tool's export converted (import.mjs).
const importer = createImporter({
  engine, forms, selectTab, compute, readPlain: readFileInto, setRows, rowsOf, isHeld,
  saveInputs: (kind) => saveInputs(forms[kind]),
  // An import changes the tab's input from its start; a failed one replaces the report with why.
  inputChanged, failed: (kind, message) => failed(kind, { message: `the import failed: ${message}` }),
  version: (kind) => inputVersion[kind] ?? 0,
  unchanged: (kind, before) => {  // an import that went to another tab left this one's rows as they were
    if ((inputVersion[kind] ?? 0) !== before + 1) return;  // changed since, by something else
    inputVersion[kind] = before;  // back to the input its report was computed from
    if (shownVersion[kind] === before) clearStale($(`#results-${kind}`));
  },
  cancelled: (kind) => { if (shownVersion[kind] !== (inputVersion[kind] ?? 0)) markStale($(`#results-${kind}`), "cancelled"); },
});

for (const kind of KINDS) {
  const form = forms[kind];
  form.addEventListener("submit", (event) => { event.preventDefault(); compute(kind); });
  holdLargeRows(form);
  form.addEventListener("input", debounce(() => saveInputs(form), 300));
  form.addEventListener("change", () => saveInputs(form));
  // Typing, pasting, an option changed: the report on screen is no longer this input's.
  form.addEventListener("input", () => inputChanged(kind, "press"));
  form.addEventListener("change", (event) => { if (event.target.type !== "file") inputChanged(kind, "press"); });
  form.elements.file.addEventListener("change", (event) => importer.open(kind, event.target));
  const area = form.elements.rows;
  area.addEventListener("dragover", (event) => { event.preventDefault(); area.classList.add("drop"); });
  area.addEventListener("dragleave", () => area.classList.remove("drop"));
  area.addEventListener("drop", (event) => {
    event.preventDefault();
    area.classList.remove("drop");
    importer.drop(kind, event.dataTransfer);
  });
  form.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-action]");
    const action = button?.dataset.action;
    if (action === "example") loadExample(kind, button);
    else if (action === "share") share(kind);
    else if (action === "download-input") downloadInput(kind);
  });
  area.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); compute(kind); }
  });
}

function debounce(fn, ms) {
  let timer;
  return (...args) => { clearTimeout(timer); timer = setTimeout(() => fn(...args), ms); };
}

window.addEventListener("hashchange", () => {
  if (location.hash.startsWith("#v1/")) openShareFragment(location.hash);
});

const firstOpen = new FirstOpen({ forms, storagePrefix: STORAGE_PREFIX, writeInputs, compute, rowsOf });
for (const kind of KINDS) restoreInputs(forms[kind]);
if (location.hash.startsWith("#v1/")) {
  openShareFragment(location.hash);
} else {
  let tab = null;
  try { tab = localStorage.getItem(STORAGE_PREFIX + "tab"); } catch { /* storage off */ }
  selectTab(KINDS.includes(tab) ? tab : KINDS[0]);
}

// For tests and users' scripts: the engine and the page's state, read-only use.
// Warm the module cache once the worker is on its way; a failed warm-up is retried when a report needs it.
setTimeout(() => renderer().catch((error) => console.warn("agreekit: report module not prefetched:", error)), 0);
// Offline after this visit: the service worker caches the site once Python has loaded (not competing with it).
firstOpen.ready.then(() => import("./offline.mjs")).then((offline) => offline.keepOffline($("#update-notice")))
  .catch((error) => console.warn("agreekit: no offline copy:", error));
window.agreekit = { engine, compute, rows: (kind) => rowsOf(forms[kind]) };

// Compare two rounds and plan how many items: a card of its own module under each form (web/compare.mjs).
import("./compare.mjs").then(({ mountCompare }) => mountCompare({ forms, engine, readOptions, rowsOf }))
  .catch((error) => console.warn("agreekit: the compare and plan cards did not load:", error));
