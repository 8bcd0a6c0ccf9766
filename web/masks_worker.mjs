// Module worker that draws the mask figures, so that reading runs and pooling pixels never
// holds up the page (render_more.mjs sends one item a message).
//
// In:  {id, item: {width, height, consensus, majority, annotators: [runs, …]}, maxCanvas}
// Out: {id, cw, ch, step, panels: [{rgba: ArrayBuffer, extra, missed}]}   (buffers transferred)
//      {id, error}                                                        runs that cannot be read

import { drawItem } from "./masks_draw.mjs";

self.onmessage = ({ data: { id, item, maxCanvas } }) => {
  let drawn;
  try {
    drawn = drawItem(item, maxCanvas);
  } catch (error) {
    self.postMessage({ id, error: String(error && error.message ? error.message : error) });
    return;
  }
  const panels = drawn.panels.map(({ rgba, extra, missed }) => ({ rgba: rgba.buffer, extra, missed }));
  self.postMessage({ id, cw: drawn.cw, ch: drawn.ch, step: drawn.step, panels }, panels.map((p) => p.rgba));
};
