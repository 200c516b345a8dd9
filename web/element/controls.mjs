// The element's optional inputs (the `controls` attribute): each edits one attribute of the
// element, so attributes stay the one source of truth and a page can watch them.
import { writeProperty } from '../draw/dom.mjs';
import { autoVocabText } from '../model/format-number.mjs';

const MARKUP = `
  <label class="control control-ids">idx <input name="ids" type="text" spellcheck="false"></label>
  <label class="control control-vocab">V <input name="vocab" type="text" inputmode="numeric" placeholder="auto" spellcheck="false"></label>
  <label class="control">d <input name="dim" type="text" inputmode="numeric" spellcheck="false"></label>
  <label class="control">W <select name="weights">
    <option value="seed">torch.manual_seed</option>
    <option value="tf">row i = 0.11·i</option>
    <option value="file">the file at src</option>
  </select></label>
  <label class="control">seed <input name="seed" type="text" inputmode="numeric" spellcheck="false"></label>`;

// Which input a FieldError of compute/plan.mjs (its field: the core's argument) or an AttributeError
// belongs to: each control is named after its attribute, and the W select stands for the file.
const INVALID = {
  ids: 'ids',
  vocab: 'vocab',
  dim: 'dim',
  seed: 'seed',
  weights: 'weights',
  src: 'weights',
};

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
      const values = {
        ids: input.idsText,
        vocab: input.vocabText,
        dim: input.dimText,
        seed: input.seedText,
        weights: input.source,
      };
      for (const [name, value] of Object.entries(values))
        writeProperty(fields[name], 'value', value);
      fields.vocab.placeholder = autoVocabText(autoVocab);
      fields.ids.readOnly = host.hasAttribute('text'); // the ids are the text's tokens
      const fromFile = input.source === 'file';
      for (const name of ['vocab', 'dim', 'seed']) fields[name].disabled = fromFile;
      fields.weights.querySelector('option[value="file"]').hidden = !host.hasAttribute('src');
      for (const control of fields) {
        if (control.name === INVALID[field]) control.setAttribute('aria-invalid', 'true');
        else control.removeAttribute('aria-invalid');
      }
    },
  };
}
