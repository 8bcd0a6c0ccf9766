// The page's handle on the Python worker: start it, watch loading with a timeout, send reports
// by id, relay progress, and cancel by terminating and restarting the worker.

import { takeEarlyWorker } from "./boot.mjs";

export class Engine {
  constructor({ timeoutMs, onStatus, onReady, onFatal }) {
    Object.assign(this, { timeoutMs, onStatus, onReady, onFatal });
    this.nextId = 1;
    this.start();
  }

  start() {
    this.ready = false;
    this.failed = false;
    this.pending = new Map();  // id -> {resolve, reject, onProgress, parts: the long lists' rows so far}
    this.stage = "starting the worker";
    const early = takeEarlyWorker();  // the first start: the worker boot.mjs started with the page
    this.worker = early?.worker ?? new Worker(new URL("./worker.mjs", import.meta.url), { type: "module" });
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
    for (const { reject } of this.pending.values()) reject(Object.assign(new Error(message), { data: { type: "load", message } }));
    this.pending.clear();
    this.onFatal(message);
  }

  receive(message) {
    if (message.type === "status") {
      this.stage = message.message;
      if (!this.ready) this.armTimeout();
      this.onStatus(message.message);
    } else if (message.type === "ready") {
      clearTimeout(this.timer);
      this.ready = true;
      this.versions = message.versions;
      this.timings = message.timings;
      this.onReady(message.versions, message.timings);
    } else if (message.type === "fatal") {
      this.fail(message.message);
    } else {
      const job = this.pending.get(message.id);
      if (!job) return;
      if (message.type === "progress") job.onProgress?.(message.done, message.total, message.stage);
      else if (message.type === "part") {
        const rows = (job.parts[message.part] ??= []);
        for (const row of message.rows) rows.push(row);
      } else if (message.type === "outcome") {
        this.pending.delete(message.id);
        const { outcome } = message;
        if (outcome.ok) job.resolve({ report: attachParts(outcome.report, message.parts, job.parts), ms: message.ms });
        else job.reject(Object.assign(new Error(outcome.error.message), { data: outcome.error }));
      }
      else if (message.type === "detail") {
        this.pending.delete(message.id);
        const outcome = JSON.parse(message.json);
        if (outcome.ok) job.resolve(outcome.detail);
        else job.reject(Object.assign(new Error(outcome.error.message), { data: outcome.error }));
      }
      else if (message.type === "converted") {
        this.pending.delete(message.id);
        job.resolve(message.outcome);  // run_convert's answer: errors are data too
      }
      else if (message.type === "error") {
        this.pending.delete(message.id);
        job.reject(Object.assign(new Error(message.error.message), { data: message.error }));
      }
    }
  }

  compute(kind, rows, options, onProgress) {
    if (this.failed) return Promise.reject(Object.assign(new Error("Python is not loaded."), { data: { message: "Python is not loaded; press Retry above." } }));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress, parts: [] });
      this.worker.postMessage({ id, type: "compute", kind, rows, options });
    });
  }

  /** Convert files ([{name, buffer}]) in the worker; the buffers are transferred, not copied. */
  convert(files, kind, exact, onProgress) {
    if (this.failed) return Promise.reject(Object.assign(new Error("Python is not loaded."), { data: { message: "Python is not loaded; press Retry above." } }));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      this.worker.postMessage({ id, type: "convert", files, kind, exact }, files.map((file) => file.buffer));
    });
  }

  /** One item of the kind's last report: every annotator's shapes and the matches (bridge.py run_item_detail). */
  itemDetail(kind, item) {
    if (this.failed) return Promise.reject(Object.assign(new Error("Python is not loaded."), { data: { message: "Python is not loaded; press Retry above." } }));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, type: "item_detail", kind, item });
    });
  }

  /** Stop whatever runs: terminate the worker and start a fresh one. */
  cancel() {
    clearTimeout(this.timer);
    this.worker.terminate();
    for (const { reject } of this.pending.values()) reject(Object.assign(new Error("cancelled"), { cancelled: true }));
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
