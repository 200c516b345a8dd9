// What the positions view's picture (views/positions-picture.mjs) shows, as data: one row b of
// the batch, token rows + position rows = input rows,
//   token_embeddings[b] (T × d) + pos_embeddings (T × d) = input_embeddings[b] (T × d),
// row t of each level with row t of the others, values as colours on one diverging scale (so
// that the colours add as the numbers do) and numbers where a cell is wide enough, each grid in
// the notation PyTorch prints that tensor in. Side by side where the three fit with their
// numbers, else one under another. Pure: no DOM; draw/picture-paint.mjs's paint() draws it.
import { dimWindows, HEADER, LABEL_CHAR, NUMBER_CELL, offsets, units } from './picture-layout.mjs';
import { count } from './format-number.mjs';
import { numberSize } from './picture-scene.mjs';

const MAX_CELL = 56; // px
const MIN_CELL = 9; // px
const ROW = 24; // px: a row's height
const OPERATOR = 26; // px: the room of "+" and "="
const EDGE = 4; // px right of the last grid
const NAMES = 20; // px below each grid: its name and shape
const NAME_CHAR = 7.2; // px per character of a grid's name (12 px monospace)
const SHAPE_CHAR = 6; // px per character of a grid's shape (11 px sans-serif), at most

// The grids' row labels: a token row by its place in the batch and its id, "[0, 3] 1464"; a
// position row by its position, "[3]".
export const tokenRowLabel = (b, t, id) => `[${b}, ${t}] ${id}`;
export const positionRowLabel = (t) => `[${t}]`;

// The columns drawn and the cells' width for `width` px: the widest window of d's columns
// (dimWindows()) whose cells hold numbers, side by side if one does, else stacked; with none,
// every column as a bare colour, stacked.
function fit(width, dim, labels) {
  const windows = dimWindows(dim);
  for (const stacked of [false, true]) {
    const fixed =
      EDGE + (stacked ? labels.widest : labels.tokens + labels.positions + 2 * OPERATOR);
    for (const columns of windows) {
      const room = stacked ? width - fixed : (width - fixed) / 3;
      const cell = Math.floor(Math.min(MAX_CELL, room / units(columns)));
      if (cell >= NUMBER_CELL) return { stacked, columns, cell, numbers: true };
    }
  }
  const columns = windows[0];
  const cell = Math.floor(
    Math.max(MIN_CELL, Math.min(MAX_CELL, (width - EDGE - labels.widest) / units(columns))),
  );
  return { stacked: true, columns, cell, numbers: false };
}

