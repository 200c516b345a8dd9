// The page's text fields, bound to the store's inputs (model/state.mjs): typing writes the
// store, and what the store holds shows in the fields. While a file is W's source its shape
// shows in V and d, read-only; in Text mode the ids field shows the text's tokens, read-only;
// what was typed comes back afterwards, since the store kept it.
import { writeProperty } from '../draw/dom.mjs';
import { autoVocabText } from '../model/format-number.mjs';

const KEYS = { ids: 'idsText', vocab: 'vocabText', dim: 'dimText', seed: 'seedText' };

// fields: { ids, vocab, dim, seed } inputs of `form`.
export function bindFormFields(store, form, fields) {
  form.addEventListener('input', (event) => {
    const key = KEYS[event.target.id];
    if (!key) return;
    // Typing a seed picks the seed as W's source.
    store.setInputs(
      key === 'seedText'
        ? { seedText: event.target.value, source: 'seed' }
        : { [key]: event.target.value },
    );
  });

  function show({ inputs, text, tokens, result }) {
    // A file's input holds its table's shape (rows, cols), or an error.
    const table = inputs.source === 'file' ? (inputs.file?.rows ? inputs.file : null) : undefined;
    writeProperty(
      fields.vocab,
      'value',
      table === undefined ? inputs.vocabText : table ? String(table.rows) : '',
    );
    writeProperty(
      fields.dim,
      'value',
      table === undefined ? inputs.dimText : table ? String(table.cols) : '',
    );
    fields.vocab.disabled = fields.dim.disabled = table !== undefined;
    writeProperty(fields.seed, 'value', inputs.seedText);
    fields.ids.readOnly = text !== null;
    if (!text) writeProperty(fields.ids, 'value', inputs.idsText);
    else if (tokens) writeProperty(fields.ids, 'value', tokens.ids.join(', '));
    const chosen = table === undefined && inputs.vocabText.trim() === '' && result;
    writeProperty(fields.vocab, 'placeholder', autoVocabText(chosen ? result.vocab : null));
  }
  show(store.get());
  store.subscribe((state, changed) => {
    if (
      changed.has('inputs') ||
      changed.has('text') ||
      changed.has('tokens') ||
      changed.has('result')
    )
      show(state);
  });
}
