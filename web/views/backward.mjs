// Backward: dL/dW of both routes for an upstream gradient G = dL/dout (n × d), drawn as
// torch.manual_seed(s); G = torch.randn(n, d), the G of `embedlab backward --grad-seed s`.
// The lookup's gradient is a scatter-add: row v of dW adds, in position order, the rows of G
// whose token has id v (none for padding_idx). The one-hot route's is onehot.T @ G, a dense
// GEMM that knows nothing of padding_idx: where a token has the padding id the two differ, as
// PyTorch defines them, and the core's verdict says so calmly, with the grade of the other rows.
// The notes under the verdict are the core's (notes.hpp), as the CLI prints them.
import { wholeNumber } from '../compute/plan.mjs';
import { BACKWARD_FIELDS } from '../model/error-fields.mjs';
import { byData, element } from '../draw/dom.mjs';
import { linkBackward } from './group-links.mjs';
import { count, plural, vectorText } from '../model/format-number.mjs';
import { cells, transposed } from '../model/cells.mjs';
import { rowWindow } from '../model/row-window.mjs';
import { matrixText } from '../draw/render-matrix.mjs';
import { COL_CAP, ROW_CAP, shownIndices } from '../model/shown-indices.mjs';
import { differingCells, showPending, showVerdict } from '../draw/verdict-box.mjs';
import {
  createFormView,
  formViewEntry,
  matrixItem,
  paddingIdxInput,
  paddingIdxOf,
  paddingRow,
} from './view-form.mjs';

const ROWS_LISTED = 8; // rows of dW the scatter-add list spells out
const TERMS_LISTED = 6; // additions spelled out per row

const CONTROLS = `
  <label class="view-field"><span>seed of <var>G</var></span>
    <input name="grad-seed" type="text" inputmode="numeric" value="0" spellcheck="false"></label>
  ${paddingIdxInput('of the gradient')}`;

const OUTPUT = `
  <p class="route-note view-code" data-part="draw"></p>
  <div class="verdict" data-part="verdict" aria-live="polite"></div>
  <ul class="view-notes" data-part="notes"></ul>
  <div class="side-by-side">
    ${matrixItem(
      'grad',
      'Lookup: <code>embedding.weight.grad</code>',
      'A scatter-add: each token adds its row of <var>G</var> to row <var>id</var>.',
    )}
    ${matrixItem(
      'product',
      'Product: <code>onehot.T @ G</code>',
      'Every one of the <var>V</var>·<var>n</var>·<var>d</var> multiply-adds done.',
    )}
  </div>
  <h3 class="view-subtitle">Where each row of the gradient comes from</h3>
  <div class="matrix-grid">
    ${matrixItem(
      'upstream',
      'Upstream gradient <var>G</var> = dL/d<code>out</code>',
      'One row per token <var>k</var>; the rows of a repeated id are highlighted.',
    )}
    <div class="matrix-item scatter">
      <h3>The scatter-add, row by row</h3>
      <p class="route-note">Rows of <var>G</var> added in position order, from 0.</p>
      <ul class="scatter-list" data-part="scatter"></ul>
    </div>
    ${matrixItem(
      'onehotT',
      '<code>onehot.T</code>',
      'Row <var>id</var> has a 1 at each token with that id: the rows of <var>G</var> it adds.',
    )}
  </div>`;

// id -> its positions in idx, ascending.
function positionsById(ids) {
  const positions = new Map();
  ids.forEach((id, k) => {
    if (!positions.has(id)) positions.set(id, []);
    positions.get(id).push(k);
  });
  return positions;
}

// The rows of dW the list spells out: all rows some token names, or, when there are more than
// ROWS_LISTED, the padding row and the repeated ids first. Ascending.
function listedRows(positions, padding) {
  const rows = [...positions.keys()].sort((a, b) => a - b);
  if (rows.length <= ROWS_LISTED) return rows;
  const rank = (v) => (v === padding ? 0 : positions.get(v).length > 1 ? 1 : 2);
  return rows
    .slice()
    .sort((a, b) => rank(a) - rank(b) || a - b)
    .slice(0, ROWS_LISTED)
    .sort((a, b) => a - b);
}

// "G[1] + G[3]", summarised beyond TERMS_LISTED terms.
function termsText(ks) {
  const shown =
    ks.length <= TERMS_LISTED ? ks : [...ks.slice(0, TERMS_LISTED - 1), null, ks.at(-1)];
  return shown.map((k) => (k === null ? '…' : `G[${k}]`)).join(' + ');
}

// One row of dW: which rows of G it adds, in order, with the running sum after each addition.
function scatterItem(lab, v, ks, padding, G, grad) {
  const d = G.cols;
  const li = element('li');
  li.dataset.vocab = String(v);
  li.append(element('strong', '', `dW[${v}]`), ' ');
  if (v === padding) {
    li.classList.add('padding');
    li.append(`= 0: padding_idx, so ${termsText(ks)} ${ks.length === 1 ? 'is' : 'are'} not added`);
    return li;
  }
  li.append(`= ${termsText(ks)}`);
  if (ks.length === 1) {
    li.append(' = ', element('code', 'vector', vectorText(lab, grad.row(v), 0, d)));
    return li;
  }
  li.classList.add('repeat');
  li.append(` (id ${v} at ${ks.length} positions):`);
  // The running sum in float32, as the scatter-add adds (from +0, in position order); the last
  // line shows the core's own row of dW.
  const running = element('ol', 'running');
  const sum = new Float32Array(d);
  ks.forEach((k, i) => {
    const last = i === ks.length - 1;
    if (!last) for (let j = 0; j < d; ++j) sum[j] += G.data[k * d + j];
    if (i >= TERMS_LISTED - 1 && !last) {
      if (i === TERMS_LISTED - 1) {
        running.append(
          element('li', 'gap', `… ${plural(ks.length - i - 1, 'more addition', 'more additions')}`),
        );
      }
      return;
    }
    const text = last ? vectorText(lab, grad.row(v), 0, d) : vectorText(lab, sum, 0, d);
    running.append(element('li', '', `${i === 0 ? '0 + ' : '+ '}G[${k}] = `));
    running.lastChild.append(element('code', 'vector', text));
  });
  li.append(running);
  return li;
}

