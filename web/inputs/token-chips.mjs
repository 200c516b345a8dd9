// A text's tokens as chips: each shows what the token stands for (tokenizers/token-label.mjs)
// over its id. The chips are a radio group with one tab stop, like the step-through's picker:
// clicking a chip or moving along with the arrow keys, Home and End picks that token (onPick(k),
// at most once a frame; with pickOnHover, pointing at it too), and select(k) marks the token
// picked. Each chip carries data-token, so that on the page pointing at it or focusing it marks
// its token in every view (views/linked-views.mjs). Beyond CHIPS_SHOWN tokens the rest are counted,
// not drawn; the ids field holds them all.
import { element, radioKeyTarget } from '../draw/dom.mjs';
import { count, plural } from '../model/format-number.mjs';
import { marksLegend } from '../tokenizers/token-label.mjs';

const CHIPS_SHOWN = 1000;

// container: an empty element; onPick(k) for the token the learner picks.
export function createTokenChips(container, onPick, { pickOnHover = false } = {}) {
  container.setAttribute('role', 'radiogroup');
  let n = 0; // tokens, shown or not
  let current = -1; // the picked token
  let wanted = -1; // the token to pick at the next frame
  let frame = 0;

  const chipOf = (node) => node?.closest?.('.token-chip');

  function pickSoon(k) {
    if (k === current || k < 0 || k >= n) return;
    wanted = k;
    frame ||= requestAnimationFrame(() => {
      frame = 0;
      if (wanted !== current) onPick(wanted);
    });
  }

  const pickChip = (event) => {
    const chip = chipOf(event.target);
    if (chip) pickSoon(Number(chip.dataset.token));
  };
  if (pickOnHover) container.addEventListener('pointerover', pickChip);
  container.addEventListener('focusin', pickChip);
  container.addEventListener('click', pickChip);
  container.addEventListener('keydown', (event) => {
    const k = radioKeyTarget(event.key, current, Math.min(n, CHIPS_SHOWN));
    if (k === null) return;
    event.preventDefault();
    container.children[k]?.focus();
  });

  function chip(id, label, k) {
    const button = element('button', 'token-chip');
    button.type = 'button';
    button.dataset.token = String(k);
    button.setAttribute('role', 'radio');
    button.setAttribute('aria-checked', 'false');
    button.tabIndex = -1;
    button.setAttribute('aria-label', `token ${k + 1}: ${label}, id ${id}`);
    button.append(element('span', 'token-text', label), element('span', 'token-id', String(id)));
    return button;
  }

  return {
    // ids, labels: tokenize()'s; step: the token picked.
    render(ids, labels, step) {
      n = ids.length;
      current = -1;
      const chips = ids.slice(0, CHIPS_SHOWN).map((id, k) => chip(id, labels[k], k));
      if (n > CHIPS_SHOWN) {
        chips.push(
          element(
            'span',
            'token-more',
            `… and ${plural(n - CHIPS_SHOWN, 'more token', 'more tokens')} (${count(n)} in all)`,
          ),
        );
      }
      const legend = marksLegend(labels.slice(0, CHIPS_SHOWN));
      if (legend) chips.push(element('span', 'token-legend', legend));
      container.replaceChildren(...chips);
      this.select(step);
    },

    // Marks token k as picked (the page's step), keeping the focus on the chips when it was there.
    select(k) {
      if (k === current) return;
      current = k;
      const focused = container.contains(container.getRootNode().activeElement);
      container.querySelector('[aria-checked="true"]')?.setAttribute('aria-checked', 'false');
      for (const stop of container.querySelectorAll('[tabindex="0"]')) stop.tabIndex = -1;
      const picked = k >= 0 && k < Math.min(n, CHIPS_SHOWN) ? container.children[k] : null;
      picked?.setAttribute('aria-checked', 'true');
      const stop = picked ?? container.querySelector('.token-chip');
      if (!stop) return;
      stop.tabIndex = 0;
      if (focused) stop.focus();
    },

    clear() {
      n = 0;
      current = -1;
      container.replaceChildren();
    },
  };
}
