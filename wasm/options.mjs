// The options objects of the API, each declared once (OPTIONS), and the one reader every function
// reads them with, as Python reads keyword arguments: a key an object does not take is an error
// that names it, says which key it may have meant (PyTorch's snake_case spelling, another case, a
// slip of a letter or two) and lists the keys it takes; each value is checked for its type and
// range. A key left out, undefined or null takes its default. README.md "Options" says the same.

// A rule: { expected: words for the message, test(value), default, argument (the core's name of
// the input, where the key's own name is not one) }; `required` rules have no default, and a rule
// without one leaves its key out of what read() returns.
const rule = (expected, test, fallback) => ({ expected, test, default: fallback });

const isWhole = (x) => Number.isSafeInteger(x);
// An Array or a typed array of numbers (BigInt arrays and DataViews cannot be copied as numbers).
export const isNumberArray = (value) =>
  Array.isArray(value) ||
  (ArrayBuffer.isView(value) &&
    !(value instanceof DataView) &&
    !(value instanceof BigInt64Array) &&
    !(value instanceof BigUint64Array));

const flag = (fallback) => rule('true or false', (v) => typeof v === 'boolean', fallback);
const text = (fallback) => rule('a string', (v) => typeof v === 'string', fallback);
const strings = (fallback) =>
  rule(
    'an array of strings',
    (v) => Array.isArray(v) && v.every((s) => typeof s === 'string'),
    fallback,
  );
const count = (fallback) =>
  rule('a whole number, 0 or more', (v) => isWhole(v) && v >= 0, fallback);
const whole = (fallback) => rule('a whole number', isWhole, fallback);
const number = (fallback) => rule('a number', (v) => typeof v === 'number', fallback);
const numbers = (fallback) => rule('an array of numbers', isNumberArray, fallback);
const rows = (fallback) =>
  rule(
    'an array of whole numbers, 0 or more',
    (v) => isNumberArray(v) && Array.prototype.every.call(v, (x) => isWhole(x) && x >= 0),
    fallback,
  );
const pair = (fallback) =>
  rule(
    'two numbers [beta1, beta2]',
    (v) => isNumberArray(v) && v.length === 2 && Array.from(v).every((x) => typeof x === 'number'),
    fallback,
  );
const callback = (fallback) => rule('a function', (v) => typeof v === 'function', fallback);
const address = (fallback) =>
  rule('a string or a URL', (v) => typeof v === 'string' || v instanceof URL, fallback);
const fileBytes = (fallback) =>
  rule(
    'an ArrayBuffer or a Uint8Array',
    (v) => v instanceof ArrayBuffer || ArrayBuffer.isView(v),
    fallback,
  );
const compiled = (fallback) =>
  rule('a WebAssembly.Module', (v) => v instanceof WebAssembly.Module, fallback);
// An options object inside another (heatmap: { rows, cols }), read by the same rules; a default
// object is read too, so that a key it must hold is asked for.
const nested = (shape, fallback) => ({
  expected: 'an object',
  test: (v) => typeof v === 'object',
  default: fallback,
  shape,
});
// A key without which the object means nothing (an optimizer's name).
const required = (r) => ({ ...r, default: undefined, required: true });

const HEATMAP = Object.freeze({ rows: count(0), cols: count(0) });
const STREAM = Object.freeze({ blockRows: count(0), heatmap: nested(HEATMAP, null) });
const PROGRESS = Object.freeze({ onProgress: callback(null) });
const VIEW = Object.freeze({ whole: flag(true), keepRows: rows([]), ...STREAM });
const LOADER = Object.freeze({
  maxLength: required(count()),
  stride: count(null),
  batchSize: count(1),
  shuffle: flag(false),
});
const BAG = Object.freeze({
  mode: text(null),
  includeLastOffset: flag(false),
  paddingIdx: whole(null),
  perSampleWeights: numbers(null),
  scaleGradByFreq: flag(false),
});

// Every options object of the API, by the function (and argument) that takes it.
export const OPTIONS = Object.freeze({
  load: Object.freeze({
    wasmURL: address(undefined),
    deferredURL: address(undefined),
    locateFile: callback(undefined),
    wasmBinary: fileBytes(undefined),
    deferredBinary: fileBytes(undefined),
    wasmModule: compiled(undefined),
    deferredModule: compiled(undefined),
    early: flag(false),
  }),
  formatTensor: Object.freeze({ header: text(''), suffixes: strings([]), integer: flag(false) }),
  formatElements: Object.freeze({ integer: flag(false) }),
  stream: STREAM,
  product: Object.freeze({ ...STREAM, ...PROGRESS }),
  view: VIEW,
  backwardView: Object.freeze({ ...VIEW, ...PROGRESS }),
  embedding: Object.freeze({ paddingIdx: whole(null), scaleGradByFreq: flag(false) }),
  bag: BAG,
  // topK: null for the core's default, min(5, V).
  head: Object.freeze({ topK: count(null) }),
  // The chapter's data loader (stride: max_length's when left out) and a step of its loop.
  loader: LOADER,
  windowStep: Object.freeze({ details: flag(true) }),
});

