// Error messages next to the inputs they belong to. Each field has one role="alert" paragraph;
// its inputs get aria-invalid while it shows a message. Messages are set as text, never HTML.
const FIELDS = {
  ids: { error: 'ids-error', inputs: ['ids'] },
  shape: { error: 'shape-error', inputs: ['vocab', 'dim'] },
  weights: { error: 'weights-error', inputs: ['seed', 'npy-file'] },
};

function setField(name, message) {
  const field = FIELDS[name];
  const box = document.getElementById(field.error);
  if (box.textContent === message) return;  // an alert changed again is announced again
  box.textContent = message;
  box.hidden = message === '';
  for (const id of field.inputs) {
    const input = document.getElementById(id);
    if (message) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }
}

// errors: { ids?, shape?, weights? } -> message; the fields not named are cleared.
export function setFieldErrors(errors) {
  for (const name of Object.keys(FIELDS)) setField(name, errors[name] ?? '');
}
