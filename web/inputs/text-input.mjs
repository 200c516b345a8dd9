// The page's Text mode, beside the typed ids ("Token IDs | Text"): text in, a real tokenizer's
// ids out, in the tokenizer worker (tokenizers/client.mjs), with the tokens shown as chips. The
// text and its tokens go into the store (model/state.mjs), whose session computes with them as
// with typed ids. V becomes the tokenizer's vocabulary size and d = TEXT_DIM when a tokenizer's
// first tokens arrive; leaving the mode gives back the ids (which the store kept), V and d typed
// before. A text the tokenizer cannot take is said under the text, and the chips and ids of the
// last good text stay.
import { count, plural } from '../model/format-number.mjs';
import { createTokenChips } from './token-chips.mjs';
import { TEXT_DIM, TOKENIZERS } from '../tokenizers/catalog.mjs';
import { createTokenizeChannel, progressMessage } from '../tokenizers/client.mjs';

// elements: { modes (the radio group), panel (what Text mode shows), text, tokenizer (a select),
// status, error, chips, idsHint }.
export function createTextInput(lab, store, elements) {
  const { modes, panel, text, tokenizer, status, error, idsHint } = elements;
  const channel = createTokenizeChannel();
  let typed = null;     // { vocabText, dimText } as they were before Text mode
  let shapeOf = null;   // the tokenizer V and d were last set for
  const chips = createTokenChips(elements.chips, (k) => {
    if (k < (store.get().result?.ids.length ?? 0)) store.set({ step: k });
  });

  for (const [name, { label }] of Object.entries(TOKENIZERS)) tokenizer.append(new Option(label, name));
  const textMode = () => modes.querySelector('input:checked').value === 'text';

  function showError(message) {
    if (error.textContent !== message) error.textContent = message;
    error.hidden = message === '';
    if (message) text.setAttribute('aria-invalid', 'true');
    else text.removeAttribute('aria-invalid');
    elements.chips.classList.toggle('stale', message !== '');
  }

  async function tokenizeText() {
    const name = tokenizer.value;
    const value = text.value;
    store.set({ text: { text: value, tokenizer: name } });
    const answer = await channel.tokenize(name, value, lab.limits.maxIds,
      (progress) => { status.textContent = progressMessage(progress); });
    if (!answer || !textMode()) return;  // a newer request, or the mode was left meanwhile
    if (answer.error) {
      status.textContent = '';
      showError(answer.error);
      return;
    }
    showError('');
    status.textContent = `${plural(answer.ids.length, 'token', 'tokens')}; ${TOKENIZERS[name].label} ` +
      `has ${count(answer.vocabSize)} in its vocabulary. Point at a token to follow it below.`;
    chips.render(answer.ids, answer.labels, store.get().step);
    const { inputs } = store.get();
    const shape = shapeOf !== name && inputs.source !== 'file';  // a file's table keeps its shape
    if (shape) shapeOf = name;
    store.set({
      tokens: { text: value, tokenizer: name, ids: answer.ids, labels: answer.labels, vocabSize: answer.vocabSize },
      ...(shape ? { inputs: { ...inputs, vocabText: String(answer.vocabSize), dimText: String(TEXT_DIM) } } : {}),
    });
  }

  function enter() {
    const { vocabText, dimText } = store.get().inputs;
    typed = { vocabText, dimText };
    shapeOf = null;
    panel.hidden = false;
    idsHint.hidden = true;
    tokenizeText();
  }

  function leave() {
    panel.hidden = true;
    idsHint.hidden = false;
    showError('');
    const { inputs } = store.get();
    store.set({ text: null, tokens: null, ...(inputs.source === 'file' ? {} : { inputs: { ...inputs, ...typed } }) });
  }

  modes.addEventListener('change', () => (textMode() ? enter() : leave()));
  text.addEventListener('input', tokenizeText);
  tokenizer.addEventListener('change', tokenizeText);
  store.subscribe(({ step }, changed) => {
    if (changed.has('step') || changed.has('result')) chips.select(step);
  });

  return {
    // Text mode with this text and tokenizer, as if typed and picked.
    show(value, name) {
      text.value = value;
      tokenizer.value = name;
      if (textMode()) {
        tokenizeText();
        return;
      }
      modes.querySelector('input[value="text"]').checked = true;
      enter();
    },
    // Typed ids again.
    hide() {
      if (!textMode()) return;
      modes.querySelector('input[value="ids"]').checked = true;
      leave();
    },
  };
}