// How each form of hyperparameter is checked (lab.optimizers' form).
const FORMS = { number, flag, pair };

// The training functions' options, whose optimizer is { name, ...hyperparameters }: any of
// torch.optim's (each optimizer's arguments, the core's lists); which ones the named optimizer
// takes, and their values, the core checks in PyTorch's words.
export function trainingOptions(optimizers) {
  const hyperparameters = {};
  for (const o of optimizers) {
    for (const a of o.arguments)
      hyperparameters[a.name] = { ...FORMS[a.form](undefined), argument: a.name };
  }
  const keys = Object.freeze({ name: required(text()), ...hyperparameters });
  const optimizer = nested(keys, {});
  const training = { optimizer, sparse: flag(false), paddingIdx: whole(null) };
  return Object.freeze({
    optimizer: keys,
    training: Object.freeze(training),
    tableTraining: Object.freeze({ ...training, gradSeed: whole(null) }),
    nextToken: Object.freeze({ head: text('tied'), optimizer }),
    windowTraining: Object.freeze({
      head: text('tied'),
      optimizer,
      positions: flag(false),
      ...LOADER,
    }),
  });
}

// The same name however it is written: paddingIdx, padding_idx, PADDING-IDX.
const folded = (key) => key.toLowerCase().replace(/[_-]/g, '');

// Edits (insert, delete, replace, swap two neighbours) from a to b.
function distance(a, b) {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; ++j) d[0][j] = j;
  for (let i = 1; i <= a.length; ++i) {
    for (let j = 1; j <= b.length; ++j) {
      const same = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + same);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

// The key of `known` that `key` was most likely meant to be, or null: the same letters in
// another case or with _ or - (PyTorch's padding_idx), else the closest of those that differ in
// at most 40% of their letters (matrix, matrices) or begin as it does (vocabulary, vocab).
export function meantKey(key, known) {
  const f = folded(key);
  let best = null;
  let bestScore = 0;
  for (const k of known) {
    const g = folded(k);
    if (g === f) return k;
    const likeness = 1 - distance(f, g) / Math.max(f.length, g.length);
    const prefix = Math.min(f.length, g.length) >= 3 && (f.startsWith(g) || g.startsWith(f));
    const score = Math.max(likeness >= 0.6 ? likeness : 0, prefix ? 0.6 : 0);
    if (score > bestScore) [best, bestScore] = [k, score];
  }
  return best;
}

// "a, b and c"
const listed = (keys) =>
  keys.length < 2 ? keys.join('') : `${keys.slice(0, -1).join(', ')} and ${keys.at(-1)}`;

// checks: embedlab.mjs's { EmbedlabError, fail, describe }. Returns read(where, value, shape,
// label): value (undefined, null or an object) as an object with every key of shape, each
// checked and defaulted; label names the object in messages ('options', 'view', 'heatmap').
// argumentOf(path) is the core's argument an option's error is about ('paddingIdx' ->
// 'padding_idx'), or null; path is the key, or label.key for the keys of a labelled object.
export function optionsReader({ EmbedlabError, fail, describe }, argumentOf) {
  function read(where, value, shape, label = 'options') {
    if (value === undefined || value === null) value = {};
    if (typeof value !== 'object' || Array.isArray(value)) {
      fail(where, label, 'an object', value);
    }
    const keys = Object.keys(shape);
    const pathOf = (key) => (label === 'options' ? key : `${label}.${key}`);
    for (const key of Object.keys(value)) {
      if (Object.hasOwn(shape, key)) continue;
      const meant = meantKey(key, keys);
      throw new EmbedlabError(
        `${where}: ${label} has no key '${key}'` +
          (meant ? ` (did you mean '${meant}'?)` : '') +
          `: its keys are ${listed(keys)}`,
        meant ? (shape[meant].argument ?? argumentOf(pathOf(meant))) : argumentOf(label),
      );
    }
    const out = {};
    for (const [key, r] of Object.entries(shape)) {
      const path = pathOf(key);
      const given = value[key];
      if (given === undefined || given === null) {
        if (r.required) fail(where, path, r.expected, given);
        if (r.shape && r.default) out[key] = read(where, r.default, r.shape, path);
        else if (r.default !== undefined) out[key] = r.default;
        continue;
      }
      if (!r.test(given)) {
        throw new EmbedlabError(
          `${where}: ${path} must be ${r.expected}, got ${describe(given)}`,
          r.argument ?? argumentOf(path),
        );
      }
      out[key] = r.shape ? read(where, given, r.shape, path) : given;
    }
    return out;
  }
  return read;
}
