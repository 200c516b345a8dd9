// The WASM module's training against real PyTorch 1.13 (tests/tools.mjs's pythonPath), run by this
// test for the same seeds, batches and options: after every step, G, embedding.weight,
// linear.weight.T and each row's optimizer state must hold PyTorch's bits, the rows that changed
// must be the rows whose bits PyTorch changed, and a refusal must carry PyTorch's own message.
// Each id occurs at most twice per batch: then PyTorch's one-hot GEMM (OpenBLAS) and the core's
// add the same terms in the same order (tests/torch/test_optim_vs_torch.py says why).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

import { importEmbedlab, matrixText } from './harness.mjs';
import { pythonPath } from '../tools.mjs';

const { loadEmbedlab, EmbedlabError } = await importEmbedlab();
const lab = await loadEmbedlab();

// PyTorch's side: the program of core/include/embedlab/training.hpp, on the cases given as JSON on
// stdin; prints, per case, each step's bits or the message PyTorch raised.
const TORCH_TRAINING = `
import json, sys
sys.path.insert(0, sys.argv[1])
import oracle  # before torch: it clears ATEN_CPU_CAPABILITY
import numpy as np
import torch
import torch.nn.functional as F

if not oracle.cpu_has_avx2_fma():
    print(json.dumps({'skip': 'this CPU lacks AVX2/FMA, so PyTorch runs kernels the core does not reproduce'}))
    sys.exit(0)
torch.set_num_threads(1)

def bits(t):
    a = np.ascontiguousarray(t.detach().numpy(), dtype=np.float32).reshape(t.shape[0], t.shape[1])
    return f'{a.shape[0]}x{a.shape[1]}:' + ''.join(f'{x:08x}' for x in a.view(np.uint32).ravel())

def row_state(state, row, d):
    out = []
    for name in ['momentum_buffer', 'exp_avg', 'exp_avg_sq', 'max_exp_avg_sq', 'sum', 'square_avg', 'grad_avg']:
        if name not in state or state[name] is None:
            continue
        t = state[name]
        if t.is_sparse:
            ids, values = t._indices()[0], t._values()
            rows = [values[k] for k in range(ids.numel()) if int(ids[k]) == row]
            m = torch.stack(rows) if rows else torch.zeros(0, d)
        else:
            m = t[row:row + 1]
        out.append({'name': name, 'values': bits(m)})
    return out

results = []
for case in json.load(sys.stdin):
    V, d = case['V'], case['d']
    linear = torch.nn.Linear(V, d, bias=False)
    torch.manual_seed(case['seed'])
    embedding = torch.nn.Embedding(V, d, padding_idx=case['paddingIdx'], sparse=case['sparse'])
    with torch.no_grad():
        linear.weight.copy_(embedding.weight.T)
    kwargs = dict(case['kwargs'])
    if 'betas' in kwargs:
        kwargs['betas'] = tuple(kwargs['betas'])
    Optimizer = getattr(torch.optim, case['className'])
    opt_e = Optimizer(embedding.parameters(), **kwargs)
    opt_l = Optimizer(linear.parameters(), **kwargs)
    steps, error = [], None
    for batch in case['batches']:
        idx = torch.tensor(batch)
        G = torch.randn(len(batch), d)
        before = embedding.weight.detach().clone()
        opt_e.zero_grad(); embedding(idx).backward(G)
        try:
            opt_e.step()
        except RuntimeError as e:
            error = str(e)
            break
        after = embedding.weight.detach()
        changed = (after.view(torch.int32) != before.view(torch.int32)).any(1).nonzero().flatten().tolist()
        step = {'upstream': bits(G), 'embeddingWeight': bits(after), 'changed': changed, 'linearWeight': None}
        if case['className'] != 'SparseAdam':
            opt_l.zero_grad(); linear(F.one_hot(idx, V).float()).backward(G); opt_l.step()
            step['linearWeight'] = bits(linear.weight.T)
        state = opt_e.state[embedding.weight]
        step['rowStates'] = [row_state(state, r, d) for r in range(V)]
        steps.append(step)
    results.append({'steps': steps, 'error': error})
print(json.dumps({'results': results}))
`;

