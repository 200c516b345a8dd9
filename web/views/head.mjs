// The tied output layer: the same W at both ends of the model, as GPT-2 uses it
// (out_head.weight = tok_emb.weight). One picture: at the input a lookup reads the batch's n rows
// of W; at the output logits = h @ W.T reads all V rows, and none is wasted, since every logit
// scores one next token. For h = the input embeddings (no transformer blocks: this is about the
// table), the logits as PyTorch prints them and each position's top k (the rows of W closest to
// its h). On a checkpoint, whether the model ties, as the core decides it from the file. Its
// seeded tables are the Train view's once that view has trained them (state.trained): before,
// the view says plainly that they are untrained and their top tokens noise; after, they are what
// the training taught.
import { byData, element } from '../draw/dom.mjs';
import { cells } from '../model/cells.mjs';
import { count } from '../model/format-number.mjs';
import { matrixText } from '../draw/render-matrix.mjs';
import { tableRegions } from '../draw/scroll-region.mjs';
import { ROW_CAP, shownIndices } from '../model/shown-indices.mjs';
import { wholeNumber } from '../compute/plan.mjs';
import { showOrderCheck } from '../draw/order-check.mjs';
import { matrixItem } from './view-form.mjs';
import { createPositionsForm, positionControls } from './positions-form.mjs';
import { TRAIN_TEXT_BATCH } from '../model/train-inputs.mjs';

// The Train view's tables (state.trained) where they are this view's seeded ones trained: the
// same seed and shapes, positions, and the tied head, whose weight is the table used here.
function trainedFor({ trained }, args) {
  if (!trained || trained.head !== 'tied') return null;
  const same =
    trained.seed === args.seed &&
    trained.vocab === args.vocab &&
    trained.dim === args.dim &&
    trained.contextLength === args.contextLength;
  return same ? trained : null;
}

// Whether this view's table is trained, in one sentence: args as the form computed on.
function trainedSentence(args) {
  if (args.checkpoint) return '';
  if (args.trained) {
    const { steps, epochs } = args.trained;
    return (
      `This table is the Train view's, after ${count(steps)} ${steps === 1 ? 'step' : 'steps'} ` +
      `(${count(epochs)} ${epochs === 1 ? 'epoch' : 'epochs'}) of next-token training on its text: ` +
      'each position’s top tokens are what it has learned comes next.'
    );
  }
  return (
    `This table is untrained: torch.manual_seed(${args.seed}) drew it and nothing has trained ` +
    'it, so its top tokens are noise, the rows that happen to point along h (its own row in h ' +
    'often puts a position’s own token first). Train it with the tied head in the Train view ' +
    '(the same seed, V, d, and max_length = context_length, positions on), and this view shows ' +
    'what the training taught.'
  );
}

const TOP_K = `<label class="view-field"><span><code>top-k</code></span>
    <input name="top-k" type="text" inputmode="numeric" value="" placeholder="min(5, V)"
      spellcheck="false"></label>`;

const OUTPUT = `
  <p class="route-note view-code" data-part="code"></p>
  <p class="tying" data-part="tying"></p>
  <p class="route-note head-trained" data-part="trained" role="status"></p>
  <figure class="tied-picture" data-part="picture" aria-label="W used twice">
    <div class="tied-end" data-end="input">
      <p class="tied-title">Input: <code>token_embedding_layer(inputs)</code></p>
      <p data-part="lookup"></p>
    </div>
    <div class="tied-w" aria-hidden="true"><var>W</var><small data-part="w-shape"></small></div>
    <div class="tied-end" data-end="output">
      <p class="tied-title">Output: <code>out_head(h) = h @ W.T</code></p>
      <p data-part="product"></p>
    </div>
  </figure>
  <p class="route-note">The printed logits by the core's GEMM, graded against the same sums
    added one product at a time, left to right: float32 rounds every partial sum, so the order
    of the additions shows in the last bits. PyTorch's BLAS adds in an order of its own, and the
    tests grade the core against it the same way.</p>
  <div class="order-check" data-part="verdict" aria-live="polite"></div>
  ${matrixItem(
    'logits',
    '<code>logits = out_head(input_embeddings)</code>',
    'Row <code>[b, t]</code> holds one logit per token of the vocabulary: the dot product of <var>h</var> with that token’s row of <var>W</var>.',
  )}
  <h3>Each position’s largest logits</h3>
  <p class="route-note">The tokens whose rows of <var>W</var> have the largest dot product with
    <var>h</var>, token id (logit), largest first. <var>h</var> is the token’s own row plus its
    position’s, so the larger <var>d</var>, the likelier the token itself comes first.</p>
  <p class="route-note" data-part="top-tokens" role="status"></p>
  <ol class="bags top-logits" data-part="top" aria-label="Top logits per position"></ol>`;

// A chip's token text, filled in by createTokenTexts() once the tokenizer has spelled it.
function tokenText(id) {
  const text = element('span', 'token-text');
  text.dataset.tokenOf = String(id);
  return text;
}

