// The workshop page: checks that Python cells can run here (cross-origin isolation), then starts PyScript,
// whose py-editor cells share one Pyodide (the setup cell's config: dist/workshop.json). Around the cells:
// a placeholder of the code until its editor is up, a Reset button, figures drawn by workshop.py's show(),
// edits kept in localStorage (offered back on the next visit) and share links of a lesson's cells (#w1/…).
import { decodeLesson, encodeLesson } from "./share.mjs";

const STORE = "agreekit.workshop.v1.";       // + cell name → {"code", "time"}
const READY_TIMEOUT_MS = 240_000;           // Pyodide + numpy + scipy + matplotlib: ~15 s on a laptop
const SAVE_EVERY_MS = 1000;
const $ = (id) => document.getElementById(id);

const cells = new Map();  // name → {name, box, script, original, mounted, pending, last}
let pythonIsReady = false;
let runningCell = null;

// ------------------------------------------------------------------ cross-origin isolation

/** Null when the page is cross-origin isolated, else {what, fix} in words. */
export function isolationProblem(win = window) {
  if (win.crossOriginIsolated) return null;
  const serve = "run <code>python3 build.py serve</code> on this computer and open "
    + "<code>http://localhost:8000/workshop.html</code>";
  if (win.location.protocol === "file:") {
    return { what: "the page was opened from a file (<code>file://</code>), where browsers start no Python.",
             fix: `serve the folder instead: ${serve}.` };
  }
  if (!win.isSecureContext) {
    const origin = String(win.location.origin).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
    return { what: `<code>${origin}</code> is plain http to another machine, which browsers do not treat as `
               + "a secure context; only a secure context can be cross-origin isolated, which the Python cells "
               + "need (for SharedArrayBuffer).",
             fix: `each attendee serves the page on their own laptop (${serve}), or the page is served over HTTPS.` };
  }
  return { what: "the page is not cross-origin isolated: the Python cells need SharedArrayBuffer, which browsers allow "
             + "only when the server sends <code>Cross-Origin-Opener-Policy: same-origin</code> and "
             + "<code>Cross-Origin-Embedder-Policy: require-corp</code> with every file.",
           fix: `${serve} (it sends both headers), or set those two headers on your web server or static host `
             + "(docs/workshop.md says how)." };
}

function setStatus(state, text) {
  const status = $("ws-status");
  status.dataset.state = state;
  status.textContent = text;
}

// ------------------------------------------------------------------ cells

function collectCells() {
  for (const box of document.querySelectorAll(".cell[data-cell]")) {
    const script = box.querySelector("script[data-cell]");
    const name = box.dataset.cell;
    const original = script.textContent.trim();  // what py-editor shows (it trims too)
    const placeholder = document.createElement("pre");
    placeholder.className = "cell-placeholder";
    placeholder.textContent = original;
    script.after(placeholder);
    const tools = document.createElement("div");
    tools.className = "cell-tools";
    tools.innerHTML = '<button type="button" data-action="reset" disabled>Reset cell</button>'
      + '<span class="cell-state" aria-live="polite"></span>';
    box.prepend(tools);
    const figure = document.createElement("div");
    figure.className = "figure";
    figure.id = `figure-${name}`;
    box.append(figure);
    tools.querySelector("button").addEventListener("click", () => resetCell(name));
    cells.set(name, { name, box, script, original, mounted: false, pending: null, last: null });
  }
}

function setCode(name, code) {
  const cell = cells.get(name);
  if (!cell) return;
  if (cell.mounted) {
    cell.script.code = code;
    cell.last = code;
  } else {
    cell.pending = code;
    cell.box.querySelector(".cell-placeholder").textContent = code;
  }
}

function resetCell(name) {
  localStorage.removeItem(STORE + name);
  setCode(name, cells.get(name).original);
}

