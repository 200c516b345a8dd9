// A big matrix as a <canvas> heatmap: each value a colour on the picture's diverging scale
// (--eq-neg, --eq-zero, --eq-pos in styles/palette.css, light or dark), one canvas element
// however big the matrix, so the page's DOM stays bounded. Beyond MAX_WIDTH × MAX_HEIGHT cells a pixel stands
// for a block of cells and shows the largest in magnitude (so a one-hot's lone 1 stays
// visible); beyond READ_ALL cells, the cell at its centre (reading all of GPT-2's W would hold
// up the page). A matrix the page holds only some rows of (model/row-window.mjs) brings its
// pixels, gathered by the module from every cell. Hovering shows the cell's (row, col) and value
// in a line below (a block's largest value where its row is not held); the selected token's row
// (or column) is outlined by an element over the canvas, sharp at any scale.
import { element, writeProperty, writeStyle } from './dom.mjs';
import { HEATMAP_PIXELS } from '../model/row-window.mjs';
import { onThemeChange, readColors } from './theme-colors.mjs';

const { cols: MAX_WIDTH, rows: MAX_HEIGHT } = HEATMAP_PIXELS;
const READ_ALL = 1 << 22;

// Steps of the scale on each side of zero: one per whole number of a channel's 0–255 range.
const LEVELS = 255;

// The scale as the page's style resolves its three ends and the NaN colour now: each step's
// pixel (neg's LEVELS + 1 steps from the zero colour, then pos's), and NaN's, as 32-bit words in
// the image's byte order (made as bytes and read back as words, whatever the machine's endianness).
function palette(node) {
  const colors = readColors(node, {
    neg: '--eq-neg',
    zero: '--eq-zero',
    pos: '--eq-pos',
    nan: '--eq-nan',
  });
  const bytes = new Uint8ClampedArray(4 * (2 * (LEVELS + 1) + 1)); // a write rounds to a whole number
  // Colours are [r, g, b] in 0–255 and an opacity; the image's alpha is 0–255 too.
  const put = (i, [r, g, b, a]) => bytes.set([r, g, b, 255 * a], 4 * i);
  const { zero } = colors;
  ['neg', 'pos'].forEach((side, s) => {
    for (let level = 0; level <= LEVELS; ++level) {
      put(
        s * (LEVELS + 1) + level,
        zero.map((z, c) => z + (level / LEVELS) * (colors[side][c] - z)),
      );
    }
  });
  put(2 * (LEVELS + 1), colors.nan);
  const words = new Uint32Array(bytes.buffer);
  return { steps: words.subarray(0, 2 * (LEVELS + 1)), nan: words[2 * (LEVELS + 1)] };
}

