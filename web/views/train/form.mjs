// The Train view's inputs: the form, written from the store's train (model/train-inputs.mjs) and
// read back as it, each error under the field it names, and the tokens of batches typed as text.
// The store is the source of truth: a link's inputs, or Reset's, are shown as they are stored.
import { FieldError } from '../../compute/plan.mjs';
import { element, writeProperty } from '../../draw/dom.mjs';
import { TRAIN_FIELDS, TRAIN_OWN_FIELDS } from '../../model/error-fields.mjs';

const MARKUP = (id) => `
  <form class="view-controls train-controls" novalidate autocomplete="off">
    <div class="view-field train-batches">
      <div class="train-batches-head">
        <span id="${id}-batches-title" data-part="data-title">data</span>
        <div class="ids-from" role="radiogroup" aria-labelledby="${id}-batches-title">
          <input id="${id}-from-text" type="radio" name="batches-from" value="text">
          <label for="${id}-from-text">text</label>
          <input id="${id}-from-ids" type="radio" name="batches-from" value="ids">
          <label for="${id}-from-ids">ids</label>
        </div>
      </div>
      <div class="train-from" data-part="from-ids">
        <label for="${id}-batches" class="visually-hidden" data-part="ids-label">batches as ids</label>
        <input id="${id}-batches" name="batches" type="text" class="wide" spellcheck="false"
               aria-describedby="${id}-batches-error">
        <p class="error" id="${id}-batches-error" role="alert" hidden></p>
      </div>
      <div class="train-from text-mode" data-part="from-text" hidden>
        <div class="train-text-head">
          <label for="${id}-batch-lines" data-part="text-label">one batch per line, tokenized by</label>
          <label for="${id}-batch-tokenizer" class="visually-hidden">tokenizer</label>
          <select id="${id}-batch-tokenizer" name="batch-tokenizer"
                  aria-describedby="${id}-batch-tokenizer-error"></select>
        </div>
        <p class="error" id="${id}-batch-tokenizer-error" role="alert" hidden></p>
        <textarea id="${id}-batch-lines" name="batch-lines" rows="3" spellcheck="false"
                  aria-describedby="${id}-batch-lines-error"></textarea>
        <p class="error" id="${id}-batch-lines-error" role="alert" hidden></p>
        <p class="route-note train-shape" data-part="shape" role="status"></p>
        <ol class="train-lines" data-part="lines" aria-label="The tokens"></ol>
      </div>
    </div>
    <div class="view-field">
      <label for="${id}-head">head</label>
      <select id="${id}-head" name="head" aria-describedby="${id}-head-error">
        <option value="tied">tied</option>
        <option value="untied">untied</option>
        <option value="none">none: random G</option>
      </select>
      <p class="error" id="${id}-head-error" role="alert" hidden></p>
    </div>
    <div class="view-field">
      <label for="${id}-optimizer">optimizer</label>
      <select id="${id}-optimizer" name="optimizer" aria-describedby="${id}-optimizer-error"></select>
      <p class="error" id="${id}-optimizer-error" role="alert" hidden></p>
    </div>
    <div class="train-hyper" data-part="lr"></div>
    <div class="train-hyper" data-part="loader">
      ${LOADER_FIELDS.map(([name, label]) => numberField(id, name, label)).join('')}
      <div class="view-field train-flag">
        <label class="py-name"><input type="checkbox" name="shuffle"> shuffle=True</label>
      </div>
      <div class="view-field train-flag">
        <label class="py-name"><input type="checkbox" name="positions"> positions</label>
      </div>
    </div>
    <details class="train-more" data-part="more-arguments">
      <summary data-part="more-title">more arguments</summary>
      <div class="train-hyper" data-part="hyper"></div>
    </details>
    <div class="view-field train-flag" data-part="sparse">
      <label class="py-name"><input type="checkbox" name="sparse"> sparse=True</label>
    </div>
    <div class="view-field" data-part="padding-idx">
      <label for="${id}-padding-idx" class="py-name">padding_idx</label>
      <input id="${id}-padding-idx" name="padding-idx" type="text" inputmode="numeric"
             placeholder="none" spellcheck="false" aria-describedby="${id}-padding-idx-error">
      <p class="error" id="${id}-padding-idx-error" role="alert" hidden></p>
    </div>
  </form>
  <p class="error" data-part="alert" role="alert" hidden></p>`;

