// The five tables of a result, W, the one-hot matrix, W^T and the two routes' outputs, and the
// views made of them. Token rows are labelled by their id; the selected token's row and id are
// marked in each, and every token row (data-token) and vocabulary row or column (data-vocab) links
// to the other views (linking.mjs). A matrix too big for its table is drawn as a heatmap, its
// summarised table behind a "Numbers" toggle.
import { byData, element, fragment } from '../draw/dom.mjs';
import { differingCells } from '../draw/verdict-box.mjs';
import { cells, transposed } from '../model/cells.mjs';
import { createHeatmap } from '../draw/heatmap.mjs';
import { renderMatrixTable } from '../draw/render-matrix.mjs';
import { COL_CAP, ROW_CAP, shownIndices } from '../model/shown-indices.mjs';
import { tokenColor } from '../model/token-colors.mjs';
import { tableRegions } from '../draw/scroll-region.mjs';
import { markBusy } from './verdict.mjs';

const label = (i) => String(i);

// A box's heatmap and the table slot beside it, once it holds one.
const heatmaps = new WeakMap(); // box -> { heatmap, data, spec, drawNumbers }

// Shows spec's matrix in box: as a table, or (for a matrix the table summarises) as a heatmap
// whose cell (i, j) stands for token heat.token(i, j) and where heat.band(k) is token k's row or
// column, with the summarised table behind "Numbers". A matrix not yet there (the product while
// it streams W) is said to be coming; a matrix held in part waits for its pixels, gathered as
// the product reads W.
function place(box, spec, heat) {
  const { matrix } = spec;
  if (!matrix || (matrix.held && !matrix.pixels)) {
    heatmaps.delete(box);
    box.replaceChildren(
      element(
        'p',
        'pending-note',
        matrix
          ? `${spec.caption}: its heatmap is drawn from every row as the one-hot product reads them.`
          : `${spec.caption}: the one-hot product is still reading W.`,
      ),
    );
    return;
  }
  if (matrix.rows <= ROW_CAP && matrix.cols <= COL_CAP) {
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
      format: (value) => spec.formatElements([value])[0],
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
    parts = { heatmap, data: null, spec: null };
    // The summarised table is drawn when "Numbers" is opened, and redrawn while it is open: a
    // keystroke's frame does not rewrite, nor the page hold, a table nobody sees.
    parts.drawNumbers = () => {
      if (details.open) renderMatrixTable(numbers, parts.spec);
    };
    details.addEventListener('toggle', parts.drawNumbers);
    heatmaps.set(box, parts);
  }
  parts.token = heat.token;
  parts.band = heat.band;
  if (parts.data !== heat.data) {
    parts.heatmap.render(matrix, heat.name);
    parts.data = heat.data;
  }
  parts.heatmap.outline(heat.band(heat.step));
  parts.spec = spec;
  parts.drawNumbers();
}

// boxes: { weight, onehot, linear, lookup, product } elements the tables are drawn in;
// a box left out is not built.
// result: compute/plan.mjs's run() result; step: the selected token;
// differs: differingCells()'s cellClass, which marks the cells where the two routes differ.
// hooks: { onHover(k), onPick(k) } for the heatmaps of big matrices, which link to token k
// (null when the cell names no token).
function renderMatrices(boxes, result, step, differs, hooks, formatElements) {
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
  const heat = (name, data, token, band) => ({ hooks, name, data, token, band, step });
  const tokenHeat = (name, data) =>
    heat(
      name,
      data,
      (i) => i,
      (k) => ({ row: k }),
    );
  const idClass = (id) => (id === stepId ? 'hit current' : hitIds.has(id) ? 'hit' : '');
  const tokenRow = {
    formatElements,
    rows: tokenRows,
    corner: 'id',
    rowLabel: (k) => String(ids[k]),
    rowClass: (k) => (k === step ? 'current' : ''),
    rowRole: 'token',
  };

  if (boxes.weight)
    place(
      boxes.weight,
      {
        formatElements,
        matrix: weight,
        caption: 'embedding.weight (V × d)',
        corner: 'id',
        rows: shownIndices(weight.rows, ROW_CAP, keptIds),
        cols: dimCols,
        rowLabel: label,
        colLabel: label,
        rowClass: idClass,
        rowRole: 'vocab',
      },
      heat(
        'W',
        weight.data ?? weight.pixels,
        (i) => firstToken(i),
        (k) => ({ row: ids[k] }),
      ),
    );
  if (boxes.onehot)
    place(
      boxes.onehot,
      {
        ...tokenRow,
        matrix: result.onehot,
        caption: 'F.one_hot(idx, V) (n × V)',
        cols: vocabCols,
        colLabel: label,
        integer: true,
        colRole: 'vocab',
        cellClass: (value) => (value === 1 ? 'one' : ''),
      },
      tokenHeat('one_hot', result.ids),
    );
  if (boxes.linear)
    place(
      boxes.linear,
      {
        formatElements,
        matrix: transposed(weight),
        caption: 'linear.weight = W.T (d × V)',
        corner: 'dim',
        rows: dimCols,
        cols: vocabCols,
        rowLabel: label,
        colLabel: label,
        colClass: idClass,
        colRole: 'vocab',
      },
      heat(
        'W.T',
        weight.data ?? weight.pixels,
        (i, j) => firstToken(j),
        (k) => ({ col: ids[k] }),
      ),
    );
  if (boxes.lookup)
    place(
      boxes.lookup,
      {
        ...tokenRow,
        matrix: cells(result.lookup),
        caption: 'embedding(idx) (n × d)',
        cols: dimCols,
        colLabel: label,
        cellClass: differs,
      },
      tokenHeat('embedding(idx)', result.lookup.data),
    );
  if (boxes.product)
    place(
      boxes.product,
      {
        ...tokenRow,
        matrix: result.product && cells(result.product),
        caption: 'linear(onehot.float()) (n × d)',
        cols: dimCols,
        colLabel: label,
        cellClass: differs,
      },
      tokenHeat('product', result.product?.data),
    );
}

