// A (V, d) matrix of which the page holds some rows: W, or a gradient of W. A small one is held
// whole; of a larger one only the rows the views draw — the first and last EDGE rows (PyTorch's
// printing, the tables' and the picture's ends) and the rows the ids name — with a heatmap of
// the whole, gathered by the module while it streams the matrix. So a 4 GB table costs the page
// a few rows. Pure: no DOM.
import { cells } from './cells.mjs';

// Held whole up to this many floats (1 MiB): every notebook-sized table, as the views have always
// drawn it.
export const WHOLE_FLOATS = 1 << 18;
const EDGE = 3;
// The most pixels a heatmap draws (draw/heatmap.mjs), and so the most a gathered one holds.
export const HEATMAP_PIXELS = Object.freeze({ rows: 256, cols: 512 });

// Whether a (rows, cols) matrix is held whole on the page.
export const heldWhole = (rows, cols) => rows * cols <= WHOLE_FLOATS;

// The rows of a (vocab, ·) matrix the views draw for these ids: ascending, each once.
export function windowRows(vocab, ids) {
  const rows = new Set();
  for (let i = 0; i < Math.min(EDGE, vocab); ++i) {
    rows.add(i);
    rows.add(vocab - 1 - i);
  }
  for (const id of ids) rows.add(id);
  return Float64Array.from([...rows].sort((a, b) => a - b));
}

// view: the module's GradientView shape { rows, cols, whole (a Matrix or null), kept (ascending
// row indices), keptRows (a Matrix of those rows), heatmap (a Matrix or null) }. Returns cells
// { rows, cols, at(i, j), row(i), has(i) }; held whole, also data; else held(i, j), whether a
// cell is held, and pixels, the heatmap's cells (null until the module has gathered it). at()
// and row() of a row not held are NaN and null.
export function rowWindow({
  rows,
  cols,
  whole = null,
  kept = null,
  keptRows = null,
  heatmap = null,
}) {
  if (whole) {
    const { data } = whole;
    return {
      rows,
      cols,
      data,
      at: (i, j) => data[i * cols + j],
      row: (i) => data.subarray(i * cols, (i + 1) * cols),
      has: (i) => i >= 0 && i < rows,
    };
  }
  const where = new Map(Array.from(kept, (row, k) => [row, k]));
  const { data } = keptRows;
  return {
    rows,
    cols,
    pixels: heatmap && cells(heatmap),
    at: (i, j) => (where.has(i) ? data[where.get(i) * cols + j] : NaN),
    row: (i) =>
      where.has(i) ? data.subarray(where.get(i) * cols, (where.get(i) + 1) * cols) : null,
    has: (i) => where.has(i),
    held: (i) => where.has(i),
  };
}
