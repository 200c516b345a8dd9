// EmbeddingBag: the ids cut into bags at the offsets, each bag reduced to one row of W's width
// (sum, mean or max), as F.embedding_bag does; per_sample_weights scale each id's row (sum only);
// ids equal to padding_idx are left out. For sum and mean a bag is also a row of a multi-hot
// matrix M (B × V) times W; max has no such form.
import { FieldError } from '../compute/plan.mjs';
import { BAG_FIELDS } from '../model/error-fields.mjs';
import { byData, element } from '../draw/dom.mjs';
import { linkBag } from './group-links.mjs';
import { count, plural } from '../model/format-number.mjs';
import { cells } from '../model/cells.mjs';
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

const BAGS_DRAWN = 16; // bags drawn over the ids, PyTorch-style summarised beyond
const IDS_DRAWN = 12; // ids drawn per bag

const CONTROLS = `
  <label class="view-field"><span><code>offsets</code></span>
    <input name="offsets" type="text" value="0, 2" spellcheck="false"></label>
  <label class="view-field"><span><code>mode</code></span>
    <select name="mode">
      <option value="sum">sum</option>
      <option value="mean" selected>mean</option>
      <option value="max">max</option>
    </select></label>
  <label class="view-field"><span><code>per_sample_weights</code></span>
    <input name="weights" type="text" class="wide" placeholder="none" spellcheck="false"></label>
  ${paddingIdxInput('of the bags')}`;

const OUTPUT = `
  <p class="route-note view-code" data-part="code"></p>
  <ol class="bags" data-part="bags" aria-label="The bags over the ids"></ol>
  <div class="verdict" data-part="verdict" aria-live="polite"></div>
  <ul class="view-notes" data-part="notes"></ul>
  <div class="side-by-side">
    ${matrixItem(
      'output',
      'Bags: <code>bag(idx, offsets)</code>',
      "Each bag's rows of <var>W</var>, reduced in position order.",
    )}
    ${matrixItem(
      'product',
      'Product: <code>M @ W</code>',
      'The multi-hot rows times <var>W</var>, every multiply-add done.',
    )}
    ${matrixItem(
      'argmax',
      'Where each maximum comes from',
      'For each output entry, the id of the row of <var>W</var> it was taken from ' +
        "(−1 for an empty bag, where PyTorch's max_indices say 0).",
    )}
  </div>
  <div class="matrix-grid">
    ${matrixItem(
      'multihot',
      'Multi-hot <var>M</var>',
      "Row <var>b</var> counts each id in bag <var>b</var> (its weights, for per_sample_weights; divided by the bag's size, for mean).",
    )}
  </div>`;

// "0, 2" as the core's offsets; an empty field is passed on, for the core's own message.
function offsetsOf(lab, text) {
  if (text.trim() === '') return [];
  try {
    return lab.parseIds(text);
  } catch (error) {
    throw new FieldError('offsets', `offsets: ${error.message}`);
  }
}

// "1, 0.5, 2" (or [1, 0.5, 2]), read by the core's rule: { typed, values }, or null when empty.
function weightsOf(lab, text) {
  const { texts, values } = lab.parseSampleWeights(text);
  return values.length === 0 ? null : { typed: texts, values };
}

// Bag b runs from offsets[b] to the next offset, the last one to n.
function bagRange(offsets, n, b) {
  return [offsets[b], b + 1 < offsets.length ? offsets[b + 1] : n];
}

function reductionOf(mode, weighted) {
  if (mode === 'max') return 'max';
  if (mode === 'mean') return 'mean';
  return weighted ? 'weighted sum' : 'sum';
}

// The bags drawn over the ids: one group per bag, an id left out by padding_idx struck through.
function drawBags(list, ids, offsets, b) {
  const items = shownIndices(b.bags, BAGS_DRAWN).map((bag) => {
    if (bag === null) return element('li', 'bag gap', '…');
    const [begin, end] = bagRange(offsets, ids.length, bag);
    const li = element('li', 'bag');
    li.dataset.bag = String(bag); // group-links.mjs: pointing at a bag marks its ids
    const size = b.forward.bagSize[bag];
    li.append(element('span', 'bag-label', `bag ${bag} = idx[${begin}:${end}]`));
    const members = element('span', 'bag-ids');
    for (const j of shownIndices(end - begin, IDS_DRAWN)) {
      if (j === null) {
        members.append(element('span', 'gap', '…'));
        continue;
      }
      const k = begin + j;
      const skipped = ids[k] === b.padding;
      const chip = element('span', skipped ? 'bag-id skipped' : 'bag-id', String(ids[k]));
      chip.dataset.token = String(k); // linking.mjs: token k, marked in its colour
      if (b.weights) chip.append(element('small', '', `×${b.weights.typed[k]}`));
      if (skipped) chip.append(element('span', 'visually-hidden', ' (padding_idx: left out)'));
      members.append(chip);
    }
    li.append(
      members,
      element(
        'span',
        'bag-size',
        end === begin
          ? 'empty: a row of zeros'
          : size === 0
            ? 'nothing left: a row of zeros'
            : `${reductionOf(b.mode, b.weights !== null)} of ${plural(size, 'row', 'rows')}`,
      ),
    );
    return li;
  });
  list.replaceChildren(...items);
}

