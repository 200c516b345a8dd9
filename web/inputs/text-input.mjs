// The page's Text mode, beside the typed ids ("Token IDs | Text"): text in, a real tokenizer's
// ids out, in the tokenizer worker (tokenizers/client.mjs), with the tokens shown as chips. The
// text and its tokens go into the store (model/state.mjs), whose session computes with them as
// with typed ids. V becomes the tokenizer's vocabulary size and d = TEXT_DIM when a tokenizer's
// first tokens arrive; leaving the mode gives back the ids (which the store kept), V and d typed
// before. A text the tokenizer cannot take is said under the text, and the chips and ids of the
// last good text stay. With a file's table, the status says how the tokenizer's ids meet its
// rows (model/tokenizer-fit.mjs), and a button offers the tokenizer made for that table when
// another is picked.
import { writeProperty } from '../draw/dom.mjs';
import { count, plural } from '../model/format-number.mjs';
import { fitSentence, tokenizerFor } from '../model/tokenizer-fit.mjs';
import { createTokenChips } from './token-chips.mjs';
import { TEXT_DIM, TOKENIZERS } from '../tokenizers/catalog.mjs';
import { createTokenizeChannel, progressMessage } from '../tokenizers/client.mjs';

// elements: { modes (the radio group), panel (what Text mode shows), text, tokenizer (a select),
// status, offer (a button), error, chips, idsHint }.
export function createTextInput(lab, store, elements) {
  const { modes, panel, text, tokenizer, status, offer, error, idsHint } = elements;
  const channel = createTokenizeChannel();
  let typed = null; // { vocabText, dimText } as they were before Text mode
  let shapeOf = null; // the tokenizer V and d were last set for
  let shown = null; // { name, n }: the tokenizer and count of the tokens shown, null while none
  const chips = createTokenChips(elements.chips, (k) => {
    if (k < (store.get().result?.ids.length ?? 0)) store.set({ step: k });
  });

  for (const [name, { label }] of Object.entries(TOKENIZERS))
    tokenizer.append(new Option(label, name));
  const textMode = () => modes.querySelector('input:checked').value === 'text';

  function showError(message) {
    writeProperty(error, 'textContent', message);
    error.hidden = message === '';
    if (message) text.setAttribute('aria-invalid', 'true');
    else text.removeAttribute('aria-invalid');
    elements.chips.classList.toggle('stale', message !== '');
  }

  // The status of the tokens shown, against W's rows when W is a file's table (whose shape the
  // tokens leave alone); the offer of the tokenizer made for that table, when another is picked.
  function describe() {
    const { source, file } = store.get().inputs;
    const rows = source === 'file' && file?.rows ? file.rows : null;
    if (shown) {
      const spec = TOKENIZERS[shown.name];
      const fit = rows
        ? fitSentence(spec, rows)
        : `${spec.label} has ${count(spec.vocabSize)} in its vocabulary.`;
      status.textContent = `${plural(shown.n, 'token', 'tokens')}; ${fit} Point at a token to follow it below.`;
    }
    const offered = rows ? tokenizerFor(TOKENIZERS, tokenizer.value, rows) : null;
    offer.hidden = offered === null;
    if (!offered) return;
    offer.value = offered;
    offer.textContent = `Use ${TOKENIZERS[offered].label}'s tokenizer, made for this table`;
  }

  async function tokenizeText() {
    const name = tokenizer.value;
    const value = text.value;
    shown = null;
    describe();
    store.set({ text: { text: value, tokenizer: name } });
    const answer = await channel.tokenize(name, value, lab, (progress) => {
      status.textContent = progressMessage(progress);
    });
    if (!answer || !textMode()) return; // a newer request, or the mode was left meanwhile
    if (answer.error) {
      status.textContent = '';
      showError(answer.error);
      describe();
      return;
    }
    showError('');
    shown = { name, n: answer.ids.length };
    describe();
    chips.render(answer.ids, answer.labels, store.get().step);
    const { inputs } = store.get();
    const shape = shapeOf !== name && inputs.source !== 'file'; // a file's table keeps its shape
    if (shape) shapeOf = name;
    store.set({
      tokens: {
        text: value,
        tokenizer: name,
        tokenizerLabel: TOKENIZERS[name].label,
        ids: answer.ids,
        labels: answer.labels,
        vocabSize: answer.vocabSize,
      },
      ...(shape
        ? { inputs: { ...inputs, vocabText: String(answer.vocabSize), dimText: String(TEXT_DIM) } }
        : {}),
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
    store.set({
      text: null,
      tokens: null,
      ...(inputs.source === 'file' ? {} : { inputs: { ...inputs, ...typed } }),
    });
  }

  modes.addEventListener('change', () => (textMode() ? enter() : leave()));
  text.addEventListener('input', tokenizeText);
  tokenizer.addEventListener('change', tokenizeText);
  offer.addEventListener('click', () => {
    tokenizer.value = offer.value;
    tokenizer.focus(); // the offer hides once taken
    tokenizeText();
  });
  store.subscribe(({ step }, changed) => {
    if (changed.has('step') || changed.has('result')) chips.select(step);
    if (changed.has('inputs') && textMode()) describe();
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
