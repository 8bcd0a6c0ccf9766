// The worker's side of importing files: hand the dropped files to bridge.py's run_convert.
//
// In:  {id, type: "convert", files: [{name, buffer}], kind, exact}   the buffers are transferred
// Out: {id, type: "progress", done: 0, total: 0, stage}               each step of the conversion
//      {id, type: "converted", outcome, ms}                           run_convert's answer, parsed here
//
// The answer is parsed in the worker: it is a few small fields and one long string (the rows),
// which the page receives by a plain copy, where parsing megabytes of JSON would block it.

/**
 * The one line a failed bridge call shows: a Python exception's message is its whole traceback,
 * so only its last line ("Type: message") is kept. `what`: what to send with a report of it.
 */
export function internalMessage(error, what) {
  const text = String(error && error.message ? error.message : error).trim().split("\n").pop();
  return `internal error: ${text} — please report it, with ${what}`;
}

/**
 * Convert ``message.files`` with ``runConvert`` (bridge.py) and post the answer; ``answer(call)``
 * is the worker's way of running a bridge call (it may install a missing scipy part and call again).
 */
export async function convertFiles(runConvert, { id, files, kind, exact }, post, answer = (call) => call()) {
  const started = performance.now();
  let outcome;
  try {
    const pairs = files.map(({ name, buffer }) => [name, new Uint8Array(buffer)]);
    const progress = (done, total, stage) => post({ id, type: "progress", done, total, stage });
    outcome = JSON.parse(await answer(() => runConvert(pairs, kind || "", Boolean(exact), progress)));
  } catch (error) {
    // Outside the bridge's own handling (the call itself failed): one line, like a report's bug.
    const message = internalMessage(error, "the files");
    outcome = { ok: false, error: { type: "internal", message } };
  }
  post({ id, type: "converted", outcome, ms: performance.now() - started });
}
