// One matrix as an HTML table: a caption, column and row headers, cells in PyTorch's notation,
// skipped runs as ellipses. Text only (no HTML). Redrawing into a box that already holds a table
// resizes that table and rewrites only the cells whose text or classes changed, so typing one
// id costs a few DOM writes instead of thousands of new elements.
import { element } from './dom.mjs';
import { tensorFormatter } from './format-number.mjs';
import { countShown } from './shown-indices.mjs';

function shownValues(matrix, rows, cols) {
  const values = [];
  for (const i of rows) {
    if (i === null) continue;
    for (const j of cols) if (j !== null) values.push(matrix.at(i, j));
  }
  return values;
}

function summaryText(matrix, rows, cols) {
  const parts = [];
  if (countShown(rows) < matrix.rows) parts.push(`${countShown(rows)} of ${matrix.rows} rows`);
  if (countShown(cols) < matrix.cols) parts.push(`${countShown(cols)} of ${matrix.cols} columns`);
  return parts.length ? ` (showing ${parts.join(', ')})` : '';
}

// Sets a node's classes and text where they differ (an unchanged node is not restyled).
function setCell(node, className, text) {
  if (node.className !== className) node.className = className;
  if (node.textContent !== text) node.textContent = text;
}

// Gives row `count` cells after its header cell, new ones made by make().
function resizeCells(row, count, make) {
  while (row.cells.length > count + 1) row.lastChild.remove();
  while (row.cells.length < count + 1) row.append(make());
}

function headerCell(scope, className) {
  const th = element('th', className);
  th.scope = scope;
  return th;
}

// spec: {
//   matrix: { rows, cols, at(i, j) }  the cells
//   rows, cols: shownIndices() lists  null marks a skipped run
//   caption: string                   the shape and the summary are appended
//   corner: string                    what the row headers count (e.g. "id")
//   integer: boolean                  an integer tensor such as F.one_hot's
//   rowLabel(i), colLabel(j): header text
//   rowClass(i), colClass(j), cellClass(value): extra classes ('' for none)
// }
// Fills table (made by emptyTable()) with spec's matrix, reusing the rows and cells it has.
function fillTable(table, spec) {
  const { matrix, rows, cols } = spec;
  const format = tensorFormatter(shownValues(matrix, rows, cols), { integer: spec.integer });
  const rowClass = spec.rowClass ?? (() => '');
  const colClass = spec.colClass ?? (() => '');
  const cellClass = spec.cellClass ?? (() => '');

  table.caption.textContent =
    `${spec.caption}: ${matrix.rows} × ${matrix.cols}${summaryText(matrix, rows, cols)}`;
  const head = table.tHead.rows[0];
  resizeCells(head, cols.length, () => headerCell('col', ''));
  setCell(head.cells[0], 'corner', spec.corner);
  const columnClasses = cols.map((j) => (j === null ? 'gap' : colClass(j)));
  cols.forEach((j, c) => setCell(head.cells[c + 1], columnClasses[c], j === null ? '…' : spec.colLabel(j)));

  const body = table.tBodies[0];
  while (body.rows.length > rows.length) body.lastChild.remove();
  while (body.rows.length < rows.length) {
    const tr = element('tr');
    tr.append(headerCell('row', ''));
    body.append(tr);
  }
  rows.forEach((i, r) => {
    const tr = body.rows[r];
    const trClass = i === null ? 'gap' : rowClass(i);
    if (tr.className !== trClass) tr.className = trClass;
    if (i === null) delete tr.dataset.index;
    else if (tr.dataset.index !== String(i)) tr.dataset.index = String(i);
    resizeCells(tr, cols.length, () => element('td'));
    const cells = tr.cells;
    setCell(cells[0], '', i === null ? '⋮' : spec.rowLabel(i));
    cols.forEach((j, c) => {
      if (i === null || j === null) {
        setCell(cells[c + 1], 'gap', i === null && j === null ? '⋱' : i === null ? '⋮' : '…');
        return;
      }
      const value = matrix.at(i, j);
      const extra = cellClass(value);
      setCell(cells[c + 1],
        extra && columnClasses[c] ? `${columnClasses[c]} ${extra}` : extra || columnClasses[c],
        format(value));
    });
  });
}

function emptyTable() {
  const table = element('table', 'matrix');
  const thead = element('thead');
  thead.append(element('tr'));
  table.append(element('caption'), thead, element('tbody'));
  return table;
}

// A new table for spec.
export function matrixTable(spec) {
  const table = emptyTable();
  fillTable(table, spec);
  return table;
}

// Shows spec's table in box, redrawing the table already there in place.
export function renderMatrixTable(box, spec) {
  const existing = box.firstElementChild;
  if (box.childElementCount === 1 && existing.matches('table.matrix')) {
    fillTable(existing, spec);
  } else {
    box.replaceChildren(matrixTable(spec));
  }
}
