// One matrix as an HTML table: a caption, column and row headers, cells in PyTorch's notation,
// skipped runs as ellipses. Text only (no HTML). Redrawing into a box that already holds a table
// resizes that table and rewrites only the cells whose text or classes changed, so typing one
// id costs a few DOM writes instead of thousands of new elements.
import { element } from './dom.mjs';
import { countShown } from '../model/shown-indices.mjs';

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

// What each row's cells show, kept beside the DOM so a redraw compares without reading it.
const drawn = new WeakMap(); // <tr> -> { classes: string[], texts: string[] }, one per cell

// Gives row `count` cells after its header cell, new ones made by make(); returns its record.
function resizeCells(row, count, make) {
  if (!drawn.has(row)) drawn.set(row, { classes: [], texts: [] });
  const record = drawn.get(row);
  while (row.cells.length > count + 1) row.lastChild.remove();
  while (row.cells.length < count + 1) row.append(make());
  for (let c = record.classes.length; c < row.cells.length; ++c) {
    record.classes.push(row.cells[c].className);
    record.texts.push(row.cells[c].textContent);
  }
  record.classes.length = record.texts.length = row.cells.length;
  return record;
}

// Sets cell c of a row to className and text where they differ (unchanged cells are not restyled).
function setCell(row, record, c, className, text) {
  if (record.classes[c] !== className) row.cells[c].className = record.classes[c] = className;
  if (record.texts[c] !== text) row.cells[c].textContent = record.texts[c] = text;
}

// data-token="i" or data-vocab="i" on node for role 'token' or 'vocab'; nothing for a gap.
function setRole(node, role, i) {
  for (const other of ['token', 'vocab']) {
    const value = other === role && i !== null ? String(i) : undefined;
    if (node.dataset[other] !== value) {
      if (value === undefined) delete node.dataset[other];
      else node.dataset[other] = value;
    }
  }
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
//   rowClass(i), colClass(j), cellClass(value, i, j): extra classes ('' for none)
//   formatElements: lab.formatElements, which writes the shown cells in PyTorch's notation
//   rowRole, colRole: 'token' | 'vocab' | undefined: what a row's index (or a column header's)
//                     stands for, written as data-token or data-vocab, which views/linking.mjs reads
// }
// Fills table (made by emptyTable()) with spec's matrix, reusing the rows and cells it has.
function fillTable(table, spec) {
  const { matrix, rows, cols } = spec;
  const shown = shownValues(matrix, rows, cols);
  const texts = spec.formatElements(shown, shown, { integer: spec.integer });
  let next = 0; // the cells come in the order of shownValues()
  const rowClass = spec.rowClass ?? (() => '');
  const colClass = spec.colClass ?? (() => '');
  const cellClass = spec.cellClass ?? (() => '');

  table.caption.textContent = `${spec.caption}: ${matrix.rows} × ${matrix.cols}${summaryText(matrix, rows, cols)}`;
  const head = table.tHead.rows[0];
  const headRecord = resizeCells(head, cols.length, () => headerCell('col', ''));
  setCell(head, headRecord, 0, 'corner', spec.corner);
  const columnClasses = cols.map((j) => (j === null ? 'gap' : colClass(j)));
  cols.forEach((j, c) => {
    setCell(head, headRecord, c + 1, columnClasses[c], j === null ? '…' : spec.colLabel(j));
    setRole(head.cells[c + 1], spec.colRole, j);
  });

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
    setRole(tr, spec.rowRole, i);
    const record = resizeCells(tr, cols.length, () => element('td'));
    setCell(tr, record, 0, '', i === null ? '⋮' : spec.rowLabel(i));
    cols.forEach((j, c) => {
      if (i === null || j === null) {
        setCell(tr, record, c + 1, 'gap', i === null && j === null ? '⋱' : i === null ? '⋮' : '…');
        return;
      }
      const value = matrix.at(i, j);
      const extra = cellClass(value, i, j);
      setCell(
        tr,
        record,
        c + 1,
        extra && columnClasses[c] ? `${columnClasses[c]} ${extra}` : extra || columnClasses[c],
        texts[next++],
      );
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
