// Where an error is shown, by the core's name for what it is about (EmbedlabError.argument, or a
// FieldError's field): each form maps the arguments it has an input for to that input's name.
// Between them these tables name every argument the core can raise (tests/e2e/errors.test.mjs
// checks them against lab.argumentNames), so no error is placed by reading its message.

// The page's main form and the element's controls (input names; the element's W select stands
// for both the seed and the .npy file).
export const PAGE_FIELDS = Object.freeze({
  ids: 'ids',
  vocab: 'vocab',
  dim: 'dim',
  seed: 'seed',
  weights: 'weights-file',
});

export const BACKWARD_FIELDS = Object.freeze({ grad: 'grad-seed', padding_idx: 'padding-idx' });

export const BAG_FIELDS = Object.freeze({
  offsets: 'offsets',
  mode: 'mode',
  per_sample_weights: 'weights',
  padding_idx: 'padding-idx',
});

// The positions and head views: the batch, the token table's sizes and seed, and the position
// table's rows (the core names a wrong context_length as of vocab, so its own check is the
// view's: context_length).
export const POSITIONS_FIELDS = Object.freeze({
  ids: 'batch',
  vocab: 'vocab',
  dim: 'dim',
  seed: 'seed',
  context_length: 'context-length',
  top_k: 'top-k',
});

// The Train view's batches, the chapter's loader, padding_idx, optimizer and its hyperparameters
// (the core's names, PyTorch's).
export const TRAIN_FIELDS = Object.freeze({
  ids: 'batches',
  max_length: 'max-length',
  stride: 'stride',
  batch_size: 'batch-size',
  padding_idx: 'padding-idx',
  optimizer: 'optimizer',
  lr: 'lr',
  momentum: 'momentum',
  dampening: 'dampening',
  nesterov: 'nesterov',
  weight_decay: 'weight-decay',
  betas: 'betas',
  eps: 'eps',
  amsgrad: 'amsgrad',
  lr_decay: 'lr-decay',
  initial_accumulator_value: 'initial-accumulator-value',
  alpha: 'alpha',
  centered: 'centered',
  maximize: 'maximize',
});

// The Train view's errors of its own (no argument of the core), by the field a FieldError names:
// its head, and its batches typed as text.
export const TRAIN_OWN_FIELDS = Object.freeze({
  head: 'head',
  lines: 'batch-lines',
  tokenizer: 'batch-tokenizer',
});

// No input stands for these: the page never sets max_norm or epochs (Play trains until paused),
// and it makes the one-hot matrix and both compared results itself. Their errors are shown in
// the form's alert, marking no input.
export const UNPLACED_ARGUMENTS = Object.freeze([
  'max_norm',
  'norm_type',
  'onehot',
  'compared',
  'epochs',
]);