// The chapter's loader, with a head: each field's input name and label (the core's argument).
const LOADER_FIELDS = [
  ['max-length', 'max_length'],
  ['stride', 'stride'],
  ['batch-size', 'batch_size'],
];

function numberField(id, name, label) {
  return `<div class="view-field">
        <label for="${id}-${name}" class="py-name">${label}</label>
        <input id="${id}-${name}" name="${name}" type="text" inputmode="numeric" spellcheck="false"
               aria-describedby="${id}-${name}-error">
        <p class="error" id="${id}-${name}-error" role="alert" hidden></p>
      </div>`;
}

// A hyperparameter's input: a text field (a number, or betas as "0.9, 0.999") or a checkbox.
function hyperField(id, argument, value) {
  const name = TRAIN_FIELDS[argument.name];
  const field = element('div', `view-field${argument.form === 'flag' ? ' train-flag' : ''}`);
  const error = element('p', 'error');
  error.id = `${id}-${name}-error`;
  error.setAttribute('role', 'alert');
  error.hidden = true;
  const input = element('input');
  input.name = name;
  input.setAttribute('aria-describedby', error.id);
  const label = element('label', 'py-name');
  if (argument.form === 'flag') {
    input.type = 'checkbox';
    input.checked = value;
    label.append(input, ` ${argument.name}`);
    field.append(label, error);
  } else {
    input.type = 'text';
    input.dataset.form = argument.form;
    input.id = `${id}-${name}`;
    input.spellcheck = false;
    input.value = value;
    label.htmlFor = input.id;
    label.append(argument.name);
    field.append(label, input, error);
  }
  return field;
}

// The optimizer's entry in lab.optimizers that train names (the core's first for none).
export const optimizerInfo = (lab, train) =>
  lab.optimizers.find((o) => o.name === train.optimizer) ?? lab.optimizers[0];

