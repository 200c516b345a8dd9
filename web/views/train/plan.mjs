// The training the Train view's inputs describe, checked as far as is cheap: what a keystroke
// costs, no more than parsing (the text was tokenized before). Without a head, batches of ids
// trained side by side on random upstream gradients (planTraining); with one, the chapter's loop
// on one sequence's windows (planWindows).
import { FieldError, wholeNumber } from '../../compute/plan.mjs';
import { EmbedlabError } from '../../embedlab/embedlab.mjs';
import { count } from '../../model/format-number.mjs';
import { pythonFloat, pythonPair, TRAIN_BUDGET, TRAIN_HEADS } from '../../model/train-inputs.mjs';
import { idsTextOf } from '../../model/train-text.mjs';

// The batches typed as ids, each checked against V.
function batchesOf(lab, idsText, vocab) {
  const batches = lab.parseBatches(idsText);
  batches.forEach((batch, b) => {
    try {
      lab.checkIds(batch, vocab);
    } catch (error) {
      if (error instanceof EmbedlabError)
        throw new FieldError('ids', `batch ${b + 1}: ${error.message}`);
      throw error;
    }
  });
  return batches;
}

// The optimizer of the API ({ name, ...hyperparameters }) from what was typed; info: the core's
// entry of the optimizer (lab.optimizers).
function optimizerOf(info, hyper) {
  const optimizer = { name: info.name };
  for (const argument of info.arguments) {
    const given = hyper[argument.name];
    if (given === undefined) continue;
    if (argument.form === 'flag') {
      optimizer[argument.name] = given;
      continue;
    }
    const value = argument.form === 'pair' ? pythonPair(given) : pythonFloat(given);
    if (value === null) {
      throw new FieldError(
        argument.name,
        argument.form === 'pair'
          ? `${argument.name} takes two numbers, e.g. ${argument.text}; got "${given.trim()}"`
          : `${argument.name} must be a number, e.g. ${argument.text}; got "${given.trim()}"`,
      );
    }
    optimizer[argument.name] = value;
  }
  return optimizer;
}

// What both kinds of training check first: the head, a seeded W, V·d within TRAIN_BUDGET, and
// the optimizer as typed. Returns the optimizer of the API.
function checkCommon(head, table, vocab, dim, info, hyper) {
  if (!TRAIN_HEADS.includes(head)) {
    throw new FieldError('head', `head is tied, untied or none; got "${head}"`);
  }
  if (table.source !== 'seed') {
    throw new FieldError(
      null,
      'Training draws its table as torch.manual_seed(seed); nn.Embedding(V, d): ' +
        'choose torch.manual_seed as the source of W to train.',
    );
  }
  if (vocab * dim > TRAIN_BUDGET) {
    throw new FieldError(
      'vocab',
      `V × d = ${count(vocab * dim)} is more than this page trains between two ` +
        `frames (at most ${count(TRAIN_BUDGET)}): each step copies and compares W several times. ` +
        'Make V or d smaller, or train it with the CLI, embedlab train.',
    );
  }
  return optimizerOf(info, hyper);
}

// { head: 'none', seed, vocab, dim, batches, options, lines, tokenizerLabel, key (what makes one
// training differ from another, the batches aside) }, or a FieldError / EmbedlabError for the
// input at fault. sparse=True and padding_idx are nn.Embedding's: options keeps both. info: the
// optimizer's entry in lab.optimizers. text: null for batches typed as ids; for batches typed as
// text, { label, vocab, dim, lines: [{ text, ids, labels }] } (train-text.mjs's shape).
export function planTraining(lab, { result, train }, info, text) {
  const { table } = result;
  const { vocab, dim } = text ?? result;
  const optimizer = checkCommon(train.head, table, vocab, dim, info, train.hyper);
  let batches;
  try {
    batches = batchesOf(lab, text ? idsTextOf(text.lines) : train.batchesText, vocab);
  } catch (error) {
    // Batch k is line k: said under the text.
    if (text && (error instanceof FieldError || error instanceof EmbedlabError))
      throw new FieldError('lines', error.message);
    throw error;
  }
  const paddingIdx =
    train.paddingIdxText.trim() === ''
      ? null
      : wholeNumber(train.paddingIdxText, 'padding_idx', 'padding_idx');
  const options = { optimizer, sparse: train.sparse, paddingIdx };
  lab.checkTraining(vocab, dim, options);
  const seed = table.seed;
  return {
    head: 'none',
    seed,
    vocab,
    dim,
    batches,
    options,
    lines: text?.lines ?? null,
    tokenizerLabel: text?.label ?? null,
    key: JSON.stringify(['none', seed, vocab, dim, options]),
  };
}

// The one sequence a head trains on, typed as ids: ";" would make several.
function sequenceOf(lab, idsText, vocab) {
  const batches = lab.parseBatches(idsText);
  if (batches.length !== 1) {
    throw new FieldError(
      'ids',
      `with a head, the ids are one sequence, which the loader cuts into windows of max_length; ` +
        `got ${batches.length} batches: remove the ";"`,
    );
  }
  lab.checkIds(batches[0], vocab);
  return batches[0];
}

// { head: 'tied' | 'untied', seed, vocab, dim, ids, loader: { maxLength, stride, batchSize,
// shuffle }, positions, optimizer, text: { label, labels } or null, key }: the chapter's loop
// on one sequence, checked as the core checks it before drawing anything (the loader's
// windows against the sequence, each error under its field). text: as planTraining's, one line.
export function planWindows(lab, { result, train }, info, text) {
  const { table } = result;
  const { vocab, dim } = text ?? result;
  const optimizer = checkCommon(train.head, table, vocab, dim, info, train.hyper);
  const ids = text
    ? Float64Array.from(text.lines[0].ids)
    : sequenceOf(lab, train.batchesText, vocab);
  const loader = {
    maxLength: wholeNumber(train.maxLengthText, 'max_length', 'max_length'),
    stride: wholeNumber(train.strideText, 'stride', 'stride'),
    batchSize: wholeNumber(train.batchSizeText, 'batch_size', 'batch_size'),
    shuffle: train.shuffle,
  };
  lab.checkLoader(ids.length, loader);
  lab.checkTraining(vocab, dim, { optimizer });
  const seed = table.seed;
  const { head, positions } = train;
  return {
    head,
    seed,
    vocab,
    dim,
    ids,
    loader,
    positions,
    optimizer,
    text: text ? { label: text.label, labels: text.lines[0].labels, text: train.linesText } : null,
    key: JSON.stringify([head, seed, vocab, dim, Array.from(ids), loader, positions, optimizer]),
  };
}
