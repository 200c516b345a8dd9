// The five tables of a result: W, the one-hot matrix, W^T, and the two routes' outputs.
// Token rows are labelled by their id; the step-through token's row and id are marked in each.
// On the page, a matrix too big for its table is drawn as a heatmap, its summarised table
// behind a "Numbers" toggle.
import { cells, transposed } from '../model/cells.mjs';
import { element } from '../draw/dom.mjs';
import { createHeatmap } from '../draw/heatmap.mjs';
import { renderMatrixTable } from '../draw/render-matrix.mjs';
import { COL_CAP, ROW_CAP, shownIndices } from '../model/shown-indices.mjs';

const label = (i) => String(i);

// A box's heatmap and the table slot beside it, once it holds one.
const heatmaps = new WeakMap();  // box -> { heatmap, numbers, data }

// Shows spec's matrix in box: as a table, or (with `heat`, for a matrix the table summarises)
// as a heatmap whose cell (i, j) stands for token heat.token(i, j) and where heat.band(k) is
// token k's row or column.
function place(box, spec, heat) {
  const { matrix } = spec;
  if (!heat || (matrix.rows <= ROW_CAP && matrix.cols <= COL_CAP)) {
    if (heatmaps.has(box)) {
      heatmaps.delete(box);
      box.replaceChildren();
    }
    renderMatrixTable(box, spec);
    return;
  }
  let parts = heatmaps.get(box);
  if (!parts) {
    const heatmap = createHeatmap({
      onHover: (i, j) => heat.hooks.onHover(i === null ? null : parts.token(i, j)),
      onPick: (i, j) => {
        const k = parts.token(i, j);
        if (k !== null) heat.hooks.onPick(k);
      },
    });
    const details = element('details', 'numbers');
    const numbers = element('div', 'numbers-table');
    details.append(element('summary', '', 'Numbers'), numbers);
    box.replaceChildren(heatmap.node, details);
    parts = { heatmap, numbers, data: null };
    heatmaps.set(box, parts);
  }
  parts.token = heat.token;
  parts.band = heat.band;
  if (parts.data !== heat.data) {
    parts.heatmap.render(matrix, heat.name);
    parts.data = heat.data;
  }
  parts.heatmap.outline(heat.band(heat.step));
  renderMatrixTable(parts.numbers, spec);
}

// boxes: { weight, onehot, linear, lookup, product } elements the tables are drawn in;
// a box left out is not built (<embedding-demo> shows two or three of them).
// result: compute.run()'s result; step: the index of the token being stepped through;
// differs: showVerdict()'s cellClass, which marks the cells where the two routes differ.
// hooks: { onHover(k), onPick(k) } to draw big matrices as heatmaps that link to token k
// (null when the cell names no token); without them every matrix is a table.
export function renderMatrices(boxes, result, step, differs = () => '', hooks = null) {
  const { ids, weight } = result;
  const stepId = ids[step];
  const hitIds = new Set(ids);
  const tokenRows = shownIndices(ids.length, ROW_CAP, [step]);
  // Every token row a table shows keeps its W row and its one-hot column visible.
  const keptIds = tokenRows.filter((k) => k !== null).map((k) => ids[k]);
  // Each axis shows the same indices in every table: d as W's columns, V as the one-hot's.
  const dimCols = shownIndices(weight.cols, COL_CAP);
  const vocabCols = shownIndices(weight.rows, COL_CAP, keptIds);

  const firstToken = (id) => {
    const k = ids.indexOf(id);
    return k < 0 ? null : k;
  };
  const heat = (name, data, token, band) => hooks && { hooks, name, data, token, band, step };
  const tokenHeat = (name, data) => heat(name, data, (i) => i, (k) => ({ row: k }));
  const idClass = (id) => (id === stepId ? 'hit current' : hitIds.has(id) ? 'hit' : '');
  const tokenRow = {
    rows: tokenRows,
    corner: 'id',
    rowLabel: (k) => String(ids[k]),
    rowClass: (k) => (k === step ? 'current' : ''),
  };

  if (boxes.weight) place(boxes.weight, {
    matrix: cells(weight), caption: 'embedding.weight (V × d)', corner: 'id',
    rows: shownIndices(weight.rows, ROW_CAP, keptIds), cols: dimCols,
    rowLabel: label, colLabel: label, rowClass: idClass,
  }, heat('W', weight.data, (i) => firstToken(i), (k) => ({ row: ids[k] })));
  if (boxes.onehot) place(boxes.onehot, {
    ...tokenRow, matrix: result.onehot, caption: 'F.one_hot(idx, V) (n × V)',
    cols: vocabCols, colLabel: label, integer: true,
    cellClass: (value) => (value === 1 ? 'one' : ''),
  }, tokenHeat('one_hot', result.ids));
  if (boxes.linear) place(boxes.linear, {
    matrix: transposed(weight), caption: 'linear.weight = W.T (d × V)', corner: 'dim',
    rows: dimCols, cols: vocabCols,
    rowLabel: label, colLabel: label, colClass: idClass,
  }, heat('W.T', weight.data, (i, j) => firstToken(j), (k) => ({ col: ids[k] })));
  if (boxes.lookup) place(boxes.lookup, {
    ...tokenRow, matrix: cells(result.lookup), caption: 'embedding(idx) (n × d)',
    cols: dimCols, colLabel: label, cellClass: differs,
  }, tokenHeat('embedding(idx)', result.lookup.data));
  if (boxes.product) place(boxes.product, {
    ...tokenRow, matrix: cells(result.product), caption: 'linear(onehot.float()) (n × d)',
    cols: dimCols, colLabel: label, cellClass: differs,
  }, tokenHeat('product', result.product.data));
}

// Marks token k (null: none) in the heatmaps of boxes, beside the selected token's outline.
export function linkHeatmaps(boxes, k) {
  for (const box of Object.values(boxes)) {
    const parts = box && heatmaps.get(box);
    if (parts) parts.heatmap.link(k === null ? null : parts.band(k));
  }
}
