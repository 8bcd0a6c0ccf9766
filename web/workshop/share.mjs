// Workshop share links: "#w1/<lesson>/<payload>", payload = base64url (no padding) of raw-deflate UTF-8 JSON
// {"cells": {"<cell name>": "<code>", ...}} holding the lesson's cells as the teacher left them. The
// fragment never reaches a server. Same spirit as the calculator's "#v1/<kind>/<payload>" (web/share.mjs).

import { fromBase64url, pipe, toBase64url } from "../share.mjs";

export const MAX_DECODED_BYTES = 4 * 1024 * 1024;  // a lesson's code is a few kB: refuse decompression bombs
const LIMIT = "4 MiB once decompressed";

/** "#w1/<lesson>/<payload>" for these cells ({name: code}). */
export async function encodeLesson(lesson, cells) {
  const json = new TextEncoder().encode(JSON.stringify({ cells }));
  return `#w1/${lesson}/${toBase64url(await pipe(json, new CompressionStream("deflate-raw"), MAX_DECODED_BYTES, LIMIT))}`;
}

/** {lesson, cells} from a fragment, or null when it is no workshop link; throws Error when it is a damaged one. */
export async function decodeLesson(fragment) {
  const match = /^#?w1\/([a-z0-9-]+)\/([A-Za-z0-9_-]*)$/.exec(fragment);
  if (!match) return null;
  const [, lesson, payload] = match;
  let data;
  try {
    const bytes = await pipe(fromBase64url(payload), new DecompressionStream("deflate-raw"), MAX_DECODED_BYTES, LIMIT);
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
