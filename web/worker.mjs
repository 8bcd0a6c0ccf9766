// Module Web Worker that owns Pyodide. The page never blocks: loading and every report run here.
//
// Messages in:  {id, type: "compute", kind, rows, options}
//               {id, type: "convert", files: [{name, buffer}], kind, exact}   see import_worker.mjs
//               {id, type: "item_detail", kind, item}   one item of the kind's last report (item views)
// Messages out: {type: "status", stage, message}          loading steps
//               {type: "ready", versions, timings}         agreekit importable
//               {type: "fatal", message}                   loading failed (shown by the page)
//               {id, type: "progress", done, total, stage} during a report
//               {id, type: "part", part, rows}             a slice of long list number `part` of the report, in order
//               {id, type: "outcome", outcome, parts, ms}  {"ok": true, "report": to_dict()} without its long
//                                                          lists (`parts`: the key path of each), or
//                                                          {"ok": false, "error": {type, message, line, column, value, field}}
//               {id, type: "error", error, ms}             a failure outside the bridge's own handling
//                                                          (error.message: one line, never a traceback)
//               {id, type: "converted", outcome, ms}       bridge.py's run_convert answer (parsed)
//               {id, type: "detail", json, ms}             bridge.py's run_item_detail answer (JSON text):
//                                                          {"ok": true, "detail": {...}} or {"ok": false, "error"}
//
// Messages are handled one at a time, in order. scipy comes in two parts (build.py split_scipy):
// the base at start, scipy.sparse when a call first imports it (then that call runs again) or
// once the worker has been idle after a call.

import { convertFiles, internalMessage } from "./import_worker.mjs";

const root = new URL("../", import.meta.url);
const post = (message) => self.postMessage(message);
const t0 = performance.now();
const timings = {};

function status(stage, message) {
  timings[stage] ??= Math.round(performance.now() - t0);
  post({ type: "status", stage, message });
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
  const py = await startPython(loadPyodide, new URL("pyodide/", root).href, snapshot);
  status("packages", "Loading numpy, scipy and agreekit…");
  // One call, so the downloads run in parallel. Our wheel by URL: 0.14 s against 0.78 s for
  // micropip (measured); numpy and scipy come in the same call, so nothing needs resolving.
  // Each package message restarts the page's loading clock (a slow network is not a hang).
  // scipy's base only: its sparse part waits until a report imports it (build.py split_scipy).
  const packageMessages = { messageCallback: (message) => status("packages", message) };
  // numpy by URL when the build compiled its modules (build.py pyodide_extras), else Pyodide's own.
  const numpyPackage = numpy ? new URL(numpy, root).href : "numpy";
  await py.loadPackage([numpyPackage, new URL(scipy.base, root).href, new URL(wheel, root).href], packageMessages);
  scipySparse = new SciPySparse(py, new URL(scipy.sparse, root).href);
  status("import", "Starting agreekit (importing numpy and scipy)…");
  const namespace = py.globals.get("dict")();
  py.runPython(await bridge, { globals: namespace });  // imports no scipy.sparse (tests/test_lazy_scipy.py)
  const runReport = namespace.get("run_report");
  runConvert = namespace.get("run_convert");
  runItemDetail = namespace.get("run_item_detail");
  const versions = JSON.parse(py.runPython(
    "import json, sys, numpy, scipy, agreekit\n" +
    "json.dumps({'python': sys.version.split()[0], 'numpy': numpy.__version__, " +
    "'scipy': scipy.__version__, 'agreekit': agreekit.__version__, 'kinds': list(agreekit.KINDS)})"));
  status("ready", "Ready");
  post({ type: "ready", versions, timings });
  return runReport;
}

/**
 * Python, restored from the build's memory snapshot (build.py pyodide_extras: an interpreter with
 * the standard-library modules start-up imports), or started as usual when the build has none or
 * the restore fails (`timings.snapshot` says which, and why).
 */
