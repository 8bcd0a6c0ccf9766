// The one protocol between the page and its workers (the Python worker, worker.mjs; the mask
// drawing worker, web/kinds/masks/worker.mjs). docs/architecture.md, "Worker protocol".
//
// Request:  {id, type, ...fields}
// Replies:  {id, progress}                                  any number, before the answer
//           {id, part, rows}                                a slice of long list number `part` of the result, in order
//           {id, ok: true, result, ms}                      the answer
//           {id, ok: false, error: {type, message, where}, ms}
//
// `error.message` is one line, never a traceback; `error.type` is "input" (the user's input: `where`
// says where, {line, column, value, field}), "kind" (a choice the user must make), "load" (Python
// did not load), "cancelled" or "internal" (a bug: please report it). A worker's own loading is
// request 0: its progress while it loads, then its answer (ok: what it loaded; else why not).

/** An error reply's error as an exception: `data` carries {type, message, where, …}. */
export class ReplyError extends Error {
  constructor(error) {
    super(error.message);
    this.data = error;
    this.cancelled = error.type === "cancelled";
  }
}

/**
 * The one line a failed call shows: a Python exception's message is its whole traceback, so only
 * its last line ("Type: message") is kept. `what`: what to send with a report of it.
 */
export function internalMessage(error, what) {
  const text = String(error && error.message ? error.message : error).trim().split("\n").pop();
  return `internal error: ${text} — please report it, with ${what}`;
}

/**
 * The worker's side: `handlers[type](request, reply)` answers a request (its return value is the
 * result); `reply.progress(p)` and `reply.part(k, rows)` send on the way; `reply.transfer(list)`
 * transfers buffers of the result. A handler's ReplyError is sent as it is; any other exception
 * as an internal error (`what`: what to send with a report of it).
 */
export async function answer(handlers, request, { post = (message, transfer) => self.postMessage(message, transfer), what = "the input" } = {}) {
  const { id, type } = request;
  const started = performance.now();
  let transfer = [];
  const reply = {
    progress: (progress) => post({ id, progress }),
    part: (part, rows) => post({ id, part, rows }),
    transfer: (list) => { transfer = list; },
  };
  try {
    const handler = handlers[type];
    if (!handler) throw new ReplyError({ type: "internal", message: `internal error: no request type "${type}" — please report it`, where: null });
    const result = await handler(request, reply);
    post({ id, ok: true, result, ms: performance.now() - started }, transfer);
  } catch (error) {
    const data = error instanceof ReplyError ? error.data : { type: "internal", message: internalMessage(error, what), where: null };
    post({ id, ok: false, error: data, ms: performance.now() - started });
  }
}

/**
 * The page's side: requests by id, each a Promise of its result (rejected with a ReplyError).
 * `receive(message)` takes the worker's replies; `onProgress(progress)` of a request gets its progress.
 */
export class Requests {
  constructor(post) {
    this.post = post;
    this.nextId = 1;
    this.pending = new Map();  // id -> {resolve, reject, onProgress, parts: the long lists' rows so far}
  }

  /** Send {id, type, ...fields}; the Promise of its result (`transfer`: buffers to transfer). */
  request(type, fields = {}, { onProgress = null, transfer = [] } = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress, parts: [] });
      this.post({ id, type, ...fields }, transfer);
    });
  }

  /** A reply of the worker; false if it answers no pending request. */
  receive(message) {
    const job = this.pending.get(message.id);
    if (!job) return false;
    if ("progress" in message) job.onProgress?.(message.progress);
    else if ("part" in message) {
      const rows = (job.parts[message.part] ??= []);
      for (const row of message.rows) rows.push(row);
    } else {
      this.pending.delete(message.id);
      if (message.ok) job.resolve({ result: message.result, parts: job.parts, ms: message.ms });
      else job.reject(new ReplyError(message.error));
    }
    return true;
  }

  /** Reject every pending request with `error` ({type, message}). */
  failAll(error) {
    for (const { reject } of this.pending.values()) reject(new ReplyError(error));
    this.pending.clear();
  }

  get size() { return this.pending.size; }
}
