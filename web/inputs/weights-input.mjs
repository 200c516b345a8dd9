// Where W comes from (model/table-source.mjs): PyTorch's initialisation with a seed, the
// TensorFlow notebook's fixed table, or a file (chosen or dropped): a .npy file, a model's
// .safetensors file, or a sharded model's model.safetensors.index.json chosen with the shard that
// holds the table, each with the model's config.json if the learner chooses it too (whether the
// model ties its output layer: the head view). Of a .safetensors file only the header is read here; the compute worker reads
// the table's rows where they lie (compute/table-keeper.mjs). The choice and the file go into the
// store's inputs; the shape fields show a file's shape (inputs/form-fields.mjs).
import { EmbedlabError } from '../embedlab/embedlab.mjs';
import { isIndexFile, openTableFile, shardOfIndex } from '../compute/table-file.mjs';
import { count } from '../model/format-number.mjs';
import { createTensorPicker } from './tensor-picker.mjs';

const isConfigFile = (file) => file.name.toLowerCase() === 'config.json';
const CONFIG_ALONE =
  "config.json holds a model's settings, not its table: choose it together with the model's " +
  '.safetensors file';

// elements: { form, file, dropZone, fileName, tensorField, tensor, tensorStatus }.
export function createWeightsInput(lab, store, elements) {
  const { form, file, dropZone, fileName } = elements;
  let loads = 0; // a new key per choice of files, so a new table never reuses an old one's

  // The radio buttons, found once: form.elements.source walks the form on each keystroke.
  const radios = [...form.querySelectorAll('input[name="source"]')];
  const showSource = ({ source }) => {
    for (const radio of radios)
      if (radio.checked !== (radio.value === source)) radio.checked = !radio.checked;
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

  let opened = null; // openTableFile() of the .safetensors file chosen last
  const picker = createTensorPicker(
    {
      field: elements.tensorField,
      select: elements.tensor,
      status: elements.tensorStatus,
    },
    (tensor) => pick(opened, tensor),
  );

  function pick(table, tensor) {
    let input;
    try {
      input = { ...table.table(tensor), configText: table.configText };
    } catch (error) {
      picker.failed();
      failed(table.name, error);
      return;
    }
    picker.read(input);
    use(input, `${input.name}: ${count(input.rows)} × ${count(input.cols)}`);
  }

  // files: what was chosen or dropped: one table file, or an index and its shards, and with
  // either the model's config.json.
  async function load(chosenFiles) {
    const load = ++loads;
    const current = () => load === loads; // false once a later choice replaced this one
    opened = null;
    picker.hide();
    const config = chosenFiles.find(isConfigFile);
    const files = chosenFiles.filter((f) => f !== config);
    const index = files.find((f) => isIndexFile(f.name));
    let chosen = files[0] ?? config;
    let tensor = '';
    fileName.textContent = (index ?? chosen).name;
    try {
      if (files.length === 0) throw new EmbedlabError(CONFIG_ALONE, 'weights');
      await lab.complete; // the file readers are in the module's deferred part
      if (index) ({ shard: chosen, tensor } = await shardOfIndex(lab, index, files));
      const table = await openTableFile(lab, chosen, chosen.name, `file:${load}`);
      const configText = config ? await config.slice(0, lab.limits.maxConfigBytes + 1).text() : '';
      if (!current()) return;
      if (table.format === 'npy') {
        use(table.input, `${chosen.name}: ${count(table.input.rows)} × ${count(table.input.cols)}`);
        return;
      }
      opened = { ...table, name: chosen.name, configText };
      const wanted = tensor || table.header.table;
      picker.list(table.header, wanted);
      pick(opened, wanted ?? '');
    } catch (error) {
      if (current()) failed((index ?? chosen).name, error);
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
    if (file.files.length > 0) load([...file.files]);
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
    if (event.dataTransfer.files.length > 0) load([...event.dataTransfer.files]);
  });
}
