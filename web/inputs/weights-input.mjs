// Where W comes from: PyTorch's initialisation with a seed, the TensorFlow notebook's fixed
// table, or a file (chosen or dropped): a .npy file, or a model's .safetensors file, of which
// only the header and the picked tensor are read, in the compute worker (compute/table-file.mjs). A file
// fixes V and d, so while it is the source the shape fields show its shape, read-only, and get
// the learner's own values back afterwards. The source named 'npy' is any file.
import { EmbedlabError } from '../embedlab/embedlab.mjs';
import { fileSource, isNpyFile, readFirstBytes, readSafetensorsHeader } from '../compute/table-file.mjs';
import { createTensorPicker } from './tensor-picker.mjs';

// elements: { form, seed, file, dropZone, fileName, vocab, dim, tensorField, tensor,
// tensorProgress, tensorStatus }; worker: compute/worker-client.mjs's runner, which reads a
// .safetensors table; onChange() after any change that the input events do not announce (a
// file read finishing).
export function createWeightsInput(lab, worker, elements, onChange) {
  const { form, seed, file, dropZone, fileName, vocab, dim } = elements;
  let npy = null;  // null | { key, name, table } | { name, error }
  let loads = 0;   // a new key per file and per tensor, so a new table never reuses a cached W
  let typedShape = null;  // { vocab, dim } as typed, kept while a file sets the shape
  let safetensors = null;  // { file, headerBytes } of the .safetensors file chosen last

  // The radio buttons, found once: form.elements.source walks the form on each keystroke.
  const sources = [...form.querySelectorAll('input[name="source"]')];
  const source = () => sources.find((radio) => radio.checked)?.value ?? '';

  function syncShapeFields() {
    const fromFile = source() === 'npy';
    if (fromFile && !typedShape) typedShape = { vocab: vocab.value, dim: dim.value };
    if (!fromFile && typedShape) {
      vocab.value = typedShape.vocab;
      dim.value = typedShape.dim;
      typedShape = null;
    }
    if (fromFile) {
      vocab.value = npy?.table ? String(npy.table.rows) : '';
      dim.value = npy?.table ? String(npy.table.cols) : '';
    }
    vocab.disabled = fromFile;
    dim.disabled = fromFile;
  }

  // The file is W's source from now on: its table, or the reason it has none.
  function use(next, label) {
    npy = next;
    fileName.textContent = label;
    form.elements.source.value = 'npy';
    syncShapeFields();
    onChange();
  }

  const failed = (name, error) => {
    if (!(error instanceof EmbedlabError)) throw error;
    use({ name, error: `${name}: ${error.message}` }, name);
  };

  async function readTensor(tensorName) {
    const load = ++loads;
    const key = `safetensors:${load}:${tensorName}`;  // names the tensor for the printout
    const { file: chosen, headerBytes } = safetensors;
    let read;
    try {
      read = await worker.loadTable(chosen, headerBytes, tensorName, key,
        (progress) => picker.reading(progress));
    } catch (error) {
      if (load !== loads) return;
      picker.failed();
      failed(chosen.name, error);
      return;
    }
    if (!read || load !== loads) return;  // a later file or tensor replaced this one
    picker.read(read.table);
    use({ key, name: chosen.name, table: read.weight },
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
    worker.stopLoading();
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
        use({ key: `npy:${load}`, name: chosen.name, table }, `${chosen.name}: ${table.rows} × ${table.cols}`);
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

  seed.addEventListener('input', () => {
    form.elements.source.value = 'seed';
    syncShapeFields();
  });
  form.addEventListener('change', (event) => {
    if (event.target.name === 'source') syncShapeFields();
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

  return { source, npy: () => npy };
}
