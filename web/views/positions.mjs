// Positions, the book's next step: a (B, T) batch looked up in the token table, the position
// table looked up at torch.arange(T) by both routes (P[:T], and one_hot(arange(T),
// context_length) @ P, graded by the core), and the broadcast sum input_embeddings =
// token_embeddings + pos_embeddings, each with its shape. A row longer than context_length is
// the core's error under the batch: what PyTorch does there, and why.
import { byData, element } from '../draw/dom.mjs';
import { cells } from '../model/cells.mjs';
import { count } from '../model/format-number.mjs';
import { matrixText } from '../draw/render-matrix.mjs';
import { tableRegions } from '../draw/scroll-region.mjs';
import { COL_CAP, ROW_CAP, shownIndices } from '../model/shown-indices.mjs';
import { showVerdict } from '../draw/verdict-box.mjs';
import { matrixItem } from './view-form.mjs';
import { createPositionsForm, positionControls } from './positions-form.mjs';

const OUTPUT = `
  <p class="route-note view-code" data-part="code"></p>
  <ul class="view-notes" data-part="shapes" aria-label="Shapes"></ul>
  <div class="verdict" data-part="verdict" aria-live="polite"></div>
  <p class="route-note" data-part="cost"></p>
  <div class="side-by-side">
    ${matrixItem(
      'pos',
      'Lookup: <code>P[:T]</code>',
      '<code>pos_embedding_layer(torch.arange(T))</code> copies the first <var>T</var> rows.',
    )}
    ${matrixItem(
      'product',
      'Product: <code>one_hot(arange(T), context_length) @ P</code>',
      'Every row of <var>P</var> read, every multiply-add done.',
    )}
  </div>
  <div class="matrix-grid">
    ${matrixItem(
      'tokens',
      '<code>token_embeddings</code>',
      'Row <code>[b, t]</code> is <var>W</var>[<code>inputs[b, t]</code>].',
    )}
    ${matrixItem(
      'sum',
      '<code>input_embeddings = token_embeddings + pos_embeddings</code>',
      'Position <var>t</var>’s row of <var>P</var> added to every batch row’s token <var>t</var>: one float32 addition each.',
    )}
  </div>`;

const shape = (...sizes) => `torch.Size([${sizes.join(', ')}])`;

// The setup code of the tables, as PyTorch writes it.
function setupCode(args, positions) {
  if (args.checkpoint) {
    const { tokenTensor, positionTensor } = positions.checkpoint;
    return (
      `token_embedding_layer = nn.Embedding.from_pretrained(${tokenTensor}); ` +
      `pos_embedding_layer = nn.Embedding.from_pretrained(${positionTensor})`
    );
  }
  return (
    `torch.manual_seed(${args.seed}); token_embedding_layer = nn.Embedding(${args.vocab}, ${args.dim}); ` +
    `pos_embedding_layer = nn.Embedding(${args.contextLength}, ${args.dim})`
  );
}

function cliText(args) {
  const ids = `--ids "${args.batch}"`;
  if (args.checkpoint) return `embedlab positions ${ids} --weights ${args.checkpoint.name}`;
  return (
    `embedlab positions ${ids} -V ${args.vocab} -d ${args.dim} ` +
    `--context-length ${args.contextLength} --seed ${args.seed}`
  );
}

function createPositionsView(root, { lab, store, computePositions }) {
  const view = createPositionsForm(root, {
    kind: 'positions',
    controls: positionControls('of the positions'),
    store,
    computePositions,
    more: () => ({}),
    show,
  });
  view.output.innerHTML = OUTPUT;
  tableRegions(view.output);
  const parts = byData(view.output, 'part');
  const boxes = byData(view.output, 'box');

  function show(output, { positions, e }, args) {
    const { dim, contextLength } = positions;
    const B = e.rows;
    const T = e.length;
    parts.code.replaceChildren(
      element('code', '', setupCode(args, positions)),
      '. In the CLI, ',
      element('code', '', cliText(args)),
      ' prints the same tensors.',
    );
    parts.shapes.replaceChildren(
      ...[
        ['inputs', shape(B, T)],
        ['token_embeddings', shape(B, T, dim)],
        ['pos_embeddings', `${shape(T, dim)}: broadcast over the ${B} rows of the batch`],
        ['input_embeddings', shape(B, T, dim)],
      ].map(([name, text]) => {
        const li = element('li');
        li.dataset.shape = name;
        li.append(element('code', '', `${name}.shape`), ` = ${text}`);
        return li;
      }),
    );
    showVerdict(parts.verdict, e.comparison, lab.verdictDefinitions);
    parts.cost.textContent =
      `The position lookup copied T·d = ${count(T * dim)} floats; the product did ` +
      `T·context_length·d = ${count(T * contextLength * dim)} multiply-adds.`;

    const cols = shownIndices(dim, COL_CAP);
    const table = (matrix, caption, rowLabel, rows) =>
      matrixText({
        formatElements: lab.formatElements,
        matrix: cells(matrix),
        caption,
        corner: 'row',
        rows: shownIndices(matrix.rows, rows ?? ROW_CAP),
        cols,
        rowLabel,
        colLabel: String,
      });
    const position = (t) => `t = ${t}`;
    const batchRow = (i) => `[${Math.floor(i / T)}, ${i % T}]`;
    boxes.pos.replaceChildren(table(e.posEmbeddings, `P[:${T}] (T × d)`, position));
    boxes.product.replaceChildren(
      table(e.positionProduct, `one_hot(arange(${T}), ${contextLength}) @ P (T × d)`, position),
    );
    boxes.tokens.replaceChildren(
      table(e.tokenEmbeddings, `token_embeddings, (B·T × d) as [b, t]`, batchRow),
    );
    boxes.sum.replaceChildren(table(e.inputEmbeddings, `input_embeddings (B·T × d)`, batchRow));
  }

  return view;
}

export const positionsView = {
  title: 'Positions: a second lookup',
  build(container, context) {
    return createPositionsView(container, context);
  },
};
