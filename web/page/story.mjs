// The guided first run beside the picture: each step's "Try" button puts an input into the
// store, as if typed: its data-try holds the inputs (model/state.mjs's keys), or data-try-text a
// text and a tokenizer for Text mode. The step tried last is marked as the current one.
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