function onMounted(script) {
  const cell = cells.get(script.dataset.cell);
  if (!cell) return;  // the setup cell
  cell.mounted = true;
  cell.box.querySelector(".cell-placeholder").remove();
  cell.box.querySelector('[data-action="reset"]').disabled = false;
  cell.last = script.code;
  if (cell.pending !== null) setCode(cell.name, cell.pending);
  cell.pending = null;
  cell.box.dataset.mounted = "true";
  if ([...cells.values()].every((c) => c.mounted)) document.body.dataset.cells = "mounted";
}

function onRunClick(event) {
  const button = event.target.closest?.(".py-editor-run-button");
  const box = button?.closest(".cell[data-cell]");
  if (!box) return;
  if (!pythonIsReady) {  // a cell started before the setup cell would boot a second Python without config
    event.stopPropagation();
    event.preventDefault();
    box.querySelector(".cell-state").textContent = "Python is still starting: run the cell when the status above says ready.";
    return;
  }
  if (button.classList.contains("running")) return;  // the stop button
  const cell = cells.get(box.dataset.cell);
  if (cell.released) {
    cell.released = false;  // its turn has come (releaseNext): it runs now
  } else if (runningIn(lessonOf(cell), cell)) {
    // One lesson's cells run in order: an exercise started while its example still runs would
    // miss the names the example defines (a NameError, about 1 run in 3 when clicked in order).
    event.stopPropagation();
    event.preventDefault();
    box.dataset.state = "waiting";
    box.querySelector(".cell-state").textContent = `waiting for “${runningIn(lessonOf(cell), cell).name}” to finish…`;
    return;
  }
  runningCell = cell;
  box.dataset.state = "running";
  box.querySelector(".cell-state").textContent = "running…";
  box.querySelector(".figure").replaceChildren();
}

/** The lesson (section) a cell is in, or null. */
function lessonOf(cell) {
  return cell.box.closest("section.lesson");
}

/** The cell of `lesson` other than `cell` that is running now, or null. */
function runningIn(lesson, cell) {
  if (!lesson) return null;
  return [...cells.values()].find((other) => other !== cell && other.box.dataset.state === "running"
    && lessonOf(other) === lesson) ?? null;
}

/** Start the first cell of `lesson` that waits for its turn (its run button clicked again, let through). */
function releaseNext(lesson) {
  const next = [...cells.values()].find((cell) => cell.box.dataset.state === "waiting" && lessonOf(cell) === lesson);
  if (!next) return;
  next.released = true;
  next.box.querySelector(".py-editor-run-button")?.click();
}

/** Why a cell failed, in words, when it used a name that a cell above it (not run yet) defines. */
function failureText(cell, output) {
  if (!/NameError/.test(output?.textContent ?? "")) return "stopped with an error (in red below)";
  const lesson = lessonOf(cell);
  const before = [...cells.values()].filter((other) => lessonOf(other) === lesson && other !== cell
    && (other.box.compareDocumentPosition(cell.box) & Node.DOCUMENT_POSITION_FOLLOWING) && !other.box.dataset.runs);
  return before.length
    ? `stopped: this cell uses names that “${before.map((c) => c.name).join("”, “")}” defines, which has not run yet. Run it first.`
    : "stopped with an error (in red below)";
}

function onRunDone(event) {
  const cell = cells.get(event.target.dataset?.cell);
  if (!cell) return;
  const output = cell.box.querySelector(".py-editor-output");
  const failed = !!output?.querySelector("span[style*='red']");
  cell.box.dataset.state = failed ? "error" : "done";
  cell.box.dataset.runs = String(Number(cell.box.dataset.runs || 0) + 1);
  cell.box.querySelector(".cell-state").textContent = failed ? failureText(cell, output) : "done";
  if (runningCell === cell) runningCell = null;
  releaseNext(lessonOf(cell));
}

/**
 * Ctrl+Enter (⌘+Enter) and Shift+Enter in a cell's editor run the cell. Taken in the capture phase
 * at the document, before the editor's own keymap (in its shadow root), which would insert a line break.
 */
