// The Train view's inputs as the store keeps them (model/state.mjs's `train`): what was typed,
// as text, and the number of steps taken, so that the address (url-state.mjs) reproduces a
// training step for step. Pure: no DOM, no WebAssembly; the optimizers, their hyperparameters
// and PyTorch's defaults come from the core (lab.optimizers), never from here.
//
//   head            'tied' or 'untied': next-token prediction through nn.Linear(d, V, bias=False),
//                   W itself or a weight of its own, on one sequence cut into the chapter's
//                   windows; 'none': each step's upstream gradient G is drawn at random (no
//                   objective), and nn.Linear on one-hot rows trains beside
//   batchesFrom     'text': the data is linesText, tokenized; 'ids': batchesText
//   batchesText     with a head, one sequence "1, 2, 3, 4, 5"; without, batches "1,2; 3,3; 0,1"
//   linesText       with a head, one text; without, one batch per line (train-text.mjs)
//   tokenizer       the tokenizer of linesText (a name of tokenizers/catalog.mjs), or null for
//                   the catalog's default
//   maxLengthText, strideText, batchSizeText   the chapter's loader, as typed (with a head)
//   shuffle         DataLoader(shuffle=True) (with a head)
//   positions       pos = nn.Embedding(max_length, d) added to the token rows (with a head)
//   optimizer       an optimizer's name (lab.optimizers[i].name), or null for the core's first
//   hyper           { lr: '0.05', betas: '0.9, 0.99', nesterov: true }: the hyperparameters that
//                   differ from PyTorch's defaults, as typed (flags as booleans)
//   sparse          nn.Embedding(..., sparse=True) (without a head)
//   paddingIdxText  padding_idx as typed, '' for none (without a head)
//   steps           how many batches have been stepped through
//
// The text the Train view trains on by default: the project's own argument, 31 of GPT-2's tokens.
export const TRAIN_TEXT =
  'An embedding layer is a row lookup: the same rows come from a one-hot vector times the ' +
  'table, with every other row multiplied by zero.';

// TRAIN_TEXT in GPT-2's ids, cut as the Train view's defaults cut it (max_length = stride = 4):
// the head view's default batch, so that what the Train view learns shows there.
export const TRAIN_TEXT_BATCH =
  '2025,11525,12083,7679; 318,257,5752,35847; 25,262,976,15274;' +
  ' 1282,422,257,530; 12,8940,15879,1661; 262,3084,11,351; 790,584,5752,33096';

// The defaults train what a learner of the chapter expects to watch: the tied head, AdamW at a
// learning rate that halves the loss within a few epochs, positions, and a short text of the
// project's own through GPT-2's tokenizer (train-text.mjs), cut into windows of 4.
export const TRAIN_INPUTS = Object.freeze({
  head: 'tied',
  batchesFrom: 'text',
  batchesText: '1,2; 3,3; 0,1',
  linesText: TRAIN_TEXT,
  tokenizer: null,
  maxLengthText: '4',
  strideText: '4',
  batchSizeText: '2',
  shuffle: true,
  positions: true,
  optimizer: 'adamw',
  hyper: Object.freeze({ lr: '0.1' }),
  sparse: false,
  paddingIdxText: '',
  steps: 0,
});

// The largest V·d the view trains. Without a head, a step runs on the main thread and copies,
// steps and compares W several times: at this size about 10-15 ms in headless Chromium once V8
// has optimised the module, so a keystroke during Play waits at most about a frame. With a head
// the steps run in the compute worker, and each sends the page what it draws.
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
export const TRAIN_HEADS = Object.freeze(['tied', 'untied', 'none']);

// The address parameters of a training, only those that differ from TRAIN_INPUTS: head, batches,
// batches_from, batch_lines, batch_tokenizer, max_length, stride, batch_size, padding_idx, shuffle,
// positions, sparse, opt (the optimizer) with opt.NAME (each hyperparameter typed), steps. The
// optimizer and its hyperparameters go together: where either differs, opt and every opt.NAME.
const PARAMS = {
  head: 'head',
  batches: 'batchesText',
  batches_from: 'batchesFrom',
  batch_lines: 'linesText',
  batch_tokenizer: 'tokenizer',
  max_length: 'maxLengthText',
  stride: 'strideText',
  batch_size: 'batchSizeText',
  padding_idx: 'paddingIdxText',
};
const FLAGS = { shuffle: 'shuffle', positions: 'positions', sparse: 'sparse' };
const HYPER_PREFIX = 'opt.';

const sameHyper = (a, b) =>
  Object.keys(a).length === Object.keys(b).length &&
  Object.entries(a).every(([name, value]) => b[name] === value);

export function trainParams(train) {
  const params = [];
  for (const [param, key] of Object.entries(PARAMS)) {
    if (train[key] !== TRAIN_INPUTS[key]) params.push([param, train[key]]);
  }
  for (const [param, key] of Object.entries(FLAGS)) {
    if (train[key] !== TRAIN_INPUTS[key]) params.push([param, train[key] ? 'True' : 'False']);
  }
  if (train.optimizer !== TRAIN_INPUTS.optimizer || !sameHyper(train.hyper, TRAIN_INPUTS.hyper)) {
    params.push(['opt', train.optimizer ?? '']);
    for (const [name, value] of Object.entries(train.hyper)) {
      params.push([
        `${HYPER_PREFIX}${name}`,
        typeof value === 'boolean' ? (value ? 'True' : 'False') : value,
      ]);
    }
  }
  if (train.steps > 0) params.push(['steps', String(train.steps)]);
  return params;
}

// Whether an address parameter is one of trainParams()'s.
export const isTrainParam = (param) =>
  param in PARAMS ||
  param in FLAGS ||
  param === 'opt' ||
  param.startsWith(HYPER_PREFIX) ||
  param === 'steps';

// The training an address describes (URLSearchParams), or null when it names none. Values are
// taken as typed: the view checks them as it checks what the learner types.
export function trainFromParams(params) {
  if (![...params.keys()].some(isTrainParam)) return null;
  const train = { ...TRAIN_INPUTS };
  for (const [param, key] of Object.entries(PARAMS))
    if (params.has(param)) train[key] = params.get(param);
  for (const [param, key] of Object.entries(FLAGS))
    if (params.has(param)) train[key] = params.get(param) === 'True';
  if (params.has('opt')) {
    train.optimizer = params.get('opt') || null;
    train.hyper = {};
    for (const [param, value] of params) {
      if (!param.startsWith(HYPER_PREFIX)) continue;
      train.hyper[param.slice(HYPER_PREFIX.length)] =
        value === 'True' ? true : value === 'False' ? false : value;
    }
  }
  const steps = Number(params.get('steps'));
  if (Number.isSafeInteger(steps) && steps > 0) train.steps = steps;
  return train;
}
