// The Train view's inputs as the store keeps them (model/state.mjs's `train`): what was typed,
// as text, and the number of steps taken, so that the address (url-state.mjs) reproduces a
// training step for step. Pure: no DOM, no WebAssembly; the optimizers, their hyperparameters
// and PyTorch's defaults come from the core (lab.optimizers), never from here.
//
//   head            'none': each step's upstream gradient G is drawn at random (no objective),
//                   and nn.Linear on one-hot rows trains beside; 'untied' or 'tied': next-token
//                   prediction through nn.Linear(d, V, bias=False), its own weight or W itself
//   batchesFrom     'ids': the batches are batchesText; 'text': each line of linesText, tokenized
//   batchesText     "1,2; 3,3; 0,1": batches separated by semicolons
//   linesText       "the cat\nthe dog": one batch per line (train-text.mjs)
//   tokenizer       the tokenizer of linesText (a name of tokenizers/catalog.mjs), or null for
//                   the catalog's default
//   optimizer       an optimizer's name (lab.optimizers[i].name), or null for the core's first
//   hyper           { lr: '0.05', betas: '0.9, 0.99', nesterov: true }: the hyperparameters the
//                   learner changed, as typed (flags as booleans); the others are PyTorch's defaults
//   sparse          nn.Embedding(..., sparse=True)
//   paddingIdxText  padding_idx as typed, '' for none
//   steps           how many batches have been stepped through
export const TRAIN_INPUTS = Object.freeze({
  head: 'none',
  batchesFrom: 'ids',
  batchesText: '1,2; 3,3; 0,1',
  linesText: 'the cat sat\non the mat',
  tokenizer: null,
  optimizer: null,
  hyper: Object.freeze({}),
  sparse: false,
  paddingIdxText: '',
  steps: 0,
});

// The largest V·d the view trains. A step runs on the main thread and copies, steps and compares
// W several times: at this size about 10-15 ms in headless Chromium once V8 has optimised the
// module (its first steps, still unoptimised, take 30-90 ms), so a keystroke during Play waits at
// most about a frame.
export const TRAIN_BUDGET = 1 << 18;

// A float as Python's float() reads it (decimal or scientific, inf, infinity, nan, any case), or
// null. JavaScript's Number() rounds such a literal to the same double as Python.
export function pythonFloat(text) {
  const t = text.trim();
  if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return Number(t);
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(t);
  if (!special) return null;
  if (special[2].toLowerCase() === 'nan') return NaN;
  return special[1] === '-' ? -Infinity : Infinity;
}

// "0.9, 0.999" or "(0.9, 0.999)" -> [0.9, 0.999], or null.
export function pythonPair(text) {
  const parts = text
    .trim()
    .replace(/^\((.*)\)$/, '$1')
    .split(',');
  if (parts.length !== 2) return null;
  const pair = parts.map(pythonFloat);
  return pair.includes(null) ? null : pair;
}

// The rows of W the Train view shows, ascending, null where a run of rows is left out: every row
// when there are at most `cap`, else only `keep` (the rows the batches name, the picked row,
// padding_idx's): the picture is about which rows change, and the others are counted apart.
export function trainRows(vocab, cap, keep) {
  if (vocab <= cap) return Array.from({ length: vocab }, (_, i) => i);
  const kept = [...new Set(keep)].filter((i) => i >= 0 && i < vocab).sort((a, b) => a - b);
  const rows = [];
  kept.forEach((i, n) => {
    if (i > (n === 0 ? 0 : kept[n - 1] + 1)) rows.push(null);
    rows.push(i);
  });
  if (kept.length === 0 || kept.at(-1) < vocab - 1) rows.push(null);
  return rows;
}

// The Train view's heads, in the order it offers them (train.head).
export const TRAIN_HEADS = Object.freeze(['none', 'untied', 'tied']);

// The address parameters of a training, only those that differ from TRAIN_INPUTS: head, batches,
// batches_from, batch_lines, batch_tokenizer, opt (the optimizer), opt.NAME (each hyperparameter
// changed), sparse, padding_idx, steps.
const PARAMS = {
  head: 'head',
  batches: 'batchesText',
  batches_from: 'batchesFrom',
  batch_lines: 'linesText',
  batch_tokenizer: 'tokenizer',
  padding_idx: 'paddingIdxText',
};
const HYPER_PREFIX = 'opt.';

export function trainParams(train) {
  const params = [];
  for (const [param, key] of Object.entries(PARAMS)) {
    if (train[key] !== TRAIN_INPUTS[key]) params.push([param, train[key]]);
  }
  if (train.optimizer !== null) params.push(['opt', train.optimizer]);
  for (const [name, value] of Object.entries(train.hyper)) {
    params.push([
      `${HYPER_PREFIX}${name}`,
      typeof value === 'boolean' ? (value ? 'True' : 'False') : value,
    ]);
  }
  if (train.sparse) params.push(['sparse', 'True']);
  if (train.steps > 0) params.push(['steps', String(train.steps)]);
  return params;
}

// Whether an address parameter is one of trainParams()'s.
export const isTrainParam = (param) =>
  param in PARAMS ||
  param === 'opt' ||
  param.startsWith(HYPER_PREFIX) ||
  param === 'sparse' ||
  param === 'steps';

// The training an address describes (URLSearchParams), or null when it names none. Values are
// taken as typed: the view checks them as it checks what the learner types.
export function trainFromParams(params) {
  if (![...params.keys()].some(isTrainParam)) return null;
  const train = { ...TRAIN_INPUTS, hyper: {} };
  for (const [param, key] of Object.entries(PARAMS))
    if (params.has(param)) train[key] = params.get(param);
  if (params.has('opt')) train.optimizer = params.get('opt');
  for (const [param, value] of params) {
    if (!param.startsWith(HYPER_PREFIX)) continue;
    train.hyper[param.slice(HYPER_PREFIX.length)] =
      value === 'True' ? true : value === 'False' ? false : value;
  }
  train.sparse = params.get('sparse') === 'True';
  const steps = Number(params.get('steps'));
  if (Number.isSafeInteger(steps) && steps > 0) train.steps = steps;
  return train;
}