// Marks token k (null: none) in the heatmaps of boxes, beside the selected token's outline.
function linkHeatmaps(boxes, k) {
  for (const box of Object.values(boxes)) {
    const parts = box && heatmaps.get(box);
    if (parts)
      parts.heatmap.link(k === null ? null : parts.band(k), k === null ? null : tokenColor(k));
  }
}

// One titled table box: the title is a heading on the page (h3; <embedding-demo> turns its
// headings into plain text, see element/embedding-demo.mjs).
const box = (name, title, note) => `<div class="matrix-item" data-item="${name}">
    <h3 class="matrix-title">${title}</h3>
    <p class="route-note">${note}</p>
    <div class="table-box" data-box="${name}"></div>
  </div>`;

const LOOKUP = box(
  'lookup',
  'Lookup: <code>embedding(idx)</code>',
  'Copies row <var>id</var> of <var>W</var> for each token.',
);
const PRODUCT = box(
  'product',
  'Product: <code>linear(onehot.float())</code>',
  'One-hot rows times <var>W</var>, every multiply-add done.',
);
const WEIGHT = box(
  'weight',
  '<var>W</var>: <code>embedding.weight</code>',
  'The rows the tokens look up are highlighted.',
);
const ONEHOT = box(
  'onehot',
  'One-hot: <code>F.one_hot(idx, V)</code>',
  "One 1 per row, in the column of the token's id.",
);
const LINEAR = box(
  'linear',
  '<var>W</var><sup>T</sup>: <code>linear.weight</code>',
  '<code>nn.Linear(V, d)</code> stores its weight as <var>d</var> × <var>V</var>; ' +
    '<code>linear(x)</code> computes <code>x @ linear.weight.T</code>.',
);
const operator = (symbol, name) =>
  `<span class="operator" role="img" aria-label="${name}">${symbol}</span>`;

// Under the picture in backward mode, where the verdict is the gradient's, the forward pass's
// tables give way to a pointer to the Backward view's (its section on the page).
const GRADIENT_NOTE = `<p class="route-note" data-part="gradient-note" hidden>The picture shows
  the gradient: both routes of <var>dW</var>, <code>embedding.weight.grad</code> and
  <code>onehot.T @ G</code>, side by side, are in <a href="#backward">Backward</a>.</p>`;

// A view of tables in constant markup (its boxes above), redrawn for each new result or token.
// followsPicture: the forward tables give way to GRADIENT_NOTE while the picture is in backward
// mode.
function tablesView(title, markup, { followsPicture = false } = {}) {
  return {
    title,
    build(container, { store, lab }) {
      container.append(fragment(markup));
      const tables = container.firstElementChild;
      if (followsPicture) container.append(fragment(GRADIENT_NOTE));
      const note = container.querySelector('[data-part="gradient-note"]');
      const boxes = byData(container, 'box');
      tableRegions(container);
      const hooks = {
        onHover: (k) => store.set({ hovered: k }),
        onPick: (k) => store.set({ step: k }),
      };
      return {
        update(state, changed) {
          const { result, step, hovered } = state;
          if (result && (changed.has('result') || changed.has('step'))) {
            renderMatrices(
              boxes,
              result,
              step,
              differingCells(result.comparison?.grade, result.dim),
              hooks,
              lab.formatElements,
            );
          }
          if (changed.has('hovered') || changed.has('result')) linkHeatmaps(boxes, hovered);
          if (note && changed.has('pictureMode')) {
            const gradient = state.pictureMode === 'backward';
            tables.hidden = gradient;
            note.hidden = !gradient;
          }
          markBusy(container, state);
        },
      };
    },
  };
}

export const routesView = tablesView(
  'Lookup and one-hot product',
  `<div class="side-by-side">${LOOKUP}${PRODUCT}</div>`,
  { followsPicture: true },
);
export const matricesView = tablesView(
  'The matrices',
  `<div class="matrix-grid">${WEIGHT}${ONEHOT}${LINEAR}</div>`,
);
export const lookupView = tablesView(
  'Embedding lookup',
  `<div class="matrix-grid">${WEIGHT}${LOOKUP}</div>`,
);
export const onehotProductView = tablesView(
  'One-hot product',
  `<div class="matrix-grid equation">${ONEHOT}<div class="term">${operator('×', 'times')}${WEIGHT}</div>` +
    `<div class="term">${operator('=', 'equals')}${PRODUCT}</div></div>`,
);
