// Module Web Worker that owns Pyodide. The page never blocks: loading and every report run here.
// The protocol is protocol.mjs's (one request shape, one answer shape):
//
// Requests: {id, type: "compute", kind, rows, options}          a report; result: {report (to_dict()), parts,
//                                                               methods: its methods paragraph (bridge.py run_methods) or null}
//           {id, type: "convert", files: [{name, buffer}], kind, exact, format, options}   dropped files to rows (bridge.py run_convert)
//           {id, type: "item_detail", kind, item}               one item of the kind's last report (item views);
//                                                               result: bridge.py's JSON text, parsed by the page
//           {id, type: "compare", kind, rowsA, rowsB, options}  two rounds compared (bridge.py run_compare)
//           {id, type: "plan", kind, rows, options}             items for an interval's half-width (run_plan)
//           {id, type: "round_item", kind, round, item}         one item of a round of the last comparison (run_round_item)
//           {id, type: "reference_file", kind, what, format}    a download of the kind's last report: "consensus"
//                                                               or "adjudication" (run_reference_file)
//           {id, type: "prepare"}                               install scipy.sparse once the worker is idle (the page
//                                                               sends it once its first result is shown); result: {}
// Replies:  {id, progress: {done, total, stage}}                during a request
//           {id, part, rows}                                    a slice of long list number `part` of a report, in
//                                                               order; the result's `parts` gives each one's key path
//           {id, ok: true, result, ms} | {id, ok: false, error: {type, message, where}, ms}
// Loading is request 0: {id: 0, progress: {stage, message}} at each step, then {id: 0, ok: true,
// result: {versions, timings}} once agreekit is importable, or {id: 0, ok: false, error} (shown by the page).
//
// Requests are handled one at a time, in order. scipy comes in two parts (build.py split_scipy):
// the base at start, scipy.sparse after "prepare" (once the page shows its first result) as soon
// as the worker is idle, or earlier when a call imports it (a report does so before its first
// step, so running it again repeats only the reading of its rows).

import { answer, ReplyError } from "./protocol.mjs";
import { onLoopback } from "./offline.mjs";

const root = new URL("../", import.meta.url);
const post = (message, transfer) => self.postMessage(message, transfer);
const t0 = performance.now();
const timings = {};
const LOADING = 0;  // the id of the worker's own loading

function status(stage, message) {
  timings[stage] ??= Math.round(performance.now() - t0);
  post({ id: LOADING, progress: { stage, message } });
}

async function checkWasmType() {
  // A .wasm served with another MIME type makes loadPyodide hang without an error.
  const url = new URL("pyodide/pyodide.asm.wasm", root);
  const response = await fetch(url, { method: "HEAD", cache: "no-cache" });
  if (response.status === 405 || response.status === 501) return;  // host without HEAD: rely on the timeout
  if (!response.ok) throw new Error(`Could not fetch ${url.pathname} (HTTP ${response.status}).`);
  const type = (response.headers.get("content-type") || "").split(";")[0].trim();
  if (type !== "application/wasm") {
    throw new Error(`The server sends pyodide.asm.wasm as "${type || "no type"}" but browsers need ` +
      `"application/wasm". Serve the folder with "python build.py serve" or fix the host's MIME types.`);
  }
}

