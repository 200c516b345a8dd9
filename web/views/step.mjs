// Step through one token: which one-hot entry is 1, which row of W it selects, and the work
// each route does for it and for the whole batch, for the token the picker selects.
import { element } from '../draw/dom.mjs';
import { scrollRegion } from '../draw/scroll-region.mjs';
import { count, percent, vectorText } from '../model/format-number.mjs';
import { COL_CAP, shownIndices } from '../model/shown-indices.mjs';
import { termByTerm } from './term-by-term.mjs';

// "[0, 0, 1, 0]" with the 1 marked; summarised like PyTorch beyond COL_CAP entries.
function oneHotRow(vocab, id) {
  const out = element('code', 'vector');
  out.append('[');
  shownIndices(vocab, COL_CAP, [id]).forEach((j, i) => {
    if (i > 0) out.append(', ');
    if (j === null) out.append('…');
    else if (j === id) out.append(element('mark', '', '1'));
    else out.append('0');
  });
  out.append(']');
  return out;
}

// "0·W[0] + 0·W[1] + 1·W[2] + 0·W[3]", summarised for a big vocabulary.
function productSum(vocab, id) {
  const out = element('code', 'sum');
  shownIndices(vocab, 8, [id]).forEach((j, i) => {
    if (i > 0) out.append(' + ');
    if (j === null) out.append('…');
    else if (j === id) out.append(element('mark', '', `1·W[${j}]`));
    else out.append(`0·W[${j}]`);
  });
  return out;
}

function item(list, heading, ...content) {
  const li = element('li');
  li.append(element('strong', '', heading), ' ', ...content);
  list.append(li);
}

// "n·d = 15 copies", never breaking inside the formula.
function workCell(formula, amount) {
  const td = element('td');
  if (formula) td.append(element('span', 'nowrap', `${formula} =`), ' ');
  td.append(amount);
  return td;
}

function workTable(n, vocab, dim) {
  const table = element('table', 'work');
  table.append(element('caption', '', `The work for all n = ${count(n)} tokens`));
  const head = element('tr');
  for (const text of ['', 'lookup', 'one-hot product']) {
    const th = element('th', '', text);
    th.scope = 'col';
    head.append(th);
  }
  const thead = element('thead');
  thead.append(head);
  const tbody = element('tbody');
  const all = n * vocab * dim;
  const zeros = n * (vocab - 1) * dim;
  const rows = [
    [
      'operations',
      workCell('n·d', `${count(n * dim)} copies`),
      workCell('n·V·d', `${count(all)} multiply-adds`),
    ],
    [
      'multiplications by zero',
      workCell('', '0'),
      workCell('n·(V−1)·d', `${count(zeros)} (${percent(zeros, all)})`),
    ],
  ];
  for (const [name, lookup, product] of rows) {
    const tr = element('tr');
    const th = element('th', '', name);
    th.scope = 'row';
    tr.append(th, lookup, product);
    tbody.append(tr);
  }
  table.append(thead, tbody);
  return table;
}

// Fills detail with the explanation of token `current` of result.
function renderDetail(detail, lab, result, current) {
  const { ids, vocab, dim, weight, lookup, product } = result;
  const id = ids[current];
  const row = (m) => ({
    rows: 1,
    cols: dim,
    data: m.data.subarray(current * dim, (current + 1) * dim),
  });
  // While the product streams W, its row is not known yet.
  const same = product
    ? lab.compare(row(lookup), row(product)).grade
    : { state: 'computing', headline: 'not yet', sentence: 'the product is still reading W' };

  const list = element('ol', 'step-list');
  item(
    list,
    'One-hot row:',
    oneHotRow(vocab, id),
    `: a 1 in column ${id}, a 0 in the other ${count(vocab - 1)} columns.`,
  );
  item(
    list,
    'Lookup:',
    `copies row ${id} of W, `,
    element('code', 'vector', vectorText(lab, weight.row(id), 0, dim)),
    `: d = ${count(dim)} copies.`,
  );
  item(
    list,
    'Product:',
    'the one-hot row times W is ',
    productSum(vocab, id),
    `: V·d = ${count(vocab * dim)} multiply-adds, ${count((vocab - 1) * dim)} of them by zero, giving `,
    product ? element('code', 'vector', vectorText(lab, product.data, current * dim, dim)) : '…',
    '.',
  );
  item(list, 'Term by term:', termByTerm(lab, result, current));
  const verdict = element('span', `step-verdict ${same.state}`);
  verdict.append(element('strong', '', same.headline), `: ${same.sentence}`);
  item(list, 'Same row?', verdict);

  detail.replaceChildren(
    element(
      'p',
      'step-title',
      `idx[${current}] = ${id} (position ${count(current)} of 0–${count(ids.length - 1)})`,
    ),
    list,
    workTable(ids.length, vocab, dim),
  );
}

// The explanation of the token the picker (token-picker.mjs) selects.
export const stepView = {
  title: 'Step through one token',
  build(container, { lab }) {
    const detail = element('div', 'step-detail');
    detail.dataset.part = 'detail';
    container.append(detail);
    // Its sums and work table may be wider than a phone: a region the keyboard reaches then.
    scrollRegion(detail, () => 'Step through one token');
    return {
      update({ result, step }, changed) {
        if (result && (changed.has('result') || changed.has('step')))
          renderDetail(detail, lab, result, step);
      },
    };
  },
};
