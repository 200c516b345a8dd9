// What the inputs did that a learner would not guess, said where it happens (under the inputs,
// polite to screen readers): Text mode set V to the tokenizer's vocabulary and d small; a seeded
// table of another shape than the one the page began with is a new table, its first rows
// included, with a button that holds V while ids are typed; and the source of W, in the Weights
// disclosure's summary.
import { element, writeProperty } from '../draw/dom.mjs';
import { count } from '../model/format-number.mjs';
import { TEXT_DIM, TOKENIZERS } from '../tokenizers/catalog.mjs';

function sourceText({ source, seedText, file }) {
  if (source === 'tf') return 'row i = 0.11·i';
  if (source === 'file') return file?.name ?? 'a file (choose one)';
  return `torch.manual_seed(${seedText.trim()})`;
}

// What the note says for the state, given the seeded table the page began with (its seed and
// shape): { text, holdVocab } ('' for nothing; holdVocab, the V a button may hold, or null).
function noteFor({ inputs, text, tokens, result }, first) {
  if (
    text &&
    tokens &&
    inputs.source !== 'file' &&
    inputs.vocabText === String(tokens.vocabSize) &&
    inputs.dimText === String(TEXT_DIM)
  ) {
    return {
      text:
        `Text mode set V = ${count(tokens.vocabSize)}, ${TOKENIZERS[tokens.tokenizer].label}'s ` +
        `vocabulary, and d = ${TEXT_DIM}, small enough to read W's rows; change either above.`,
      holdVocab: null,
    };
  }
  const reshaped =
    result?.table.source === 'seed' &&
    result.table.seed === first?.seed &&
    (result.vocab !== first.vocab || result.dim !== first.dim);
  if (!reshaped) return { text: '', holdVocab: null };
  const { vocab, dim } = result;
  return {
    text:
      `A new shape means a new table: W is now ${count(vocab)} × ${count(dim)}, not ` +
      `${count(first.vocab)} × ${count(first.dim)}, and PyTorch draws its ` +
      `${count(vocab * dim)} numbers from seed ${first.seed} afresh, so the rows you saw can ` +
      'change too. V follows the largest id unless you type one.',
    // V came from the ids: a button holds the V the page began with.
    holdVocab: inputs.vocabText.trim() === '' && vocab !== first.vocab ? first.vocab : null,
  };
}

// The seeded table a note compares with: the first result's, and again after a new seed.
const seededShape = (result) =>
  result?.table.source === 'seed'
    ? { seed: result.table.seed, vocab: result.vocab, dim: result.dim }
    : null;

// note: the paragraph under the inputs; summary: the Weights disclosure's summary text.
export function showInputNotes(store, { note, summary }) {
  let first = seededShape(store.get().result);
  let shown = null;
  const hold = element('button', 'try hold-vocab');
  hold.type = 'button';
  hold.addEventListener('click', () => {
    const { inputs } = store.get();
    store.set({ inputs: { ...inputs, vocabText: hold.dataset.vocab } });
  });
  store.subscribe((state, changed) => {
    if (changed.has('inputs')) writeProperty(summary, 'textContent', sourceText(state.inputs));
    if (!changed.has('result') && !changed.has('tokens')) return;
    const seeded = seededShape(state.result);
    if (!first || (seeded && seeded.seed !== first.seed)) first = seeded;
    const { text, holdVocab } = noteFor(state, first);
    const key = `${text}|${holdVocab}`;
    if (key === shown) return;
    shown = key;
    note.replaceChildren(text);
    if (holdVocab !== null) {
      hold.dataset.vocab = String(holdVocab);
      hold.textContent = `Hold V = ${count(holdVocab)}`;
      note.append(' ', hold);
    }
    writeProperty(note, 'hidden', text === '');
  });
}
