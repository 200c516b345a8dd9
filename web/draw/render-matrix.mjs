// One matrix as an HTML table: a caption, column and row headers, cells in PyTorch's notation,
// skipped runs as ellipses. Text only (no HTML). Redrawing into a box that already holds a table
// resizes that table and rewrites only the cells whose text or classes changed, so typing one
// id costs a few DOM writes instead of thousands of new elements. Or (matrixText) the same
// matrix as printed text, for the tables below a first screen: an element per row, none per
// value.
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

// The text of each shown cell, in order: [[row label, cell, ...], ...] with the header row first
// (the corner, then the column labels), and the class of each cell that has one.
function textCells(spec) {
  const { matrix, rows, cols } = spec;
  const shown = shownValues(matrix, rows, cols);
  const texts = spec.formatElements(shown, shown, { integer: spec.integer });
  let next = 0;
  const colClass = spec.colClass ?? (() => '');
  const cellClass = spec.cellClass ?? (() => '');
  const header = [spec.corner, ...cols.map((j) => (j === null ? '…' : spec.colLabel(j)))];
  const body = rows.map((i) =>
    [i === null ? '⋮' : spec.rowLabel(i)].concat(
      cols.map((j) => {
        if (i === null) return { text: j === null ? '⋱' : '⋮', className: '' };
        if (j === null) return { text: '…', className: '' };
        const className = [colClass(j), cellClass(matrix.at(i, j), i, j)].filter(Boolean);
        return { text: texts[next++].trim(), className: className.join(' ') };
      }),
    ),
  );
  return { header, body };
}

// One line of a printed matrix: its cells' texts right-aligned to widths, two spaces apart; a cell
// with a class (or, for the column labels, a role: role(c)) is an element, the rest plain text.
function printedLine(cells, widths, role = () => null) {
  const parts = [];
  let run = '';
  cells.forEach(({ text, className }, c) => {
    const padded = `${c > 0 ? '  ' : ''}${text.padStart(widths[c])}`;
    const marked = role(c);
    if (!className && !marked) {
      run += padded;
      return;
    }
    const node = element('span', className, text);
    if (marked) setRole(node, marked.role, marked.index);
    parts.push(run + padded.slice(0, padded.length - text.length), node);
    run = '';
  });
  parts.push(run);
  return parts;
}

// spec as for matrixTable (rowClass and rowRole mark rows, colRole column labels; colClass and
// cellClass, the cells they name), and rowElements: each row an element even where nothing marks
// it (a view that links its rows by data-index). A figure: the caption, then the row labels (which stay in view
// while the values scroll sideways) beside the values, a line a row, each column right-aligned to
// its widest text. A row that is marked or stands for something (rowClass, rowRole) is an element
// (span.matrix-row, data-index), in both; the others, and the values, are text.
export function matrixText(spec) {
  const { matrix, rows, cols } = spec;
  const { header, body } = textCells(spec);
  const widths = header.map((label, c) =>
    Math.max(String(label).length, ...body.map((row) => (c === 0 ? row[0] : row[c].text).length)),
  );
  const figure = element('figure', 'matrix-text');
  const caption = element('figcaption', 'matrix-caption');
  caption.textContent = `${spec.caption}: ${matrix.rows} × ${matrix.cols}${summaryText(matrix, rows, cols)}`;
  const labels = element('pre', 'matrix-labels');
  const values = element('pre', 'matrix-values');
  labels.append(String(header[0]).padStart(widths[0]));
  values.append(
    ...printedLine(
      header.slice(1).map((label) => ({ text: String(label), className: '' })),
      widths.slice(1),
      (c) => (spec.colRole && cols[c] !== null ? { role: spec.colRole, index: cols[c] } : null),
    ),
  );
  const rowClass = spec.rowClass ?? (() => '');
  rows.forEach((i, r) => {
    const line = printedLine(body[r].slice(1), widths.slice(1));
    const label = body[r][0].padStart(widths[0]);
    const className = i === null ? '' : rowClass(i);
    if (i === null || (!className && !spec.rowRole && !spec.rowElements)) {
      labels.append(`\n${label}`);
      values.append('\n', ...line);
      return;
    }
    const nodes = [
      element('span', `matrix-row ${className}`.trim(), label),
      element('span', `matrix-row ${className}`.trim()),
    ];
    nodes[1].append(...line);
    for (const node of nodes) {
      node.dataset.index = String(i);
      setRole(node, spec.rowRole, i);
    }
    labels.append('\n', nodes[0]);
    values.append('\n', nodes[1]);
  });
  figure.append(caption, labels, values);
  return figure;
}
