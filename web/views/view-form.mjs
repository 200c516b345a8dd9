// A view with inputs of its own beside the page's (the backward view's G seed, the bag view's
// offsets...): a small form of named inputs, one alert beside it that shows the message of the
// input that is wrong, as text, with aria-invalid on that input, and the view's output below.
// What is typed lives in the store (state.views[kind], model/view-inputs.mjs), so that a link
// reproduces it; the form starts from the store's values.
// The view recomputes when the page's result is new and once per frame after an input event;
// beyond a few milliseconds of work, in the page's compute worker while the view says 'computing'.
import { FieldError, PRODUCT_BUDGET, wholeNumber } from '../compute/plan.mjs';
import { element, writeProperty } from '../draw/dom.mjs';
import { tableRegions } from '../draw/scroll-region.mjs';
import { EmbedlabError } from '../embedlab/embedlab.mjs';
import { viewWork } from '../compute/view-compute.mjs';
import { tokenNodes } from './linking.mjs';
import { markBusy } from './verdict.mjs';

let forms = 0; // ids for aria-describedby, unique in the page or shadow root

// The padding_idx input, which both views take: its markup, its value (a whole number, or null
// when empty; the core checks the range) and the row it names. `of` completes its accessible
// name ("padding_idx of the gradient"), one name per view on a page that shows both.
export const paddingIdxInput = (
  of,
) => `<label class="view-field"><span><code>padding_idx</code><span
    class="visually-hidden"> ${of}</span></span>
    <input name="padding-idx" type="text" inputmode="numeric" placeholder="none" spellcheck="false"></label>`;

export function paddingIdxOf(form) {
  const text = form.value('padding-idx');
  return text.trim() === '' ? null : wholeNumber(text, 'padding_idx', 'padding_idx');
}

// Once the core has accepted paddingIdx, it lies in [-V, V): the row it names, or null for none.
export const paddingRow = (paddingIdx, vocab) =>
  paddingIdx === null ? null : (paddingIdx + vocab) % vocab;

// What the form's controls hold that differs from their markup's default: name -> text.
function changedValues(form) {
  const values = {};
  for (const control of form.elements) {
    const initial =
      control.tagName === 'SELECT'
        ? ([...control.options].find((option) => option.defaultSelected) ?? control.options[0])
            .value
        : control.defaultValue;
    if (control.name && control.value !== initial) values[control.name] = control.value;
  }
  return values;
}

// root: where the form and its alert are appended; markup: constant markup of labelled inputs,
// each with a name; fields: the core's argument names -> the input each stands for
// (error-fields.mjs); values: name -> text to start from (others keep the markup's). update(values)
// runs once per frame after input, with changedValues().
export function createViewForm(root, markup, fields, values, update) {
  const errorId = `view-error-${++forms}`;
  const template = document.createElement('template');
  template.innerHTML = `<form class="view-controls" novalidate autocomplete="off">${markup}</form>
    <p class="error" id="${errorId}" role="alert" hidden></p>`;
  const form = template.content.querySelector('form');
  const alert = template.content.querySelector('.error');
  root.append(template.content);
  for (const control of form.elements) {
    control.setAttribute('aria-describedby', errorId);
    if (Object.hasOwn(values, control.name)) control.value = values[control.name];
  }

  let frame = 0;
  form.addEventListener('submit', (event) => event.preventDefault());
  form.addEventListener('input', () => {
    if (!frame) {
      frame = requestAnimationFrame(() => {
        frame = 0;
        update(changedValues(form));
      });
    }
  });

  function show(message, field) {
    writeProperty(alert, 'textContent', message); // a new text is announced
    alert.hidden = message === '';
    for (const control of form.elements) {
      if (control.name === field) control.setAttribute('aria-invalid', 'true');
      else control.removeAttribute('aria-invalid');
    }
  }

  return {
    // The input's text by name (a select's value).
    value: (name) => form.elements[name].value,
    // values (name -> text, as changedValues() gives them) into the controls, the others back
    // to their markup's default: inputs set from elsewhere (the story's Try buttons).
    write(next) {
      for (const control of form.elements) {
        if (!control.name) continue;
        control.value = Object.hasOwn(next, control.name)
          ? next[control.name]
          : control.defaultValue;
      }
    },
    clear: () => show('', null),
    // A FieldError or the core's EmbedlabError is shown beside the input for its argument (none
    // for an argument the view has no input for); anything else is a bug and is thrown on.
    fail(error) {
      if (error instanceof FieldError) show(error.message, fields[error.field]);
      else if (error instanceof EmbedlabError) show(error.message, fields[error.argument]);
      else throw error;
    },
  };
}

