// Positions, the book's next step: a (B, T) batch looked up in the token table, the position
// table looked up at torch.arange(T) by both routes (P[:T], and one_hot(arange(T),
// context_length) @ P, graded by the core), and the broadcast sum input_embeddings =
// token_embeddings + pos_embeddings, each with its shape, drawn as a picture of one row of the
// batch (views/positions-picture.mjs), each tensor printed on demand. A row longer than
// context_length is the core's error under the batch: what PyTorch does there, and why.
import { byData, element } from '../draw/dom.mjs';
import { showVerdict } from '../draw/verdict-box.mjs';
import { createPositionsForm, positionControls } from './positions-form.mjs';
import { createPositionsPicture } from './positions-picture.mjs';

const OUTPUT = `
  <p class="route-note view-code" data-part="code"></p>
  <ul class="view-notes" data-part="shapes" aria-label="Shapes"></ul>
  <div class="verdict" data-part="verdict" aria-live="polite"></div>
  <p class="route-note" data-part="cost"></p>
  <p class="route-note">Position <var>t</var>’s row of <var>P</var> is added to token
    <var>t</var> of every row of the batch: one float32 addition each. Row <code>[b, t]</code>
    of <code>token_embeddings</code> is <var>W</var>[<code>inputs[b, t]</code>].</p>
  <div data-part="picture"></div>`;

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
  const parts = byData(view.output, 'part');
  const drawPicture = createPositionsPicture(parts.picture, lab);

  function show(output, { positions, e }, args) {
    const { dim } = positions;
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
    parts.cost.textContent = e.notes.join(' ');

    drawPicture({
      tokens: e.tokenEmbeddings,
      pos: e.posEmbeddings,
      product: e.positionProduct,
      sum: e.inputEmbeddings,
      ids: lab.parseBatches(args.batch).flatMap((row) => Array.from(row)),
      B,
      T,
    });
  }

  return view;
}

export const positionsView = {
  title: 'Positions: a second lookup',
  build(container, context) {
    return createPositionsView(container, context);
  },
};