function onKeydown(event) {
  if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey || event.shiftKey)) return;
  const box = event.target.closest?.(".cell[data-cell]");
  // The editor lives in a shadow root: the event's target here is its host, its path goes inside.
  const inEditor = event.composedPath().some((node) => node.classList?.contains("cm-editor"));
  if (!box || !inEditor) return;
  event.preventDefault();
  event.stopPropagation();
  const button = box.querySelector(".py-editor-run-button");
  if (button && !button.classList.contains("running")) button.click();  // never the stop button
}

/** Called by workshop.py's show(): a PNG (base64) under the cell that is running. */
function showFigure(pngBase64, alt) {
  const target = (runningCell ?? [...cells.values()][0]).box.querySelector(".figure");
  const image = new Image();
  image.alt = alt;
  image.src = `data:image/png;base64,${pngBase64}`;
  target.append(image);
}

/** Called by workshop.py when scipy's parts did not install (`reason`: one line): Python is of no use. */
function pythonFailed(reason) {
  setStatus("failed", `Python started, but scipy did not install (${reason}). Reload the page; if it happens `
    + "again, open the browser's console to see why.");
}

/** Called by workshop.py's ready() at the end of the setup cell. */
function pythonReady(versions) {
  pythonIsReady = true;
  setStatus("ready", `Python is ready (${versions}). Run any cell.`);
  // Offline from now on: the service worker caches the workshop's files (PyScript, matplotlib, …)
  // beside the calculator's; `offline` resolves with the number it fetched (tests wait for it).
  window.agreekitWorkshop.offline = import("../offline.mjs").then((offline) => offline.cacheList("workshop"));
  window.agreekitWorkshop.offline.catch((error) => console.warn("agreekit workshop: no offline copy:", error));
}

// ------------------------------------------------------------------ edits kept in this browser

function savedEdit(name) {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE + name));
    return typeof saved?.code === "string" ? saved : null;
  } catch {
    return null;
  }
}

function saveEdits() {
  for (const cell of cells.values()) {
    if (!cell.mounted) continue;
    const code = cell.script.code;
    if (code === cell.last) continue;  // only what the attendee typed since the last look
    cell.last = code;
    if (code === cell.original) localStorage.removeItem(STORE + cell.name);
    else localStorage.setItem(STORE + cell.name, JSON.stringify({ code, time: Date.now() }));
  }
}

function offerRestore(skip) {
  const edits = [...cells.values()].map((cell) => [cell, savedEdit(cell.name)])
    .filter(([cell, saved]) => saved && saved.code !== cell.original && !skip.has(cell.name));
  if (!edits.length) return;
  const last = new Date(Math.max(...edits.map(([, saved]) => saved.time || 0)));
  $("restore-text").textContent = `You changed ${edits.length} cell${edits.length > 1 ? "s" : ""} here before `
    + `(last on ${last.toLocaleString()}). Restore your edits?`;
  $("restore").hidden = false;
  $("restore-yes").onclick = () => {
    for (const [cell, saved] of edits) setCode(cell.name, saved.code);
    $("restore").hidden = true;
  };
  $("restore-no").onclick = () => {
    for (const [cell] of edits) localStorage.removeItem(STORE + cell.name);
    $("restore").hidden = true;
  };
}

function forgetAll(event) {
  event.preventDefault();
  for (const name of cells.keys()) resetCell(name);
  $("restore").hidden = true;
}

// ------------------------------------------------------------------ share links of a lesson

function addShareButtons() {
  for (const section of document.querySelectorAll("section.lesson[data-lesson]")) {
    const row = document.createElement("p");
    row.className = "share-lesson";
    row.innerHTML = '<button type="button">Share link to this lesson\'s cells</button>'
      + '<input class="share-link" readonly aria-label="Share link" hidden><span class="muted" aria-live="polite"></span>';
    section.append(row);
    row.querySelector("button").addEventListener("click", () => shareLesson(section, row));
  }
  for (const details of document.querySelectorAll("details.solution[data-for]")) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Put this solution in the exercise cell";
    button.addEventListener("click", () => setCode(details.dataset.for, details.querySelector("pre").textContent));
    details.append(button);
  }
}

