// From what the learner typed to both routes' results, in two steps: plan() checks the inputs
// and every size limit (cheap), run() builds W and computes (the work grows with n·V·d). Every
// failure becomes a FieldError naming the argument it is about, with the core's message verbatim.
import { oneHotCells } from '../model/cells.mjs';
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
function attempt(fn) {
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
    throw new FieldError(field, trimmed === ''
      ? `${what} is empty: type a whole number`
      : `${what} must be a whole number, got "${trimmed}"`);
  }
  const value = Number(trimmed);
  if (!Number.isSafeInteger(value)) {
    throw new FieldError(field, `${what} = ${trimmed} is too large`);
  }
  return value;
}

// input: { idsText (or ids, already parsed), vocabText, dimText, source (table-source.mjs), seedText,
//          file: null | { key, name, format: 'npy' | 'safetensors', tensor, table } | { name, error } }
// Returns { ids, vocab, dim, tableKey, table }, plain data that a Web Worker can be sent; table
// says how W is made: { source: 'seed', seed } | { source: 'tf' } |
// { source: 'file', format, name, tensor, matrix }.
export function plan(lab, input) {
  const ids = input.ids ?? attempt(() => lab.parseIds(input.idsText));
  if (input.source === 'file') {
    const { file } = input;
    if (!file) {
      throw new FieldError('weights', 'choose or drop a .npy or .safetensors file holding W (V × d)');
    }
    if (file.error) throw new FieldError('weights', file.error);
    const matrix = file.table;
    attempt(() => lab.checkIds(ids, matrix.rows));
    attempt(() => lab.checkSizes(ids.length, matrix.rows, matrix.cols));
    return { ids, vocab: matrix.rows, dim: matrix.cols, tableKey: file.key,
             table: { source: 'file', format: file.format, name: file.name, tensor: file.tensor, matrix } };
  }
  const vocabFromIds = input.vocabText.trim() === '';
  const vocab = vocabFromIds ? attempt(() => lab.defaultVocab(ids))
    : wholeNumber(input.vocabText, 'the vocabulary size V', 'vocab');
  const dim = wholeNumber(input.dimText, 'the embedding dimension d', 'dim');
  // Every size limit now, before anything announces work that would only fail.
  attempt(() => lab.checkSizes(ids.length, vocab, dim, vocabFromIds));
  attempt(() => lab.checkIds(ids, vocab));
  if (input.source === 'tf') {
    return { ids, vocab, dim, tableKey: `tf:${vocab}:${dim}`, table: { source: 'tf' } };
  }
  const seed = wholeNumber(input.seedText, 'the seed', 'seed');
  return { ids, vocab, dim, tableKey: `seed:${seed}:${vocab}:${dim}`, table: { source: 'seed', seed } };
}

// How a plan's W was made, without W itself: what a result keeps to say where W came from.
export function tableOrigin({ table }) {
  const { matrix, ...origin } = table;
  return origin;
}

// The most multiply-adds of a dense product run on the main thread: a few milliseconds at the
// rate measured in headless Chromium for GPT-2's shape (about 9·10^9 a second). Beyond it, the
// page's requests and the backward and bag views' computations go to the compute worker.
export const PRODUCT_BUDGET = 1 << 25;

// The multiply-adds of the one-hot product: what makes a request slow.
export function productWork(p) {
  return p.ids.length * p.vocab * p.dim;
}

// W for plan p: cache.weight while cache.key is p's table key, else made (the slow part for a
// seeded table) and kept in cache: { key, weight }.
export function tableFor(lab, p, cache) {
  if (cache.key === p.tableKey) return cache.weight;
  const { vocab, dim, table } = p;
  const weight = table.source === 'file' ? table.matrix
    : attempt(() => (table.source === 'tf' ? lab.tfTable(vocab, dim)
      : lab.seededTable(table.seed, vocab, dim)));
  cache.key = p.tableKey;
  cache.weight = weight;
  return weight;
}

// Both routes for plan p, in one call to the module; cache as for tableFor(). The one-hot
// matrix is handed to the views as cells (cells.mjs): only the module needs its n × V floats.
export function run(lab, p, cache) {
  const weight = tableFor(lab, p, cache);
  const { lookup, product, comparison } = attempt(() => lab.bothRoutes(weight, p.ids));
  return { ids: p.ids, vocab: p.vocab, dim: p.dim, tableKey: p.tableKey, table: tableOrigin(p), weight,
           lookup, onehot: oneHotCells(p.ids, p.vocab), product, comparison };
}
