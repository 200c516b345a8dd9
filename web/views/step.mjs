// Step through one token: which one-hot entry is 1, which row of W it selects, and the work
// each route does for it and for the whole batch. The token picker is a radio group of buttons
// with one tab stop (arrow keys, Home and End move), plus previous/next buttons.
import { byData, element, fragment, radioKeyTarget } from '../draw/dom.mjs';
import { count, percent, vectorText } from '../model/format-number.mjs';
import { COL_CAP, ROW_CAP, shownIndices } from '../model/shown-indices.mjs';
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
    ['operations', workCell('n·d', `${count(n * dim)} copies`),
     workCell('n·V·d', `${count(all)} multiply-adds`)],
    ['multiplications by zero', workCell('', '0'),
     workCell('n·(V−1)·d', `${count(zeros)} (${percent(zeros, all)})`)],
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

// elements: { tokens, prev, next, detail }; onPick(step) is called when the learner moves.
function createStepThrough(lab, elements, onPick) {
  const { tokens, prev, next, detail } = elements;
  let n = 0;
  let current = 0;

  const pick = (step) => {
    if (n > 0 && step >= 0 && step < n && step !== current) onPick(step);
  };
  prev.addEventListener('click', () => pick(current - 1));
  next.addEventListener('click', () => pick(current + 1));
  tokens.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-step]');
    if (button) pick(Number(button.dataset.step));
  });
  tokens.addEventListener('keydown', (event) => {
    const step = radioKeyTarget(event.key, current, n);
    if (step === null) return;
    event.preventDefault();
    pick(step);
  });

  // A gap ("…") or a token button of the radio group, before updateToken() fills it in.
  function tokenNode(gap) {
    if (gap) return element('span', 'gap', '…');
    const button = element('button', 'token');
    button.type = 'button';
    button.setAttribute('role', 'radio');
    return button;
  }

  function updateToken(button, k, ids) {
    const set = (name, value) => {
      if (button.getAttribute(name) !== value) button.setAttribute(name, value);
    };
    const text = String(ids[k]);
    if (button.textContent !== text) button.textContent = text;
    set('data-step', String(k));
    set('data-token', String(k));
    set('aria-checked', String(k === current));
    set('aria-label', `token ${k + 1} of ${ids.length}, id ${ids[k]}`);
    set('tabindex', k === current ? '0' : '-1');
  }

  // The picker's children, reused in place: a redraw rewrites only what differs, so a button
  // keeps its identity (and the keyboard focus) while the ids around it change.
  function renderTokens(ids) {
    // The document's focus, or the shadow root's inside an <embedding-demo>.
    const focused = tokens.getRootNode().activeElement;
    const onToken = tokens.contains(focused);
    const shown = shownIndices(ids.length, ROW_CAP, [current]);
    while (tokens.childElementCount > shown.length) tokens.lastElementChild.remove();
    shown.forEach((k, i) => {
      const old = tokens.children[i];
      const wanted = k === null ? 'SPAN' : 'BUTTON';
      const node = old?.tagName === wanted ? old : tokenNode(k === null);
      if (node !== old) {
        if (old) old.replaceWith(node);
        else tokens.append(node);
      }
      if (k !== null) updateToken(node, k, ids);
    });
    prev.disabled = current === 0;
    next.disabled = current === ids.length - 1;
    // Keep the focus on the picker: on the chosen token, also when a button it was on is disabled.
    if (onToken || ((focused === prev || focused === next) && focused.disabled)) {
      tokens.querySelector('[aria-checked="true"]').focus();
    }
  }

  function renderDetail(result) {
    const { ids, vocab, dim, weight, lookup, product } = result;
    const id = ids[current];
    const row = (m) => ({ rows: 1, cols: dim, data: m.data.subarray(current * dim, (current + 1) * dim) });
    const same = lab.compare(row(lookup), row(product)).grade;

    const list = element('ol', 'step-list');
    item(list, 'One-hot row:', oneHotRow(vocab, id),
         `: a 1 in column ${id}, a 0 in the other ${count(vocab - 1)} columns.`);
    item(list, 'Lookup:', `copies row ${id} of W, `,
         element('code', 'vector', vectorText(lab, weight.data, id * dim, dim)),
         `: d = ${count(dim)} copies.`);
    item(list, 'Product:', 'the one-hot row times W is ', productSum(vocab, id),
         `: V·d = ${count(vocab * dim)} multiply-adds, ${count((vocab - 1) * dim)} of them by zero, giving `,
         element('code', 'vector', vectorText(lab, product.data, current * dim, dim)), '.');
    item(list, 'Term by term:', termByTerm(lab, result, current));
    const verdict = element('span', `step-verdict ${same.state}`);
    verdict.append(element('strong', '', same.headline), `: ${same.sentence}`);
    item(list, 'Same row?', verdict);

    detail.replaceChildren(
      element('p', 'step-title', `Token ${count(current + 1)} of ${count(ids.length)}: id ${id}`),
      list,
      workTable(ids.length, vocab, dim),
    );
  }

  return {
    render(result, step) {
      n = result.ids.length;
      current = step;
      renderTokens(result.ids);
      renderDetail(result);
    },
  };
}

const MARKUP = `
  <div class="step-picker">
    <button type="button" class="step-move" data-part="prev" aria-label="Previous token">←</button>
    <div class="step-tokens" data-part="tokens" role="radiogroup" aria-label="Token to step through"></div>
    <button type="button" class="step-move" data-part="next" aria-label="Next token">→</button>
  </div>
  <div class="step-detail" data-part="detail"></div>`;

export const stepView = {
  title: 'Step through one token',
  build(container, { store, lab }) {
    container.append(fragment(MARKUP));
    const parts = byData(container, 'part');
    const stepThrough = createStepThrough(lab, parts, (k) => store.set({ step: k }));
    return {
      update({ result, step }, changed) {
        if (result && (changed.has('result') || changed.has('step'))) stepThrough.render(result, step);
      },
    };
  },
};
