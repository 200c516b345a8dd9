// The Train view's data typed as text: with a head, the whole text one sequence, which the
// chapter's loader cuts into windows; without, one batch per line, each line's tokens (a real
// tokenizer's ids) one batch. Pure: the tokenizing itself runs in the tokenizer worker, and the
// view is handed the catalog's entry ({ label, vocabSize }).
//
// V is the tokenizer's whole vocabulary, so that every id it can give has its row; d is the
// page's, made smaller where V × d would pass TRAIN_BUDGET (GPT-2: 50,257 rows, d ≤ 5).
import { count } from './format-number.mjs';
import { TRAIN_BUDGET } from './train-inputs.mjs';

// The batches' lines: a last empty line (the text ends with a newline) is no batch.
export function batchLines(text) {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines;
}

// What a text is tokenized as, one sequence each: with a head the whole text, without each line.
export const textUnits = (text, head) => (head === 'none' ? batchLines(text) : [text]);

// What is wrong with the units before any is tokenized, or null.
export function linesError(lines, head) {
  const blank = lines.findIndex((line) => line.trim() === '');
  if (blank < 0) return null;
  if (head !== 'none') return 'The text is empty: type a text to train on, or switch to ids.';
  return lines.length === 1
    ? 'The text is empty: type one batch per line, e.g. "the cat" and "the dog".'
    : `Line ${blank + 1} is empty: each line is one batch, so give it at least one word, or delete the line.`;
}

// { vocab, dim } that training on spec's vocabulary takes, pageDim being the page's d; dim is 0
// when not even d = 1 fits the budget.
export function textShape(spec, pageDim) {
  return {
    vocab: spec.vocabSize,
    dim: Math.min(pageDim, Math.floor(TRAIN_BUDGET / spec.vocabSize)),
  };
}

// Why V and d are what textShape() made them, in words.
export function shapeSentence(spec, pageDim) {
  const { vocab, dim } = textShape(spec, pageDim);
  const rows = `${spec.label}'s vocabulary has ${count(vocab)} rows, one for every id it can give`;
  if (dim === 0) {
    return (
      `${rows}: more than the ${count(TRAIN_BUDGET)} values of W this page trains between two frames, ` +
      'even with d = 1. Pick a tokenizer with a smaller vocabulary, or train it with the CLI, embedlab train.'
    );
  }
  return dim === pageDim
    ? `${rows}: trained as V = ${count(vocab)}, with the page's d = ${dim}.`
    : `${rows}: trained with d = ${dim} (the page's is ${pageDim}) so that V × d = ${count(vocab * dim)} ` +
        `stays within ${count(TRAIN_BUDGET)}.`;
}

// The tokenized lines ([{ ids }]) as the ids field would type them: "464, 3797; 464, 3290".
export const idsTextOf = (lines) => lines.map((line) => line.ids.join(', ')).join('; ');
