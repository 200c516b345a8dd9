// The Train view's training as a PyTorch script that runs: each step's code and what PyTorch prints
// for it, printed by the core (lab.formatTensor, lab.formatElements) from the module's own
// results, so that the script, run in PyTorch, prints what the page shows. Two programs:
//   head 'none'    the core's training_run.hpp: nn.Linear first, then the seeded table, then each
//                  G; it prints G, embedding.weight, the rows the step changed and torch.equal of
//                  the two routes, all exactly
//   'untied'/'tied' the core's window_training.hpp: the chapter's loop, the tables drawn in
//                  GPTModel's order, the text's windows through DataLoader; it prints each step's
//                  batch (exactly), its loss and how many rows of tok.weight it changed. The loss
//                  comes from products PyTorch's BLAS sums in another order: printed to PyTorch's
//                  4 decimals it reads the same but for a rare last digit.

const PARAMETER = { header: 'Parameter containing:\n', suffixes: ['requires_grad=True'] };

// "step 2 changed rows [1, 2, 3]": what the script's print() writes for a step.
export const changedLine = (step, rows) =>
  `step ${step} changed rows [${Array.from(rows).join(', ')}]`;

// ", padding_idx=1, sparse=True"
function moduleArguments({ paddingIdx, sparse }) {
  return `${paddingIdx === null ? '' : `, padding_idx=${paddingIdx}`}${sparse ? ', sparse=True' : ''}`;
}

// print(loss) of a scalar loss, as PyTorch prints it.
const lossPrinted = (lab, loss) =>
  `tensor(${lab.formatElements([loss])[0]}, grad_fn=<NllLossBackward0>)`;

// The step's batch as a comment, where the batches were typed as text.
const batchComment = (setup, s) =>
  setup.lines ? [`# batch ${s.step}: ${JSON.stringify(setup.lines[s.step - 1])}`] : [];

// The weight after a step and the rows it changed.
const weightPrinted = (lab, s) =>
  `${lab.formatTensor(s.embeddingWeight, PARAMETER)}\n${changedLine(s.step, s.changed.rows)}`;
const WEIGHT_CODE = (step) => [
  'print(embedding.weight)',
  `print('step ${step} changed rows', changed_rows(before, embedding.weight))`,
];

// The program of head 'none': both routes side by side on random upstream gradients. A program
// is { make: the lines that make its modules and optimizers, step(s): a step's script steps }.
function sideBySide(lab, setup) {
  const linear = setup.linearRefusal === null;
  const optimizerOf = (params) => lab.optimizerCode(setup.optimizer, params);
  return {
    make: [
      'linear = nn.Linear(V, d, bias=False)',
      `torch.manual_seed(${setup.seed})`,
      `embedding = nn.Embedding(V, d${moduleArguments(setup)})`,
      'with torch.no_grad():',
      '    linear.weight.copy_(embedding.weight.T)',
      `opt_e = ${optimizerOf('embedding.parameters()')}`,
      linear
        ? `opt_l = ${optimizerOf('linear.parameters()')}`
        : `# the Linear route cannot follow: ${optimizerOf('linear.parameters()')} refuses its dense gradient: ${setup.linearRefusal}`,
    ],
    step: (s) => [
      {
        code: [
          ...batchComment(setup, s),
          `idx = torch.tensor([${Array.from(s.batch).join(', ')}])`,
          `G = torch.randn(${s.batch.length}, d)`,
          'print(G)',
        ],
        printed: lab.formatTensor(s.upstream),
      },
      {
        code: [
          'before = embedding.weight.detach().clone()',
          'opt_e.zero_grad(); embedding(idx).backward(G); opt_e.step()',
          ...WEIGHT_CODE(s.step),
        ],
        printed: weightPrinted(lab, s),
      },
      ...(linear
        ? [
            {
              code: [
                'opt_l.zero_grad(); linear(F.one_hot(idx, V).float()).backward(G); opt_l.step()',
                'print(torch.equal(embedding.weight, linear.weight.T))',
              ],
              printed: s.torchEqual ? 'True' : 'False',
            },
          ]
        : []),
    ],
  };
}

