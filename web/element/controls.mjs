// The element's optional inputs (the `controls` attribute): each edits one attribute of the
// element, so attributes stay the one source of truth and a page can watch them.
const MARKUP = `
  <label class="control control-ids">idx <input name="ids" type="text" spellcheck="false"></label>
  <label class="control">V <input name="vocab" type="text" inputmode="numeric" placeholder="auto" spellcheck="false"></label>
  <label class="control">d <input name="dim" type="text" inputmode="numeric" spellcheck="false"></label>
  <label class="control">W <select name="weights">
    <option value="seed">torch.manual_seed</option>
    <option value="tf">row i = 0.11·i</option>
    <option value="npy">the .npy file (src)</option>
  </select></label>
  <label class="control">seed <input name="seed" type="text" inputmode="numeric" spellcheck="false"></label>`;

// Which inputs a FieldError of compute.mjs (or an AttributeError) belongs to.
const INVALID = { ids: ['ids'], shape: ['vocab', 'dim'], weights: ['seed', 'weights'],
                  src: ['weights'], vocab: ['vocab'], dim: ['dim'], seed: ['seed'] };

// form: an empty <form> in the shadow root; host: the element; errorId: the id of its alert.
export function createControls(form, host, errorId) {
  const template = document.createElement('template');
  template.innerHTML = MARKUP;
  form.append(template.content);
  const fields = form.elements;
  for (const input of form.querySelectorAll('input, select')) {
    input.setAttribute('aria-describedby', errorId);
  }
  form.addEventListener('submit', (event) => event.preventDefault());
  form.addEventListener('input', (event) => {
    const { name, value } = event.target;
    if (name === 'vocab' && value.trim() === '') host.removeAttribute('vocab');
    else host.setAttribute(name, value);
  });

  return {
    // input: planInput() of the attributes; autoVocab: V when it comes from the ids, else null;
    // field: what the shown error is about (a FieldError's field or an attribute), or null.
    sync(input, autoVocab, field) {
      const values = { ids: input.idsText, vocab: input.vocabText, dim: input.dimText,
                       seed: input.seedText, weights: input.source };
      for (const [name, value] of Object.entries(values)) {
        if (fields[name].value !== value) fields[name].value = value;
      }
      fields.vocab.placeholder = autoVocab === null ? 'auto' : `auto: ${autoVocab}`;
      const fromFile = input.source === 'npy';
      for (const name of ['vocab', 'dim', 'seed']) fields[name].disabled = fromFile;
      fields.weights.querySelector('option[value="npy"]').hidden = !host.hasAttribute('src');
      const invalid = new Set(INVALID[field] ?? []);
      for (const control of fields) {
        if (invalid.has(control.name)) control.setAttribute('aria-invalid', 'true');
        else control.removeAttribute('aria-invalid');
      }
    },
  };
}
