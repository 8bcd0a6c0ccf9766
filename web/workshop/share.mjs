// Workshop share links: "#w1/<lesson>/<payload>", payload = base64url (no padding) of raw-deflate UTF-8 JSON
// {"cells": {"<cell name>": "<code>", ...}} holding the lesson's cells as the teacher left them. The
// fragment never reaches a server. Same spirit as the calculator's "#v1/<kind>/<payload>" (web/share.mjs).

export const MAX_DECODED_BYTES = 4 * 1024 * 1024;  // a lesson's code is a few kB: refuse decompression bombs

function toBase64url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  const binary = atob(padded);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function pipe(bytes, transform) {
  const reader = new Blob([bytes]).stream().pipeThrough(transform).getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_DECODED_BYTES) {
      await reader.cancel();
      throw new Error("the share link's data is too large");
    }
    chunks.push(value);
  }
  return new Blob(chunks).arrayBuffer().then((buffer) => new Uint8Array(buffer));
}

/** "#w1/<lesson>/<payload>" for these cells ({name: code}). */
export async function encodeLesson(lesson, cells) {
  const json = new TextEncoder().encode(JSON.stringify({ cells }));
  return `#w1/${lesson}/${toBase64url(await pipe(json, new CompressionStream("deflate-raw")))}`;
}

/** {lesson, cells} from a fragment, or null when it is no workshop link; throws Error when it is a damaged one. */
export async function decodeLesson(fragment) {
  const match = /^#?w1\/([a-z0-9-]+)\/([A-Za-z0-9_-]*)$/.exec(fragment);
  if (!match) return null;
  const [, lesson, payload] = match;
  let data;
  try {
    const bytes = await pipe(fromBase64url(payload), new DecompressionStream("deflate-raw"));
    data = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (error) {
    throw new Error(`the share link is damaged (${error.message})`);
  }
  const cells = data?.cells;
  if (!cells || typeof cells !== "object" || Object.values(cells).some((code) => typeof code !== "string")) {
    throw new Error("the share link carries no cells");
  }
  return { lesson, cells };
}
