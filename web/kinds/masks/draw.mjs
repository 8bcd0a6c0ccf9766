// COCO run lengths to the pixels of a mask figure, without decoding any mask pixel by pixel.
//
// Runs are column-major and start with background: pixel (row y, column x) of a mask of
// height H is index x·H + y (docs/masks.md). Only the page's figures read masks here; every
// number in the report was computed by the core on runs. A figure is at most `maxCanvas`
// pixels on its longer side; a larger mask is pooled in square blocks, the highest class of a
// block winning (any disagreement in the block shows). The work grows with the runs and the
// canvas, not with the mask's pixels, and it runs in a worker (worker.mjs).

export const CLASS = { background: 0, agree: 1, missed: 2, extra: 3 };
// Okabe–Ito colours: told apart with the common colour-vision deficiencies.
export const COLOURS = {
  [CLASS.background]: [255, 255, 255],
  [CLASS.agree]: [110, 116, 128],
  [CLASS.missed]: [0, 114, 178],
  [CLASS.extra]: [230, 159, 0],
};

/** The foreground of a mask as [start, end) pixel-index intervals, from runs that must add up to n. */
export function foreground(runs, n) {
  const starts = [], ends = [];
  let at = 0;
  runs.forEach((run, k) => {
    if (!Number.isInteger(run) || run < 0 || at + run > n) throw new Error("mask runs do not fit the image");
    if (k % 2 === 1 && run > 0) { starts.push(at); ends.push(at + run); }
    at += run;
  });
  if (at !== n) throw new Error("mask runs do not add up to width × height");
  return { starts, ends };
}

/** The consensus itself as class intervals (all "agree": marked, in the consensus). */
export function asAgree(consensus) {
  return { ...consensus, classes: consensus.starts.map(() => CLASS.agree), extra: 0, missed: 0 };
}

/**
 * `mask` against `consensus` (both from foreground()) as intervals of one class each (agree,
 * extra, missed; background is left out), with the pixel counts of extra and missed.
 */
export function compare(mask, consensus) {
  const out = { starts: [], ends: [], classes: [], extra: 0, missed: 0 };
  // Boundary k of a list: even k an interval's start (entering), odd k its end (leaving).
  const boundary = (list, k) => (k & 1 ? list.ends[k >> 1] : list.starts[k >> 1]);
  const nMask = 2 * mask.starts.length, nConsensus = 2 * consensus.starts.length;
  let i = 0, j = 0, inMask = false, inConsensus = false, at = 0;
  while (i < nMask || j < nConsensus) {
    const next = Math.min(i < nMask ? boundary(mask, i) : Infinity, j < nConsensus ? boundary(consensus, j) : Infinity);
    if (next > at && (inMask || inConsensus)) {
      const cls = inMask ? (inConsensus ? CLASS.agree : CLASS.extra) : CLASS.missed;
      out.starts.push(at); out.ends.push(next); out.classes.push(cls);
      if (cls === CLASS.extra) out.extra += next - at;
      else if (cls === CLASS.missed) out.missed += next - at;
    }
    while (i < nMask && boundary(mask, i) === next) inMask = (i++ & 1) === 0;
    while (j < nConsensus && boundary(consensus, j) === next) inConsensus = (j++ & 1) === 0;
    at = next;
  }
  return out;
}

/** The canvas of a width × height mask: its size and block side (`step` mask pixels a canvas pixel). */
export function canvasSize(width, height, maxCanvas) {
  const step = Math.max(1, Math.ceil(Math.max(width, height) / maxCanvas));
  return { step, cw: Math.ceil(width / step), ch: Math.ceil(height / step) };
}

/** Per canvas pixel (row-major) the highest class of its block, from class intervals. */
export function pool(segments, width, height, maxCanvas) {
  const { step, cw, ch } = canvasSize(width, height, maxCanvas);
  const cells = new Uint8Array(cw * ch);
  const mark = (px, y0, y1, cls) => {  // canvas column px, mask rows y0 … y1
    for (let py = Math.floor(y0 / step), last = Math.floor(y1 / step); py <= last; py++) {
      const at = py * cw + px;
      if (cls > cells[at]) cells[at] = cls;
    }
  };
  for (let k = 0; k < segments.starts.length; k++) {
    const first = segments.starts[k], last = segments.ends[k] - 1, cls = segments.classes[k];
    const x0 = Math.floor(first / height), x1 = Math.floor(last / height);
    if (x0 === x1) { mark(Math.floor(x0 / step), first - x0 * height, last - x0 * height, cls); continue; }
    mark(Math.floor(x0 / step), first - x0 * height, height - 1, cls);
    mark(Math.floor(x1 / step), 0, last - x1 * height, cls);
    // The whole columns between: each canvas column they reach, top to bottom, once.
    for (let px = Math.floor((x0 + 1) / step); x1 - x0 > 1 && px <= Math.floor((x1 - 1) / step); px++) {
      mark(px, 0, height - 1, cls);
    }
  }
  return { cells, cw, ch, step };
}

/** RGBA bytes of pooled cells in COLOURS. */
export function paint(cells) {
  const rgba = new Uint8ClampedArray(4 * cells.length);
  for (let i = 0; i < cells.length; i++) {
    const [r, g, b] = COLOURS[cells[i]];
    rgba[4 * i] = r; rgba[4 * i + 1] = g; rgba[4 * i + 2] = b; rgba[4 * i + 3] = 255;
  }
  return rgba;
}

/**
 * The panels of one item's figure: the consensus, then the majority vote and each annotator
 * against it. Returns {cw, ch, step, panels: [{rgba, extra, missed}]}.
 */
export function drawItem({ width, height, consensus, majority, annotators }, maxCanvas) {
  const n = width * height;
  const truth = foreground(consensus, n);
  const layers = [asAgree(truth), ...[majority, ...annotators].map((runs) => compare(foreground(runs, n), truth))];
  const { cw, ch, step } = canvasSize(width, height, maxCanvas);
  const panels = layers.map((layer) => ({
    rgba: paint(pool(layer, width, height, maxCanvas).cells), extra: layer.extra, missed: layer.missed }));
  return { cw, ch, step, panels };
}