// [optimizer as the API names it, hyperparameters, sparse, padding_idx, seed, V, d, batches]
const ISSUE = [
  [1, 2],
  [3, 3],
  [0, 1],
];
const CASES = [
  ['sgd', {}, false, null, 123, 6, 3, ISSUE],
  ['sgd', { momentum: 0.9 }, false, null, 123, 6, 3, ISSUE],
  ['sgd', { weight_decay: 0.01 }, false, null, 123, 6, 3, ISSUE],
  ['adam', {}, false, null, 123, 6, 3, ISSUE],
  ['adamw', {}, false, null, 123, 6, 3, ISSUE],
  ['adagrad', {}, false, null, 123, 6, 3, ISSUE],
  ['rmsprop', { momentum: 0.5, centered: true }, false, null, 123, 6, 3, ISSUE],
  ['sgd', { momentum: 0.9, nesterov: true }, true, null, 123, 6, 3, ISSUE],
  ['sparse-adam', {}, true, null, 123, 6, 3, ISSUE],
  ['adagrad', { lr_decay: 0.1 }, true, null, 123, 6, 3, ISSUE],
  [
    'adam',
    { amsgrad: true, betas: [0.5, 0.9], lr: 0.05 },
    false,
    1,
    7,
    9,
    4,
    [[1, 1, 4], [8, 1], [0, 5, 5], [2]],
  ],
  ['sgd', { momentum: 0.9, dampening: 0.3 }, true, -1, 42, 5, 2, [[4, 4, 0], [4], [1, 3]]],
  [
    'sparse-adam',
    { eps: 1e-3 },
    true,
    2,
    5,
    7,
    5,
    [
      [2, 6, 6],
      [0, 2],
      [3, 3, 6],
    ],
  ],
  // Refusals: PyTorch raises them at its first step.
  ['adam', {}, true, null, 123, 6, 3, ISSUE],
  ['adamw', {}, true, null, 123, 6, 3, ISSUE],
  ['rmsprop', {}, true, null, 123, 6, 3, ISSUE],
  ['sgd', { weight_decay: 0.01 }, true, null, 123, 6, 3, ISSUE],
  ['adagrad', { weight_decay: 0.01 }, true, null, 123, 6, 3, ISSUE],
  ['sparse-adam', {}, false, null, 123, 6, 3, ISSUE],
];

const info = (name) => lab.optimizers.find((o) => o.name === name);
const className = (name) => info(name).className;

function torchResults() {
  // torch.optim.SGD has no default lr: the module's (0.1) is passed to every optimizer.
  const lr = (name) => info(name).arguments.find((a) => a.name === 'lr').default;
  const cases = CASES.map(([name, hyper, sparse, paddingIdx, seed, V, d, batches]) => ({
    className: className(name),
    kwargs: { lr: lr(name), ...hyper },
    sparse,
    paddingIdx,
    seed,
    V,
    d,
    batches,
  }));
  const torchDir = fileURLToPath(new URL('../torch/', import.meta.url));
  return JSON.parse(
    execFileSync(pythonPath, ['-c', TORCH_TRAINING, torchDir], {
      input: JSON.stringify(cases),
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  );
}

const torch = torchResults();

CASES.forEach(([name, hyper, sparse, paddingIdx, seed, V, d, batches], i) => {
  const label =
    `${className(name)} ${JSON.stringify(hyper)}${sparse ? ', sparse=True' : ''}` +
    `${paddingIdx === null ? '' : `, padding_idx=${paddingIdx}`}: V = ${V}, d = ${d}, batches ${JSON.stringify(batches)}`;
  test(label, (t) => {
    if (torch.skip) {
      t.skip(torch.skip);
      return;
    }
    const expected = torch.results[i];
    const options = { optimizer: { name, ...hyper }, sparse, paddingIdx };
    if (expected.error !== null) {
      // The core refuses before training, with PyTorch's message.
      assert.throws(
        () => lab.seededTraining(seed, V, d, options),
        (error) => {
          assert.ok(error instanceof EmbedlabError);
          assert.equal(error.message, expected.error);
          return true;
        },
      );
      assert.equal(expected.steps.length, 0, 'PyTorch refuses at its first step');
      return;
    }
    const training = lab.seededTraining(seed, V, d, options);
    try {
      assert.equal(training.linearRefusal !== null, name === 'sparse-adam');
      expected.steps.forEach((want, k) => {
        const got = training.step(batches[k]);
        assert.equal(got.step, k + 1);
        assert.equal(matrixText(got.upstream), want.upstream, `G of step ${k + 1}`);
        assert.equal(
          matrixText(got.embeddingWeight),
          want.embeddingWeight,
          `embedding.weight after step ${k + 1}`,
        );
        assert.deepEqual(
          Array.from(got.changed.rows),
          want.changed,
          `rows changed by step ${k + 1}`,
        );
        assert.equal(
          got.linearWeight && matrixText(got.linearWeight),
          want.linearWeight,
          `linear.weight.T after step ${k + 1}`,
        );
        if (want.linearWeight !== null) {
          assert.equal(got.verdict.identical, want.linearWeight === want.embeddingWeight);
        }
        want.rowStates.forEach((state, row) => {
          assert.deepEqual(
            training
              .rowState(row)
              .state.map((s) => ({ name: s.name, values: matrixText(s.values) })),
            state,
            `optimizer.state of row ${row} after step ${k + 1}`,
          );
        });
      });
    } finally {
      training.delete();
    }
  });
});

test("the rows each step changes: the issue's table, as PyTorch measured it", (t) => {
  if (torch.skip) {
    t.skip(torch.skip);
    return;
  }
  const all = [0, 1, 2, 3, 4, 5];
  const expected = [
    [[1, 2], [3], [0, 1]],
    [
      [1, 2],
      [1, 2, 3],
      [0, 1, 2, 3],
    ],
    [all, all, all],
    [
      [1, 2],
      [1, 2, 3],
      [0, 1, 2, 3],
    ],
    [all, all, all],
    [[1, 2], [3], [0, 1]],
  ];
  expected.forEach((rows, i) =>
    assert.deepEqual(
      torch.results[i].steps.map((s) => s.changed),
      rows,
      CASES[i][0],
    ),
  );
});