function read({ ids, vocab, dim }, form) {
  const seed = wholeNumber(form.value('grad-seed'), 'the seed of G', 'grad');
  const paddingIdx = paddingIdxOf(form);
  return { ids, vocab, dim, seed, paddingIdx, padding: paddingRow(paddingIdx, vocab) };
}

// root: an empty element the view fills; lab: the loaded WebAssembly module; computeView: the
// session's. render(result): compute.run()'s result (ids, vocab, dim, onehot, tableKey);
// recomputed only when new.
function createBackwardView(root, lab, computeView, store) {
  const view = createFormView(root, {
    controls: CONTROLS,
    fields: BACKWARD_FIELDS,
    output: OUTPUT,
    kind: 'backward',
    read,
    show: (b, result) =>
      show({ ...b, grad: rowWindow(b.grad), product: rowWindow(b.product) }, result),
    computing,
    computeView,
    store,
  });
  const parts = byData(view.output, 'part');
  const boxes = byData(view.output, 'box');

  function computing({ ids, vocab, dim }) {
    showPending(
      parts.verdict,
      'computing',
      `onehot.T @ G: V·n·d = ` +
        `${count(vocab * ids.length * dim)} multiply-adds, in a background thread: the page stays usable.`,
    );
  }

  function show(b, result) {
    const { ids, vocab, dim } = result;
    const positions = positionsById(ids);
    const listed = listedRows(positions, b.padding);
    const listedPositions = listed.flatMap((v) => positions.get(v).slice(0, TERMS_LISTED));

    const draw = parts.draw;
    draw.replaceChildren(
      element('code', '', `torch.manual_seed(${b.seed}); G = torch.randn(${ids.length}, ${dim})`),
      ': the G of ',
      element(
        'code',
        '',
        `embedlab backward --grad-seed ${b.seed}` +
          `${b.paddingIdx === null ? '' : ` --padding-idx ${b.paddingIdx}`}`,
      ),
      ' with the same ids and table. Without ',
      element('code', 'nowrap', '--grad-seed'),
      ' the CLI draws G right after a seeded table.',
    );
    showVerdict(parts.verdict, b.comparison, lab.verdictDefinitions);
    const differs = differingCells(b.comparison.grade, dim);
    parts.notes.replaceChildren(...b.notes.map((text) => element('li', '', text)));

    const scatter = parts.scatter;
    scatter.replaceChildren(
      ...listed.map((v) => scatterItem(lab, v, positions.get(v), b.padding, b.G, b.grad)),
    );
    if (positions.size > listed.length) {
      scatter.append(
        element(
          'li',
          'gap',
          `… ${plural(positions.size - listed.length, 'more row', 'more rows')}, each the sum of its tokens' rows of G.`,
        ),
      );
    }

    const rowClass = (v) =>
      v === b.padding
        ? 'padding'
        : (positions.get(v)?.length ?? 0) > 1
          ? 'repeat'
          : positions.has(v)
            ? 'hit'
            : '';
    const tokenClass = (k) => (rowClass(ids[k]) === 'hit' ? '' : rowClass(ids[k]));
    // Every row a token names, while they fit; else the listed ones.
    const vocabRows = shownIndices(
      vocab,
      ROW_CAP,
      positions.size <= ROW_CAP ? [...positions.keys()] : listed,
    );
    const dimCols = shownIndices(dim, COL_CAP);
    const label = (i) => String(i);
    const vocabTable = (matrix, caption) =>
      matrixText({
        formatElements: lab.formatElements,
        matrix,
        caption,
        corner: 'id',
        rows: vocabRows,
        cols: dimCols,
        rowLabel: label,
        colLabel: label,
        rowClass,
        cellClass: differs,
        rowRole: 'vocab',
      });
    boxes.grad.replaceChildren(vocabTable(b.grad, 'embedding.weight.grad (V × d)'));
    boxes.product.replaceChildren(vocabTable(b.product, 'onehot.T @ G (V × d)'));
    boxes.upstream.replaceChildren(
      matrixText({
        formatElements: lab.formatElements,
        matrix: cells(b.G),
        caption: 'G = dL/dout (n × d)',
        corner: 'k: id',
        rows: shownIndices(ids.length, ROW_CAP, listedPositions),
        cols: dimCols,
        rowLabel: (k) => `${k}: ${ids[k]}`,
        colLabel: label,
        rowClass: tokenClass,
        rowRole: 'token',
      }),
    );
    boxes.onehotT.replaceChildren(
      matrixText({
        formatElements: lab.formatElements,
        matrix: transposed(result.onehot),
        caption: 'onehot.T (V × n)',
        corner: 'id',
        rows: vocabRows,
        cols: shownIndices(ids.length, COL_CAP, listedPositions),
        rowLabel: label,
        colLabel: label,
        rowClass,
        integer: true,
        rowRole: 'vocab',
        colRole: 'token',
        cellClass: (value) => (value === 1 ? 'one' : ''),
      }),
    );
  }

  return { render: view.render, select: view.select };
}

export const backwardView = formViewEntry(
  'Gradients of both routes',
  createBackwardView,
  linkBackward,
);
