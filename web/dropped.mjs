// The files of a drop, folders read through: shared by the rows import (import.mjs) and the
// images of item views (item_images.mjs).

/** Every file under a dropped folder entry, as `{path, file}` with its path from the dropped folder. */
async function walk(entry, out) {
  if (entry.isFile) {
    out.push({ path: entry.fullPath.replace(/^\//, ""), file: await new Promise((resolve, reject) => entry.file(resolve, reject)) });
    return;
  }
  const reader = entry.createReader();
  for (;;) {  // readEntries answers in batches until it answers with none
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (!batch.length) return;
    for (const child of batch) await walk(child, out);
  }
}

/**
 * The files of a drop as a Promise of `[{path, file}]` (a file's path is its name; a folder's files
 * are named by their paths from it). The entries are taken at once: they exist only while the
 * drop event runs.
 */
export function droppedFiles(dataTransfer) {
  const items = [...(dataTransfer.items || [])].filter((item) => item.kind === "file");
  const dropped = items.length
    ? items.map((item) => ({ entry: item.webkitGetAsEntry?.() ?? null, file: item.getAsFile() }))
    : [...dataTransfer.files].map((file) => ({ entry: null, file }));
  return (async () => {
    const out = [];
    for (const { entry, file } of dropped) {
      if (entry?.isDirectory) await walk(entry, out);
      else if (file) out.push({ path: file.name, file });
    }
    return out;
  })();
}
