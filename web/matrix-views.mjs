// The five tables of a result: W, the one-hot matrix, W^T, and the two routes' outputs.
// Token rows are labelled by their id; the step-through token's row and id are marked in each.
import { renderMatrixTable } from './render-matrix.mjs';
import { COL_CAP, ROW_CAP, shownIndices } from './shown-indices.mjs';

// A row-major matrix, or the transpose of one, read cell by cell (W^T without copying W).
export function cells(m) {
  return { rows: m.rows, cols: m.cols, at: (i, j) => m.data[i * m.cols + j] };
}
export function transposed(m) {
  return { rows: m.cols, cols: m.rows, at: (i, j) => m.data[j * m.cols + i] };
}

const label = (i) => String(i);

// boxes: { weight, onehot, linear, lookup, product } elements the tables are drawn in;
// a box left out is not built (<embedding-demo> shows two or three of them).
// result: compute.run()'s result; step: the index of the token being stepped through;
// differs: showVerdict()'s cellClass, which marks the cells where the two routes differ.
export function renderMatrices(boxes, result, step, differs = () => '') {
  const { ids, weight } = result;
  const stepId = ids[step];
  const hitIds = new Set(ids);
  const tokenRows = shownIndices(ids.length, ROW_CAP, [step]);
  // Every token row a table shows keeps its W row and its one-hot column visible.
  const keptIds = tokenRows.filter((k) => k !== null).map((k) => ids[k]);
  // Each axis shows the same indices in every table: d as W's columns, V as the one-hot's.
  const dimCols = shownIndices(weight.cols, COL_CAP);
  const vocabCols = shownIndices(weight.rows, COL_CAP, keptIds);

  const idClass = (id) => (id === stepId ? 'hit current' : hitIds.has(id) ? 'hit' : '');
  const tokenRow = {
    rows: tokenRows,
    corner: 'id',
    rowLabel: (k) => String(ids[k]),
    rowClass: (k) => (k === step ? 'current' : ''),
  };

  if (boxes.weight) renderMatrixTable(boxes.weight, {
    matrix: cells(weight), caption: 'embedding.weight (V × d)', corner: 'id',
    rows: shownIndices(weight.rows, ROW_CAP, keptIds), cols: dimCols,
    rowLabel: label, colLabel: label, rowClass: idClass,
  });
  if (boxes.onehot) renderMatrixTable(boxes.onehot, {
    ...tokenRow, matrix: cells(result.onehot), caption: 'F.one_hot(idx, V) (n × V)',
    cols: vocabCols, colLabel: label, integer: true,
    cellClass: (value) => (value === 1 ? 'one' : ''),
  });
  if (boxes.linear) renderMatrixTable(boxes.linear, {
    matrix: transposed(weight), caption: 'linear.weight = W.T (d × V)', corner: 'dim',
    rows: dimCols, cols: vocabCols,
    rowLabel: label, colLabel: label, colClass: idClass,
  });
  if (boxes.lookup) renderMatrixTable(boxes.lookup, {
    ...tokenRow, matrix: cells(result.lookup), caption: 'embedding(idx) (n × d)',
    cols: dimCols, colLabel: label, cellClass: differs,
  });
  if (boxes.product) renderMatrixTable(boxes.product, {
    ...tokenRow, matrix: cells(result.product), caption: 'linear(onehot.float()) (n × d)',
    cols: dimCols, colLabel: label, cellClass: differs,
  });
}