// Markup of one titled table box in a view's output: data-item names the box, data-box the
// element its table goes in.
export function matrixItem(name, title, note) {
  return `<div class="matrix-item" data-item="${name}">
      <h3>${title}</h3>
      <p class="route-note">${note}</p>
      <div class="table-box" data-box="${name}"></div>
    </div>`;
}

// root: an empty element the view fills: the form (controls, fields as for createViewForm; its
// values kept in store.get().views[kind]),
// then a div.view-output holding the constant markup output.
// kind: the view's computation in compute/view-compute.mjs; read(result, form): its arguments, throwing
// a FieldError for a wrong input. show(b, result) draws b = { ...arguments, ...computed }. The
// core's EmbedlabError for a wrong input is shown by the form while the last output stays,
// marked stale. computeView: the session's (compute/session.mjs), which runs a computation
// beyond PRODUCT_BUDGET in the compute worker while computing(args) shows that it runs; a newer
// result or input stops it there.
// Returns the output element, render(result), for compute.run()'s result, and select(step), for
// the token to mark (class 'current') in what the output draws for the result shown.
export function createFormView(
  root,
  { controls, fields, output: markup, kind, read, show, computing, computeView, store },
) {
  const form = createViewForm(root, controls, fields, store.get().views[kind], (values) => {
    store.set({ views: { ...store.get().views, [kind]: values } });
    update();
  });
  const output = element('div', 'view-output');
  output.innerHTML = markup;
  root.append(output);
  tableRegions(output);
  let result = null;
  let shownFor = null; // the result the output shows
  let step = 0;
  let selected = []; // the nodes marked as the selected token
  let busy = false; // a computation runs
  let again = false; // and an update came meanwhile: its answer is stale
  let stopping = null; // the AbortController that stops the computation running

  function markSelected() {
    for (const node of selected) node.classList.remove('current');
    selected = shownFor && step < shownFor.ids.length ? tokenNodes(output, step, shownFor.ids) : [];
    for (const node of selected) node.classList.add('current');
  }

  function failed(error) {
    form.fail(error);
    output.classList.add('stale');
  }

  async function computed(args) {
    if (viewWork(kind, args) > PRODUCT_BUDGET) {
      computing(args);
      output.classList.add('stale');
      output.setAttribute('aria-busy', 'true');
    }
    busy = true;
    stopping = new AbortController();
    try {
      return await computeView(kind, result, args, stopping.signal);
    } finally {
      busy = false;
      stopping = null;
      output.removeAttribute('aria-busy');
    }
  }

  async function update() {
    if (!result) return;
    if (busy) {
      again = true;
      stopping.abort();
      return;
    }
    const shown = result;
    let b;
    try {
      const args = read(shown, form);
      b = { ...args, ...(await computed(args)) };
    } catch (error) {
      if (!again) failed(error);
    }
    if (again) {
      again = false;
      update();
      return;
    }
    if (!b) return;
    form.clear();
    output.classList.remove('stale');
    show(b, shown);
    shownFor = shown;
    markSelected();
  }

  return {
    output,
    render(next) {
      // The same ids on the same table: a new step of the step-through, or the product's end.
      if (next.ids === result?.ids && next.tableKey === result?.tableKey) return;
      result = next;
      update();
    },
    select(next) {
      step = next;
      markSelected();
    },
  };
}

// A view of the registry (registry.mjs) made of a form view: create(container, lab, computeView,
// store) returns its { render(result), select(step) }, link(container) links the rows inside it.
// While the page computes a newer result, the view says it shows an older one (markBusy()).
export function formViewEntry(title, create, link) {
  return {
    title,
    build(container, { lab, computeView, store }) {
      const view = create(container, lab, computeView, store);
      link(container);
      return {
        update(state, changed) {
          const { result, step } = state;
          if (result && changed.has('result')) view.render(result);
          if (changed.has('step')) view.select(step);
          markBusy(container, state);
        },
      };
    },
  };
}
