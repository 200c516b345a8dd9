// Where W comes from (model/table-source.mjs): PyTorch's initialisation with a seed, the
// TensorFlow notebook's fixed table, or a file (chosen or dropped): a .npy file, or a model's
// .safetensors file, of which only the header and the picked tensor are read, in the compute
// worker (compute/table-file.mjs). The choice and the file go into the store's inputs; the shape
// fields show a file's shape (inputs/form-fields.mjs).
import { EmbedlabError } from '../embedlab/embedlab.mjs';
import { fileSource, isNpyFile, readFirstBytes, readSafetensorsHeader } from '../compute/table-file.mjs';
import { createTensorPicker } from './tensor-picker.mjs';

// elements: { form, file, dropZone, fileName, tensorField, tensor, tensorProgress, tensorStatus };
// runner: the session's compute worker runner, which reads a .safetensors table.
export function createWeightsInput(lab, store, runner, elements) {
  const { form, file, dropZone, fileName } = elements;
  let loads = 0;   // a new key per file and per tensor, so a new table never reuses a cached W
  let safetensors = null;  // { file, headerBytes } of the .safetensors file chosen last

  // The radio buttons, found once: form.elements.source walks the form on each keystroke.
  const radios = [...form.querySelectorAll('input[name="source"]')];
  const showSource = ({ source }) => {
    for (const radio of radios) if (radio.checked !== (radio.value === source)) radio.checked = !radio.checked;
  };

  // The file is W's source from now on: its table, or the reason it has none.
  function use(next, label) {
    fileName.textContent = label;
    store.setInputs({ source: 'file', file: next });
  }

  const failed = (name, error) => {
    if (!(error instanceof EmbedlabError)) throw error;
    use({ name, error: `${name}: ${error.message}` }, name);
  };

  async function readTensor(tensorName) {
    const load = ++loads;
    const key = `safetensors:${load}`;
    const { file: chosen, headerBytes } = safetensors;
    let read;
    try {
      read = await runner.loadTable(chosen, headerBytes, tensorName, key,
        (progress) => picker.reading(progress));
    } catch (error) {
      if (load !== loads) return;
      picker.failed();
      failed(chosen.name, error);
      return;
    }
    if (!read || load !== loads) return;  // a later file or tensor replaced this one
    picker.read(read.table);
    use({ key, name: chosen.name, format: 'safetensors', tensor: read.table.name, table: read.weight },
        `${chosen.name}: ${read.table.rows} × ${read.table.cols}`);
  }

  const picker = createTensorPicker({
    field: elements.tensorField, select: elements.tensor, progress: elements.tensorProgress,
    status: elements.tensorStatus,
  }, readTensor);

  async function load(chosen) {
    const load = ++loads;
    const current = () => load === loads;  // false once a later file replaced this one
    safetensors = null;
    runner.stopLoading();
    picker.hide();
    fileName.textContent = chosen.name;
    try {
      const bytes = fileSource(chosen);
      const first = await readFirstBytes(bytes);
      if (!current()) return;
      if (isNpyFile(lab, chosen.name, first)) {
        const whole = new Uint8Array(await chosen.arrayBuffer());
        if (!current()) return;
        const table = lab.npyTable(whole);
        use({ key: `npy:${load}`, name: chosen.name, format: 'npy', table },
            `${chosen.name}: ${table.rows} × ${table.cols}`);
        return;
      }
      const { headerBytes, header } = await readSafetensorsHeader(lab, bytes, first);
      if (!current()) return;
      safetensors = { file: chosen, headerBytes };
      picker.list(header);
      if (header.table === null) {
        use({ name: chosen.name, error: `${chosen.name}: ${header.tableError}` }, chosen.name);
        return;
      }
      readTensor(header.table);
    } catch (error) {
      if (current()) failed(chosen.name, error);
    }
  }

  form.addEventListener('change', (event) => {
    if (event.target.name === 'source') store.setInputs({ source: event.target.value });
  });
  showSource(store.get().inputs);
  store.subscribe(({ inputs }, changed) => {
    if (changed.has('inputs')) showSource(inputs);
  });
  file.addEventListener('change', () => {
    if (file.files.length > 0) load(file.files[0]);
  });
  for (const type of ['dragenter', 'dragover']) {
    dropZone.addEventListener(type, (event) => {
      event.preventDefault();
      dropZone.classList.add('dragging');
    });
  }
  dropZone.addEventListener('dragleave', () => dropZone.classList.remove('dragging'));
  dropZone.addEventListener('drop', (event) => {
    event.preventDefault();
    dropZone.classList.remove('dragging');
    if (event.dataTransfer.files.length > 0) load(event.dataTransfer.files[0]);
  });
}
