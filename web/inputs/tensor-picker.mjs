// The tensors of a .safetensors file, to pick W from: its 2-D tensors in a <select> (name, dtype,
// shape), the embedding table preselected when the names point to one, and how the chosen
// tensor's values become float32.
import { writeProperty } from '../draw/dom.mjs';
import { count } from '../model/format-number.mjs';

const shapeText = (shape) => shape.map(count).join(' × ');

// elements: { field (what shows only for a .safetensors file), select, status };
// onPick(name) when the learner picks a tensor.
export function createTensorPicker({ field, select, status }, onPick) {
  select.addEventListener('change', () => {
    if (select.value) onPick(select.value);
  });

  function show(text) {
    writeProperty(status, 'textContent', text);
  }

  return {
    // The file's 2-D tensors, `selected` selected (null: nothing, so the learner is asked).
    list(header, selected) {
      const options = header.tensors
        .filter((t) => t.shape.length === 2)
        .map((t) => {
          const option = new Option(`${t.name}: ${t.dtype}, ${shapeText(t.shape)}`, t.name);
          option.selected = t.name === selected;
          return option;
        });
      const ask = new Option('pick the tensor that holds W', '', false, selected === null);
      ask.disabled = true;
      select.replaceChildren(...(selected === null ? [ask] : []), ...options);
      field.hidden = options.length === 0;
      show('');
    },
    hide() {
      field.hidden = true;
      select.replaceChildren();
      show('');
    },
    // input: the file input of the picked tensor { tensor, rows, cols, conversion }
    read({ tensor, rows, cols, conversion }) {
      show(`${tensor} (${count(rows)} × ${count(cols)}): ${conversion}`);
    },
    failed() {
      show('');
    },
  };
}