async function start() {
  status("check", "Checking the server…");
  await checkWasmType();
  const text = (url) => fetch(url, { cache: "no-cache" }).then((r) => {
    if (!r.ok) throw new Error(`Could not fetch ${url.pathname} (HTTP ${r.status}).`);
    return r.text();
  });
  const info = text(new URL("build-info.json", root)).then(JSON.parse);
  const bridge = text(new URL("bridge.py", import.meta.url));  // fetched while Python starts
  bridge.catch(() => {});  // a failure surfaces where it is awaited
  status("pyodide", "Loading Python (Pyodide)…");
  const { loadPyodide } = await import(new URL("pyodide/pyodide.mjs", root).href);
  const { wheel, numpy, scipy, snapshot } = await info;
  // numpy by URL when the build compiled its modules (build.py pyodide_extras), else Pyodide's own.
  const numpyPackage = numpy ? new URL(numpy, root).href : "numpy";
  const packages = [numpyPackage, new URL(scipy.base, root).href, new URL(wheel, root).href];
  const restore = Boolean(snapshot) && await worthRestoring(snapshot);
  if (!restore) prefetchDuringStart(packages.filter((url) => url !== "numpy"));
  const py = await startPython(loadPyodide, new URL("pyodide/", root).href, snapshot, restore);
  status("packages", "Loading numpy, scipy and agreekit…");
  // One call, so the downloads run in parallel. Our wheel by URL: 0.14 s against 0.78 s for
  // micropip (measured); numpy and scipy come in the same call, so nothing needs resolving.
  // Each package message restarts the page's loading clock (a slow network is not a hang).
  // scipy's base only: its sparse part waits until a report imports it (build.py split_scipy).
  const packageMessages = { messageCallback: (message) => status("packages", message) };
  await py.loadPackage(packages, packageMessages);
  scipySparse = new SciPySparse(py, new URL(scipy.sparse, root).href);
  status("import", "Starting agreekit (importing numpy and scipy)…");
  const namespace = py.globals.get("dict")();
  py.runPython(await bridge, { globals: namespace });  // imports no scipy.sparse (tests/test_lazy_scipy.py)
  const runReport = namespace.get("run_report");
  Object.assign(python, { runReport, runConvert: namespace.get("run_convert"), runItemDetail: namespace.get("run_item_detail"),
    runMethods: namespace.get("run_methods"), runCompare: namespace.get("run_compare"), runPlan: namespace.get("run_plan"),
    runRoundItem: namespace.get("run_round_item"), runReferenceFile: namespace.get("run_reference_file") });
  const versions = JSON.parse(py.runPython(
    "import json, sys, numpy, scipy, agreekit\n" +
    "json.dumps({'python': sys.version.split()[0], 'numpy': numpy.__version__, " +
    "'scipy': scipy.__version__, 'agreekit': agreekit.__version__, 'kinds': list(agreekit.KINDS)})"));
  status("ready", "Ready");
  return { runReport, result: { versions, timings } };
}

/**
 * Python, restored from the build's memory snapshot (build.py pyodide_extras: an interpreter with
 * the standard-library modules start-up imports) where it pays (`worthRestoring`), else started as
 * usual, as when the build has none or the restore fails (`timings.snapshot` says which, and why).
 */
async function startPython(loadPyodide, indexURL, snapshot, restore) {
  if (restore) {
    try {
      const bytes = snapshotBytes(new URL(snapshot.path, root), snapshot.bytes);
      bytes.catch(() => {});  // loadPyodide awaits it only once pyodide.asm.js is in: not unhandled
      const py = await loadPyodide({ indexURL, _loadSnapshot: bytes });
      py.runPython("import random; random.seed()");  // seeded when the snapshot was made: the same for all
      timings.snapshot = "restored";
      return py;
    } catch (error) {
      timings.snapshot = `not used: ${String(error?.message ?? error).split("\n")[0]}`;
    }
  } else {
    timings.snapshot = snapshot ? "not on a first visit over a network" : "none in this build";
  }
  return loadPyodide({ indexURL });
}

/**
 * Whether to restore the snapshot: on loopback, or on a return visit (the service worker holds this
 * build's Pyodide, and the snapshot too from the visit after the first). On a first visit over a
 * network the snapshot (6.3 MB gzipped) would come on top of the 12 MB Python needs, past the
 * 15 MB budget, and at 20 Mbit/s its download costs about what the restore saves (benchmarks/
 * RESULTS.md, "The first visit over a network"); on a return visit it is all there is to fetch.
 */
async function worthRestoring(snapshot) {
  if (onLoopback()) return true;
  try {
    const cached = (path) => self.caches.match(new URL(path, root).href).then(Boolean);
    return (await cached(snapshot.path)) || (await cached("pyodide/pyodide.asm.wasm"));
  } catch {
    return false;  // no CacheStorage here (an opaque origin, a blocked storage)
  }
}

/**
 * Download the package wheels into the HTTP cache while Python starts (its CPU time), once
 * Pyodide's own large files are in (so that those come first at full speed): loadPackage then
 * finds them there (a 304). Only when Python starts plainly: on a first visit over a network.
 */
function prefetchDuringStart(urls) {
  const core = ["pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip"].map((path) => new URL(path, root).href);
  const left = new Set(core);
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) left.delete(entry.name);
    if (left.size) return;
    observer.disconnect();
    for (const url of urls) fetch(url).then((response) => response.arrayBuffer()).catch(() => {});  // loadPackage reports failures
  });
  observer.observe({ type: "resource", buffered: true });
}

// The first word of every Pyodide 0.27 snapshot (its makeSnapshot / restoreSnapshot).
const SNAPSHOT_MAGIC = 1886286592;

