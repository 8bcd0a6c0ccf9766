// Share links: "#v1/<kind>/<payload>", payload = base64url (no padding) of raw-deflate UTF-8 JSON
// {"rows": "<pasted text>", "options": {...report keyword options...}}, and, when the rows were
// converted from a tool's export, "import": {"format": "<format name>", "options": {...its options...}}. The same format is written
// by agreekit.share_link() in Python; the fragment is never sent to a server. <kind> is a name of the
// registry of kinds: the page passes the ones it has (its tabs) to decodeShare.
//
// The JSON may be at most MAX_DECODED_BYTES of UTF-8, as in agreekit.share: a link within Chromium's
// ~2 MB URL limit carries no more of ordinary rows, and more is a decompression bomb or seconds of
// filling in the paste area. Larger inputs travel as files.

export const MAX_DECODED_BYTES = 8 * 1024 * 1024;
export const LIMIT = `${MAX_DECODED_BYTES / 2 ** 20} MiB once decompressed; a link carries about 2 MB`;

/** An input a link cannot carry (over MAX_DECODED_BYTES). */
export class TooLargeError extends Error {}

export function toBase64url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("the share link's data is not base64url");
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * The bytes through a (de)compression stream, refused (TooLargeError) past maxBytes of output: a
 * link's payload is bounded, so a decompression bomb stops there.
 */
export async function pipe(bytes, transform, maxBytes = MAX_DECODED_BYTES, limit = LIMIT) {
  const reader = new Blob([bytes]).stream().pipeThrough(transform).getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxBytes) {
      await reader.cancel();
      throw new TooLargeError(`the share link's data is too large (over ${limit})`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) { out.set(chunk, offset); offset += chunk.length; }
  return out;
}

/**
 * The fragment "#v1/<kind>/<payload>" for these inputs (``imported``: the {format, options} the rows
 * were converted with, or null; ``rowsB``: a comparison's second input, as agreekit.compare_link writes
 * it, or null); TooLargeError over MAX_DECODED_BYTES.
 */
export async function encodeShare(kind, rows, options, imported = null, rowsB = null) {
  if (!/^[a-z]+$/.test(kind)) throw new Error(`a kind is a lowercase name, not ${kind}`);
  const document = rowsB === null ? { rows, options } : { rows, rows_b: rowsB, options };
  if (imported) document.import = imported;
  const json = new TextEncoder().encode(JSON.stringify(document));
  if (json.length > MAX_DECODED_BYTES) throw new TooLargeError(`this input is too large for a share link (over ${LIMIT})`);
  const compressed = await pipe(json, new CompressionStream("deflate-raw"));
  return `#v1/${kind}/${toBase64url(compressed)}`;
}

/**
 * {kind, rows, options, imported, rowsB} from a fragment whose kind is one of `kinds` (``imported``: the
 * link's {format, options} import record, or null; ``rowsB``: a comparison's second input, or null);
 * throws Error with a readable message.
 */
export async function decodeShare(fragment, kinds) {
  const match = /^#?v1\/([a-z]+)\/([A-Za-z0-9_-]*)$/.exec(fragment);
  if (!match) throw new Error("this is not an agreekit v1 share link");
  const [, kind, payload] = match;
  if (!kinds.includes(kind)) throw new Error(`unknown kind "${kind}" in the share link`);
  let data;
  try {
    const bytes = await pipe(fromBase64url(payload), new DecompressionStream("deflate-raw"));
    data = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (error) {
    if (error instanceof TooLargeError) throw error;
    throw new Error(`the share link is damaged (${error.message})`);
  }
  if (!data || typeof data !== "object" || typeof data.rows !== "string") {
    throw new Error("the share link carries no rows");
  }
  const options = data.options ?? {};
  if (typeof options !== "object" || Array.isArray(options)) throw new Error("the share link's options are not an object");
  if (data.rows_b !== undefined && data.rows_b !== null && typeof data.rows_b !== "string") {
    throw new Error("the share link's second input is not text");
  }
  return { kind, rows: data.rows, options, imported: importRecord(data.import), rowsB: data.rows_b ?? null };
}

/** A link's import record {format, options}, or null when it has none; a damaged one is an Error. */
function importRecord(record) {
  if (record === undefined || record === null) return null;
  const options = record?.options ?? {};
  if (typeof record !== "object" || Array.isArray(record) || typeof record.format !== "string" ||
      !/^[a-z]+$/.test(record.format) || typeof options !== "object" || Array.isArray(options)) {
    throw new Error("the share link's import record is not {format, options}");
  }
  return { format: record.format, options };
}
