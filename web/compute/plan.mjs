// From what the learner typed to both routes' results, in two steps: plan() checks the inputs
// and every size limit (cheap), run() opens W's table and computes on it (the work grows with
// n·V·d), or startRun() does it a block of rows at a time. Every
// failure becomes a FieldError naming the argument it is about, with the core's message verbatim.
import { oneHotCells } from '../model/cells.mjs';
import { HEATMAP_PIXELS, heldWhole, rowWindow, windowRows } from '../model/row-window.mjs';
import { idPastTable } from '../model/tokenizer-fit.mjs';
import { EmbedlabError } from '../embedlab/embedlab.mjs';

export class FieldError extends Error {
  // field: the core's name of the argument (error-fields.mjs places it), or null for none.
  constructor(field, message) {
    super(message);
    this.field = field;
  }
}

// Runs fn; an EmbedlabError (bad input, as the core words it) becomes a FieldError for the
// argument the core names.
export function attempt(fn) {
  try {
    return fn();
  } catch (error) {
    if (error instanceof EmbedlabError) throw new FieldError(error.argument, error.message);
    throw error;
  }
}

// A whole number as typed into V, d or a seed; the core checks the range (a negative seed
// wraps to 64 bits, as torch.manual_seed does). field: the argument it is.
export function wholeNumber(text, what, field) {
  const trimmed = text.trim();
  if (!/^[+-]?\d+$/.test(trimmed)) {
    throw new FieldError(
      field,
      trimmed === ''
        ? `${what} is empty: type a whole number`
        : `${what} must be a whole number, got "${trimmed}"`,
    );
  }
  const value = Number(trimmed);
  if (!Number.isSafeInteger(value)) {
    throw new FieldError(field, `${what} = ${trimmed} is too large`);
  }
  return value;
}

// Ids a tokenizer gave, against the table's rows: an id past them is the tokenizer's doing, and
// the error says so (tokenizer-fit.mjs). Typed ids get the core's own error (lab.checkIds).
function checkTokenIds(ids, rows, tokenizer) {
  if (!tokenizer) return;
  const k = ids.findIndex((id) => id >= rows);
  if (k >= 0) throw new FieldError('ids', idPastTable(tokenizer, ids[k], k, rows));
}

// input: { idsText (or ids, already parsed), vocabText, dimText, source (table-source.mjs), seedText,
//          file: null | { key, name, format: 'npy' | 'safetensors' | 'gguf', tensor,
//                         file (a File or Blob), rows, cols, dtype, conversion, tokens (a GGUF
//                         file's vocabulary, or null) } | { name, error },
//          tokenizer: absent, or { label, vocabSize } of the tokenizer that gave the ids }
// Returns { ids, vocab, dim, tableKey, table, labels }, plain data that a Web Worker can be sent;
// labels: each id's token in the file's own vocabulary, or null where it has none; table
// says how W is made: { source: 'seed', seed } | { source: 'tf' } |
// { source: 'file', format, name, tensor, file, dtype, conversion }.
export function plan(lab, input) {
  const ids = input.ids ?? attempt(() => lab.parseIds(input.idsText));
  if (input.source === 'file') {
    const { file } = input;
    if (!file) {
      throw new FieldError(
        'weights',
        'choose or drop a .npy, .safetensors or .gguf file holding W (V × d)',
      );
    }
    if (file.error) throw new FieldError('weights', file.error);
    checkTokenIds(ids, file.rows, input.tokenizer);
    attempt(() => lab.checkIds(ids, file.rows));
    attempt(() => lab.checkSizes(ids.length, file.rows, file.cols, false, false));
    const { key, rows, cols, error, tokens = null, ...table } = file;
    return {
      ids,
      vocab: rows,
      dim: cols,
      tableKey: key,
      table: { source: 'file', ...table },
      labels: tokens && Array.from(ids, (id) => tokens[id]),
    };
  }
  const vocabFromIds = input.vocabText.trim() === '';
  const vocab = vocabFromIds
    ? attempt(() => lab.defaultVocab(ids))
    : wholeNumber(input.vocabText, 'the vocabulary size V', 'vocab');
  const dim = wholeNumber(input.dimText, 'the embedding dimension d', 'dim');
  // Every size limit now, before anything announces work that would only fail.
  attempt(() => lab.checkSizes(ids.length, vocab, dim, vocabFromIds));
  checkTokenIds(ids, vocab, input.tokenizer);
  attempt(() => lab.checkIds(ids, vocab));
  if (input.source === 'tf') {
    return { ids, vocab, dim, tableKey: `tf:${vocab}:${dim}`, table: { source: 'tf' } };
  }
  const seed = wholeNumber(input.seedText, 'the seed', 'seed');
  return {
    ids,
    vocab,
    dim,
    tableKey: `seed:${seed}:${vocab}:${dim}`,
    table: { source: 'seed', seed },
  };
}