// The form appended to root, its ids unique by `id`. onInput(train): what the fields say, as the
// store's train, after each input event in them (steps back to 0). textIds(): the ids of the
// text as tokenized, or null: switched to ids with a head, the sequence starts from them.
export function createTrainForm(root, { lab, tokenizers, id, onInput, textIds }) {
  const template = document.createElement('template');
  template.innerHTML = MARKUP(id);
  const form = template.content.querySelector('form');
  const alert = template.content.querySelector('[data-part="alert"]');
  const part = (name) => form.querySelector(`[data-part="${name}"]`);
  root.append(template.content);
  for (const o of lab.optimizers) form.elements.optimizer.append(new Option(o.className, o.name));
  for (const [name, { label }] of Object.entries(tokenizers.catalog)) {
    form.elements['batch-tokenizer'].append(new Option(label, name));
  }
  let shownOptimizer = null; // the optimizer whose hyperparameter fields are drawn

  // What the fields say, as the store's train: hyperparameters as typed (all of them again
  // PyTorch's defaults when the optimizer changes).
  function read(optimizerChanged) {
    const info = lab.optimizers.find((o) => o.name === form.elements.optimizer.value);
    const hyper = {};
    if (!optimizerChanged) {
      for (const a of info.arguments) {
        const input = form.elements[TRAIN_FIELDS[a.name]];
        const value = a.form === 'flag' ? input.checked : input.value;
        if (value !== (a.form === 'flag' ? a.default : a.text)) hyper[a.name] = value;
      }
    }
    return {
      head: form.elements.head.value,
      batchesFrom: form.elements['batches-from'].value,
      batchesText: form.elements.batches.value,
      linesText: form.elements['batch-lines'].value,
      tokenizer: form.elements['batch-tokenizer'].value || null,
      maxLengthText: form.elements['max-length'].value,
      strideText: form.elements.stride.value,
      batchSizeText: form.elements['batch-size'].value,
      shuffle: form.elements.shuffle.checked,
      positions: form.elements.positions.checked,
      optimizer: info.name,
      hyper,
      sparse: form.elements.sparse.checked,
      paddingIdxText: form.elements['padding-idx'].value,
      steps: 0,
    };
  }

  // Switched to ids with a head, the sequence starts as the text's ids.
  form.addEventListener('change', (event) => {
    if (event.target.name !== 'batches-from' || event.target.value !== 'ids') return;
    const ids = form.elements.head.value === 'none' ? null : textIds();
    if (ids) form.elements.batches.value = Array.from(ids).join(', ');
  });
  form.addEventListener('submit', (event) => event.preventDefault());
  form.addEventListener('input', (event) => onInput(read(event.target.name === 'optimizer')));

  return {
    // The store's train inputs, shown in the fields (a link's, or after Reset); the field being
    // typed in is left alone when it already says the same.
    show(train) {
      const info = optimizerInfo(lab, train);
      const fromText = train.batchesFrom === 'text';
      const head = train.head !== 'none';
      form.elements['batches-from'].value = fromText ? 'text' : 'ids';
      part('from-ids').hidden = fromText;
      part('from-text').hidden = !fromText;
      part('data-title').textContent = head ? 'data: one sequence' : 'batches';
      part('ids-label').textContent = head ? 'the sequence as ids' : 'batches as ids';
      part('text-label').textContent = head
        ? 'the text, tokenized by'
        : 'one batch per line, tokenized by';
      writeProperty(form.elements.batches, 'value', train.batchesText);
      writeProperty(form.elements['batch-lines'], 'value', train.linesText);
      writeProperty(
        form.elements['batch-tokenizer'],
        'value',
        train.tokenizer ?? tokenizers.defaultName,
      );
      writeProperty(form.elements['max-length'], 'value', train.maxLengthText);
      writeProperty(form.elements.stride, 'value', train.strideText);
      writeProperty(form.elements['batch-size'], 'value', train.batchSizeText);
      form.elements.shuffle.checked = train.shuffle;
      form.elements.positions.checked = train.positions;
      writeProperty(form.elements.optimizer, 'value', info.name);
      writeProperty(form.elements['padding-idx'], 'value', train.paddingIdxText);
      form.elements.sparse.checked = train.sparse;
      writeProperty(form.elements.head, 'value', train.head);
      // The loader is the head's; sparse=True and padding_idx are nn.Embedding's alone, which
      // the head's training takes as it is.
      part('loader').hidden = !head;
      part('sparse').hidden = head;
      part('padding-idx').hidden = head;
      part('more-title').textContent = `more of torch.optim.${info.className}'s arguments`;
      const value = (a) => train.hyper[a.name] ?? (a.form === 'flag' ? a.default : a.text);
      if (shownOptimizer !== info.name) {
        shownOptimizer = info.name;
        // lr beside the optimizer; the others behind the disclosure.
        part('lr').replaceChildren(
          ...info.arguments.filter((a) => a.name === 'lr').map((a) => hyperField(id, a, value(a))),
        );
        part('hyper').replaceChildren(
          ...info.arguments.filter((a) => a.name !== 'lr').map((a) => hyperField(id, a, value(a))),
        );
        return;
      }
      for (const a of info.arguments) {
        const input = form.elements[TRAIN_FIELDS[a.name]];
        if (a.form === 'flag') input.checked = value(a);
        else writeProperty(input, 'value', value(a));
      }
    },

    // An error beside the input it is about; one no input of the view stands for (V, d, the
    // seed, the source of W) in the view's alert. null clears them.
    showError(error) {
      const field =
        error === null ? null : error instanceof FieldError ? error.field : error.argument;
      const input =
        field === null ? null : form.elements[TRAIN_FIELDS[field] ?? TRAIN_OWN_FIELDS[field]];
      // An error behind the disclosure opens it.
      if (input && part('more-arguments').contains(input)) part('more-arguments').open = true;
      for (const box of form.querySelectorAll('.error')) {
        const mine = input && box.id === input.getAttribute('aria-describedby');
        writeProperty(box, 'textContent', mine ? error.message : '');
        box.hidden = !mine;
      }
      for (const control of form.elements) {
        if (control === input) control.setAttribute('aria-invalid', 'true');
        else control.removeAttribute('aria-invalid');
      }
      const general = error !== null && !input ? error.message : '';
      writeProperty(alert, 'textContent', general);
      alert.hidden = general === '';
    },

    // Under the text: why V and d are what they are, or the tokenizer's progress.
    showShape(text) {
      part('shape').textContent = text;
    },

    // Each batch's tokens, as text and id; with a head, the one text's (no batch name).
    showLines(lines, head) {
      part('lines').replaceChildren(
        ...lines.map((line, b) => {
          const item = element('li', 'train-line');
          if (!head) item.append(element('span', 'train-line-name', `batch ${b + 1}`));
          line.ids.forEach((tokenId, i) => {
            // One element a token: its words, its id drawn beside them from data-id.
            const token = element('span', 'train-token', line.labels[i]);
            token.dataset.id = String(tokenId);
            item.append(token);
          });
          return item;
        }),
      );
    },
  };
}
