// The Train view's training as a PyTorch script that runs: each step's code and what PyTorch prints
// for it, printed by the core (lab.formatTensor) from the module's own results, so that the
// script, run in PyTorch, prints exactly what the page shows: G, embedding.weight, the rows the
// step changed and torch.equal of the two routes. The program is the core's
// (core/include/embedlab/training_run.hpp): nn.Linear first, then the seeded table, then each G.

const PARAMETER = { header: 'Parameter containing:\n', suffixes: ['requires_grad=True'] };

// "step 2 changed rows [1, 2, 3]": what the script's print() writes for a step.
export const changedLine = (step, rows) =>
  `step ${step} changed rows [${Array.from(rows).join(', ')}]`;

// ", padding_idx=1, sparse=True"
function moduleArguments({ paddingIdx, sparse }) {
  return `${paddingIdx === null ? '' : `, padding_idx=${paddingIdx}`}${sparse ? ', sparse=True' : ''}`;
}

// setup: { seed, vocab, dim, paddingIdx, sparse, optimizer (the API's { name, ... }), weight
// (embedding.weight before the first step), linearRefusal, lines (each batch's text when the
// batches were typed as text, else null: PyTorch gets the ids, the text is a comment) }; steps:
// the TrainingSteps so far,
// with torchEqual (train-inputs.mjs) of the two weights after each. Returns [{ code: lines,
// printed: text or undefined }].
export function trainScript(lab, setup, steps) {
  const linear = setup.linearRefusal === null;
  const optimizerOf = (params) => lab.optimizerCode(setup.optimizer, params);
  const make = [
    'import torch',
    'import torch.nn.functional as F',
    'from torch import nn',
    '',
    `V, d = ${setup.vocab}, ${setup.dim}`,
    'linear = nn.Linear(V, d, bias=False)',
    `torch.manual_seed(${setup.seed})`,
    `embedding = nn.Embedding(V, d${moduleArguments(setup)})`,
    'with torch.no_grad():',
    '    linear.weight.copy_(embedding.weight.T)',
    `opt_e = ${optimizerOf('embedding.parameters()')}`,
    linear
      ? `opt_l = ${optimizerOf('linear.parameters()')}`
      : `# the Linear route cannot follow: ${optimizerOf('linear.parameters()')} refuses its dense gradient: ${setup.linearRefusal}`,
    '',
    '',
    'def changed_rows(before, after):',
    '    """The rows of after whose bits differ from before\'s."""',
    '    return (before.view(torch.int32) != after.detach().view(torch.int32)).any(1).nonzero().flatten().tolist()',
    '',
    '',
  ];
  const script = [
    { code: make },
    { code: ['print(embedding.weight)'], printed: lab.formatTensor(setup.weight, PARAMETER) },
  ];
  for (const s of steps) {
    script.push({
      code: [
        ...(setup.lines ? [`# batch ${s.step}: ${JSON.stringify(setup.lines[s.step - 1])}`] : []),
        `idx = torch.tensor([${Array.from(s.batch).join(', ')}])`,
        `G = torch.randn(${s.batch.length}, d)`,
        'print(G)',
      ],
      printed: lab.formatTensor(s.upstream),
    });
    script.push({
      code: [
        'before = embedding.weight.detach().clone()',
        'opt_e.zero_grad(); embedding(idx).backward(G); opt_e.step()',
        'print(embedding.weight)',
        `print('step ${s.step} changed rows', changed_rows(before, embedding.weight))`,
      ],
      printed: `${lab.formatTensor(s.embeddingWeight, PARAMETER)}\n${changedLine(s.step, s.changed.rows)}`,
    });
    if (linear) {
      script.push({
        code: [
          'opt_l.zero_grad(); linear(F.one_hot(idx, V).float()).backward(G); opt_l.step()',
          'print(torch.equal(embedding.weight, linear.weight.T))',
        ],
        printed: s.torchEqual ? 'True' : 'False',
      });
    }
  }
  return script;
}
