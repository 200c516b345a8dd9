// Matrices as the views read them, cell by cell: { rows, cols, at(i, j) }, without copying.

// A row-major matrix { rows, cols, data }, its data kept for a reader that takes every cell in
// order (a heatmap of a pixel a cell).
export function cells(m) {
  return { rows: m.rows, cols: m.cols, data: m.data, at: (i, j) => m.data[i * m.cols + j] };
}

// The transpose of a row-major matrix or of cells (W.T without copying W), with what a row
// window (row-window.mjs) says of its cells transposed too.
export function transposed(m) {
  const { rows, cols, at, held, pixels } = m.at ? m : cells(m);
  return {
    rows: cols,
    cols: rows,
    at: (i, j) => at(j, i),
    ...(held ? { held: (i, j) => held(j, i), pixels: pixels && transposed(pixels) } : {}),
  };
}

// F.one_hot(ids, vocab): the views draw it from the ids, so its n × V floats are never made on
// the page (the module builds its own for the product). peak(i0, i1, j0, j1) is the largest
// value in a block, for the heatmap: 1 when a row of the block has its id among the columns.
export function oneHotCells(ids, vocab) {
  return {
    rows: ids.length,
    cols: vocab,
    at: (i, j) => (ids[i] === j ? 1 : 0),
    peak: (i0, i1, j0, j1) => {
      for (let i = i0; i < i1; ++i) if (ids[i] >= j0 && ids[i] < j1) return 1;
      return 0;
    },
  };
}
