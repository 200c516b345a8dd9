// What the inputs did that a learner would not guess, said where it happens (under the inputs,
// polite to screen readers): Text mode set V to the tokenizer's vocabulary and d small; a new
// shape of a seeded table redrew W, its first rows included; and the source of W, in the
// Weights disclosure's summary.
import { writeProperty } from '../draw/dom.mjs';
import { count } from '../model/format-number.mjs';
import { TEXT_DIM, TOKENIZERS } from '../tokenizers/catalog.mjs';

function sourceText({ source, seedText, file }) {
  if (source === 'tf') return 'row i = 0.11·i';
  if (source === 'file') return file?.name ?? 'a file (choose one)';
  return `torch.manual_seed(${seedText.trim()})`;
}

// What the note says for the state, given the result shown before it ('' for nothing).
function noteFor({ inputs, text, tokens, result }, before) {
  if (
    text &&
    tokens &&
    inputs.source !== 'file' &&
    inputs.vocabText === String(tokens.vocabSize) &&
    inputs.dimText === String(TEXT_DIM)
  ) {
    return (
      `Text mode set V = ${count(tokens.vocabSize)}, ${TOKENIZERS[tokens.tokenizer].label}'s ` +
      `vocabulary, and d = ${TEXT_DIM}, small enough to read W's rows; change either above.`
    );
  }
  const redrawn =
    result &&
    before &&
    result.table.source === 'seed' &&
    before.table.source === 'seed' &&
    result.table.seed === before.table.seed &&
    (result.vocab !== before.vocab || result.dim !== before.dim);
  if (redrawn) {
    return (
      `W is now ${count(result.vocab)} × ${count(result.dim)}, drawn anew: nn.Embedding fills ` +
      'its V·d values in blocks of 16 and draws the last, partial block again, so rows shown ' +
      'before change too (as they would in PyTorch).'
    );
  }
  return '';
}

// note: the paragraph under the inputs; summary: the Weights disclosure's summary text.
export function showInputNotes(store, { note, summary }) {
  let before = store.get().result;
  store.subscribe((state, changed) => {
    if (changed.has('inputs')) writeProperty(summary, 'textContent', sourceText(state.inputs));
    if (!changed.has('result') && !changed.has('tokens')) return;
    const text = noteFor(state, before);
    if (changed.has('result')) before = state.result;
    writeProperty(note, 'textContent', text);
    writeProperty(note, 'hidden', text === '');
  });
}
