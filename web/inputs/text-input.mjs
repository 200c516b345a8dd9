// The page's Text mode, beside the typed ids ("Token IDs | Text"): text in, a real tokenizer's
// ids out, in the tokenizer worker (tokenizers/client.mjs), with the tokens shown as chips.
// The ids go into the ids field (read-only meanwhile), so everything downstream is what typed
// ids get. V becomes the tokenizer's vocabulary size and d = TEXT_DIM when a tokenizer's first
// tokens arrive; leaving the mode gives back the ids, V and d typed before. A text the
// tokenizer cannot take is said under the text, and the chips and ids of the last good text stay.
import { count, plural } from '../model/format-number.mjs';
import { createTokenChips } from './token-chips.mjs';
import { TEXT_DIM, TOKENIZERS } from '../tokenizers/catalog.mjs';
import { createTokenizeChannel, progressMessage } from '../tokenizers/client.mjs';

// elements: { modes (the radio group), panel (what Text mode shows), text, tokenizer (a select),
// status, error, chips, ids, idsHint, vocab, dim }; onPick(k) when a chip is picked.
export function createTextInput(lab, elements, onPick) {
  const { modes, panel, text, tokenizer, status, error, ids, idsHint, vocab, dim } = elements;
  const channel = createTokenizeChannel();
  let typed = null;     // { ids, vocab, dim } as they were before Text mode
  let shapeOf = null;   // the tokenizer V and d were last set for
  let step = 0;
  let computed = 0;     // the tokens of the result the page shows, which new chips can outrun
  const chips = createTokenChips(elements.chips, (k) => { if (k < computed) onPick(k); });

  for (const [name, { label }] of Object.entries(TOKENIZERS)) tokenizer.append(new Option(label, name));
  const textMode = () => modes.querySelector('input:checked').value === 'text';

  // The page recomputes on the input events of the ids, V and d (and only theirs: the text
  // mode's own inputs stop here).
  function setField(input, value) {
    if (input.value === value) return;
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }
  for (const own of [modes, panel]) own.addEventListener('input', (event) => event.stopPropagation());

  function showError(message) {
    if (error.textContent !== message) error.textContent = message;
    error.hidden = message === '';
    if (message) text.setAttribute('aria-invalid', 'true');
    else text.removeAttribute('aria-invalid');
    elements.chips.classList.toggle('stale', message !== '');
  }

  async function tokenizeText() {
    const name = tokenizer.value;
    const answer = await channel.tokenize(name, text.value, lab.limits.maxIds,
      (progress) => { status.textContent = progressMessage(progress); });
    if (!answer || !textMode()) return;  // a newer request, or the mode was left meanwhile
    if (answer.error) {
      status.textContent = '';
      showError(answer.error);
      return;
    }
    showError('');
    // n·V floats of the one-hot matrix: beyond the core's limit the ids field says why there is
    // no result; this says what to do.
    const fit = Math.floor(lab.limits.maxElements / answer.vocabSize);
    status.textContent = `${plural(answer.ids.length, 'token', 'tokens')}; ${TOKENIZERS[name].label} ` +
      `has ${count(answer.vocabSize)} in its vocabulary. ` + (answer.ids.length > fit
      ? `At most ${count(fit)} tokens fit one one-hot matrix of V = ${count(answer.vocabSize)} columns: shorten the text to see both routes.`
      : 'Point at a token to follow it below.');
    chips.render(answer.ids, answer.labels, step);
    if (shapeOf !== name && !vocab.disabled) {  // a .npy table keeps its own shape
      shapeOf = name;
      setField(vocab, String(answer.vocabSize));
      setField(dim, String(TEXT_DIM));
    }
    setField(ids, answer.ids.join(', '));
  }

  function enter() {
    typed = { ids: ids.value, vocab: vocab.value, dim: dim.value };
    shapeOf = null;
    panel.hidden = false;
    ids.readOnly = true;
    idsHint.hidden = true;
    tokenizeText();
  }

  function leave() {
    panel.hidden = true;
    ids.readOnly = false;
    idsHint.hidden = false;
    showError('');
    if (!vocab.disabled) {
      setField(vocab, typed.vocab);
      setField(dim, typed.dim);
    }
    setField(ids, typed.ids);
  }

  modes.addEventListener('change', () => (textMode() ? enter() : leave()));
  text.addEventListener('input', tokenizeText);
  tokenizer.addEventListener('change', tokenizeText);

  return {
    // The page's step, the token the views follow, in its result of n tokens.
    select(k, n) {
      step = k;
      computed = n;
      chips.select(k);
    },
  };
}
