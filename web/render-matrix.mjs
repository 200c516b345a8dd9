// One matrix as an HTML table: a caption, column and row headers, cells in PyTorch's notation,
// skipped runs as ellipses. Built off-document in a DocumentFragment, text only (no HTML).
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

// spec: {
//   matrix: { rows, cols, at(i, j) }  the cells
//   rows, cols: shownIndices() lists  null marks a skipped run
//   caption: string                   the shape and the summary are appended
//   corner: string                    what the row headers count (e.g. "id")
//   integer: boolean                  an integer tensor such as F.one_hot's
//   rowLabel(i), colLabel(j): header text
//   rowClass(i), colClass(j), cellClass(value): extra classes ('' for none)
// }
export function matrixTable(spec) {
  const { matrix, rows, cols } = spec;
  const format = tensorFormatter(shownValues(matrix, rows, cols), { integer: spec.integer });
  const rowClass = spec.rowClass ?? (() => '');
  const colClass = spec.colClass ?? (() => '');
  const cellClass = spec.cellClass ?? (() => '');

  const table = element('table', 'matrix');
  table.append(element('caption', '',
    `${spec.caption}: ${matrix.rows} × ${matrix.cols}${summaryText(matrix, rows, cols)}`));

  const head = element('tr');
  const corner = element('th', 'corner', spec.corner);
  corner.scope = 'col';
  head.append(corner);
  for (const j of cols) {
    const th = element('th', j === null ? 'gap' : colClass(j), j === null ? '…' : spec.colLabel(j));
    th.scope = 'col';
    head.append(th);
  }
  const thead = element('thead');
  thead.append(head);

  const columnClasses = cols.map((j) => (j === null ? 'gap' : colClass(j)));
  const body = document.createDocumentFragment();
  for (const i of rows) {
    const tr = element('tr', i === null ? 'gap' : rowClass(i));
    const th = element('th', '', i === null ? '⋮' : spec.rowLabel(i));
    th.scope = 'row';
    tr.append(th);
    cols.forEach((j, c) => {
      if (i === null || j === null) {
        tr.append(element('td', 'gap', i === null && j === null ? '⋱' : i === null ? '⋮' : '…'));
        return;
      }
      const value = matrix.at(i, j);
      const extra = cellClass(value);
      const classes = extra && columnClasses[c] ? `${columnClasses[c]} ${extra}` : extra || columnClasses[c];
      tr.append(element('td', classes, format(value)));
    });
    if (i !== null) tr.dataset.index = String(i);
    body.append(tr);
  }
  const tbody = element('tbody');
  tbody.append(body);
  table.append(thead, tbody);
  return table;
}
