// An id typed past the V the page shows does not grow V by itself: a new V is a new table (PyTorch
// draws all V × d numbers afresh, so the rows already seen change too), and typing 99999 passes
// through 9, 99 and 999 on its way. While V follows the ids (its field empty), a keystroke that
// puts an id past the V shown holds V where it is, the ids' error says why, and a choice beside
// the field asks: grow V to fit the ids, or keep it. A list put in whole (pasted, or a story's
// button) is meant as it stands: V follows it. Wherever the ids stand past a V given (held or
// typed), the same choice is there.
import { element } from '../draw/dom.mjs';
import { count } from '../model/format-number.mjs';

// The largest id of a list being typed, or null while it does not parse.
function largestId(lab, text) {
  try {
    const ids = lab.parseIds(text);
    return ids.length > 0 ? Math.max(...ids) : null;
  } catch {
    return null;
  }
}

// ids: the ids field; choice: the paragraph beside it that asks.
export function askBeforeGrowingV(lab, store, { ids, choice }) {
  let held = null; // the V held for the ids being typed, until the learner chooses
  let kept = null; // the ids text for which the learner chose to keep V
  const grow = element('button', 'try', 'Grow V');
  grow.type = 'button';
  const keep = element('button', 'try', 'Keep V');
  keep.type = 'button';
  const words = element('span');
  choice.replaceChildren(words, ' ', grow, ' ', keep);

  // Before the page's fields write the store (this listener is the field's own, theirs the
  // form's): the typed ids and the V held, in one change.
  ids.addEventListener('input', ({ inputType, data }) => {
    const { inputs, text, result } = store.get();
    if (text || inputs.source === 'file' || !result) return;
    const keystroke =
      (inputType === 'insertText' && data?.length === 1) || inputType?.startsWith('delete');
    const largest = largestId(lab, ids.value);
    const past = largest !== null && largest >= result.vocab;
    if (!keystroke) {
      // A list put in whole: V follows it again, if it was held for the typing.
      if (held !== null && inputs.vocabText === String(held)) {
        held = null;
        store.setInputs({ idsText: ids.value, vocabText: '' });
      }
      return;
    }
    if (inputs.vocabText.trim() === '' && past) {
      held = result.vocab;
      store.setInputs({ idsText: ids.value, vocabText: String(held) });
    } else if (held !== null && inputs.vocabText === String(held) && largest !== null && !past) {
      // Back within V before a choice: V follows the ids again.
      held = null;
      store.setInputs({ idsText: ids.value, vocabText: '' });
    }
  });
  // Either choice hides the choice: the focus goes back to the ids, not to the page.
  grow.addEventListener('click', () => {
    held = null;
    ids.focus();
    store.setInputs({ vocabText: '' });
  });
  keep.addEventListener('click', () => {
    held = null;
    kept = store.get().inputs.idsText;
    ids.focus();
    show(store.get());
  });

  // Shown with the ids' error (once typing pauses), while an id stands past the V given.
  function show({ inputs, status, text }) {
    const vocab = Number(inputs.vocabText.trim());
    const largest = largestId(lab, inputs.idsText);
    const asks =
      !text &&
      inputs.source !== 'file' &&
      status.state === 'failed' &&
      status.field === 'ids' &&
      Number.isInteger(vocab) &&
      vocab > 0 &&
      largest !== null &&
      largest >= vocab &&
      kept !== inputs.idsText;
    choice.hidden = !asks;
    if (!asks) return;
    words.textContent = `id ${count(largest)} is past V = ${count(vocab)}:`;
    grow.textContent = `Grow V to ${count(largest + 1)}`;
    keep.textContent = `Keep V = ${count(vocab)}`;
  }
  store.subscribe((state, changed) => {
    if (changed.has('status') || changed.has('inputs') || changed.has('text')) show(state);
  });
}
