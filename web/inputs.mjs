// A tab's rows and options: held out of the paste box when large, kept in localStorage for the
// next visit, and put back.
//
// Chromium lays out every line of a textarea's text, and walks those lines again whenever the
// page around it changes or is clicked: with a 1.4 MB paste a click on Compute took 0.3–0.9 s
// here, with 20 MB minutes. Rows over LARGE_INPUT_CHARS are therefore held by the page, not
// shown: the box gives way to a summary (size, lines, the first lines) and a Clear button, and
// everything (compute, share, download, storage) reads the rows through rowsOf().

export const LARGE_INPUT_CHARS = 1_000_000;
export const STORAGE_PREFIX = "agreekit.input.v1.";
// Browsers keep about 5 million characters of localStorage per origin, for all the tabs together
// (Chromium: 5,242,880): a larger input is not even tried, since serializing tens of MB for
// nothing would hold up the page.
const STORAGE_MAX_CHARS = 5_000_000;
const PREVIEW_LINES = 3;

const held = new WeakMap();  // form -> rows held out of its textarea

/** The rows of a tab's form, shown or held. */
export function rowsOf(form) {
  return held.get(form) ?? form.elements.rows.value;
}

export function isHeld(form) {
  return held.has(form);
}

/** Put rows into a tab's form: into the paste box, or held with a summary when over LARGE_INPUT_CHARS. */
export function setRows(form, text) {
  const area = form.elements.rows;
  const box = form.querySelector(".held");
  if (text.length <= LARGE_INPUT_CHARS) {
    held.delete(form);
    area.value = text;
    area.hidden = false;
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  held.set(form, text);
  area.value = "";  // before the next frame: the large text is never laid out
  area.hidden = true;
  const lines = countLines(text);
  const summary = document.createElement("p");
  summary.textContent = `Input held by the page, not shown: ${(text.length / 1e6).toFixed(1)} million characters, ` +
    `${lines.toLocaleString("en-US")} lines (a box of text this large slows the browser down). ` +
    "It is computed, shared, saved and downloaded as it is. It begins:";
  const preview = document.createElement("pre");
  preview.textContent = firstLines(text, PREVIEW_LINES);
  const clear = document.createElement("button");
  clear.type = "button";
  clear.textContent = "Clear the input";
  clear.addEventListener("click", () => {
    setRows(form, "");
    area.focus();
    area.dispatchEvent(new Event("input", { bubbles: true }));  // saved, as an edit would be
  });
  box.replaceChildren(summary, preview, clear);
  box.dataset.chars = String(text.length);
  box.hidden = false;
}

/**
 * Hold large text as it arrives in the paste box: a paste is taken before the browser inserts it,
 * any other way in (a script, a drop into the text) on its input event, before the next frame.
 */
export function holdLargeRows(form) {
  const area = form.elements.rows;
  area.addEventListener("paste", (event) => {
    const pasted = event.clipboardData?.getData("text/plain") ?? "";
    if (area.value.length + pasted.length <= LARGE_INPUT_CHARS) return;  // the browser pastes as usual
    event.preventDefault();
    setRows(form, area.value.slice(0, area.selectionStart) + pasted + area.value.slice(area.selectionEnd));
    area.dispatchEvent(new Event("input", { bubbles: true }));  // as the paste would have
  });
  area.addEventListener("input", () => { if (area.value.length > LARGE_INPUT_CHARS) setRows(form, area.value); });
}

/** Line `number` (1-based) of the text, at most `limit` characters. */
export function lineOf(text, number, limit = 200) {
  let start = 0;
  for (let k = 1; k < number; k++) {
    const next = text.indexOf("\n", start);
    if (next === -1) return "";
    start = next + 1;
  }
  const end = text.indexOf("\n", start);
  const line = text.slice(start, end === -1 ? undefined : end).replace(/\r$/, "");
  return line.length > limit ? `${line.slice(0, limit)}…` : line;
}

/** The first n lines of the text (at most 2,000 characters). */
function firstLines(text, n) {
  let end = -1;
  for (let k = 0; k < n; k++) {
    end = text.indexOf("\n", end + 1);
    if (end === -1) return text.slice(0, 2000);
  }
  return text.slice(0, Math.min(end, 2000));
}

/** Lines as the core counts them: line breaks, plus a last line without one. */
function countLines(text) {
  let breaks = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) breaks++;
  return breaks + (text.endsWith("\n") ? 0 : 1);
}

// ------------------------------------------------------------------ kept for the next visit

function fieldsOf(form) {
  const fields = {};
  for (const field of form.querySelectorAll(".options [name]")) fields[field.name] = field.value;
  return fields;
}

/**
 * Keep the tab's input for the next visit. An input the browser cannot keep leaves no older one
 * behind: the entry then holds only its size (and the short option fields), and the tab says so.
 */
export function saveInputs(form) {
  const kind = form.dataset.kind;
  const fields = fieldsOf(form);
  const rows = rowsOf(form);
  const key = STORAGE_PREFIX + kind;
  const size = rows.length + Object.values(fields).reduce((n, value) => n + value.length, 0);
  try {
    if (size <= STORAGE_MAX_CHARS) {
      localStorage.setItem(key, JSON.stringify({ rows, fields }));
      showStorageNote(kind, null);
      return;
    }
  } catch (error) {
    if (!/quota/i.test(error?.name ?? "")) return;  // storage is off: nothing is kept, so nothing is stale
  }
  const short = Object.fromEntries(Object.entries(fields).filter(([, value]) => value.length <= 1000));
  try {
    localStorage.removeItem(key);
    localStorage.setItem(key, JSON.stringify({ rows: null, tooLarge: size, fields: short }));
  } catch { /* even the note does not fit: the older input is gone, which is what matters */ }
  showStorageNote(kind, "This input is too large to keep in the browser; it will not be restored after a reload.");
}

function showStorageNote(kind, text) {
  const note = document.querySelector(`#storage-${kind}`);
  note.textContent = text ?? "";
  note.hidden = !text;
}

/** Put back the input kept by saveInputs, or say that it was too large to keep. */
export function restoreInputs(form) {
  const kind = form.dataset.kind;
  let saved;
  try { saved = JSON.parse(localStorage.getItem(STORAGE_PREFIX + kind) || "null"); } catch { saved = null; }
  if (!saved || typeof saved !== "object") return;
  if (typeof saved.rows === "string") setRows(form, saved.rows);
  else if (saved.tooLarge) {
    showStorageNote(kind, `The last input in this tab (${Number(saved.tooLarge).toLocaleString("en-US")} characters) ` +
      "was too large to keep in the browser and was not restored.");
  } else return;
  for (const [name, value] of Object.entries(saved.fields || {})) {
    const field = form.querySelector(`.options [name="${CSS.escape(name)}"]`);
    if (field && typeof value === "string") field.value = value;
  }
}
