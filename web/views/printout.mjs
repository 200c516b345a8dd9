// The notebook as a script that runs: each step's Python code and what PyTorch prints for it
// (the core's formatTensor), so the page can be read line by line next to the notebook, and the
// Copy button gives a script that prints the same text in PyTorch. It ends with the page's claim,
// torch.equal(embedding(idx), linear(onehot.float())). Each token's printed rows (and the row of
// W its id names) stand for it (data-token, data-vocab: linking.mjs), the selected token's marked
// in its colour. Costs a pass over W: built only when shown.
import { element } from '../draw/dom.mjs';
import { transposed } from '../model/cells.mjs';
import { scrollRegion } from '../draw/scroll-region.mjs';
import { copyScriptBar, scriptText } from './copy-script.mjs';
import { tokenNodes } from './linking.mjs';
import { markBusy } from './verdict.mjs';

const PARAMETER = { header: 'Parameter containing:\n', suffixes: ['requires_grad=True'] };

// A Python string literal: 'wte.weight', or JSON's double-quoted form (valid Python too) for a
// name with quotes, backslashes or other characters.
const pythonString = (text) => (/^[\w.\-/]*$/.test(text) ? `'${text}'` : JSON.stringify(text));

// A table the element was given (table= or routes=, as embedlab.show() gives a notebook's own W)
// is no file the reader has: the script starts from their W.
const givenTable = (table) => Boolean(table.bytes || table.routes);

// Python's list of the ids: "[2, 3, 1]".
const pythonList = (ids) => `[${Array.from(ids).join(', ')}]`;

// The steps of the script for a result: { code: Python lines, printed: what it prints, or
// undefined for a step that prints nothing, rows: what the printed matrix's rows stand for,
// 'token' or 'vocab', or undefined }.
export function scriptSteps(lab, result) {
  const { ids, vocab, dim, weight, lookup, product, table } = result;
  const imports = ['import torch', 'import torch.nn.functional as F', 'from torch import nn'];
  const given = givenTable(table);
  const file = table.source === 'file' && !given ? table.format : null;
  if (file === 'npy') imports.push('import numpy as np');
  if (file === 'safetensors') imports.push('from safetensors.torch import load_file');
  const make = [];
  if (table.source === 'seed') make.push(`torch.manual_seed(${table.seed})`);
  make.push(`embedding = nn.Embedding(${vocab}, ${dim})`);
  if (table.source === 'tf') {
    make.push(
      "with torch.no_grad():  # the TensorFlow notebook's table: row i = 0.11·i",
      `    embedding.weight.copy_(torch.tensor([[11 * i / 100] * ${dim} for i in range(${vocab})]))`,
    );
  }
  if (file === 'npy') {
    make.push(
      'with torch.no_grad():  # W.npy: the file you chose',
      "    embedding.weight.copy_(torch.from_numpy(np.load('W.npy')))",
    );
  }
  if (file === 'safetensors') {
    make.push(
      'with torch.no_grad():  # model.safetensors: the file you chose',
      `    embedding.weight.copy_(load_file('model.safetensors')[${pythonString(table.tensor)}].float())`,
    );
  }
  if (given) {
    make.push(
      `# W: the notebook's own table, ${table.name} (${vocab} × ${dim}), as embedlab.show() got it`,
      'with torch.no_grad():',
      '    embedding.weight.copy_(torch.as_tensor(W).float())',
    );
  }
  make.push(`idx = torch.tensor(${pythonList(ids)})`);
  return [
    { code: [...imports, '', ...make] },
    {
      code: ['print(embedding.weight)'],
      printed: lab.formatTensor(weight, PARAMETER),
      rows: 'vocab',
    },
    {
      code: ['print(embedding(idx))'],
      printed: lab.formatTensor(lookup, { suffixes: ['grad_fn=<EmbeddingBackward0>'] }),
      rows: 'token',
    },
    {
      code: [`onehot = F.one_hot(idx, ${vocab})`, 'print(onehot)'],
      printed: lab.formatTensor(result.onehot, { integer: true }),
      rows: 'token',
    },
    {
      code: [
        `linear = nn.Linear(${vocab}, ${dim}, bias=False)`,
        'linear.weight = nn.Parameter(embedding.weight.T)  # nn.Linear stores W as d × V',
        'print(linear.weight)',
      ],
      printed: lab.formatTensor(transposed(weight), PARAMETER),
    },
    // While the product streams W, the page has nothing of it to print yet.
    ...(product
      ? [
          {
            code: ['print(linear(onehot.float()))'],
            printed: lab.formatTensor(product, { suffixes: ['grad_fn=<MmBackward0>'] }),
            rows: 'token',
          },
          {
            code: ['print(torch.equal(embedding(idx), linear(onehot.float())))'],
            printed: result.comparison.torchEqual ? 'True' : 'False',
          },
        ]
      : [
          {
            code: ['print(linear(onehot.float()))'],
            printed: '(the one-hot product is still reading W)',
          },
        ]),
  ];
}

