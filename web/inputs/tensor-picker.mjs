// The tensors of a .safetensors file, to pick W from: its 2-D tensors in a <select> (name, dtype,
// shape), the embedding table preselected when the names point to one, a progress bar while
// the chosen tensor's bytes are read, and how its values became float32 once they are.
import { count } from '../model/format-number.mjs';

// "34 of 154 MB", "1,536 of 3,072 bytes": progress through a tensor's bytes in the file.
export function bytesProgress(done, total) {
  if (total < 1e6) return `${count(done)} of ${count(total)} bytes`;
  const digits = total < 1e7 ? 1 : 0;
  return `${(done / 1e6).toFixed(digits)} of ${(total / 1e6).toFixed(digits)} MB`;
}

const shapeText = (shape) => shape.map(count).join(' × ');

// elements: { field (what shows only for a .safetensors file), select, progress, status };
// onPick(name) when the learner picks a tensor.
export function createTensorPicker({ field, select, progress, status }, onPick) {
  select.addEventListener('change', () => {
    if (select.value) onPick(select.value);
  });

  // A line under the list, with the progress bar while bytes are read ({ done, total }).
  function show(text, bytes = null) {
    if (status.textContent !== text) status.textContent = text;
    progress.hidden = bytes === null;
    if (bytes) {
      progress.max = bytes.total;
      progress.value = bytes.done;
    }
  }

  return {
    // The file's 2-D tensors, header.table (or nothing, so the learner is asked) selected.
    list(header) {
      const options = header.tensors.filter((t) => t.shape.length === 2).map((t) => {
        const option = new Option(`${t.name}: ${t.dtype}, ${shapeText(t.shape)}`, t.name);
        option.selected = t.name === header.table;
        return option;
      });
      const ask = new Option('pick the tensor that holds W', '', false, header.table === null);
      ask.disabled = true;
      select.replaceChildren(...(header.table === null ? [ask] : []), ...options);
      field.hidden = options.length === 0;
      show('');
    },
    hide() {
      field.hidden = true;
      select.replaceChildren();
      show('');
    },
    reading({ name, done, total }) {
      show(`reading ${name}: ${bytesProgress(done, total)}`, { done, total });
    },
    // table: { name, rows, cols, conversion }
    read(table) {
      show(`${table.name} (${count(table.rows)} × ${count(table.cols)}): ${table.conversion}`);
    },
    failed() {
      show('');
    },
  };
}
