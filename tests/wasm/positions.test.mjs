// The module's positions and tied head against real PyTorch 1.13 (tests/tools.mjs's pythonPath),
// run by this test for the same seeds and batches: the token, position and input embeddings must
// hold PyTorch's bits (lookups and one float32 addition), the one-hot route for the positions
// must be graded bit-identical, and each position's top logits must be the tokens torch.topk
// ranks first wherever PyTorch's neighbouring logits lie further apart than rounding could move
// them (the core's GEMM and PyTorch's BLAS sum in other orders). Errors carry PyTorch's message.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';

import { importEmbedlab, matrixText } from './harness.mjs';
import { pythonPath } from '../tools.mjs';

const { loadEmbedlab, EmbedlabError } = await importEmbedlab();
const lab = await loadEmbedlab();

const TORCH_POSITIONS = `
import json, sys
import numpy as np
import torch

def bits(t):
    a = np.ascontiguousarray(t.detach().numpy(), dtype=np.float32)
    a = a.reshape(-1, a.shape[-1])
    return f'{a.shape[0]}x{a.shape[1]}:' + ''.join(f'{x:08x}' for x in a.view(np.uint32).ravel())

out = []
for case in json.load(sys.stdin):
    torch.manual_seed(case['seed'])
    tok = torch.nn.Embedding(case['vocab'], case['dim'])
    pos = torch.nn.Embedding(case['context'], case['dim'])
    inputs = torch.tensor(case['rows'])
    t = tok(inputs)
    p = pos(torch.arange(inputs.shape[1]))
    h = t + p
    logits = (h @ tok.weight.T).reshape(-1, case['vocab'])
    top = torch.topk(logits, 3)
    out.append({'tok': bits(t), 'pos': bits(p), 'sum': bits(h),
                'ids': top.indices.tolist(), 'values': top.values.tolist()})
try:
    torch.nn.Embedding(4, 3)(torch.arange(5))
except IndexError as error:
    out.append(str(error))
print(json.dumps(out))
`;

const CASES = [
  {
    seed: 123,
    vocab: 50257,
    dim: 256,
    context: 4,
    rows: [
      [40, 367, 2885, 1464],
      [1807, 3619, 402, 271],
    ],
  },
  {
    seed: 7,
    vocab: 20,
    dim: 3,
    context: 5,
    rows: [
      [1, 2, 3],
      [4, 5, 6],
      [19, 0, 0],
    ],
  },
  { seed: -3, vocab: 1000, dim: 64, context: 8, rows: [[999, 1, 2, 3, 4, 5, 6, 7]] },
];

const results = JSON.parse(
  execFileSync(pythonPath, ['-c', TORCH_POSITIONS], {
    input: JSON.stringify(CASES),
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'inherit'],
  }),
);
const indexError = results.pop();
const text = (rows) => rows.map((r) => r.join(',')).join('; ');

test('positions: the embeddings hold PyTorch bits, both routes agree', () => {
  CASES.forEach((c, k) => {
    const positions = lab.openSeededPositions(c.seed, c.vocab, c.dim, c.context);
    try {
      assert.equal(positions.contextLength, c.context);
      const e = positions.embed(text(c.rows));
      assert.equal(e.rows, c.rows.length);
      assert.equal(e.length, c.rows[0].length);
      assert.equal(matrixText(e.tokenEmbeddings), results[k].tok);
      assert.equal(matrixText(e.posEmbeddings), results[k].pos);
      assert.equal(matrixText(e.inputEmbeddings), results[k].sum);
      assert.equal(matrixText(e.positionProduct), results[k].pos);
      assert.equal(e.comparison.grade.state, 'identical');
    } finally {
      positions.delete();
    }
  });
});

test('the tied head: the top logits are the tokens torch.topk ranks first', () => {
  CASES.forEach((c, k) => {
    const positions = lab.openSeededPositions(c.seed, c.vocab, c.dim, c.context);
    try {
      const head = positions.head(text(c.rows), { topK: 3 });
      assert.equal(head.rowsLookedUp, c.rows.length * c.rows[0].length);
      assert.equal(head.multiplyAdds, head.rowsLookedUp * c.vocab * c.dim);
      head.top.forEach((top, i) => {
        const values = results[k].values[i];
        top.forEach((t, j) =>
          assert.ok(Math.abs(t.logit - values[j]) <= 1e-3 * Math.abs(values[j]) + 1e-3),
        );
        const apart = values.every((v, j) => j === 0 || values[j - 1] - v > 1e-3);
        if (apart)
          assert.deepEqual(
            top.map((t) => t.id),
            results[k].ids[i],
          );
      });
    } finally {
      positions.delete();
    }
  });
});

test('the tied head lists 5 top tokens unless asked, or V where V is fewer', () => {
  for (const [vocab, shown] of [
    [4, 4],
    [9, 5],
  ]) {
    const positions = lab.openSeededPositions(1, vocab, 3, 4);
    try {
      const head = positions.head('2,3,1');
      assert.deepEqual(
        head.top.map((top) => top.length),
        [shown, shown, shown],
      );
      assert.equal(positions.head('2,3,1', { topK: null }).top[0].length, shown);
      assert.equal(positions.head('2,3,1', { topK: 0 }).top[0].length, 0);
    } finally {
      positions.delete();
    }
  }
});

test('positions: a row longer than contextLength is PyTorch IndexError, and why', () => {
  const positions = lab.openSeededPositions(1, 10, 3, 4);
  try {
    assert.throws(
      () => positions.embed('1,2,3,4,5'),
      (e) =>
        e instanceof EmbedlabError &&
        e.argument === 'ids' &&
        e.message.includes(`raises IndexError: ${indexError}`) &&
        e.message.includes('positions 0..3 only'),
    );
    assert.throws(
      () => positions.embed('1,2; 3'),
      (e) => e instanceof EmbedlabError && e.message.includes('row 2 has 1 ids but row 1 has 2'),
    );
  } finally {
    positions.delete();
  }
  assert.throws(() => positions.embed('1'), /after delete\(\)/);
  assert.throws(
    () => lab.openSeededPositions(1, 10, 3, 0),
    (e) =>
      e instanceof EmbedlabError &&
      e.argument === 'vocab' &&
      /context_length must be/.test(e.message),
  );
});