// The top logits' tokens spelled by the tokenizer whose models have a table of V rows (GPT-2's
// for V = 50,257); with none, the ids stand alone. Asked for only once the list has been on
// screen: a tokenizer's vocabulary is megabytes, which the page's first verdict must not wait for.
function createTokenTexts(list, note, { lab, tokenizers }) {
  const channel = tokenizers.openChannel();
  let seen = false;
  let wanted = null; // the V of the table last shown
  async function spell(vocab) {
    const fit = Object.entries(tokenizers.catalog).find(([, s]) => s.tableRows.includes(vocab));
    if (!fit) {
      note.textContent = '';
      return;
    }
    const [name, spec] = fit;
    const ids = [...new Set(Array.from(list.querySelectorAll('[data-token-of]'), tokenIdOf))];
    const answer = await channel.label(name, ids, lab, (progress) => {
      note.textContent = tokenizers.progressMessage(progress);
    });
    if (!answer) return;
    if (answer.error) {
      note.textContent = answer.error;
      return;
    }
    const labels = new Map(ids.map((id, i) => [id, answer.labels[i]]));
    for (const text of list.querySelectorAll('[data-token-of]'))
      text.textContent = labels.get(tokenIdOf(text)) ?? '';
    note.textContent =
      `Each token as ${spec.label}’s tokenizer spells it. ` + tokenizers.marksLegend(answer.labels);
  }
  const observer = new IntersectionObserver((entries) => {
    if (!entries.some((entry) => entry.isIntersecting)) return;
    seen = true;
    observer.disconnect();
    if (wanted !== null) spell(wanted);
  });
  observer.observe(list);
  return (vocab) => {
    wanted = vocab;
    if (seen) spell(vocab);
  };
}
const tokenIdOf = (text) => Number(text.dataset.tokenOf);

function createHeadView(root, { lab, store, tokenizers, computePositions }) {
  const view = createPositionsForm(root, {
    kind: 'head',
    controls: positionControls('of the head', TOP_K, { batch: TRAIN_TEXT_BATCH, dim: '5' }),
    store,
    computePositions,
    trainedFor,
    // An empty top-k is the core's default, min(5, V).
    more: (form) => {
      const topK = form.value('top-k');
      return { topK: topK.trim() === '' ? null : wholeNumber(topK, 'top-k', 'top_k') };
    },
    show,
  });
  view.output.innerHTML = OUTPUT;
  tableRegions(view.output);
  const parts = byData(view.output, 'part');
  const boxes = byData(view.output, 'box');
  const spellTokens = createTokenTexts(parts.top, parts['top-tokens'], { lab, tokenizers });

  function show(output, { info, ids, head, comparison }, args) {
    const trained = trainedSentence(args);
    const { vocab, dim, checkpoint } = info;
    parts.code.replaceChildren(
      element(
        'code',
        '',
        `out_head = nn.Linear(${dim}, ${vocab}, bias=False); ` +
          'out_head.weight = token_embedding_layer.weight; logits = out_head(input_embeddings)',
      ),
    );
    parts.tying.dataset.tied = checkpoint ? String(checkpoint.tied) : 'true';
    parts.tying.textContent = checkpoint
      ? `${checkpoint.tied ? 'This model ties its output layer' : 'This model does not tie its output layer'}: ${checkpoint.tyingReason}.` +
        (checkpoint.tied ? '' : ' The head below is the tied one, for comparison.')
      : 'out_head.weight is token_embedding_layer.weight: one Parameter, not a copy.';
    parts.trained.textContent = trained;
    parts.trained.hidden = trained === '';
    parts['w-shape'].textContent = ` ${count(vocab)} × ${count(dim)}`;
    [parts.lookup.textContent, parts.product.textContent] = head.notes;
    showOrderCheck(parts.verdict, comparison);

    const T = head.length;
    const columns = Array.from(head.columns);
    const shownCols = [];
    columns.forEach((c, k) => {
      if (k > 0 && c > columns[k - 1] + 1) shownCols.push(null);
      shownCols.push(k);
    });
    boxes.logits.replaceChildren(
      matrixText({
        formatElements: lab.formatElements,
        matrix: cells(head.logits),
        caption: `logits (B·T × V) as [b, t]`,
        corner: 'row',
        rows: shownIndices(head.logits.rows, ROW_CAP),
        cols: shownCols,
        rowLabel: (i) => `[${Math.floor(i / T)}, ${i % T}]`,
        colLabel: (k) => String(columns[k]),
      }),
    );
    parts.top.replaceChildren(
      ...shownIndices(head.top.length, ROW_CAP).map((i) => {
        if (i === null) return element('li', 'bag gap', '…');
        const li = element('li', 'bag');
        li.dataset.position = String(i);
        const top = head.top[i];
        const texts = lab.formatElements(top.map((t) => t.logit));
        const chips = element('span', 'bag-ids');
        chips.append(
          ...top.map((t, k) => {
            // One element a chip: the token's words as its text once spelled, its id and
            // logit drawn after them from data-logit.
            const chip = element('span', 'bag-id');
            chip.dataset.id = String(t.id);
            chip.dataset.tokenOf = String(t.id);
            chip.dataset.logit = `${t.id} (${texts[k].trim()})`;
            return chip;
          }),
        );
        const label = element(
          'span',
          'bag-label',
          `logits[${Math.floor(i / T)}, ${i % T}], input id ${ids[i]} `,
        );
        label.append(tokenText(ids[i]));
        li.append(label, chips);
        return li;
      }),
    );
    spellTokens(vocab);
  }

  return view;
}

export const headView = {
  title: 'The tied output layer',
  build(container, context) {
    return createHeadView(container, context);
  },
};
