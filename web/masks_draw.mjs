// COCO run lengths to pixels, and one mask against the consensus, for drawing.
//
// Runs are column-major and start with background: pixel (row y, column x) of a mask of
// height H is index x·H + y (docs/masks.md). Only the page's figures decode masks; every
// number in the report was computed by the core on runs.

export const CLASS = { background: 0, agree: 1, missed: 2, extra: 3 };

/** Uint8Array of n pixels (1 = foreground) from run lengths that must add up to n. */
export function decodeRuns(runs, n) {
  const pixels = new Uint8Array(n);
  let at = 0;
  runs.forEach((run, k) => {
    if (!Number.isInteger(run) || run < 0 || at + run > n) throw new Error("mask runs do not fit the image");
    if (k % 2 === 1) pixels.fill(1, at, at + run);
    at += run;
  });
  if (at !== n) throw new Error("mask runs do not add up to width × height");
  return pixels;
}

/** Per-pixel class of `mask` against `consensus` (both from decodeRuns), with the two counts. */
export function compareMasks(mask, consensus) {
  const classes = new Uint8Array(mask.length);
  let extra = 0, missed = 0;
  for (let i = 0; i < mask.length; i++) {
    if (mask[i]) {
      if (consensus[i]) classes[i] = CLASS.agree;
      else { classes[i] = CLASS.extra; extra++; }
    } else if (consensus[i]) { classes[i] = CLASS.missed; missed++; }
  }
  return { classes, extra, missed };
}
