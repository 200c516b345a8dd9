// The one token picker, above the picture: every view follows the token it selects
// (store.step). A radio group of the tokens (one tab stop; arrow keys, Home and End move), each
// shown as its id (and its text, in Text mode or from a GGUF file's vocabulary) in its own
// colour, with previous and next buttons; beyond the tokens a group can show, a field to go to
// token k of n. The focus stays on the picker when a button it was on turns disabled.
import {
  byData,
  element,
  fragment,
  radioKeyTarget,
  writeAttribute,
  writeProperty,
} from '../draw/dom.mjs';
import { count } from '../model/format-number.mjs';
import { labelsOf } from '../model/picture-scene.mjs';
import { ROW_CAP, shownIndices } from '../model/shown-indices.mjs';
import { tokenColor } from '../model/token-colors.mjs';

const MARKUP = `
  <div class="token-picker">
    <span class="token-picker-label" id="token-picker-label">Token</span>
    <button type="button" class="step-move" data-part="prev" aria-label="Previous token">←</button>
    <div class="step-tokens" data-part="tokens" role="radiogroup" aria-labelledby="token-picker-label"></div>
    <button type="button" class="step-move" data-part="next" aria-label="Next token">→</button>
    <label class="token-jump" data-part="jump" hidden>go to
      <input type="number" min="1" class="token-jump-index" data-part="index" inputmode="numeric">
      <span data-part="total"></span></label>
  </div>`;

// What a token's button says: its id, and in Text mode its text first.
function tokenText(k, ids, labels) {
  return labels ? `${labels[k]} ${ids[k]}` : String(ids[k]);
}

export const tokenPickerView = {
  title: 'Token',
  build(container, { store }) {
    container.append(fragment(MARKUP));
    const parts = byData(container, 'part');
    const { tokens, prev, next, jump, index, total } = parts;
    let n = 0;
    let current = 0;

    const pick = (k) => {
      if (n > 0 && k >= 0 && k < n && k !== current) store.set({ step: k });
    };
    prev.addEventListener('click', () => pick(current - 1));
    next.addEventListener('click', () => pick(current + 1));
    tokens.addEventListener('click', (event) => {
      const button = event.target.closest('button[data-token]');
      if (button) pick(Number(button.dataset.token));
    });
    tokens.addEventListener('keydown', (event) => {
      const k = radioKeyTarget(event.key, current, n);
      if (k === null) return;
      event.preventDefault();
      pick(k);
    });
    // A number out of range waits in the field until it is fixed; it picks nothing.
    index.addEventListener('input', () => pick(Number(index.value) - 1));

    // A gap ("…") or a token button of the radio group, before updateToken() fills it in.
    function tokenNode(gap) {
      if (gap) return element('span', 'gap', '…');
      const button = element('button', 'token');
      button.type = 'button';
      button.setAttribute('role', 'radio');
      return button;
    }

    function updateToken(button, k, ids, labels) {
      const set = (name, value) => writeAttribute(button, name, value);
      const text = tokenText(k, ids, labels);
      writeProperty(button, 'textContent', text);
      set('data-token', String(k));
      set('aria-checked', String(k === current));
      set(
        'aria-label',
        `token ${k + 1} of ${ids.length}, ${labels ? `"${labels[k]}", ` : ''}id ${ids[k]}`,
      );
      set('tabindex', k === current ? '0' : '-1');
      set('style', `--token: ${tokenColor(k)}`);
    }

    // The group's children, reused in place: a redraw rewrites only what differs, so a button
    // keeps its identity (and the keyboard focus) while the ids around it change.
    function render(ids, labels) {
      // The document's focus, or the shadow root's inside an <embedding-demo>.
      const focused = tokens.getRootNode().activeElement;
      const onToken = tokens.contains(focused);
      const shown = shownIndices(ids.length, ROW_CAP, [current]);
      while (tokens.childElementCount > shown.length) tokens.lastElementChild.remove();
      shown.forEach((k, i) => {
        const old = tokens.children[i];
        const wanted = k === null ? 'SPAN' : 'BUTTON';
        const node = old?.tagName === wanted ? old : tokenNode(k === null);
        if (node !== old) {
          if (old) old.replaceWith(node);
          else tokens.append(node);
        }
        if (k !== null) updateToken(node, k, ids, labels);
      });
      writeProperty(prev, 'disabled', current === 0);
      writeProperty(next, 'disabled', current === ids.length - 1);
      writeProperty(jump, 'hidden', shown.length === ids.length);
      if (!jump.hidden) {
        writeProperty(index, 'max', String(n));
        writeProperty(total, 'textContent', `of ${count(n)}`);
        if (parts.index !== focused) writeProperty(index, 'value', String(current + 1));
      }
      // Keep the focus on the picker: on the chosen token, also when a button it was on is disabled.
      if (onToken || ((focused === prev || focused === next) && focused.disabled)) {
        tokens.querySelector('[aria-checked="true"]').focus();
      }
    }

    return {
      update({ result, step, tokens: text }, changed) {
        if (!result || !(changed.has('result') || changed.has('step') || changed.has('tokens')))
          return;
        n = result.ids.length;
        current = step;
        render(result.ids, labelsOf(text, result));
      },
    };
  },
};
