// Downloads: the report as JSON, tables as CSV with spreadsheet formula injection escaped.

export function downloadText(filename, text, type) {
  downloadBlob(filename, new Blob([text], { type: `${type};charset=utf-8` }));
}

/** A file the worker wrote ({filename, type, text} or {filename, type, base64}) saved as it is. */
export function downloadFile({ filename, type, text, base64 }) {
  if (text !== undefined) return downloadText(filename, text, type);
  downloadBlob(filename, new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], { type }));
}

/** Download `blob` as `filename` (a link clicked, its URL revoked a little later). */
export function downloadBlob(filename, blob) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/** One CSV cell. Text starting with = + - @ (or tab/CR) is prefixed with ' so that spreadsheets
 *  show it instead of running it as a formula; numbers computed by agreekit stay numbers. */
export function csvCell(value) {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  let text = Array.isArray(value) ? value.join(" ") : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = "'" + text;
  if (/[",\r\n]/.test(text)) text = '"' + text.replace(/"/g, '""') + '"';
  return text;
}

export function toCsv(columns, records) {
  const lines = [columns.map(csvCell).join(",")];
  for (const record of records) lines.push(columns.map((c) => csvCell(record[c])).join(","));
  return lines.join("\r\n") + "\r\n";
}
