// The page's handle on the Python worker: start it, watch loading with a timeout, send requests
// by id (protocol.mjs; web/worker.mjs lists them), relay progress, and cancel by terminating and
// restarting the worker.

import { takeEarlyWorker } from "./boot.mjs";
import { Requests, ReplyError } from "./protocol.mjs";

const LOADING = 0;  // the id of the worker's own loading (worker.mjs)
const NOT_LOADED = { type: "load", message: "Python is not loaded; press Retry above.", where: null };

export class Engine {
  constructor({ timeoutMs, onStatus, onReady, onFatal }) {
    Object.assign(this, { timeoutMs, onStatus, onReady, onFatal });
    this.start();
  }

  start() {
    this.ready = false;
    this.failed = false;
    this.stage = "starting the worker";
    const early = takeEarlyWorker();  // the first start: the worker boot.mjs started with the page
    this.worker = early?.worker ?? new Worker(new URL("./worker.mjs", import.meta.url), { type: "module" });
    const worker = this.worker;
    this.requests = new Requests((message, transfer) => worker.postMessage(message, transfer));
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => this.workerError(event);
    this.armTimeout();
    // Replayed once the caller's script has run (a microtask): its handlers may not exist yet.
    // Later messages come as tasks, so they follow these.
    queueMicrotask(() => {
      for (const event of early?.events ?? []) {
        if (event.type === "message") this.receive(event.data);
        else this.workerError(event);
      }
    });
  }

  workerError(event) {
    event.preventDefault?.();
    this.fail("The Python worker could not start" + (event.message ? `: ${event.message}` : "") +
      ". If the page is opened from a file, serve the folder instead (python build.py serve); " +
      "a server must send .mjs files with a JavaScript MIME type.");
  }

  armTimeout() {
    clearTimeout(this.timer);
    // The clock restarts at every loading step, so a slow network is not mistaken for a hang.
    this.timer = setTimeout(() => {
      this.fail(`Python did not finish loading within ${Math.round(this.timeoutMs / 1000)} s ` +
        `(stuck at: ${this.stage}). A server that sends .wasm files without the MIME type ` +
        `"application/wasm" makes the loader hang like this; "python build.py serve" sends the right types.`);
    }, this.timeoutMs);
  }

  fail(message) {
    if (this.failed) return;
    clearTimeout(this.timer);
    this.failed = true;
    this.worker.terminate();
    this.requests.failAll({ type: "load", message, where: null });
    this.onFatal(message);
  }

  receive(message) {
    if (message.id !== LOADING) {
      this.requests.receive(message);
    } else if ("progress" in message) {
      this.stage = message.progress.message;
      if (!this.ready) this.armTimeout();
      this.onStatus(message.progress.message);
    } else if (message.ok) {
      clearTimeout(this.timer);
      this.ready = true;
      Object.assign(this, message.result);  // versions, timings
      this.onReady(message.result.versions, message.result.timings);
    } else {
      this.fail(message.error.message);
    }
  }

  /** Send a request of `type` (fields, buffers to transfer, progress callback): the Promise of its answer. */
  request(type, fields, options) {
    if (this.failed) return Promise.reject(new ReplyError(NOT_LOADED));
    return this.requests.request(type, fields, options);
  }

  /** Install what a later report may need (scipy.sparse) once the worker is idle: web/worker.mjs "prepare". */
  prepare() {
    return this.request("prepare", {});
  }

  /** A report: `{report, ms, methods}` (its long lists, sent in slices, put back in place; its methods paragraph or null). */
  async compute(kind, rows, options, onProgress) {
    const progress = onProgress && (({ done, total, stage }) => onProgress(done, total, stage));
    const { result, parts, ms } = await this.request("compute", { kind, rows, options }, { onProgress: progress });
    return { report: attachParts(result.report, result.parts, parts), ms, methods: result.methods ?? null };
  }

  /**
   * Convert files ([{name, buffer}]) in the worker (bridge.py run_convert's result); the buffers are transferred,
   * not copied. `settings` is the import form's: `{format: "auto" or a format's name, options: {format: {name: text}}}`.
   */
  async convert(files, kind, exact, onProgress, settings = {}) {
    const progress = onProgress && (({ done, total, stage }) => onProgress(done, total, stage));
    const request = { files, kind, exact, format: settings.format ?? "auto", options: JSON.stringify(settings.options ?? {}) };
    const { result } = await this.request("convert", request,
      { onProgress: progress, transfer: files.map((file) => file.buffer) });
    return result;
  }

  /** One item of the kind's last report: every annotator's shapes and the matches (bridge.py run_item_detail). */
  async itemDetail(kind, item) {
    const { result } = await this.request("item_detail", { kind, item });
    return JSON.parse(result);  // sent as JSON text: parsing it here is cheaper than receiving the object tree
  }

  /**
   * A download of the kind's last report (bridge.py run_reference_file): `what` "consensus" (in `format`, the
   * format its rows were imported from, when agreekit writes it) or "adjudication"; {filename, type, text | base64, notes}.
   */
  async referenceFile(kind, what, format = "") {
    const { result } = await this.request("reference_file", { kind, what, format });
    return result;
  }

  /** Stop whatever runs: terminate the worker and start a fresh one. */
  cancel() {
    clearTimeout(this.timer);
    this.worker.terminate();
    this.requests.failAll({ type: "cancelled", message: "cancelled", where: null });
    this.start();
    this.onStatus("Cancelled. Restarting Python…");
  }

  restart() {
    this.worker.terminate();
    this.start();
  }
}

/** The report with each long list the worker sent in slices (parts[k]) put back at its key path (paths[k]). */
function attachParts(report, paths, parts) {
  paths.forEach((path, k) => {
    const parent = path.slice(0, -1).reduce((object, key) => object[key], report);
    parent[path.at(-1)] = parts[k] ?? [];
  });
  return report;
}