// grids: { tokens, pos, sum }, each { rows: T, cols: d, data } (row b of the batch for tokens
// and sum); ids: the T ids of row b; b: which row of the batch; width: px;
// formatElements: lab.formatElements (PyTorch's notation for the values it is given).
// Returns { cells: [{ grid, t, column, x, y, width, value, number }], texts: [{ kind, x, y,
// text, align }], row, cell, width, height, scale, numbers, numberSize, stacked }.
export function positionsScene({ tokens, pos, sum, ids, b }, width, formatElements) {
  const T = pos.rows;
  const dim = pos.cols;
  const tokenLabels = Array.from({ length: T }, (_, t) => tokenRowLabel(b, t, ids[t]));
  const labelRoom = (labels) => Math.max(...labels.map((l) => l.length)) * LABEL_CHAR + 8;
  const labels = {
    tokens: labelRoom(tokenLabels),
    positions: labelRoom([positionRowLabel(T - 1)]),
  };
  labels.widest = Math.max(labels.tokens, labels.positions);
  const { stacked, columns, cell, numbers } = fit(width, dim, labels);
  const grids = [
    { grid: 'tokens', matrix: tokens, name: `token_embeddings[${b}]`, labels: tokenLabels },
    {
      grid: 'pos',
      matrix: pos,
      name: 'pos_embeddings',
      labels: Array.from({ length: T }, (_, t) => positionRowLabel(t)),
    },
    {
      grid: 'sum',
      matrix: sum,
      name: `input_embeddings[${b}]`,
      // Level with the token rows side by side; stacked, its own.
      labels: Array.from({ length: T }, (_, t) => `[${b}, ${t}]`),
    },
  ];
  const gridHeight = HEADER + T * ROW + NAMES;
  const scene = { cells: [], texts: [], row: ROW, cell, stacked, numbers, numberSize: null };
  const text = (x, y, kind, content, align = 'center') =>
    scene.texts.push({ x, y, kind, text: content, align });
  // Each grid's left edge and top, and where its operator stands.
  const places = stacked
    ? grids.map((g, i) => ({ x: labels.widest, y: i * (gridHeight + OPERATOR) }))
    : [
        { x: labels.tokens, y: 0 },
        { x: labels.tokens + units(columns) * cell + OPERATOR + labels.positions, y: 0 },
        { x: labels.tokens + 2 * (units(columns) * cell + OPERATOR) + labels.positions, y: 0 },
      ];
  const valued = [];
  grids.forEach(({ grid, matrix, name, labels: rowLabels }, i) => {
    const { x, y } = places[i];
    const xs = offsets(columns, cell, x);
    columns.forEach((j, c) =>
      text(
        j === null ? xs.at[c] + cell / 4 : xs.at[c] + cell / 2,
        y + HEADER - 5,
        j === null ? 'gap' : 'label',
        j === null ? '…' : String(j),
      ),
    );
    const cells = [];
    for (let t = 0; t < T; ++t) {
      const top = y + HEADER + t * ROW;
      if (stacked || grid !== 'sum')
        text(x - 5, top + ROW / 2 + 3.5, 'label', rowLabels[t], 'right');
      columns.forEach((j, c) => {
        if (j === null) return;
        cells.push({
          grid,
          t,
          column: j,
          x: xs.at[c],
          y: top,
          width: cell,
          value: matrix.data[t * dim + j],
        });
      });
    }
    // Each grid in the notation PyTorch prints it in: that of all its T × d values.
    if (numbers) {
      const texts = formatElements(
        matrix.data,
        cells.map((c) => c.value),
      );
      cells.forEach((c, k) => {
        c.number = texts[k];
      });
    }
    valued.push(...cells);
    // The name and shape, one line centred under the grid.
    const nameY = y + HEADER + T * ROW + 14;
    const shape = `${count(T)} × ${count(dim)}`;
    const start = Math.max(
      0,
      (x + xs.end - name.length * NAME_CHAR - 6 - shape.length * SHAPE_CHAR) / 2,
    );
    text(start, nameY, 'name', name, 'left');
    text(start + name.length * NAME_CHAR + 6, nameY, 'shape', shape, 'left');
    if (i > 0) {
      const symbol = i === 1 ? '+' : '=';
      if (stacked) text(labels.widest / 2, y - OPERATOR / 2, 'operator', symbol);
      else
        text(
          x - (i === 1 ? labels.positions : 0) - OPERATOR / 2,
          y + HEADER + (T * ROW) / 2,
          'operator',
          symbol,
        );
    }
  });
  if (numbers) {
    scene.numberSize = numberSize(
      cell,
      valued.map((c) => c.number),
    );
    scene.numbers = scene.numberSize !== null;
    if (!scene.numbers) for (const c of valued) c.number = undefined;
  }
  scene.cells = valued;
  // One scale for the three: a token's colour and its position's add up to the sum's.
  scene.scale =
    valued.reduce(
      (max, c) => (Number.isFinite(c.value) ? Math.max(max, Math.abs(c.value)) : max),
      0,
    ) || 1;
  const last = places.at(-1);
  scene.width = Math.ceil(last.x + units(columns) * cell + EDGE);
  scene.height = last.y + gridHeight;
  return scene;
}
