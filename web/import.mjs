// Files in: dropped or chosen files (one or several, a zip, a folder) become the rows of a tab.
//
// One .csv/.tsv/.txt/.tab file is read into the paste box at once, as before, and then shown to
// the worker: if a tool's format claims it (an Audacity label track is a .txt) it is converted
// like any export. Everything else goes to the worker (web/worker.mjs, then bridge.py's
// run_convert): the format is detected and the rows of one kind come back as CSV; the page
// switches to that kind's tab, fills the paste box (and the span texts), shows what was read,
// left out and assumed above the box, and computes. The files never leave the tab: they are
// read here and transferred to the worker.
//
// Each tab's import options (written by build.py from the formats' declared options: a format
// select and a fieldset of options per format, web/forms.py import_options) go with the files;
// the format and options a conversion was read with travel in the tab's share link, and a link
// that carries them sets the import options back (restore), so the same files convert the same way.
//
// Safety rule (as in app.mjs): file names, labels and messages are user data; they reach the
// DOM through textContent only.

import { droppedFiles } from "./dropped.mjs";

const PLAIN_TABLE = /\.(csv|tsv|txt|tab)$/i;  // bridge.py reads such a file as rows when no format claims it
const SOURCES_SHOWN = 3;
// Laying out a textarea costs about a microsecond per character, in one main-thread task: longer
// conversions go into the box folded away (computing, sharing and downloading read it all the same).
const FOLD_CHARS = 400_000;
const COUNTS = [["n_items", "item"], ["n_annotators", "annotator"], ["n_annotations", "annotation"],
  ["n_saw_nothing", "saw-nothing row"]];

const $ = (selector, root = document) => root.querySelector(selector);
const plural = (n, word) => `${n.toLocaleString()} ${word}${n === 1 ? "" : "s"}`;

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text != null) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** A file's name, an entry of a dropped folder, or a chosen folder's file: ``{name, file}``. */
const named = (file, name = file.webkitRelativePath || file.name) => ({ name, file });
const hidden = ({ name }) => name.split("/").pop().startsWith(".");  // .DS_Store and the like, as a folder is read

/**
 * The importer of the page's forms. ``engine`` converts (engine.convert); the other hooks are
 * app.mjs's: select a tab, save a tab's input, compute it, and read a plain table into its box.
 */
