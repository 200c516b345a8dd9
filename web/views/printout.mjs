// The notebook as a script that runs: each step's Python code and what PyTorch prints for it
// (the core's formatTensor), so the page can be read line by line next to the notebook, and the
// Copy button gives a script that prints the same text in PyTorch. Costs a pass over W: built
// only when shown.
import { element } from '../draw/dom.mjs';
import { transposed } from '../model/cells.mjs';

const PARAMETER = { header: 'Parameter containing:\n', suffixes: ['requires_grad=True'] };

// A Python string literal: 'wte.weight', or JSON's double-quoted form (valid Python too) for a
// name with quotes, backslashes or other characters.
const pythonString = (text) => (/^[\w.\-/]*$/.test(text) ? `'${text}'` : JSON.stringify(text));

// Python's list of the ids: "[2, 3, 1]".
const pythonList = (ids) => `[${Array.from(ids).join(', ')}]`;

// The steps of the script for a result: { code: Python lines, printed: what it prints, or
// undefined for a step that prints nothing }.
export function scriptSteps(lab, result) {
  const { ids, vocab, dim, weight, lookup, product, table } = result;
  const imports = ['import torch', 'import torch.nn.functional as F', 'from torch import nn'];
  const file = table.source === 'file' ? table.format : null;
  if (file === 'npy') imports.push('import numpy as np');
  if (file === 'safetensors') imports.push('from safetensors.torch import load_file');
  const make = [];
  if (table.source === 'seed') make.push(`torch.manual_seed(${table.seed})`);
  make.push(`embedding = nn.Embedding(${vocab}, ${dim})`);
  if (table.source === 'tf') {
    make.push('with torch.no_grad():  # the TensorFlow notebook\'s table: row i = 0.11·i',
      `    embedding.weight.copy_(torch.tensor([[11 * i / 100] * ${dim} for i in range(${vocab})]))`);
  }
  if (file === 'npy') {
    make.push('with torch.no_grad():  # W.npy: the file you chose',
      "    embedding.weight.copy_(torch.from_numpy(np.load('W.npy')))");
  }
  if (file === 'safetensors') {
    make.push('with torch.no_grad():  # model.safetensors: the file you chose',
      `    embedding.weight.copy_(load_file('model.safetensors')[${pythonString(table.tensor)}].float())`);
  }
  make.push(`idx = torch.tensor(${pythonList(ids)})`);
  return [
    { code: [...imports, '', ...make] },
    { code: ['print(embedding.weight)'], printed: lab.formatTensor(weight, PARAMETER) },
    { code: ['print(embedding(idx))'],
      printed: lab.formatTensor(lookup, { suffixes: ['grad_fn=<EmbeddingBackward0>'] }) },
    { code: [`onehot = F.one_hot(idx, ${vocab})`, 'print(onehot)'],
      printed: lab.formatTensor(result.onehot, { integer: true }) },
    { code: [`linear = nn.Linear(${vocab}, ${dim}, bias=False)`,
             'linear.weight = nn.Parameter(embedding.weight.T)  # nn.Linear stores W as d × V',
             'print(linear.weight)'],
      printed: lab.formatTensor(transposed(weight), PARAMETER) },
    { code: ['print(linear(onehot.float()))'],
      // While the product streams W, the page has nothing of it to print yet.
      printed: product ? lab.formatTensor(product, { suffixes: ['grad_fn=<MmBackward0>'] })
        : '(the one-hot product is still reading W)' },
  ];
}

function stepFigure({ code, printed }) {
  const figure = element('figure');
  figure.append(element('pre', 'printout-in', code.join('\n')));
  if (printed !== undefined) figure.append(element('pre', 'printout-out', printed));
  return figure;
}

const COPY = 'Copy the script';
const resets = new WeakMap();  // button -> the timer that puts COPY back

// Copies text, saying so on the button for a while; where the clipboard is refused, selects the
// script so that the learner can copy it by hand.
async function copy(button, text, script) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch {
    getSelection().selectAllChildren(script);
    button.textContent = 'Selected: press Ctrl+C';
  }
  clearTimeout(resets.get(button));
  resets.set(button, setTimeout(() => { button.textContent = COPY; }, 2000));
}

const shown = new WeakMap();  // body -> the script and printed texts it shows

function renderPrintout(body, lab, result) {
  const steps = scriptSteps(lab, result);
  const text = `${steps.map((step) => step.code.join('\n')).join('\n')}\n`;
  // The same input computed again (a field left, say) keeps the button the learner may be on.
  const all = `${text}\0${steps.map((step) => step.printed).join('\0')}`;
  if (shown.get(body) === all) return;
  shown.set(body, all);
  const bar = element('div', 'printout-bar');
  const button = element('button', 'copy-script', COPY);
  button.type = 'button';
  const note = element('p', 'route-note',
    'Each step prints the text under it: the whole script runs as it is in PyTorch.');
  const cells = element('div', 'printout-steps');
  cells.append(...steps.map(stepFigure));
  button.addEventListener('click', () => copy(button, text, cells));
  bar.append(button, note);
  body.replaceChildren(bar, cells);
}

// On the page, behind a disclosure (building it costs a pass over W); in <embedding-demo
// view="printout">, which asks for nothing else, open.
export const printoutView = {
  title: 'As PyTorch prints it',
  build(container, { lab, embedded }) {
    const details = element('details', 'printout-details');
    const body = element('div', 'printout');
    details.append(element('summary', '', 'Show the script and what PyTorch prints'), body);
    details.open = embedded;
    container.append(details);
    let latest = null;
    const render = () => {
      if (details.open && latest) renderPrintout(body, lab, latest);
    };
    details.addEventListener('toggle', render);
    return {
      update({ result }, changed) {
        latest = result;
        if (changed.has('result')) render();
      },
    };
  },
};