/** The snapshot's bytes, checked: Pyodide sizes its memory by them, and hangs if that is too small. */
async function snapshotBytes(url, expectedBytes) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Could not fetch ${url.pathname} (HTTP ${response.status}).`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.length !== expectedBytes) {
    throw new Error(`${url.pathname} has ${bytes.length} bytes, the build wrote ${expectedBytes}.`);
  }
  if (new DataView(bytes.buffer).getUint32(0, true) !== SNAPSHOT_MAGIC) {
    throw new Error(`${url.pathname} is not a Pyodide snapshot.`);
  }
  return bytes;
}


/**
 * scipy.sparse and scipy.linalg (build.py split_scipy), installed once: when a call answers
 * "missing_module" (bridge.py), or once the worker is idle after "prepare", which the page sends
 * once its first result is shown, so that a big paste or a traces or segments report need not
 * wait for it (benchmarks/RESULTS.md, "Big box pastes").
 */
class SciPySparse {
  constructor(py, url) { Object.assign(this, { py, url, installing: null, pending: false }); }

  install() {
    this.installing ??= (async () => {
      this.pending = true;
      try {
        await this.py.loadPackage(["openblas"]);  // scipy.linalg's BLAS and LAPACK, first
        await this.py.loadPackage([this.url]);
        // Imported here too: its extensions' loading takes longer than the install (benchmarks/RESULTS.md).
        this.py.runPython("import importlib; importlib.invalidate_caches(); import scipy.sparse");
      } finally {
        this.pending = false;
      }
    })();
    return this.installing;
  }

  /**
   * `call()`'s result: bridge.py's JSON answer parsed (`parse`: false keeps a result's JSON text);
   * if it names a missing scipy module: installed (`onInstall` told), called again.
   */
  async answer(call, { onInstall = null, parse = true } = {}) {
    let json = call();
    if (missingModule(json)) {
      onInstall?.();
      await this.install();
      json = call();
    }
    return bridgeResult(json, parse);
  }
}

function missingModule(json) {
  return json.startsWith('{"ok": false') && JSON.parse(json).error?.type === "missing_module";
}

/** The result of a bridge answer (JSON text): parsed, or its text (`parse` false); an error answer thrown. */
function bridgeResult(json, parse) {
  if (json.startsWith('{"ok": false')) throw new ReplyError(JSON.parse(json).error);
  if (!parse) return json.slice('{"ok": true, "result": '.length, -1);
  return JSON.parse(json).result;
}

/**
 * One item's shapes and matches, from the rows of the kind's last report (parsed once, then kept).
 * Sent as the bridge's JSON text, parsed by the page: for an item of 1,500 boxes, receiving the
 * parsed object tree (a structured clone of ~10,000 objects) took 150 ms of the page's thread,
 * JSON.parse of the same 0.3 MB a few milliseconds.
 */
function itemDetail({ kind, item }) {
  return scipySparse.answer(() => python.runItemDetail(kind, String(item)), { parse: false });
}

const SPARSE_STAGE = "loading scipy.sparse";

/** A report: its long lists sent ahead as parts (`reply.part`), the rest as the result. */
async function compute({ kind, rows, options }, reply) {
  let last = 0;
  const progress = (done, total, stage) => {
    const now = performance.now();
    if (now - last >= 100 || done >= total) {  // throttle: the page needs ~10 updates a second at most
      last = now;
      reply.progress({ done, total, stage });
    }
  };
  // Parsed here, and long lists sent in slices: parsing the JSON of a large report, or receiving
  // it as one object tree, would take the page's thread for most of a second.
  const report = await scipySparse.answer(() => python.runReport(kind, rows, JSON.stringify(options || {}), progress),
    { onInstall: () => reply.progress({ done: 0, total: 0, stage: SPARSE_STAGE }) });
  reply.progress({ done: 0, total: 0, stage: "sending the report" });
  const parts = detachLongLists(report);
  parts.forEach(({ rows: list }, part) => {
    const size = list.every((row) => typeof row === "number") ? PART_NUMBERS : PART_ROWS;
    for (let start = 0; start < list.length; start += size) reply.part(part, list.slice(start, start + size));
  });
  let methods = null;  // the report stands without its methods paragraph if that fails (a bug, shown as missing)
  try { methods = bridgeResult(python.runMethods(kind), true); } catch { methods = null; }
  return { report, parts: parts.map((part) => part.path), methods };
}

/**
 * Dropped files to rows (bridge.py run_convert). The answer is parsed in the worker: it is a few
 * small fields and one long string (the rows), which the page receives by a plain copy, where
 * parsing megabytes of JSON would block it.
 */
function convertFiles({ files, kind, exact, format, options }, reply) {
  const pairs = files.map(({ name, buffer }) => [name, new Uint8Array(buffer)]);
  const progress = (done, total, stage) => reply.progress({ done, total, stage });
  // format: "auto" or the import form's choice; options: JSON text {format: {option: text}}.
  return scipySparse.answer(() => python.runConvert(pairs, kind || "", Boolean(exact), progress, format || "auto",
    options || "{}"));
}

// A message's slice of a long list: a few milliseconds of the page's thread to receive.
const PART_ROWS = 2000;       // records (table rows)
const PART_NUMBERS = 100000;  // plain numbers (chart data)

/** Take the lists longer than PART_ROWS out of `report` (at any depth of its objects): [{path: [keys], rows}]. */
function detachLongLists(report, prefix = [], found = []) {
  for (const [key, value] of Object.entries(report)) {
    const path = [...prefix, key];
    if (Array.isArray(value) && value.length > PART_ROWS) {
      found.push({ path, rows: value });
      report[key] = [];
    } else if (value && typeof value === "object" && !Array.isArray(value)) {
      detachLongLists(value, path, found);
    }
  }
  return found;
}

/** Two rounds or groups compared, and a plan of items (web/compare.mjs): small results, parsed here. */
function compareRounds({ kind, rowsA, rowsB, options }) {
  return scipySparse.answer(() => python.runCompare(kind, rowsA, rowsB, JSON.stringify(options || {})));
}

function planItems({ kind, rows, options }) {
  return scipySparse.answer(() => python.runPlan(kind, rows, JSON.stringify(options || {})));
}

/** One item of round A or B of the kind's last comparison (web/compare.mjs's item links). */
function roundItem({ kind, round, item }) {
  return scipySparse.answer(() => python.runRoundItem(kind, String(round), String(item)));
}

/** A download of the kind's last report (web/reference_cards.mjs): {filename, type, text | base64, notes}. */
function referenceFile({ kind, what, format }) {
  return scipySparse.answer(() => python.runReferenceFile(kind, what, format || ""));
}

/**
 * scipy.sparse wanted ahead (web/app.mjs sends this once its first result is shown): installed and
 * imported once no call has come for IDLE_BEFORE_SPARSE_MS, so that the first result's own
 * follow-up calls (its item thumbnails) do not wait for it.
 */
function prepare() {
  sparseWanted = true;
  return {};
}

const HANDLERS = { compute, convert: convertFiles, item_detail: itemDetail, compare: compareRounds, plan: planItems,
  round_item: roundItem, reference_file: referenceFile, prepare };
const WHAT = { compute: "the input", convert: "the files", item_detail: "the input", compare: "both inputs", plan: "the input",
  round_item: "both inputs", reference_file: "the input", prepare: "your browser's name and version" };

const python = {};  // bridge.py's entry points, once Python is up
let scipySparse;  // scipy's second part, installed on first need
const ready = (async () => {
  const started = performance.now();
  try {
    const { runReport, result } = await start();
    post({ id: LOADING, ok: true, result, ms: performance.now() - started });
    return runReport;
  } catch (error) {
    const message = String(error && error.message ? error.message : error);
    post({ id: LOADING, ok: false, error: { type: "load", message, where: null }, ms: performance.now() - started });
    return null;
  }
})();

// One message at a time, in order: a call that waits for scipy.sparse holds the ones after it.
let queue = ready;
let sparseWanted = false;  // "prepare" came: install scipy.sparse once idle
let preload = null;        // the timer that does so
const IDLE_BEFORE_SPARSE_MS = 500;

async function handle(message) {
  if (!(await ready)) {
    post({ id: message.id, ok: false, error: { type: "load", message: "Python did not load.", where: null }, ms: 0 });
    return;
  }
  clearTimeout(preload);
  await answer(HANDLERS, message, { post, what: WHAT[message.type] ?? "the input" });
  if (sparseWanted && !scipySparse.installing) {
    preload = setTimeout(() => { queue = queue.then(() => scipySparse.install()).catch(() => {}); }, IDLE_BEFORE_SPARSE_MS);
  }
}

self.onmessage = (event) => {
  // A report sent while scipy.sparse installs waits for it (seconds: the download, its extensions
  // loaded): the page says what it waits for.
  if (scipySparse?.pending && event.data.type === "compute") {
    post({ id: event.data.id, progress: { done: 0, total: 0, stage: SPARSE_STAGE } });
  }
  queue = queue.then(() => handle(event.data)).catch(() => {});
};
