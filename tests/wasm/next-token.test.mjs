// The module's next-token training (seededNextTokenTraining) against real PyTorch 1.13, run by
// this test: F.cross_entropy(head(embedding(seq[:-1])), seq[1:]) with the head tied or untied,
// with SGD, SGD with momentum and Adam. Exactly: both tables as drawn (bits) and the rows of
// embedding.weight each step changes. Up to rounding (the core's GEMM and exp against PyTorch's
// BLAS and vectorised kernels): the loss, embedding.weight.grad, the head's own gradient, the
// optimizer's state and both weights after each step, within 2^-12 of the largest magnitude, as
// the core grades rounding.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

import { importEmbedlab, matrixText } from './harness.mjs';
import { pythonPath } from '../tools.mjs';

const { loadEmbedlab, EmbedlabError } = await importEmbedlab();
const lab = await loadEmbedlab();
const testsDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

const TORCH_NEXT_TOKEN = `
import json, sys
import numpy as np
import torch
sys.path.insert(0, sys.argv[1])
from next_token_model import next_token_forward, next_token_model

def bits(t):
    a = np.ascontiguousarray(t.detach().numpy(), dtype=np.float32)
    return f'{a.shape[0]}x{a.shape[1]}:' + ''.join(f'{x:08x}' for x in a.view(np.uint32).ravel())

OPTIMIZERS = {'sgd': lambda p: torch.optim.SGD(p, lr=0.5),
              'momentum': lambda p: torch.optim.SGD(p, lr=0.5, momentum=0.9),
              'adam': lambda p: torch.optim.Adam(p, lr=0.05)}
out = []
for case in json.load(sys.stdin):
    embedding, head, params = next_token_model(case['seed'], case['V'], case['d'], case['head'])
    opt = OPTIMIZERS[case['optimizer']](params)
    result = {'weight': bits(embedding.weight), 'headWeight': bits(head.weight), 'steps': []}
    for seq in case['batches']:
        seq = torch.tensor(seq)
        before = embedding.weight.detach().clone()
        opt.zero_grad()
        x, logits, loss = next_token_forward(embedding, head, seq)
        # the head's own gradient, which tied autograd adds into embedding.weight.grad unseen
        dlogits, = torch.autograd.grad(loss, logits, retain_graph=True)
        loss.backward()
        head_grad = dlogits.T @ x.detach() if case['head'] == 'tied' else head.weight.grad.clone()
        grad = embedding.weight.grad.clone()
        opt.step()
        rows = (before.view(torch.int32) != embedding.weight.detach().view(torch.int32)).any(1)
        flat = lambda t: t.detach().numpy().ravel().tolist()
        result['steps'].append({'loss': loss.item(),
                                'grad': flat(grad),
                                'headGrad': flat(head_grad),
                                'state': {k: flat(v) for k, v in opt.state[embedding.weight].items()
                                          if k != 'step' and v is not None},
                                'weight': embedding.weight.detach().numpy().ravel().tolist(),
                                'headWeight': head.weight.detach().numpy().ravel().tolist(),
                                'changed': rows.nonzero().flatten().tolist()})
    out.append(result)
print(json.dumps(out))
`;

const OPTIMIZERS = {
  sgd: { name: 'sgd', lr: 0.5 },
  momentum: { name: 'sgd', lr: 0.5, momentum: 0.9 },
  adam: { name: 'adam', lr: 0.05 },
};
const CASES = [];
for (const optimizer of Object.keys(OPTIMIZERS)) {
  for (const head of ['tied', 'untied']) {
    CASES.push({
      seed: 7,
      V: 6,
      d: 3,
      head,
      optimizer,
      batches: [
        [1, 2, 3],
        [3, 3, 0],
        [4, 5],
      ],
    });
    CASES.push({
      seed: 123,
      V: 40,
      d: 8,
      head,
      optimizer,
      batches: [
        [39, 0, 7, 7],
        [1, 2],
      ],
    });
  }
}

const torch = JSON.parse(
  execFileSync(pythonPath, ['-c', TORCH_NEXT_TOKEN, testsDir], {
    input: JSON.stringify(CASES),
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'inherit'],
  }),
);

function assertRounding(mine, theirs, what) {
  let diff = 0;
  let scale = 0;
  mine.forEach((x, i) => {
    diff = Math.max(diff, Math.abs(x - theirs[i]));
    scale = Math.max(scale, Math.abs(x), Math.abs(theirs[i]));
  });
  assert.ok(diff <= scale / 4096, `${what}: |diff| ${diff} is more than rounding`);
}

test('next-token training: the drawn tables and the changed rows are PyTorch, the rest rounds', () => {
  CASES.forEach((c, k) => {
    const run = lab.seededNextTokenTraining(c.seed, c.V, c.d, {
      head: c.head,
      optimizer: OPTIMIZERS[c.optimizer],
    });
    try {
      const where = `${c.head} ${c.optimizer} V=${c.V}`;
      assert.equal(run.head, c.head);
      assert.equal(matrixText(run.weight), torch[k].weight, where);
      assert.equal(matrixText(run.headWeight), torch[k].headWeight, where);
      c.batches.forEach((seq, s) => {
        const step = run.step(seq);
        const theirs = torch[k].steps[s];
        assert.deepEqual(Array.from(step.changed.rows), theirs.changed, `${where} step ${s + 1}`);
        assertRounding([step.loss], [theirs.loss], `${where} loss`);
        assertRounding(step.embeddingWeight.data, theirs.weight, `${where} embedding.weight`);
        assertRounding(step.headWeight.data, theirs.headWeight, `${where} head.weight`);
        assertRounding(step.grad.data, theirs.grad, `${where} embedding.weight.grad`);
        assertRounding(step.headGrad.data, theirs.headGrad, `${where} the head's gradient`);
        assert.deepEqual(
          step.state.map((piece) => piece.name),
          Object.keys(theirs.state),
          `${where} state`,
        );
        for (const { name, values } of step.state) {
          assert.deepEqual([values.rows, values.cols], [c.V, c.d]);
          assertRounding(values.data, theirs.state[name], `${where} state ${name}`);
        }
        const causes = Array.from(step.changed.causes, (i) => lab.rowCauses[i].name);
        step.changed.rows.forEach((row, i) => {
          const expected = seq.slice(0, -1).includes(row)
            ? 'batch'
            : c.head === 'tied'
              ? 'head'
              : c.optimizer === 'momentum'
                ? 'momentum'
                : 'optimizer_state';
          assert.equal(causes[i], expected, `${where} row ${row}`);
        });
        assert.equal(step.headChanged === null, c.head === 'tied');
      });
    } finally {
      run.delete();
    }
  });
});

test('next-token training: a head that is neither, and a sequence with no next token', () => {
  assert.throws(
    () => lab.seededNextTokenTraining(1, 5, 2, { head: 'shared', optimizer: { name: 'sgd' } }),
    (e) => e instanceof EmbedlabError && e.argument === 'weights' && /'tied'/.test(e.message),
  );
  const run = lab.seededNextTokenTraining(1, 5, 2, { optimizer: { name: 'sgd' } });
  assert.throws(
    () => run.step([3]),
    (e) => e instanceof EmbedlabError && /has no next token to predict/.test(e.message),
  );
  run.delete();
});
