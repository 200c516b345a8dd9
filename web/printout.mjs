// The notebook's cells and what PyTorch prints for them, from the core's formatTensor, so the
// page can be read line by line next to the notebook. Costs a pass over W: built only when open.
const PARAMETER = { header: 'Parameter containing:\n', suffixes: ['requires_grad=True'] };

function cell(code, text) {
  const figure = document.createElement('figure');
  const input = document.createElement('pre');
  input.className = 'printout-in';
  input.textContent = `>>> ${code}`;
  const output = document.createElement('pre');
  output.className = 'printout-out';
  output.textContent = text;
  figure.append(input, output);
  return figure;
}

export function renderPrintout(body, lab, result) {
  const { weight, lookup, onehot, product } = result;
  body.replaceChildren(
    cell('embedding.weight', lab.formatTensor(weight, PARAMETER)),
    cell('embedding(idx)', lab.formatTensor(lookup, { suffixes: ['grad_fn=<EmbeddingBackward0>'] })),
    cell('F.one_hot(idx, V)', lab.formatTensor(onehot, { integer: true })),
    cell('linear.weight  # = nn.Parameter(embedding.weight.T)', lab.formatTensor(lab.linearWeight(weight), PARAMETER)),
    cell('linear(onehot.float())', lab.formatTensor(product, { suffixes: ['grad_fn=<MmBackward0>'] })),
  );
}
