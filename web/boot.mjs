// Starts the Python worker as soon as the page's first script runs (index.html loads this module
// on its own, before app.mjs), so that Pyodide loads while the page's other modules are fetched,
// parsed and run. Messages and errors that arrive before the Engine takes the worker are kept for it.

let early = start();

function start() {
  const worker = new Worker(new URL("./worker.mjs", import.meta.url), { type: "module" });
  const held = { worker, events: [] };
  worker.onmessage = (event) => held.events.push(event);
  worker.onerror = (event) => {
    event.preventDefault?.();
    held.events.push(event);
  };
  return held;
}

/** The early worker and the events it sent so far (once; then `null`, and the Engine starts its own). */
export function takeEarlyWorker() {
  const taken = early;
  early = null;
  return taken;
}
