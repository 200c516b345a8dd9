// The Copy button of a script shown beside what PyTorch prints for it (the printout view, the
// Train view's printout): one button, one behaviour, wherever a script is shown.
import { element } from '../draw/dom.mjs';

const COPY = 'Copy the script';
const SAID_MS = 2000; // how long the button says what it did

// A script's steps ([{ code: Python lines }]) as one text, to copy.
export const scriptText = (steps) => `${steps.map((step) => step.code.join('\n')).join('\n')}\n`;

// A bar of the button and a note: a click hands the steps' script to the clipboard and says
// 'Copied'; where the clipboard is refused, it selects the shown script (selection: the element
// that holds it) so that the learner can copy it by hand. Either way the button reads COPY again
// a while later.
export function copyScriptBar(steps, selection, note) {
  const button = element('button', 'copy-script', COPY);
  button.type = 'button';
  let reset = 0;
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(scriptText(steps));
      button.textContent = 'Copied';
    } catch {
      getSelection().selectAllChildren(selection);
      button.textContent = 'Selected: press Ctrl+C';
    }
    clearTimeout(reset);
    reset = setTimeout(() => {
      button.textContent = COPY;
    }, SAID_MS);
  });
  const bar = element('div', 'printout-bar');
  bar.append(button, element('p', 'route-note', note));
  return bar;
}
