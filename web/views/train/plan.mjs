// The training the Train view's inputs describe, checked as far as is cheap: what a keystroke
// costs, no more than parsing (the batches were tokenized before, for batches typed as text).
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

// With a head, each batch is a sequence whose ids but the last predict its ids but the first:
// one of a single id has nothing to predict. Said before any step, under the batches.
function checkSequences(batches) {
  const short = batches.findIndex((batch) => batch.length < 2);
  if (short < 0) return;
  throw new FieldError(
    'ids',
    `batch ${short + 1} is the single id ${batches[short][0]}: with a head, each batch is a ` +
      'sequence whose next ids are predicted (inputs seq[:-1], targets seq[1:]), so it needs at ' +
      'least 2 ids',
  );
}

// { head, seed, vocab, dim, batches, options, lines, tokenizerLabel, key (what makes one
// training differ from another, the batches aside) }, or a FieldError / EmbedlabError for the
// input at fault. With a head, sparse=True and padding_idx are not the head's: options keeps
// neither. info: the optimizer's entry in lab.optimizers. text: null for batches typed as ids; for
// batches typed as text, { label, vocab, dim, lines: [{ text, ids, labels }] } (train-text.mjs's
// shape).
export function planTraining(lab, { result, train }, info, text) {
  const { table } = result;
  const { vocab, dim } = text ?? result;
  const { head } = train;
  if (!TRAIN_HEADS.includes(head)) {
    throw new FieldError('head', `head is none, untied or tied; got "${head}"`);
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
  let batches;
  try {
    batches = batchesOf(lab, text ? idsTextOf(text.lines) : train.batchesText, vocab);
  } catch (error) {
    // Batch k is line k: said under the text.
    if (text && (error instanceof FieldError || error instanceof EmbedlabError))
      throw new FieldError('lines', error.message);
    throw error;
  }
  if (head !== 'none') {
    try {
      checkSequences(batches);
    } catch (error) {
      if (text) throw new FieldError('lines', error.message);
      throw error;
    }
  }
  const optimizer = optimizerOf(info, train.hyper);
  const paddingIdx =
    head !== 'none' || train.paddingIdxText.trim() === ''
      ? null
      : wholeNumber(train.paddingIdxText, 'padding_idx', 'padding_idx');
  const options = { optimizer, sparse: head === 'none' && train.sparse, paddingIdx };
  lab.checkTraining(vocab, dim, options);
  const seed = table.seed;
  return {
    head,
    seed,
    vocab,
    dim,
    batches,
    options,
    lines: text?.lines ?? null,
    tokenizerLabel: text?.label ?? null,
    key: JSON.stringify([head, seed, vocab, dim, options]),
  };
}