function cliText(offsets, b) {
  const parts = ['embedlab bag', `--offsets ${Array.from(offsets).join(',')}`, `--mode ${b.mode}`];
  if (b.weights) parts.push(`--per-sample-weights ${b.weights.typed.join(',')}`);
  if (b.paddingIdx !== null) parts.push(`--padding-idx ${b.paddingIdx}`);
  return parts.join(' ');
}

// root: an empty element the view fills; lab: the loaded WebAssembly module; computeView: the
// session's. render(result): compute.run()'s result (ids, vocab, dim, tableKey); recomputed only
// when new.
function createBagView(root, lab, computeView, store) {
  const view = createFormView(root, {
    controls: CONTROLS,
    fields: BAG_FIELDS,
    output: OUTPUT,
    kind: 'bag',
    read,
    show,
    computing,
    computeView,
    store,
  });
  const parts = byData(view.output, 'part');
  const boxes = byData(view.output, 'box');
  const items = byData(view.output, 'item');

  function read({ ids, vocab, dim }, form) {
    const paddingIdx = paddingIdxOf(form);
    return {
      ids,
      vocab,
      dim,
      offsets: offsetsOf(lab, form.value('offsets')),
      mode: form.value('mode'),
      weights: weightsOf(lab, form.value('weights')),
      paddingIdx,
      padding: paddingRow(paddingIdx, vocab),
    };
  }

  function computing({ offsets, vocab, dim }) {
    showPending(
      parts.verdict,
      'computing',
      `M @ W: B·V·d = ` +
        `${count(offsets.length * vocab * dim)} multiply-adds, in a background thread: the page stays usable.`,
    );
  }

  function show(b, result) {
    const { ids, vocab, dim } = result;
    const code = parts.code;
    code.replaceChildren(
      element(
        'code',
        '',
        `bag = nn.EmbeddingBag(${vocab}, ${dim}, mode='${b.mode}'` +
          `${b.paddingIdx === null ? '' : `, padding_idx=${b.paddingIdx}`}); ` +
          `out = bag(idx, offsets${b.weights ? ', per_sample_weights=psw' : ''})`,
      ),
      ' with bag.weight = W. In the CLI, ',
      element('code', '', cliText(b.offsets, b)),
      ' prints the same bags for the same ids and table.',
    );
    drawBags(parts.bags, ids, b.offsets, b);

    const { comparison } = b;
    let differs; // the cells where the bags and M @ W differ
    if (comparison) {
      showVerdict(parts.verdict, comparison, lab.verdictDefinitions);
      differs = differingCells(comparison.grade, dim);
    } else {
      showPending(
        parts.verdict,
        'no product form',
        "mode='max' has no M @ W: the note below says why.",
      );
    }
    // The core's notes (notes.hpp), as the CLI prints them.
    parts.notes.replaceChildren(...b.forward.notes.map((text) => element('li', '', text)));

    const bagRows = shownIndices(b.bags, ROW_CAP);
    const dimCols = shownIndices(dim, COL_CAP);
    const label = (i) => String(i);
    const bagTable = (matrix, caption, integer = false) =>
      matrixText({
        formatElements: lab.formatElements,
        matrix,
        caption,
        corner: 'bag',
        rows: bagRows,
        cols: dimCols,
        rowLabel: label,
        colLabel: label,
        integer,
        cellClass: differs,
        rowElements: true, // linked by bag (group-links.mjs)
      });
    boxes.output.replaceChildren(
      bagTable(cells(b.forward.output), `F.embedding_bag, mode='${b.mode}' (B × d)`),
    );
    items.product.hidden = b.mode === 'max';
    items.multihot.hidden = b.mode === 'max';
    items.argmax.hidden = b.mode !== 'max';
    if (b.mode === 'max') {
      const rows = b.forward.maxRows;
      boxes.argmax.replaceChildren(
        bagTable(
          { rows: b.bags, cols: dim, at: (i, j) => rows[i * dim + j] },
          'the id of each maximum (B × d)',
          true,
        ),
      );
      boxes.product.replaceChildren();
      boxes.multihot.replaceChildren();
      return;
    }
    boxes.argmax.replaceChildren();
    boxes.product.replaceChildren(bagTable(cells(b.product), 'M @ W (B × d)'));
    const present = new Set(ids);
    boxes.multihot.replaceChildren(
      matrixText({
        formatElements: lab.formatElements,
        matrix: cells(b.multihot),
        caption: `M (B × V)`,
        corner: 'bag',
        rows: bagRows,
        cols: shownIndices(vocab, COL_CAP, [...present]),
        rowLabel: label,
        colLabel: label,
        rowElements: true,
        colRole: 'vocab',
        colClass: (v) => (v === b.padding ? 'padding' : ''),
        cellClass: (value) => (value !== 0 ? 'one' : ''),
      }),
    );
  }

  return { render: view.render, select: view.select };
}

export const bagView = formViewEntry('EmbeddingBag', createBagView, linkBag);
