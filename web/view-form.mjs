// The inputs a view adds to the page's (the backward view's G seed, the bag view's offsets...):
// a small form of named inputs, and one alert beside it that shows the message of the input
// that is wrong, as text, with aria-invalid on that input. The view recomputes once per frame
// after an input event.
import { FieldError, wholeNumber } from './compute.mjs';
import { EmbedlabError } from './embedlab/embedlab.mjs';

let forms = 0;  // ids for aria-describedby, unique in the page or shadow root

// An integer input that may stay empty (padding_idx): null when empty. The core checks the range.
export function optionalWhole(text, what, field) {
  return text.trim() === '' ? null : wholeNumber(text, what, field);
}

// root: where the form and its alert are appended; markup: constant markup of labelled inputs,
// each with a name; fieldOf(message): the input a message of the core is about, or null.
// update() runs once per frame after input.
export function createViewForm(root, markup, fieldOf, update) {
  const errorId = `view-error-${++forms}`;
  const template = document.createElement('template');
  template.innerHTML = `<form class="view-controls" novalidate autocomplete="off">${markup}</form>
    <p class="error" id="${errorId}" role="alert" hidden></p>`;
  const form = template.content.querySelector('form');
  const alert = template.content.querySelector('.error');
  root.append(template.content);
  for (const control of form.elements) control.setAttribute('aria-describedby', errorId);

  let frame = 0;
  form.addEventListener('submit', (event) => event.preventDefault());
  form.addEventListener('input', () => {
    if (!frame) {
      frame = requestAnimationFrame(() => {
        frame = 0;
        update();
      });
    }
  });

  function show(message, field) {
    if (alert.textContent !== message) alert.textContent = message;  // a new text is announced
    alert.hidden = message === '';
    for (const control of form.elements) {
      if (control.name === field) control.setAttribute('aria-invalid', 'true');
      else control.removeAttribute('aria-invalid');
    }
  }

  return {
    // The input's text by name (a select's value).
    value: (name) => form.elements[name].value,
    clear: () => show('', null),
    // A FieldError (field = an input's name) or the core's EmbedlabError is shown; anything else
    // is a bug and is thrown on.
    fail(error) {
      if (error instanceof FieldError) show(error.message, error.field);
      else if (error instanceof EmbedlabError) show(error.message, fieldOf(error.message));
      else throw error;
    },
  };
}
