// The Train view's pictures: W with the rows the last step changed lit in the colour of why,
// and the rows × steps timeline. Why a row changed is carried three ways: its colour, its shape
// (one glyph per cause) and its words (lab.rowCauses' text), so colour is never the only one.
// Rows stand for vocabulary ids (data-vocab), which views/linking.mjs links with the page.
import { element } from './dom.mjs';
import { countShown } from '../model/shown-indices.mjs';

// One shape per cause, in the core's order of causes (lab.rowCauses).
const GLYPHS = ['●', '■', '▲', '◆', '★'];
export const causeGlyph = (cause) => GLYPHS[cause % GLYPHS.length];

// Why a step changed `row` (an index into lab.rowCauses), or undefined: a binary search of the
// step's changed rows, which are ascending (weight decay changes all V of them).
export function causeOf({ rows, causes }, row) {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid] < row) lo = mid + 1;
    else hi = mid;
  }
  return rows[lo] === row ? causes[lo] : undefined;
}

function headerCell(text, scope, className) {
  const th = element('th', className, text);
  th.scope = scope;
  return th;
}

// <span class="cause-mark cause-NAME">● in the batch</span>; short: the glyph, the words for
// screen readers only.
export function causeMark(causes, cause, { short = false } = {}) {
  const { name, text } = causes[cause];
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

// spec: { lab, weight (V, d), rows, cols (shownIndices lists), changed: the last step's
// { rows, causes } or null, causes (lab.rowCauses), picked (a row or null), padding (a row or
// null), caption, lit (light the changed rows up: a step has just been taken) }. Each row's
// header is a button that picks it.
export function drawWeights(box, spec) {
  const { lab, weight, rows, cols, changed, causes } = spec;
  const d = weight.cols;
  const shown = [];
  for (const i of rows)
    if (i !== null) for (const j of cols) if (j !== null) shown.push(weight.data[i * d + j]);
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
      cause === undefined ? '' : `changed cause-${causes[cause].name}${spec.lit ? ' lit' : ''}`,
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
    tr.append(th);
    for (const j of cols) {
      if (j === null) {
        tr.append(element('td', 'gap', '…'));
        continue;
      }
      const value = weight.data[i * d + j];
      const td = element('td', value < 0 ? 'neg' : 'pos', texts[next++]);
      td.style.setProperty(
        '--m',
        Number.isFinite(value) ? (Math.abs(value) / scale).toFixed(3) : '1',
      );
      tr.append(td);
    }
    const why = element('td', 'why');
    if (cause !== undefined) why.append(causeMark(causes, cause));
    tr.append(why);
    body.append(tr);
  }
  table.append(thead, body);
  box.replaceChildren(table);
}

// spec: { rows (shownIndices), batches (the ids of every batch), history (the steps taken:
// { rows, causes } of each), causes, picked }: a cell per row and batch, marked where that step
// changed the row, '·' where it did not, empty for the steps to come.
export function drawTimeline(box, spec) {
  const { rows, batches, history, causes } = spec;
  const table = element('table', 'matrix train-timeline');
  table.append(element('caption', '', 'Rows changed, step by step'));
  const head = element('tr');
  head.append(
    headerCell('row', 'col', 'corner'),
    ...batches.map((batch, k) => {
      const th = headerCell('', 'col', k < history.length ? 'taken' : 'future');
      th.append(`${k + 1}`, element('small', 'train-batch', `[${Array.from(batch).join(', ')}]`));
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
      tr.append(element('th', '', '⋮'), ...batches.map(() => element('td', 'gap', '⋮')));
      body.append(tr);
      continue;
    }
    tr.dataset.vocab = String(i);
    if (i === spec.picked) tr.className = 'picked';
    tr.append(headerCell(String(i), 'row', ''));
    batches.forEach((_, k) => {
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
        td.append(causeMark(causes, cause, { short: true }));
      }
      tr.append(td);
    });
    body.append(tr);
  }
  table.append(thead, body);
  box.replaceChildren(table);
}
