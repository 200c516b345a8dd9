// Error messages next to the inputs they belong to, placed by the core's argument name
// (error-fields.mjs). Each input has one role="alert" paragraph, "<input id>-error" (the .npy
// file's is "weights-error"); the input gets aria-invalid while it shows a message. An argument
// no input stands for is shown under the ids, marking nothing. Messages are set as text, never HTML.
import { PAGE_FIELDS } from '../model/error-fields.mjs';

const BOXES = {
  ids: 'ids-error',
  vocab: 'vocab-error',
  dim: 'dim-error',
  seed: 'seed-error',
  'weights-file': 'weights-error',
};

function setField(input, message, invalid) {
  const box = document.getElementById(BOXES[input]);
  if (box.textContent !== message) {
    // an alert changed again is announced again
    box.textContent = message;
    box.hidden = message === '';
  }
  const element = document.getElementById(input);
  if (invalid) element.setAttribute('aria-invalid', 'true');
  else element.removeAttribute('aria-invalid');
}

// errors: { argument: message } (the core's argument names, or null for none); every other
// field is cleared.
export function setFieldErrors(errors) {
  const shown = new Map();
  for (const [argument, message] of Object.entries(errors)) {
    const input = PAGE_FIELDS[argument];
    shown.set(input ?? PAGE_FIELDS.ids, { message, invalid: input !== undefined });
  }
  for (const input of Object.values(PAGE_FIELDS)) {
    const { message = '', invalid = false } = shown.get(input) ?? {};
    setField(input, message, invalid);
  }
}
