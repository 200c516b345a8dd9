// The picture's size: the geometry (model/picture-layout.mjs) for the width the figure is given,
// the frame that shows it and the canvas under it. While the same shape is typed (width, n, V,
// d), the cells only shrink and the frame only grows: an id typed or deleted changes which
// columns and rows show, and the picture would otherwise swell and shrink, its numbers come and
// go, the centred frame slide sideways and the page below it move (and every keystroke lay the
// whole page out again).
import { writeAttribute, writeStyle } from '../../draw/dom.mjs';
import { frameHeight, layout } from '../../model/picture-layout.mjs';

const LARGEST_CELL = 50; // px: room for the mode's bar and the detail line on the first screen
// px: narrower figures are phones (and narrow columns), whose picture keeps within PHONE_HEIGHT
// so that the verdict under it stays on a phone's first screen; wider ones within WIDE_HEIGHT.
const PHONE_WIDTH = 600;
const PHONE_HEIGHT = 192;
const WIDE_HEIGHT = 300;

// figure: what gives the width; frame, canvas, svg: what is sized.
export function createCanvasSize(figure, { frame, canvas, svg }) {
  let width = 0;
  let canvasFor = { key: '', ratio: 1 }; // the width and pixel ratio the canvas was sized for
  let kept = { shape: '', cell: 0, width: 0, height: 0 }; // a shape's cell and size

  return {
    get ratio() {
      return canvasFor.ratio;
    },
    // Whether the figure's width changed since the last fit (read by the ResizeObserver).
    resized() {
      const now = figure.clientWidth;
      if (now === width) return false;
      width = now;
      return true;
    },
    // The geometry for `slots` of a result (n, V, d), rows labelled by rowLabels, with options
    // { transposed, notes } (layout()'s); sizes the frame and the canvas for it. Returns
    // layout()'s geometry.
    fit(result, slots, rowLabels, { transposed, notes }) {
      // Read once, then kept by resized(): reading it here would force a layout in the middle
      // of every keystroke's redraw.
      if (!width) width = figure.clientWidth;
      const shape = [width, result.ids.length, result.vocab, result.dim, transposed].join();
      const same = shape === kept.shape;
      const room = { width, height: width < PHONE_WIDTH ? PHONE_HEIGHT : WIDE_HEIGHT };
      const options = { largestCell: same ? kept.cell : LARGEST_CELL, transposed, notes };
      let at = layout(room.width, room.height, slots, rowLabels, options);
      // A phone's picture of many rows (GPT-2's ids) grows taller rather than lose its numbers.
      if (!at.numbers && room.height < WIDE_HEIGHT) {
        room.height = WIDE_HEIGHT;
        at = layout(room.width, room.height, slots, rowLabels, options);
      }
      // The frame keeps the room of the most rows this shape can draw, so that an id typed,
      // which may add a row of W, moves nothing below.
      const tallest = frameHeight(at, result.ids.length, result.vocab, room.height);
      const grown = (side, size) => (same ? Math.max(kept[side], size) : size);
      kept = {
        shape,
        cell: at.cell,
        width: grown('width', at.width),
        height: grown('height', tallest),
      };
      // In a frame kept wider than it, the picture stands in the middle, as it does in the figure.
      if (kept.width > at.width) {
        const left = Math.floor((kept.width - at.width) / 2);
        at = layout(room.width, room.height, slots, rowLabels, {
          ...options,
          largestCell: at.cell,
          left,
        });
      }
      // The canvas covers the room the picture may take (more only where its cells at their
      // smallest need it), whatever the shape, and only grows while the width stays: each new
      // size costs Chromium new buffers, a few milliseconds each over the next frames, so
      // typing that changes the shape must not resize it.
      const key = `${width}@${devicePixelRatio}`;
      const fresh = canvasFor.key !== key;
      if (fresh) canvasFor = { key, ratio: devicePixelRatio || 1 };
      for (const side of ['width', 'height']) {
        const pixels = Math.round(Math.max(room[side], at[side]) * canvasFor.ratio);
        if (fresh || canvas[side] < pixels) {
          canvas[side] = pixels;
          canvas.style[side] = `${pixels / canvasFor.ratio}px`;
        }
      }
      writeStyle(frame, 'width', `${kept.width}px`);
      writeStyle(frame, 'height', `${kept.height}px`);
      writeStyle(svg, 'height', `${kept.height}px`);
      // Cells at their smallest can still be too wide for a phone: then the picture is shrunk.
      writeStyle(frame, 'zoom', kept.width > width ? String(width / kept.width) : '');
      writeAttribute(svg, 'viewBox', `0 0 ${kept.width} ${kept.height}`);
      return at;
    },
  };
}