async function shareLesson(section, row) {
  const code = {};
  for (const box of section.querySelectorAll(".cell[data-cell]")) {
    const cell = cells.get(box.dataset.cell);
    code[cell.name] = cell.mounted ? cell.script.code : (cell.pending ?? cell.original);
  }
  const link = `${location.origin}${location.pathname}${await encodeLesson(section.dataset.lesson, code)}`;
  const field = row.querySelector("input");
  field.hidden = false;
  field.value = link;
  field.select();
  let copied = false;
  try {
    await navigator.clipboard.writeText(link);
    copied = true;
  } catch { /* no clipboard permission: the link is selected in the field */ }
  row.querySelector("span").textContent = copied ? "Copied." : "Copy the selected link.";
}

/** Apply a #w1/ link's cells; the names of the cells it set. */
async function applyShareLink() {
  const note = $("shared-note");
  let shared;
  try {
    shared = await decodeLesson(location.hash);
  } catch (error) {
    note.textContent = `This link's lesson could not be read: ${error.message}. The lessons show their own code.`;
    note.hidden = false;
    return new Set();
  }
  if (!shared) return new Set();
  const section = document.querySelector(`section.lesson[data-lesson="${CSS.escape(shared.lesson)}"]`);
  const names = Object.keys(shared.cells).filter((name) => cells.has(name) && section?.contains(cells.get(name).box));
  for (const name of names) {
    setCode(name, shared.cells[name]);
    if (shared.cells[name] !== cells.get(name).original) {  // kept like an edit: a reload keeps the teacher's code
      localStorage.setItem(STORE + name, JSON.stringify({ code: shared.cells[name], time: Date.now() }));
    }
  }
  const title = section?.querySelector("h2")?.textContent ?? shared.lesson;
  note.textContent = names.length
    ? `The cells of “${title}” come from the link you opened. Reset cell brings back the lesson's own code.`
    : `The link names lesson “${shared.lesson}”, which this page does not have.`;
  note.hidden = false;
  section?.scrollIntoView();
  return new Set(names);
}

// ------------------------------------------------------------------ start

async function start() {
  collectCells();
  addShareButtons();
  window.agreekitWorkshop = { showFigure, pythonReady, pythonFailed, isolationProblem };
  $("reset-all").addEventListener("click", forgetAll);
  const problem = isolationProblem();
  if (problem) {
    $("isolation-what").innerHTML = problem.what;
    $("isolation-fix").innerHTML = problem.fix;
    $("isolation").hidden = false;
    setStatus("not-isolated", "Python cells are off on this page: see below why, and how to fix it.");
    return;
  }
  offerRestore(await applyShareLink());
  window.addEventListener("hashchange", () => applyShareLink());
  document.addEventListener("py-editor", (event) => onMounted(event.target));
  document.addEventListener("click", onRunClick, true);
  document.addEventListener("keydown", onKeydown, true);
  document.addEventListener("py-editor:done", onRunDone);
  setInterval(saveEdits, SAVE_EVERY_MS);
  setStatus("loading", "Starting Python (Pyodide with numpy, scipy, matplotlib and agreekit): this takes a while, "
    + "up to a minute on a slow laptop…");
  // Still loading then: neither ready nor failed with its own reason.
  const timer = setTimeout(() => $("ws-status").dataset.state === "loading" && setStatus("failed",
    `Python did not start within ${READY_TIMEOUT_MS / 60000} minutes. Reload the page; if it happens again, `
    + "open the browser's console to see why."), READY_TIMEOUT_MS);
  try {
    await import("../../pyscript/core.js");
  } catch (error) {
    clearTimeout(timer);
    setStatus("failed", `PyScript could not be loaded (${error.message}).`);
  }
}

start();
