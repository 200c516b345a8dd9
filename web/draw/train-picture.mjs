// The Train view's pictures: W with the rows the last step changed lit in the colour of why,
// and the rows × steps timeline. Why a row changed is carried three ways: its colour, its shape
// (one glyph per cause) and its words (lab.rowCauses' text), so colour is never the only one.
// Rows stand for vocabulary ids (data-vocab), which views/linking.mjs links with the page.
import { element } from './dom.mjs';
import { morphChildren } from './morph.mjs';
import { countShown } from '../model/shown-indices.mjs';

// One shape per cause, in the core's order of causes (lab.rowCauses).
const GLYPHS = ['●', '■', '▲', '◆', '★'];
export const causeGlyph = (cause) => GLYPHS[cause % GLYPHS.length];

// Where `row` is among a step's changed rows, which are ascending (weight decay changes all V of
// them), or -1: a binary search.
function indexOf(rows, row) {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid] < row) lo = mid + 1;
    else hi = mid;
  }
  return rows[lo] === row ? lo : -1;
}

// Why a step changed `row` (an index into lab.rowCauses), or undefined.
export function causeOf({ rows, causes }, row) {
  const i = indexOf(rows, row);
  return i < 0 ? undefined : causes[i];
}

// The words of why a step changed `row`: its cause's, or for a row of the batch with a role (an
// input, a target or both, of next-token training), the role's (lab.batchRoles). changed: the
// step's { rows, causes, roles? }.
export function changeText(changed, row, causes, roles) {
  const i = indexOf(changed.rows, row);
  const role = changed.roles?.[i] ?? 0;
  return role > 0 ? roles[role].text : causes[changed.causes[i]].text;
}

// The picture of W is about its rows: of more columns than this, the first WEIGHT_COLS - 1 and
// an ellipsis, which keeps the page's DOM small at V = 4096, d = 64.
const WEIGHT_COLS = 5;
export const weightCols = (d) =>
  d <= WEIGHT_COLS
    ? Array.from({ length: d }, (_, j) => j)
    : [...Array.from({ length: WEIGHT_COLS - 1 }, (_, j) => j), null];

function headerCell(text, scope, className) {
  const th = element('th', className, text);
  th.scope = scope;
  return th;
}

// <span class="cause-mark cause-NAME">● in the batch</span>; short: the glyph, the words for
// screen readers only; text: other words than the cause's (a batch row's role).
export function causeMark(causes, cause, { short = false, text = causes[cause].text } = {}) {
  const { name } = causes[cause];
  const mark = element('span', `cause-mark cause-${name}`);
  mark.append(element('span', 'cause-glyph', causeGlyph(cause)));
  mark.firstChild.setAttribute('aria-hidden', 'true');
  mark.append(element('span', short ? 'visually-hidden' : 'cause-text', text));
  if (short) mark.title = text;
  return mark;
}

// The legend: every cause with its glyph, colour and words.
export function drawLegend(list, causes) {
  list.replaceChildren(
    ...causes.map(({ name, text }, c) => {
      const item = element('li', `cause-mark cause-${name}`);
      const glyph = element('span', 'cause-glyph', causeGlyph(c));
      glyph.setAttribute('aria-hidden', 'true');
      item.append(glyph, text);
      return item;
    }),
  );
}