// onHover(i, j) with the cell under the pointer (null when it leaves); onPick(i, j) on a click;
// format(value): a value as the readout writes it.
export function createHeatmap({ onHover = () => {}, onPick = () => {}, format = String } = {}) {
  const node = element('figure', 'heatmap');
  const canvas = element('canvas', 'heatmap-canvas');
  canvas.setAttribute('role', 'img');
  const readout = element('figcaption', 'heatmap-readout');
  const frame = element('div', 'heatmap-frame');
  // The selected token's band, and the band of the token pointed at elsewhere (views/linking.mjs).
  const bands = {
    outline: element('div', 'heatmap-outline'),
    linked: element('div', 'heatmap-outline linked'),
  };
  frame.append(canvas, bands.outline, bands.linked);
  node.append(frame, readout);
  let spec = null;
  // Read once (getComputedStyle in the middle of a keystroke forces a style pass), again when
  // the colour scheme changes.
  let colors = null;
  const placed = { outline: null, linked: null }; // each { row } or { col } or null
  let buffers = null; // buffersFor() the shape drawn

  const cellAt = (event) => {
    // offsetX/Y: from the inside of the border, across clientWidth × clientHeight.
    const { rows, cols } = spec.matrix;
    const clamp = (x, size) => Math.max(0, Math.min(size - 1, Math.floor(x * size)));
    return [
      clamp(event.offsetY / canvas.clientHeight, rows),
      clamp(event.offsetX / canvas.clientWidth, cols),
    ];
  };
  // "W[12800:12900, 0:2]: largest |value| 0.5078" for the block of pixel (y, x).
  const blockText = (y, x) => {
    const { rows, cols } = buffers;
    return (
      `${spec.name}[${rows.starts[y]}:${rows.ends[y]}, ${cols.starts[x]}:${cols.ends[x]}]: ` +
      `largest |value| ${format(spec.matrix.pixels.at(y, x))}`
    );
  };
  canvas.addEventListener('pointermove', (event) => {
    if (!spec) return;
    const [i, j] = cellAt(event);
    const { matrix } = spec;
    readout.textContent =
      matrix.held && !matrix.held(i, j)
        ? blockText(
            Math.floor((event.offsetY / canvas.clientHeight) * canvas.height),
            Math.floor((event.offsetX / canvas.clientWidth) * canvas.width),
          )
        : `${spec.name}[${i}, ${j}] = ${format(matrix.at(i, j))}`;
    readout.dataset.row = String(i);
    readout.dataset.col = String(j);
    onHover(i, j);
  });
  canvas.addEventListener('pointerleave', () => onHover(null, null));
  canvas.addEventListener('click', (event) => {
    if (spec) onPick(...cellAt(event));
  });

  function placeBand(which) {
    const band = bands[which];
    const outlined = placed[which];
    writeProperty(band, 'hidden', !outlined);
    if (!outlined) return;
    const { rows, cols } = spec.matrix;
    const along =
      'row' in outlined
        ? ['top', 'height', outlined.row, rows]
        : ['left', 'width', outlined.col, cols];
    const [start, size, index, count] = along;
    const [otherStart, otherSize] = 'row' in outlined ? ['left', 'width'] : ['top', 'height'];
    // Written only when it moves: each keystroke renders the heatmap, mostly with the same band.
    writeStyle(band, start, `calc(${(100 * index) / count}% - 2px)`);
    writeStyle(band, size, `calc(${100 / count}% + 4px)`);
    writeStyle(band, otherStart, '0');
    writeStyle(band, otherSize, '100%');
  }

  // Pixel p's block of cells is [starts[p], ends[p]) along an axis of `total` cells drawn in
  // `size` pixels: all the cells it covers, or (beyond READ_ALL) the one at its centre.
  function blocks(size, total, all) {
    const starts = new Int32Array(size);
    const ends = new Int32Array(size);
    for (let p = 0; p < size; ++p) {
      const centre = Math.floor(((p + 0.5) * total) / size);
      starts[p] = all ? Math.floor((p * total) / size) : centre;
      ends[p] = all ? Math.floor(((p + 1) * total) / size) : centre + 1;
    }
    return { starts, ends };
  }

  // What a render of one shape needs, made once per shape and reused by every keystroke (fewer
  // allocations, fewer garbage collections in the frame): each axis's blocks, the pixels'
  // values, and the image.
  function buffersFor(matrix, width, height) {
    const image = new ImageData(width, height);
    const all = Boolean(matrix.pixels) || matrix.rows * matrix.cols <= READ_ALL;
    return {
      rows: blocks(height, matrix.rows, all),
      cols: blocks(width, matrix.cols, all),
      values: new Float64Array(width * height),
      image,
      words: new Uint32Array(image.data.buffer), // the image's pixels, one word each
    };
  }

  // The colour of each pixel: the value of largest magnitude in its block of cells (matrix.peak
  // where the matrix knows it without reading every cell), or the value at the block's centre
  // for a matrix beyond READ_ALL.
  function pixelValues(matrix, width, height, { rows, cols, values }) {
    // A pixel a cell (or the pixels gathered for a matrix held in part), row-major: as they are.
    const dense = matrix.pixels ?? matrix;
    if (dense.data && width === dense.cols && height === dense.rows) {
      values.set(dense.data);
      return values;
    }
    if (matrix.pixels) {
      for (let y = 0; y < height; ++y)
        for (let x = 0; x < width; ++x) values[y * width + x] = matrix.pixels.at(y, x);
      return values;
    }
    for (let y = 0; y < height; ++y) {
      const i0 = rows.starts[y];
      const i1 = rows.ends[y];
      for (let x = 0; x < width; ++x) {
        const j0 = cols.starts[x];
        const j1 = cols.ends[x];
        if (matrix.peak) {
          values[y * width + x] = matrix.peak(i0, i1, j0, j1);
          continue;
        }
        // A row-major matrix's data is read where it lies: a call a cell costs the most of a
        // keystroke's heatmap at n = 1024.
        const { data } = matrix;
        let best = 0;
        for (let i = i0; i < i1 && !Number.isNaN(best); ++i) {
          for (let j = j0; j < j1; ++j) {
            const v = data ? data[i * matrix.cols + j] : matrix.at(i, j);
            if (Number.isNaN(v) || Math.abs(v) > Math.abs(best)) best = v;
            if (Number.isNaN(best)) break;
          }
        }
        values[y * width + x] = best;
      }
    }
    return values;
  }

  const heatmap = {
    node,
    // matrix: { rows, cols, at(i, j) }, and where not every cell is held, held(i, j) and pixels
    // (cells of the largest value of each block, as many as the canvas has pixels); name: how
    // the readout names it ("W").
    render(matrix, name) {
      const width = matrix.pixels ? matrix.pixels.cols : Math.min(matrix.cols, MAX_WIDTH);
      const height = matrix.pixels ? matrix.pixels.rows : Math.min(matrix.rows, MAX_HEIGHT);
      // Only what changed is written: a keystroke redraws the one-hot's heatmap, same size.
      const shape = `${name}: ${matrix.rows} × ${matrix.cols}`;
      if (spec?.shape !== shape) {
        buffers = buffersFor(matrix, width, height);
        canvas.width = width;
        canvas.height = height;
        // Its width follows the page; its height a few px a row, within one screen.
        canvas.style.height = `${Math.min(280, Math.max(48, 4 * matrix.rows))}px`;
        canvas.setAttribute('aria-label', `${name} as a heatmap, ${matrix.rows} × ${matrix.cols}`);
      }
      const prompt = `${shape}. Point at a cell for its value.`;
      writeProperty(readout, 'textContent', prompt);
      if (!colors) {
        if (!spec) onThemeChange(node, repaint); // the first render: the heatmap is in place
        colors = palette(node);
      }
      spec = { matrix, name, shape };
      const values = pixelValues(matrix, width, height, buffers);
      let scale = 0;
      for (const v of values) if (Number.isFinite(v)) scale = Math.max(scale, Math.abs(v));
      scale ||= 1;
      const { image, words } = buffers;
      const { steps, nan } = colors;
      for (let p = 0; p < values.length; ++p) {
        const v = values[p];
        words[p] = Number.isNaN(v)
          ? nan
          : steps[(v < 0 ? 0 : LEVELS + 1) + Math.round(Math.min(1, Math.abs(v) / scale) * LEVELS)];
      }
      canvas.getContext('2d').putImageData(image, 0, 0);
      placeBand('outline');
      placeBand('linked');
    },
    // Outlines { row: i } or { col: j }, or nothing for null: the selected token's band
    // (outline) or the pointed-at token's (linked), drawn in its token's colour (a CSS colour).
    outline(which) {
      placed.outline = which;
      if (spec) placeBand('outline');
    },
    link(which, color = null) {
      placed.linked = which;
      if (color) bands.linked.style.setProperty('--link-color', color);
      if (spec) placeBand('linked');
    },
  };
  // The scale's colours follow the page's theme, as the picture's do.
  function repaint() {
    colors = null;
    if (spec) heatmap.render(spec.matrix, spec.name);
  }
  return heatmap;
}