export function createImporter({ engine, forms, selectTab, saveInputs, compute, readPlain, setRows, rowsOf, isHeld,
  inputChanged, failed, version, unchanged, cancelled }) {
  const imported = new Map();  // kind -> {title, format, options}: the import that filled its box
  const progress = { box: $("#progress"), bar: $("#progress-bar"), text: $("#progress-text") };
  const boxOf = (kind) => $(`#import-${kind}`);

  function hide(box) {
    box.replaceChildren();
    box.hidden = true;
    delete box.dataset.state;
  }

  /** Forget ``kind``'s import: its rows are being replaced (a table, an example, a share link). */
  function clear(kind) {
    imported.delete(kind);
    const form = forms[kind];
    if (form.elements.rows.hidden || isHeld(form)) setRows(form, "");  // emptied first: a folded box is long
    hide(boxOf(kind));
  }

  function message(kind, state, text) {
    const box = boxOf(kind);
    box.replaceChildren(element("p", text));
    box.dataset.state = state;
    box.hidden = false;
    return box;
  }

  /** Hide a failed import's message (a summary stays: it still describes the tab's rows). */
  function hideMessage(kind) {
    const box = boxOf(kind);
    if (box.dataset.state === "error" || box.dataset.state === "cancelled") hide(box);
  }

  function showProgress(what, stage) {
    progress.box.dataset.state = "on";  // shown by visibility (style.css), as app.mjs does
    progress.bar.removeAttribute("value");
    progress.text.textContent = `Importing ${what}` + (stage ? ` (${stage})` : "") + "…";
  }

  const optionsBox = (kind) => $(`#import-options-${kind}`);

  /** ``kind``'s import form: ``{format, options: {format: {name: text}}}``, fields left blank or at their default out. */
  function settingsOf(kind) {
    const box = optionsBox(kind);
    if (!box) return { format: "auto", options: {} };
    const options = {};
    for (const set of box.querySelectorAll("fieldset[data-format]")) {
      const given = {};
      for (const field of set.querySelectorAll("[name]")) {
        const standard = field.tagName === "SELECT" ? field.selectedOptions[0]?.defaultSelected : field.value === field.defaultValue;
        if (!standard && field.value.trim() !== "") given[field.name] = field.value;
      }
      if (Object.keys(given).length) options[set.dataset.format] = given;
    }
    return { format: box.querySelector('[name="import-format"]').value, options };
  }

  /** Show the option fieldsets of the chosen format (every one while the format is detected). */
  function showFormat(kind) {
    const box = optionsBox(kind);
    const format = box.querySelector('[name="import-format"]').value;
    for (const set of box.querySelectorAll("fieldset[data-format]")) set.hidden = format !== "auto" && set.dataset.format !== format;
  }

  /** The worker's answer for ``files`` (read here, transferred there). */
  async function send(files, kind, exact, quiet, formKind = kind, question = null) {
    const what = files.length === 1 ? files[0].name : `${files.length} files`;
    if (!quiet) showProgress(what, engine.ready ? "reading the files" : "waiting for Python to load");
    try {
      const buffers = await Promise.all(files.map(async ({ name, file }) => ({ name, buffer: await file.arrayBuffer() })));
      const settings = settingsOf(formKind);
      if (question) {  // a question button: that format's option question, beside the form's other options
        settings.options[question.format] = { ...settings.options[question.format], question: question.name };
      }
      return { ok: true, ...await engine.convert(buffers, kind, exact, quiet ? null : (done, total, stage) => showProgress(what, stage), settings) };
    } catch (error) {
      // The worker's answer that the files cannot be read (or hold several kinds) is shown like a result.
      if (!error.data || error.cancelled || error.data.type === "load") throw error;
      return { ok: false, error: error.data, kinds: error.data.kinds ?? [] };
    } finally {
      if (!quiet) progress.box.dataset.state = "off";
    }
  }

  /** Import ``files`` dropped on ``kind``'s tab; ``chosen`` is a kind the user picked from the offered ones,
   *  ``question`` ({format, name}) a question picked from those the files answer. */
  async function importFiles(kind, files, chosen = null, kinds = [], question = null) {
    if (!files.length) return;
    const form = forms[kind];
    const detected = settingsOf(kind).format === "auto";
    if (!chosen && detected && files.length === 1 && PLAIN_TABLE.test(files[0].name)) {
      clear(kind);
      await readPlain(kind, files[0].file);  // at once, even before Python has loaded
      const written = rowsOf(form);
      let outcome;
      try { outcome = await send(files, kind, false, true); } catch { return; }  // the table stays
      if (outcome.plain || rowsOf(form) !== written) return;  // no format claims it, or edited since
      await show(kind, files, outcome, kinds);
      return;
    }
    const box = boxOf(kind);
    box.dataset.busy = "true";
    const before = version(kind);
    inputChanged(kind, "computing");  // the tab's report is not the files' from now on
    let outcome;
    try {
      outcome = await send(files, chosen || kind, Boolean(chosen), false, kind, question);
    } catch (error) {
      const text = error.cancelled ? "Import cancelled." : (error.data?.message ?? String(error.message || error));
      message(kind, error.cancelled ? "cancelled" : "error", text);
      if (error.cancelled) cancelled(kind);
      else failed(kind, text);
      return;
    } finally {
      delete box.dataset.busy;
    }
    await show(kind, files, outcome, outcome.kinds?.length ? outcome.kinds : kinds, before);
  }

  function kindButtons(kind, files, kinds, current) {
    return kinds.filter((k) => k.kind !== current).map((k) => {
      const button = element("button", `Read ${k.kind} (${plural(k.n_annotations, "annotation")})`);
      button.type = "button";
      button.dataset.importKind = k.kind;
      button.addEventListener("click", () => importFiles(kind, files, k.kind, kinds));
      return button;
    });
  }

  /** One button per question the files answer: each reads that question's answers as ``answersKind``. */
  function questionButtons(kind, files, questions, answersKind, format, kinds) {
    return questions.map(({ question, n_answers }) => {
      const button = element("button", `Read “${question}” (${plural(n_answers, "answer")})`);
      button.type = "button";
      button.dataset.importQuestion = question;
      button.addEventListener("click", () => importFiles(kind, files, answersKind, kinds, { format, name: question }));
      return button;
    });
  }

  async function show(kind, files, outcome, kinds, before = null) {
    if (!outcome.ok) {
      const box = message(kind, "error", outcome.error.message);
      if (outcome.error.type === "question") {
        box.append(choices("Each question is one agreement study: choose the one to read. ",
          questionButtons(kind, files, outcome.error.questions ?? [], outcome.error.kind,
          outcome.error.format, kinds)));
      }
      const asked = outcome.error.type === "question" ? outcome.error.kind : null;  // its questions are the choice
      if (kinds.length) box.append(choices("", kindButtons(kind, files, kinds, asked)));
      failed(kind, outcome.error.message);
      return;
    }
    const target = outcome.kind;
    if (target !== kind) {
      hideMessage(kind);
      if (before !== null) unchanged(kind, before);
    }
    inputChanged(target, "computing");
    const form = forms[target];
    selectTab(target);
    const area = form.elements.rows;
    setRows(form, outcome.rows_csv);  // over LARGE_INPUT_CHARS held by the page (inputs.mjs)
    // Folded: hidden in this same task, before any layout (a hidden textarea is not laid out).
    const fold = !isHeld(form) && outcome.rows_csv.length > FOLD_CHARS;
    if (fold) area.hidden = true;
    // Every table option of the kind (span texts, clip durations): an earlier corpus's tables never stay.
    for (const [name, text] of Object.entries(outcome.option_tables ?? {})) {
      const field = form.querySelector(`.options [name="${CSS.escape(name)}"]`);
      if (field) field.value = text ?? "";
    }
    saveInputs(target);
    imported.set(target, { title: outcome.format_title, format: outcome.format, options: outcome.format_options ?? {} });
    renderSummary(boxOf(target), outcome, kinds, kindButtons(kind, files, kinds, target), fold ? area : null);
    await compute(target);
  }

  function renderSummary(box, outcome, kinds, buttons, folded) {
    const summary = outcome.summary;
    const head = element("p");
    head.append(element("strong", `Imported ${outcome.format_title}`), ` from ${sourcesText(summary.sources)}: `);
    COUNTS.forEach(([key, word], index) => {
      const count = element("span", summary[key].toLocaleString());
      count.dataset.count = key;
      head.append(index ? (index === COUNTS.length - 1 ? " and " : ", ") : "", count,
        ` ${word}${summary[key] === 1 ? "" : "s"}`);
    });
    head.append(".");
    box.replaceChildren(head);
    if (kinds.length > 1) {
      const held = kinds.map((k) => `${k.kind} (${plural(k.n_annotations, "annotation")})`).join(", ");
      const why = outcome.kinds?.length ? ", the kind of the open tab" : ", as chosen";
      box.append(choices(`The files hold more than one kind: ${held}. Read as ${outcome.kind}${why}. `, buttons));
    }
    if (summary.n_skipped) {
      box.append(element("p", `Left out ${plural(summary.n_skipped, "annotation")}:`),
        list(Object.entries(summary.skipped).map(([reason, n]) => `${n.toLocaleString()} × ${reason}`), "import-skipped"));
    }
    if (summary.warnings.length) box.append(element("p", "Warnings:"), list(summary.warnings, "import-warnings"));
    if (summary.also_holds?.length) box.append(element("p", "Also in the files:"), list(summary.also_holds, "import-also"));
    const given = Object.entries(outcome.format_options ?? {});
    if (given.length) box.append(element("p", `Read with the options ${optionsText(given)}.`, "import-options-used"));
    box.append(element("p", "The box below holds the converted rows: edit them freely; a share link carries " +
      "them, not your files.", "muted"));
    if (folded) box.append(unfoldNote(folded, summary));
    box.dataset.state = "done";
    box.dataset.format = outcome.format;
    box.hidden = false;
  }

  function unfoldNote(area, summary) {
    const lines = summary.n_annotations + summary.n_saw_nothing;
    const p = element("p", `The ${lines.toLocaleString()} rows (${(area.value.length / 1e6).toFixed(1)} MB) are in the ` +
      "box, folded away: showing that much text keeps the page busy for a while. ", "folded");
    const show = element("button", "Show the rows");
    show.type = "button";
    show.addEventListener("click", () => { area.hidden = false; p.remove(); });
    p.append(show);
    return p;
  }

  function optionsText(entries) {
    return entries.map(([name, value]) => `${name} = ${Array.isArray(value) ? value.join(", ") : typeof value === "object" ? JSON.stringify(value) : value}`).join("; ");
  }

  function choices(text, buttons) {
    const p = element("p", text, "kinds");
    p.append(...buttons);
    return p;
  }

  function list(lines, className) {
    const ul = element("ul", null, className);
    for (const line of lines) ul.append(element("li", line));
    return ul;
  }

  function sourcesText(sources) {
    const shown = sources.slice(0, SOURCES_SHOWN).join(", ");
    return sources.length <= SOURCES_SHOWN ? shown : `${sources.length} files (${shown}, …)`;
  }

  /** A file input's files (a chosen folder's files named by their paths), then the input cleared for the next choice. */
  function open(kind, input) {
    const files = [...input.files].map((file) => named(file)).filter((file) => !hidden(file));
    input.value = "";
    return importFiles(kind, files);
  }

  /** A drop's files and folders; the entries must be taken while the drop event runs. */
  function drop(kind, dataTransfer) {
    return droppedFiles(dataTransfer).then((records) =>
      importFiles(kind, records.map(({ path, file }) => named(file, path)).filter((file) => !hidden(file))));
  }

  /** The sentence a share link of ``kind``'s tab shows beside it, if the box holds imported rows. */
  function shareNote(kind) {
    const title = imported.get(kind)?.title;
    return title ? `This link carries the rows converted from your ${title} files, as they stand in the box, and ` +
      "the format and options they were read with; the files themselves stay on your computer." : null;
  }

  /** ``{format, options}`` of the import that filled ``kind``'s box (for its share link), unless the rows were edited since. */
  function shareImport(kind) {
    const record = imported.get(kind);
    const state = boxOf(kind).dataset.state;
    return record && (state === "done" || state === "shared") ? { format: record.format, options: record.options } : null;
  }

  /**
   * A share link's import record: set ``kind``'s import form to its format and options and say so above the
   * box. Returns the option names the form has no field for (the form is left as it was when the format is unknown).
   */
  function restore(kind, record) {
    const box = optionsBox(kind);
    const select = box?.querySelector('[name="import-format"]');
    if (!record || !select) return [];
    const option = [...select.options].find((o) => o.value === record.format);
    if (!option) return [`format ${record.format}`];
    select.value = record.format;
    showFormat(kind);
    const set = box.querySelector(`fieldset[data-format="${CSS.escape(record.format)}"]`);
    const unknown = [];
    for (const field of set?.querySelectorAll("[name]") ?? []) {  // back to the defaults first
      if (field.tagName === "SELECT") field.value = [...field.options].find((o) => o.defaultSelected)?.value ?? field.value;
      else field.value = field.defaultValue;
    }
    for (const [name, value] of Object.entries(record.options)) {
      const field = set?.querySelector(`[name="${CSS.escape(name)}"]`);
      if (!field) { unknown.push(name); continue; }
      field.value = Array.isArray(value) ? value.join(", ") : typeof value === "object" ? JSON.stringify(value) : String(value);
    }
    box.open = true;
    imported.set(kind, { title: option.textContent, format: record.format, options: record.options });
    const given = Object.entries(record.options);
    message(kind, "shared", `These rows were converted from ${option.textContent} files` +
      (given.length ? ` read with the options ${optionsText(given)}` : "") + ". The import options below are set " +
      "the same way: drop your copy of the files here to convert them as the link's sender did.");
    return unknown;
  }

  for (const [kind, form] of Object.entries(forms)) {
    form.elements.folder?.addEventListener("change", (event) => open(kind, event.target));
    optionsBox(kind)?.querySelector('[name="import-format"]').addEventListener("change", () => showFormat(kind));
    form.elements.rows.addEventListener("input", () => {  // the summary describes the rows as imported
      const box = boxOf(kind);
      if (box.dataset.state !== "done" && box.dataset.state !== "shared") return;
      box.dataset.state = "edited";
      box.prepend(element("p", "The rows have been edited since this import.", "warning"));
    });
    form.addEventListener("click", (event) => {  // an example replaces the rows
      if (event.target.closest('button[data-action="example"]')) clear(kind);
    });
  }
  window.addEventListener("hashchange", () => {  // a share link replaces its tab's rows
    const kind = location.hash.split("/")[1];
    if (Object.hasOwn(forms, kind)) clear(kind);
  });
  return { open, drop, shareNote, shareImport, restore };
}