// spec: { lab, weight (V, d: a matrix, or { rows, cols, at(i, j) } of the rows drawn), rows,
// cols (shownIndices lists), changed: the last step's { rows, causes, roles? } or null, causes
// (lab.rowCauses), roles (lab.batchRoles, with roles), picked (a row or null), padding (a row or
// null), caption, lit (the step just taken, whose rows light up, or null), rowLabel(i) (words
// beside a row's number, or none) }. Each row's header is a button that picks it. Drawn again,
// only what changed is written (morph.mjs).
export function drawWeights(box, spec) {
  const { lab, weight, rows, cols, changed, causes } = spec;
  const d = weight.cols;
  const at = weight.at ?? ((i, j) => weight.data[i * d + j]);
  const shown = [];
  for (const i of rows) if (i !== null) for (const j of cols) if (j !== null) shown.push(at(i, j));
  const texts = lab.formatElements(shown);
  const scale = shown.reduce((m, x) => (Number.isFinite(x) ? Math.max(m, Math.abs(x)) : m), 0) || 1;

  const table = element('table', 'matrix train-weights');
  const parts = [];
  if (countShown(rows) < weight.rows) parts.push(`${countShown(rows)} of ${weight.rows} rows`);
  if (countShown(cols) < d) parts.push(`${countShown(cols)} of ${d} columns`);
  table.append(
    element(
      'caption',
      '',
      `${spec.caption}: ${weight.rows} × ${d}` +
        (parts.length ? ` (showing ${parts.join(', ')})` : ''),
    ),
  );
  const head = element('tr');
  head.append(
    headerCell('row', 'col', 'corner'),
    ...cols.map((j) => headerCell(j === null ? '…' : String(j), 'col', j === null ? 'gap' : '')),
    headerCell('changed', 'col', 'why'),
  );
  const thead = element('thead');
  thead.append(head);
  const body = element('tbody');
  let next = 0;
  for (const i of rows) {
    const tr = element('tr');
    if (i === null) {
      tr.className = 'gap';
      tr.append(
        element('th', '', '⋮'),
        ...cols.map(() => element('td', 'gap', '⋮')),
        element('td', 'why'),
      );
      body.append(tr);
      continue;
    }
    const cause = changed ? causeOf(changed, i) : undefined;
    tr.dataset.vocab = String(i);
    tr.className = [
      cause === undefined
        ? ''
        : `changed cause-${causes[cause].name}${spec.lit ? ` lit lit-${spec.lit % 2}` : ''}`,
      i === spec.picked ? 'picked' : '',
      i === spec.padding ? 'padding' : '',
    ]
      .filter(Boolean)
      .join(' ');
    const th = element('th');
    th.scope = 'row';
    const pick = element('button', 'row-pick', String(i));
    pick.type = 'button';
    pick.dataset.row = String(i);
    pick.setAttribute('aria-pressed', String(i === spec.picked));
    pick.setAttribute('aria-label', `row ${i}: show its optimizer state`);
    th.append(pick);
    if (spec.rowLabel) th.append(element('span', 'row-token', spec.rowLabel(i)));
    tr.append(th);
    for (const j of cols) {
      if (j === null) {
        tr.append(element('td', 'gap', '…'));
        continue;
      }
      const value = at(i, j);
      const td = element('td', value < 0 ? 'neg' : 'pos', texts[next++]);
      td.style.setProperty(
        '--m',
        Number.isFinite(value) ? (Math.abs(value) / scale).toFixed(3) : '1',
      );
      tr.append(td);
    }
    const why = element('td', 'why');
    if (cause !== undefined)
      why.append(causeMark(causes, cause, { text: changeText(changed, i, causes, spec.roles) }));
    tr.append(why);
    body.append(tr);
  }
  table.append(thead, body);
  morphInto(box, table);
}

// box's content becomes table, written where it changed.
function morphInto(box, table) {
  const holder = element('div');
  holder.append(table);
  morphChildren(box, holder);
}

// spec: { rows (shownIndices), columns ([{ label, detail }]: a step each, taken or to come),
// history (the steps taken among them: { rows, causes, roles? } of each), causes, roles,
// picked, caption, rowLabel(i) (as drawWeights') }: a cell per row and step, marked where that step changed the row, '·' where
// it did not, empty for the steps to come.
export function drawTimeline(box, spec) {
  const { rows, columns, history, causes } = spec;
  const table = element('table', 'matrix train-timeline');
  table.append(element('caption', '', spec.caption ?? 'Rows changed, step by step'));
  const head = element('tr');
  head.append(
    headerCell('row', 'col', 'corner'),
    ...columns.map(({ label, detail }, k) => {
      const th = headerCell('', 'col', k < history.length ? 'taken' : 'future');
      th.append(label, element('small', 'train-batch', detail));
      return th;
    }),
  );
  const thead = element('thead');
  thead.append(head);
  const body = element('tbody');
  for (const i of rows) {
    const tr = element('tr');
    if (i === null) {
      tr.className = 'gap';
      tr.append(element('th', '', '⋮'), ...columns.map(() => element('td', 'gap', '⋮')));
      body.append(tr);
      continue;
    }
    tr.dataset.vocab = String(i);
    if (i === spec.picked) tr.className = 'picked';
    const th = headerCell(String(i), 'row', '');
    if (spec.rowLabel) th.append(element('span', 'row-token', spec.rowLabel(i)));
    tr.append(th);
    columns.forEach((_, k) => {
      if (k >= history.length) {
        tr.append(element('td', 'future'));
        return;
      }
      const cause = causeOf(history[k], i);
      const td = element(
        'td',
        cause === undefined ? 'same' : `changed cause-${causes[cause].name}`,
      );
      if (cause === undefined) {
        td.textContent = '·';
        td.title = 'unchanged';
      } else {
        // The glyph in the cause's colour, its words for the pointer and for screen readers:
        // one element a cell, as a long timeline has hundreds.
        const text = changeText(history[k], i, causes, spec.roles);
        td.title = text;
        td.append(element('span', 'visually-hidden', text), causeGlyph(cause));
      }
      tr.append(td);
    });
    body.append(tr);
  }
  table.append(thead, body);
  morphInto(box, table);
}