async function startPython(loadPyodide, indexURL, snapshot) {
  if (snapshot) {
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
    timings.snapshot = "none in this build";
  }
  return loadPyodide({ indexURL });
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

let runConvert;  // bridge.py's run_convert, once Python is up
let runItemDetail;  // bridge.py's run_item_detail
let scipySparse;  // scipy's second part, installed on first need

/**
 * scipy.sparse and scipy.linalg (build.py split_scipy), installed once: when a call answers
 * "missing_module" (bridge.py), or once the worker has been idle a while after its first report,
 * so that a later traces or segments report need not wait for it.
 */
class SciPySparse {
  constructor(py, url) { Object.assign(this, { py, url, installing: null }); }

  install() {
    this.installing ??= (async () => {
      await this.py.loadPackage(["openblas"]);  // scipy.linalg's BLAS and LAPACK, first
      await this.py.loadPackage([this.url]);
      this.py.runPython("import importlib; importlib.invalidate_caches()");
    })();
    return this.installing;
  }

  /** `call()`'s JSON answer; if it names a missing scipy module: installed (`onInstall` told), called again. */
  async answer(call, onInstall) {
    const first = call();
    if (!missingModule(first)) return first;
    onInstall?.();
    await this.install();
    return call();
  }
}

function missingModule(json) {
  return json.startsWith('{"ok": false') && JSON.parse(json).error?.type === "missing_module";
}

/** One item's shapes and matches, from the rows of the kind's last report (parsed once, then kept). */
async function itemDetail({ id, kind, item }) {
  const started = performance.now();
  // Sent as the bridge's JSON text, parsed by the page: for an item of 1,500 boxes, receiving the
  // parsed object tree (a structured clone of ~10,000 objects) took 150 ms of the page's thread,
  // JSON.parse of the same 0.3 MB a few milliseconds.
  let json;
  try {
    json = await scipySparse.answer(() => runItemDetail(kind, String(item)));
  } catch (error) {
    json = JSON.stringify({ ok: false, error: { type: "internal", message: internalMessage(error, "the input") } });
  }
  post({ id, type: "detail", json, ms: performance.now() - started });
}
const ready = start().catch((error) => {
  post({ type: "fatal", message: String(error && error.message ? error.message : error) });
  return null;
});

async function compute(runReport, { id, kind, rows, options }) {
  const started = performance.now();
  let last = 0;
  const progress = (done, total, stage) => {
    const now = performance.now();
    if (now - last >= 100 || done >= total) {  // throttle: the page needs ~10 updates a second at most
      last = now;
      post({ id, type: "progress", done, total, stage });
    }
  };
  let json;
  try {
    json = await scipySparse.answer(() => runReport(kind, rows, JSON.stringify(options || {}), progress),
      () => post({ id, type: "progress", done: 0, total: 0, stage: "loading scipy.sparse" }));
  } catch (error) {
    const message = internalMessage(error, "the input");
    post({ id, type: "error", error: { type: "internal", message }, ms: performance.now() - started });
    return;
  }
  // Parsed here, and long lists sent in slices: parsing the JSON of a large report, or receiving
  // it as one object tree, would take the page's thread for most of a second.
  post({ id, type: "progress", done: 0, total: 0, stage: "sending the report" });
  const outcome = JSON.parse(json);
  const parts = outcome.ok ? detachLongLists(outcome.report) : [];
  parts.forEach(({ rows }, part) => {
    const size = rows.every((row) => typeof row === "number") ? PART_NUMBERS : PART_ROWS;
    for (let start = 0; start < rows.length; start += size) {
      post({ id, type: "part", part, rows: rows.slice(start, start + size) });
    }
  });
  post({ id, type: "outcome", outcome, parts: parts.map((part) => part.path), ms: performance.now() - started });
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

// One message at a time, in order: a call that waits for scipy.sparse holds the ones after it.
let queue = ready;
let preload = null;  // the timer that installs scipy.sparse once the worker is idle after a report
const IDLE_BEFORE_SPARSE_MS = 3000;

async function handle(message) {
  const runReport = await ready;
  if (!runReport) {
    post({ id: message.id, type: "error", error: { type: "internal", message: "Python did not load." } });
    return;
  }
  clearTimeout(preload);
  if (message.type === "compute") await compute(runReport, message);
  else if (message.type === "convert") await convertFiles(runConvert, message, post, (call) => scipySparse.answer(call));
  else if (message.type === "item_detail") await itemDetail(message);
  if (!scipySparse.installing) preload = setTimeout(() => { queue = queue.then(() => scipySparse.install()).catch(() => {}); }, IDLE_BEFORE_SPARSE_MS);
}

self.onmessage = (event) => {
  queue = queue.then(() => handle(event.data)).catch(() => {});
};
