// Where W comes from: PyTorch's initialisation with a seed, the TensorFlow notebook's fixed
// table, or a .npy file (chosen or dropped). A file fixes V and d, so while it is the source the
// shape fields show its shape, read-only, and get the learner's own values back afterwards.
import { EmbedlabError } from './embedlab/embedlab.mjs';

// elements: { form, seed, file, dropZone, fileName, vocab, dim }; onChange() after any change
// that the input events do not announce (a file read finishing).
export function createWeightsInput(lab, elements, onChange) {
  const { form, seed, file, dropZone, fileName, vocab, dim } = elements;
  let npy = null;  // null | { key, name, table } | { name, error }
  let loads = 0;   // a new key per file, so a new file never reuses the cached W
  let typedShape = null;  // { vocab, dim } as typed, kept while a file sets the shape

  const source = () => form.elements.source.value;

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

  async function load(chosen) {
    const load = ++loads;
    const bytes = new Uint8Array(await chosen.arrayBuffer());
    if (load !== loads) return;  // a later file replaced this one while it was read
    try {
      npy = { key: `npy:${load}`, name: chosen.name, table: lab.npyTable(bytes) };
      fileName.textContent = `${chosen.name}: ${npy.table.rows} × ${npy.table.cols}`;
    } catch (error) {
      if (!(error instanceof EmbedlabError)) throw error;
      npy = { name: chosen.name, error: `${chosen.name}: ${error.message}` };
      fileName.textContent = chosen.name;
    }
    form.elements.source.value = 'npy';
    syncShapeFields();
    onChange();
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
