// The Train view's training as a PyTorch script that runs: each step's code and what PyTorch prints
// for it, printed by the core (lab.formatTensor, lab.formatElements) from the module's own
// results, so that the script, run in PyTorch, prints what the page shows. Two programs:
//   head 'none'    the core's training_run.hpp: nn.Linear first, then the seeded table, then each
//                  G; it prints G, embedding.weight, the rows the step changed and torch.equal of
//                  the two routes, all exactly
//   'untied'/'tied' the core's next_token.hpp: the seeded table, the head drawn right after it
//                  (tied: then given W itself), one optimizer; it prints each step's loss,
//                  embedding.weight and the rows the step changed. The loss and the weights come
//                  from products PyTorch's BLAS sums in another order: printed to PyTorch's 4
//                  decimals they read the same but for a rare last digit; the rows, exactly.

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

// The program of a head: next-token prediction, one sequence per batch.
function nextToken(lab, setup) {
  const tied = setup.head === 'tied';
  const params = tied
    ? 'embedding.parameters()'
    : 'list(embedding.parameters()) + list(head.parameters())';
  return {
    make: [
      `torch.manual_seed(${setup.seed})`,
      'embedding = nn.Embedding(V, d)',
      'head = nn.Linear(d, V, bias=False)',
      ...(tied ? ['head.weight = embedding.weight  # tied: one Parameter, used at both ends'] : []),
      `opt = ${lab.optimizerCode(setup.optimizer, params)}`,
    ],
    step: (s) => [
      {
        code: [
          ...batchComment(setup, s),
          `seq = torch.tensor([${Array.from(s.batch).join(', ')}])`,
          'before = embedding.weight.detach().clone()',
          'opt.zero_grad()',
          'loss = F.cross_entropy(head(embedding(seq[:-1])), seq[1:])',
          'print(loss)',
        ],
        printed: lossPrinted(lab, s.loss),
      },
      {
        code: ['loss.backward(); opt.step()', ...WEIGHT_CODE(s.step)],
        printed: weightPrinted(lab, s),
      },
    ],
  };
}

// setup: { head ('none', 'untied', 'tied'), seed, vocab, dim, paddingIdx, sparse, optimizer (the
// API's { name, ... }), weight (embedding.weight before the first step), linearRefusal (head
// 'none'), lines (each batch's text when the batches were typed as text, else null: PyTorch gets
// the ids, the text is a comment) }; steps: the steps so far (head 'none': TrainingSteps with
// torchEqual, the core's torch.equal of the two weights after each (their verdict's); else
// NextTokenSteps with their batch). Returns [{ code: lines, printed: text or undefined }].
export function trainScript(lab, setup, steps) {
  const program = (setup.head === 'none' ? sideBySide : nextToken)(lab, setup);
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
    { code: ['print(embedding.weight)'], printed: lab.formatTensor(setup.weight, PARAMETER) },
    ...steps.flatMap(program.step),
  ];
}
