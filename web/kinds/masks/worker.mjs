// Module worker that draws the mask figures, so that reading runs and pooling pixels never
// holds up the page (web/kinds/masks.mjs sends one item a request). The protocol is protocol.mjs's.
//
// Request: {id, type: "draw", item: {width, height, consensus, majority, annotators: [runs, …]}, maxCanvas}
// Result:  {cw, ch, step, panels: [{rgba: ArrayBuffer, extra, missed}]}   (buffers transferred)
// Error:   {type: "input", message}                                       runs that cannot be read

import { drawItem } from "./draw.mjs";
import { answer, ReplyError } from "../../protocol.mjs";

const handlers = {
  draw({ item, maxCanvas }, reply) {
    let drawn;
    try {
      drawn = drawItem(item, maxCanvas);
    } catch (error) {
      throw new ReplyError({ type: "input", message: String(error && error.message ? error.message : error), where: null });
    }
    const panels = drawn.panels.map(({ rgba, extra, missed }) => ({ rgba: rgba.buffer, extra, missed }));
    reply.transfer(panels.map((panel) => panel.rgba));
    return { cw: drawn.cw, ch: drawn.ch, step: drawn.step, panels };
  },
};

self.onmessage = ({ data }) => answer(handlers, data, { what: "the masks" });