// The program of a head: the chapter's loop, as embedlab train --max-length runs it. Its steps
// run in one loop, each printing a line: step k, its batch x, the loss, the rows changed.
function windowsProgram(lab, setup) {
  const { maxLength, stride, batchSize, shuffle } = setup.loader;
  const tied = setup.head === 'tied';
  const params = ['tok.weight', ...(setup.positions ? ['pos.weight'] : [])];
  if (!tied) params.push('head.weight');
  const h = setup.positions ? `tok(x) + pos(torch.arange(${maxLength}))` : 'tok(x)';
  return {
    make: [
      `torch.manual_seed(${setup.seed})`,
      'tok = nn.Embedding(V, d)',
      ...(setup.positions ? [`pos = nn.Embedding(${maxLength}, d)`] : []),
      'head = nn.Linear(d, V, bias=False)  # drawn tied or not, as GPTModel draws it',
      ...(tied ? ['head.weight = tok.weight  # tied: one Parameter, used at both ends'] : []),
      ...(setup.text
        ? [`# ${JSON.stringify(setup.text)}, as ${setup.tokenizerLabel} tokenizes it:`]
        : []),
      `ids = [${Array.from(setup.ids).join(', ')}]`,
      `dataset = [(torch.tensor(ids[i:i + ${maxLength}]), torch.tensor(ids[i + 1:i + ${maxLength + 1}])) for i in range(0, len(ids) - ${maxLength}, ${stride})]`,
      `loader = torch.utils.data.DataLoader(dataset, batch_size=${batchSize}, shuffle=${shuffle ? 'True' : 'False'}, drop_last=True)`,
      `opt = ${lab.optimizerCode(setup.optimizer, `[${params.join(', ')}]`)}`,
      'batches = (batch for epoch in range(10**6) for batch in loader)',
    ],
    steps: (steps) =>
      steps.length === 0
        ? []
        : [
            {
              code: [
                `for step in range(1, ${steps.length + 1}):`,
                '    x, y = next(batches)',
                `    loss = F.cross_entropy(head(${h}).flatten(0, 1), y.flatten())`,
                '    before = tok.weight.detach().clone()',
                '    opt.zero_grad(); loss.backward(); opt.step()',
                "    print(f'step {step}: x = {x.tolist()}, loss {loss!s}, rows changed: {len(changed_rows(before, tok.weight))}')",
              ],
              printed: steps.map((s) => windowLine(lab, s)).join('\n'),
            },
          ],
  };
}

// What the loop prints for a step s: { step, x (the batch's inputs, B lists), loss, changedCount }.
export const windowLine = (lab, s) =>
  `step ${s.step}: x = [${s.x.map((row) => `[${row.join(', ')}]`).join(', ')}], ` +
  `loss ${lossPrinted(lab, s.loss)}, rows changed: ${s.changedCount}`;

// setup: { head ('none', 'untied', 'tied'), seed, vocab, dim, and without a head paddingIdx,
// sparse, optimizer (the API's { name, ... }), weight (embedding.weight before the first step),
// linearRefusal, lines (each batch's text when the batches were typed as text, else null: PyTorch
// gets the ids, the text is a comment); with a head optimizer, ids, loader ({ maxLength, stride,
// batchSize, shuffle }), positions, text (the text typed, or null) and tokenizerLabel }.
// steps: the steps so far (head 'none': TrainingSteps with torchEqual, the core's torch.equal of
// the two weights after each (their verdict's); with a head: { step, x, loss, changedCount }).
// Returns [{ code: lines, printed: text or undefined }].
export function trainScript(lab, setup, steps) {
  const windows = setup.head !== 'none';
  const program = windows ? windowsProgram(lab, setup) : sideBySide(lab, setup);
  const table = windows ? 'tok' : 'embedding';
  return [
    {
      code: [
        'import torch',
        'import torch.nn.functional as F',
        'from torch import nn',
        '',
        `V, d = ${setup.vocab}, ${setup.dim}`,
        ...program.make,
        '',
        '',
        'def changed_rows(before, after):',
        '    """The rows of after whose bits differ from before\'s."""',
        '    return (before.view(torch.int32) != after.detach().view(torch.int32)).any(1).nonzero().flatten().tolist()',
        '',
        '',
      ],
    },
    ...(windows
      ? program.steps(steps)
      : [
          { code: [`print(${table}.weight)`], printed: lab.formatTensor(setup.weight, PARAMETER) },
          ...steps.flatMap(program.step),
        ]),
  ];
}