// The most multiply-adds of a dense product run on the main thread: a few milliseconds at the
// rate measured in headless Chromium for GPT-2's shape (about 9·10^9 a second). Beyond it, the
// page's requests and the backward and bag views' computations go to the compute worker.
export const PRODUCT_BUDGET = 1 << 25;

// The multiply-adds of the one-hot product: what makes a request slow.
export function productWork(p) {
  return p.ids.length * p.vocab * p.dim;
}

// Runs fn on p's table: what the core says of a file's table (found when its rows are read, as
// late as the product's last block) names the file, as the page shows such errors.
export function onTable(p, fn) {
  try {
    return attempt(fn);
  } catch (error) {
    if (error instanceof FieldError && error.field === 'weights' && p.table.source === 'file') {
      throw new FieldError('weights', `${p.table.name}: ${error.message}`);
    }
    throw error;
  }
}

// Both routes for plan p on its table (keeper: a table-keeper.mjs, which opens or keeps it), in
// two parts: what comes at once (`first`: the lookup's rows and W's window, row-window.mjs), and
// the run of the one-hot product, which streams the table a block of rows at a time (step() it
// until done; then finish() is `last`: its result, with `notes`, what each route cost, and
// `blocks`, what each route decoded of a GGUF table's blocks, as the core words them, else null).
// Every part is plain data a worker can post.
export function startRun(lab, p, keeper) {
  const { ids, vocab, dim } = p;
  return onTable(p, () => {
    const table = keeper.tableFor(p);
    const whole = heldWhole(vocab, dim);
    const rows = windowRows(vocab, ids);
    const weight = whole
      ? { rows: vocab, cols: dim, whole: keeper.allRows(p) }
      : { rows: vocab, cols: dim, kept: rows, keptRows: table.lookup(rows) };
    const before = table.blocksDecoded();
    const run = table.startProduct(ids, { heatmap: whole ? null : HEATMAP_PIXELS });
    const lookupBlocks = table.blocksDecoded() - before;
    const finish = () => {
      const last = run.result();
      const productBlocks = table.blocksDecoded() - before - lookupBlocks;
      const blocks =
        p.table.format === 'gguf' ? table.blocksDecodedNote(lookupBlocks, productBlocks) : null;
      return { ...last, blocks };
    };
    return { run, finish, first: { lookup: run.expected, weight } };
  });
}

// The result the views draw, from startRun()'s parts; last: null while the product runs, else
// { product, comparison, heatmap, notes, blocks }. The one-hot matrix is handed to the views as cells
// (cells.mjs): only the module needs its n × V entries.
export function resultOf(p, first, last = null) {
  return {
    ids: p.ids,
    vocab: p.vocab,
    dim: p.dim,
    tableKey: p.tableKey,
    table: p.table,
    weight: rowWindow({ ...first.weight, heatmap: last?.heatmap ?? null }),
    lookup: first.lookup,
    onehot: oneHotCells(p.ids, p.vocab),
    product: last?.product ?? null,
    comparison: last?.comparison ?? null,
    notes: last?.notes ?? [],
    blocks: last?.blocks ?? null,
    labels: p.labels ?? null,
  };
}

// Both routes computed elsewhere (p.table.routes, a notebook kernel's: { lookup, product,
// kept, keptRows, heatmap }, what the views draw of W included): the core grades them.
function givenResult(lab, p) {
  const { lookup, product, kept, keptRows, heatmap } = p.table.routes;
  if (lookup.rows !== p.ids.length) {
    throw new FieldError(
      'ids',
      `the routes given hold ${lookup.rows} rows, one for each of their ids, and ${p.ids.length} ids are set`,
    );
  }
  const comparison = attempt(() => lab.compare(lookup, product));
  const weight = { rows: p.vocab, cols: p.dim, kept, keptRows };
  return resultOf(p, { lookup, weight }, { product, comparison, heatmap });
}

// Both routes for plan p at once, on the table keeper gives.
export function run(lab, p, keeper) {
  if (p.table.routes) return givenResult(lab, p);
  const { run: product, finish, first } = startRun(lab, p, keeper);
  try {
    return onTable(p, () => {
      while (!product.done) product.step(64);
      return resultOf(p, first, finish());
    });
  } finally {
    product.delete();
  }
}