// The rows of a printed 2-D tensor: [start, end) of each "[...]" one level in (a row may wrap
// over several lines), and how many come before PyTorch's "...," of skipped rows (all, if none).
function printedRows(text) {
  const rows = [];
  let before = null;
  let depth = 0;
  for (let i = 0; i < text.length; ++i) {
    if (text[i] === '[' && ++depth === 2) rows.push([i, 0]);
    else if (text[i] === ']' && depth-- === 2) rows.at(-1)[1] = i + 1;
    else if (depth === 1 && text.startsWith('...', i)) before = rows.length;
  }
  return { rows, before: before ?? rows.length };
}

// What PyTorch prints, each row of a matrix of `count` rows standing for its token (role
// 'token') or vocabulary id ('vocab'): the printed text in order, rows as spans.
function printedOut(printed, role, count) {
  const out = element('pre', 'printout-out');
  if (!role) {
    out.textContent = printed;
    return out;
  }
  const { rows, before } = printedRows(printed);
  let at = 0;
  rows.forEach(([start, end], r) => {
    const row = element('span', 'printout-row', printed.slice(start, end));
    row.dataset[role] = String(r < before ? r : count - (rows.length - r));
    out.append(printed.slice(at, start), row);
    at = end;
  });
  out.append(printed.slice(at));
  return out;
}

// A step of a script as a figure: its code, and what it prints under it, each a box that scrolls
// and says so. result: the page's, read only for a step whose printed rows stand for tokens or
// ids (rows).
export function stepFigure({ code, printed, rows }, result) {
  const figure = element('figure');
  const input = element('pre', 'printout-in', code.join('\n'));
  figure.append(input);
  scrollRegion(input, () => `Python: ${code.at(-1)}`);
  if (printed !== undefined) {
    const count = rows && (rows === 'vocab' ? result.vocab : result.ids.length);
    const out = printedOut(printed, rows, count);
    figure.append(out);
    scrollRegion(out, () => `Printed by ${code.at(-1)}`);
  }
  return figure;
}

const shown = new WeakMap(); // body -> the script and printed texts it shows

function renderPrintout(body, lab, result) {
  const steps = scriptSteps(lab, result);
  // The same input computed again (a field left, say) keeps the button the learner may be on.
  const all = `${scriptText(steps)}\0${steps.map((step) => step.printed).join('\0')}`;
  if (shown.get(body) === all) return;
  shown.set(body, all);
  const cells = element('div', 'printout-steps');
  cells.append(...steps.map((step) => stepFigure(step, result)));
  const bar = copyScriptBar(
    steps,
    cells,
    givenTable(result.table)
      ? 'Each step prints the text under it: the whole script runs in the notebook, where W is ' +
          'the table given to embedlab.show().'
      : 'Each step prints the text under it: the whole script runs as it is in PyTorch.',
  );
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
    let step = 0;
    let selected = []; // the selected token's rows
    const select = () => {
      for (const node of selected) node.classList.remove('current');
      selected = latest && step < latest.ids.length ? tokenNodes(body, step, latest.ids) : [];
      for (const node of selected) node.classList.add('current');
    };
    const render = () => {
      if (details.open && latest) renderPrintout(body, lab, latest);
      select();
    };
    details.addEventListener('toggle', render);
    return {
      update(state, changed) {
        latest = state.result;
        step = state.step;
        if (changed.has('result')) render();
        else if (changed.has('step')) select();
        markBusy(container, state);
      },
    };
  },
};
