// From what the learner typed to both routes' results, in two steps: plan() checks the inputs
// (cheap), run() builds W and computes (the work grows with n·V·d). Every failure becomes a
// FieldError naming the input it belongs to, with the core's message verbatim.
import { EmbedlabError } from './embedlab/embedlab.mjs';

export class FieldError extends Error {
  // field: 'ids' | 'shape' | 'weights'
  constructor(field, message) {
    super(message);
    this.field = field;
  }
}

// Runs fn; an EmbedlabError (bad input, as the core words it) becomes a FieldError for field.
function attempt(field, fn) {
  try {
    return fn();
  } catch (error) {
    if (error instanceof EmbedlabError) throw new FieldError(field, error.message);
    throw error;
  }
}

// A whole number as typed into V, d or the seed; the core checks the range (a negative seed
// wraps to 64 bits, as torch.manual_seed does).
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

// input: { idsText, vocabText, dimText, source: 'seed'|'tf'|'npy', seedText,
//          npy: null | { key, name, table } | { name, error } }
// Returns { ids, vocab, dim, tableKey, makeTable }.
export function plan(lab, input) {
  const ids = attempt('ids', () => lab.parseIds(input.idsText));
  if (input.source === 'npy') {
    if (!input.npy) throw new FieldError('weights', 'choose or drop a .npy file holding W (V × d)');
    if (input.npy.error) throw new FieldError('weights', input.npy.error);
    const { table } = input.npy;
    attempt('ids', () => lab.checkIds(ids, table.rows));
    return { ids, vocab: table.rows, dim: table.cols, tableKey: input.npy.key, makeTable: () => table };
  }
  const vocab = input.vocabText.trim() === ''
    ? attempt('ids', () => lab.defaultVocab(ids))
    : wholeNumber(input.vocabText, 'the vocabulary size V', 'shape');
  const dim = wholeNumber(input.dimText, 'the embedding dimension d', 'shape');
  if (input.source === 'tf') {
    return { ids, vocab, dim, tableKey: `tf:${vocab}:${dim}`,
             makeTable: () => attempt('shape', () => lab.tfTable(vocab, dim)) };
  }
  const seed = wholeNumber(input.seedText, 'the seed', 'weights');
  return { ids, vocab, dim, tableKey: `seed:${seed}:${vocab}:${dim}`,
           makeTable: () => attempt('shape', () => lab.seededTable(seed, vocab, dim)) };
}

// The multiply-adds of the one-hot product: what makes a request slow.
export function productWork(p) {
  return p.ids.length * p.vocab * p.dim;
}

// cache: { key, weight } from the previous run, reused while the table's inputs stay the same.
export function run(lab, p, cache) {
  const weight = cache.key === p.tableKey ? cache.weight : p.makeTable();
  cache.key = p.tableKey;
  cache.weight = weight;
  attempt('ids', () => lab.checkIds(p.ids, p.vocab));
  const lookup = lab.lookup(weight, p.ids);
  const onehot = attempt('ids', () => lab.oneHot(p.ids, p.vocab));
  const product = lab.onehotProduct(onehot, weight);
  const comparison = lab.compare(lookup, product);
  return { ids: p.ids, vocab: p.vocab, dim: p.dim, weight, lookup, onehot, product, comparison };
}
