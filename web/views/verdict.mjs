// The verdict of both routes, from the store: the grade of the last result, or what is going
// on while there is none to grade (a large product computing, an input to fix).
import { showPending, showVerdict } from '../draw/verdict-box.mjs';
import { inputsText } from '../model/describe.mjs';

export const verdictView = {
  title: 'Do both routes agree?',
  build(container, { lab, stop }) {
    const box = document.createElement('div');
    box.className = 'verdict';
    box.setAttribute('aria-live', 'polite');
    // Outside the box, which each progress report rewrites: a focused button keeps its focus.
    const stopButton = document.createElement('button');
    stopButton.type = 'button';
    stopButton.className = 'stop-product';
    stopButton.textContent = 'Stop the product';
    stopButton.hidden = true;
    stopButton.addEventListener('click', () => stop());
    container.append(box, stopButton);
    return {
      update({ result, status }, changed) {
        if (!changed.has('status') && !changed.has('result')) return;
        stopButton.hidden = !status.stoppable;
        if (status.state === 'computing') {
          showPending(box, 'computing', status.sentence);
        } else if (status.state === 'stopped') {
          showPending(box, 'stopped', status.sentence);
        } else if (status.state === 'failed') {
          showPending(box, 'no result', result
            ? `Fix the input: the views show the last valid input: ${inputsText(result)}.`
            : 'Fix the input to see both routes.');
        } else if (result) {
          showVerdict(box, result.comparison, lab.verdictDefinitions);
        }
      },
    };
  },
};
