// Jump to token k of n in one action: a number field ("token k of n") and a slider beside the
// step-through's arrows. Both answer the keyboard as inputs do (arrow keys; Home and End on
// the slider), so token 500 of 10,000 is one keystroke or one drag away, not 500 presses of →.
import { element } from '../draw/dom.mjs';
import { count } from '../model/format-number.mjs';

// after: the element the controls follow; onPick(k) with the 0-based token chosen.
export function createTokenJump(after, onPick) {
  const box = element('div', 'token-jump');
  const field = element('input', 'token-jump-index');
  field.type = 'number';
  field.id = 'step-index';
  field.min = '1';
  const total = element('span', 'token-jump-total');
  const label = element('label', 'token-jump-label');
  label.append('token ', field, total);
  const slider = element('input', 'token-jump-slider');
  slider.type = 'range';
  slider.id = 'step-slider';
  slider.min = '1';
  slider.setAttribute('aria-label', 'Token to step through');
  box.append(label, slider);
  after.after(box);
  let n = 0;
  let shown = -1;  // the step the controls show

  const read = (input) => {
    const k = Number(input.value) - 1;
    if (Number.isInteger(k) && k >= 0 && k < n) onPick(k);
  };
  field.addEventListener('input', () => {
    shown = -1;  // the next render puts the step back in place of a number out of range
    read(field);
  });
  slider.addEventListener('input', () => read(slider));

  return {
    render(tokens, step) {
      // Nothing to write on a keystroke that keeps n and the step (most of them): setting an
      // input's value, even to the same, costs a style pass.
      if (tokens === n && step === shown && document.activeElement !== field) return;
      n = tokens;
      shown = step;
      field.max = slider.max = String(n);
      total.textContent = ` of ${count(n)}`;
      // A number being typed is left as typed.
      if (document.activeElement !== field) field.value = String(step + 1);
      slider.value = String(step + 1);
      slider.setAttribute('aria-valuetext', `token ${step + 1} of ${n}`);
      field.disabled = slider.disabled = n < 2;
    },
  };
}
