// The verdict of both routes, from the store: the grade of the last result, or what is going
// on while there is none to grade (a large product computing, a text waiting for its tokens, an
// input to fix). While the views show an older result than the inputs ask for, they say so:
// the verdict in words, each view with aria-busy and a dimmed look (markBusy()).
import { writeProperty } from '../draw/dom.mjs';
import { showPending, showVerdict } from '../draw/verdict-box.mjs';
import { inputsText } from '../model/describe.mjs';
import { count } from '../model/format-number.mjs';
import { gradientComparison } from './picture/backward.mjs';

// A text whose tokens have not come yet (the tokenizer loads or reads it): the result shown is
// that of the tokens before.
const waitsForTokens = ({ text, tokens }) =>
  text !== null && (tokens?.text !== text.text || tokens?.tokenizer !== text.tokenizer);

// Whether the views wait for a newer result than the one they show.
export const isBusy = (state) => state.status.state === 'computing' || waitsForTokens(state);

// Whether a view that shows a result says it is busy: the store waits for a newer one.
export const showsBusy = (state) => isBusy(state) && state.result !== null;

// Marks a view's node busy (aria-busy, and the class 'busy' that dims it) while the store waits
// for a newer result than the one it shows.
export function markBusy(node, state) {
  const busy = showsBusy(state);
  if (busy === node.classList.contains('busy')) return;
  node.classList.toggle('busy', busy);
  if (busy) node.setAttribute('aria-busy', 'true');
  else node.removeAttribute('aria-busy');
}

const SHOWN_KEYS = ['status', 'result', 'text', 'tokens', 'pictureMode'];

export const verdictView = {
  title: 'Do both routes agree?',
  build(container, { lab, stop }) {
    const box = document.createElement('div');
    box.className = 'verdict';
    box.setAttribute('aria-live', 'polite');
    // Outside the box, which each progress report rewrites: a focused button keeps its focus.
    const stopButton = document.createElement('button');
    stopButton.type = 'button';
    stopButton.className = 'try stop-product';
    stopButton.textContent = 'Stop the product';
    stopButton.hidden = true;
    stopButton.addEventListener('click', () => stop());
    container.append(box, stopButton);
    return {
      update(state, changed) {
        if (!SHOWN_KEYS.some((key) => changed.has(key))) return;
        const { result, status } = state;
        const last = result ? ` The views show the last result: ${inputsText(result)}.` : '';
        writeProperty(stopButton, 'hidden', !status.stoppable);
        if (status.state === 'computing') {
          showPending(box, 'computing', status.sentence);
        } else if (status.state === 'stopped') {
          showPending(box, 'stopped', status.sentence);
        } else if (waitsForTokens(state)) {
          showPending(box, 'tokenizing', `Reading the text into tokens.${last}`);
        } else if (status.state === 'failed') {
          showPending(
            box,
            'no result',
            result
              ? `Fix the input: showing the last valid ids, ${inputsText(result)}.`
              : 'Fix the input to see both routes.',
          );
        } else if (result && state.pictureMode === 'backward') {
          // The picture shows the gradient: the verdict is dW's, not the forward pass's.
          const comparison = gradientComparison(lab, result);
          if (comparison) showVerdict(box, comparison, lab.verdictDefinitions);
          else
            showPending(
              box,
              'no result',
              `dW would be ${count(result.vocab)} × ${count(result.dim)}: the Backward view ` +
                'below compares both routes of the gradient at this size.',
            );
        } else if (result?.comparison) {
          const cost = [...result.notes, ...(result.blocks ? [result.blocks] : [])];
          showVerdict(box, result.comparison, lab.verdictDefinitions, cost);
        } else if (result) {
          // The lookup's rows of a product that a change of input cut short, while it is typed.
          showPending(
            box,
            'stopped',
            'The input changed before the one-hot product ended: there is nothing to compare ' +
              'yet. Finish the ids to start again.',
          );
        }
      },
    };
  },
};
