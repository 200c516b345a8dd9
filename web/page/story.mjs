// The guided first run beside the picture: each step's "Try" button puts an input into the
// store, as if typed: its data-try holds the inputs (model/state.mjs's keys), data-try-text a
// text and a tokenizer for Text mode, data-try-view a view's own inputs ({ view, inputs }, as
// model/view-inputs.mjs keeps them) and data-try-train the Train view's (train-inputs.mjs's
// keys); the page then shows that view's section. The step tried last is marked as the current
// one.
import { TRAIN_INPUTS } from '../model/train-inputs.mjs';

// root: the story's section; textInput: inputs/text-input.mjs's.
export function createStory(root, store, textInput) {
  const steps = [...root.querySelectorAll('.story-step')];
  root.addEventListener('click', (event) => {
    const button = event.target.closest('button.try');
    if (!button) return;
    for (const step of steps) {
      if (step.contains(button)) step.setAttribute('aria-current', 'step');
      else step.removeAttribute('aria-current');
    }
    if (button.dataset.tryView) {
      const { view, inputs } = JSON.parse(button.dataset.tryView);
      store.set({ views: { ...store.get().views, [view]: inputs } });
      document.getElementById(view).scrollIntoView({ block: 'start' });
      return;
    }
    if (button.dataset.tryTrain) {
      store.set({ train: { ...TRAIN_INPUTS, ...JSON.parse(button.dataset.tryTrain) } });
      document.getElementById('train').scrollIntoView({ block: 'start' });
      return;
    }
    if (button.dataset.tryText) {
      const { text, tokenizer } = JSON.parse(button.dataset.tryText);
      textInput.show(text, tokenizer);
    } else {
      textInput.hide();
      store.set({ inputs: { ...store.get().inputs, ...JSON.parse(button.dataset.try) }, step: 0 });
    }
    document.getElementById('results').scrollIntoView({ block: 'nearest' });
  });
}
