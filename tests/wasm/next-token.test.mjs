// The module's next-token training (seededNextTokenTraining) against real PyTorch 1.13, run by
// this test: F.cross_entropy(head(embedding(seq[:-1])), seq[1:]) with the head tied or untied,
// with SGD, SGD with momentum and Adam. Exactly: both tables as drawn (bits) and the rows of
// embedding.weight each step changes. Up to rounding (the core's GEMM and exp against PyTorch's
// BLAS and vectorised kernels): the loss, embedding.weight.grad, the head's own gradient, the
// optimizer's state and both weights after each step, within 2^-12 of the largest magnitude, as
// the core grades rounding. Then the chapter's loop (windowTraining) against PyTorch's
// DataLoader and GPTModel-order tables: the batches and the changed rows exactly, the losses,
// the weights and each position's likeliest next tokens up to rounding; and the page's session
// (web/compute/train-session.mjs) on the module, against the module's own steps.
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
        const named = (row) =>
          seq.slice(0, -1).includes(row) || (c.head === 'tied' && seq.slice(1).includes(row));
        step.changed.rows.forEach((row, i) => {
          const expected = named(row)
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

const TORCH_CHAPTER = `
import json, sys
import numpy as np
import torch
sys.path.insert(0, sys.argv[1])
from next_token_model import chapter_forward, chapter_loader, chapter_model

out = []
for case in json.load(sys.stdin):
    tok, pos, head, params = chapter_model(case['seed'], case['V'], case['d'], case['head'],
                                           case['maxLength'] if case['positions'] else 0)
    first = tok.weight.detach().numpy().ravel().tolist()
    loader = chapter_loader(case['ids'], case['maxLength'], case['stride'], case['batchSize'],
                            case['shuffle'])
    opt = torch.optim.AdamW(params, lr=case['lr'])
    steps = []
    for epoch in range(case['epochs']):
        for x, y in loader:
            before = tok.weight.detach().clone()
            h, logits, loss = chapter_forward(tok, pos, head, x, y)
            opt.zero_grad(); loss.backward(); opt.step()
            rows = (before.view(torch.int32) != tok.weight.detach().view(torch.int32)).any(1)
            steps.append({'x': x.flatten().tolist(), 'loss': loss.item(),
                          'weight': tok.weight.detach().numpy().ravel().tolist(),
                          'changed': rows.nonzero().flatten().tolist()})
    with torch.no_grad():
        windows = torch.stack([a for a, _ in loader.dataset])
        h = tok(windows) + (pos(torch.arange(case['maxLength'])) if pos is not None else 0)
        logits = head(h).flatten(0, 1)
        top = torch.topk(logits, 4)
    out.append({'weight': first, 'steps': steps, 'topIds': top.indices.tolist(),
                'topValues': top.values.tolist()})
print(json.dumps(out))
`;

const CHAPTER = [
  { seed: 7, V: 12, d: 3, head: 'tied', positions: true, maxLength: 3, stride: 2, batchSize: 2 },
  {
    seed: 11,
    V: 30,
    d: 4,
    head: 'untied',
    positions: false,
    maxLength: 4,
    stride: 1,
    batchSize: 3,
  },
].map((c, k) => ({
  ...c,
  shuffle: k === 0,
  epochs: 3,
  lr: 0.05,
  ids: Array.from({ length: 17 }, (_, i) => (i * 7 + k) % c.V),
}));
const chapter = JSON.parse(
  execFileSync(pythonPath, ['-c', TORCH_CHAPTER, testsDir], {
    input: JSON.stringify(CHAPTER),
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'inherit'],
  }),
);
const windowOptions = (c) => ({
  head: c.head,
  optimizer: { name: 'adamw', lr: c.lr },
  positions: c.positions,
  maxLength: c.maxLength,
  stride: c.stride,
  batchSize: c.batchSize,
  shuffle: c.shuffle,
});

test("the chapter's loop: DataLoader's batches and the changed rows exactly, the rest rounds", () => {
  CHAPTER.forEach((c, k) => {
    const run = lab.windowTraining(c.seed, c.V, c.d, c.ids, windowOptions(c));
    const theirs = chapter[k];
    const where = `${c.head} V=${c.V}`;
    try {
      assert.deepEqual(Array.from(run.weight.data), theirs.weight.map(Math.fround), where);
      assert.equal(run.contextLength, c.positions ? c.maxLength : 0);
      theirs.steps.forEach((t, s) => {
        const step = run.step();
        assert.deepEqual(Array.from(step.inputs), t.x, `${where} step ${s + 1}: the batch`);
        assert.deepEqual(Array.from(step.changed.rows), t.changed, `${where} step ${s + 1}`);
        assertRounding([step.loss], [t.loss], `${where} loss`);
        assertRounding(step.embeddingWeight.data, t.weight, `${where} tok.weight`);
        assert.equal(step.epoch, Math.floor(s / run.batchesPerEpoch) + 1);
      });
      const predicted = run.predict(4);
      assert.equal(predicted.positions, theirs.topIds.length);
      theirs.topIds.forEach((ids, i) => {
        const values = theirs.topValues[i];
        // Where PyTorch's neighbouring logits lie further apart than rounding moves them.
        if (values.every((v, j) => j === 0 || values[j - 1] - v > 1e-3))
          assert.deepEqual(Array.from(predicted.ids.subarray(i * 4, i * 4 + 4)), ids);
        const p = predicted.probabilities.subarray(i * 4, i * 4 + 4);
        assert.ok(
          p.every((x, j) => x > 0 && x <= 1 && (j === 0 || p[j - 1] >= x)),
          `${i}`,
        );
      });
    } finally {
      run.delete();
    }
  });
});

test("the chapter's loop: a window longer than the ids, and too few windows, named before any draw", () => {
  const options = (maxLength, batchSize) => ({
    optimizer: { name: 'adamw' },
    maxLength,
    batchSize,
  });
  assert.throws(
    () => lab.windowTraining(1, 5, 2, [1, 2, 3], options(3, 1)),
    (e) => e instanceof EmbedlabError && e.argument === 'max_length',
  );
  assert.throws(
    () => lab.windowTraining(1, 5, 2, [1, 2, 3, 4, 0], options(2, 3)),
    (e) => e instanceof EmbedlabError && e.argument === 'batch_size',
  );
  assert.throws(
    () => lab.checkLoader(5, { maxLength: 2, stride: 0 }),
    (e) => e instanceof EmbedlabError && e.argument === 'stride',
  );
});

test("the page's session: the module's steps, a slice at a time, what the page draws of them", async () => {
  const { createTrainSession } = await import('../../web/compute/train-session.mjs');
  const c = CHAPTER[0];
  const plan = { seed: c.seed, vocab: c.V, dim: c.d, ids: c.ids, ...windowOptions(c) };
  const direct = lab.windowTraining(c.seed, c.V, c.d, c.ids, windowOptions(c));
  const mine = Array.from({ length: 5 }, () => direct.step());
  direct.delete();
  let clock = 0;
  const session = createTrainSession(lab, () => (clock += 10));
  const request = { key: 'a', plan, picked: c.ids[1], topK: 3, budgetMs: 25, whole: false };
  // A slice: two steps of 10 ms each reach the budget of 25 after the third.
  const first = session.run({ ...request, steps: 5, since: 0 });
  assert.equal(first.taken, 3);
  const watched = [...new Set(c.ids)].sort((a, b) => a - b);
  assert.deepEqual(first.info.watched, watched);
  const second = session.run({ ...request, steps: 5, since: 3, whole: true });
  assert.equal(second.taken, 5);
  assert.equal(second.info, null);
  const steps = [...first.steps, ...second.steps];
  assert.deepEqual(
    steps.map((s) => s.loss),
    mine.map((s) => s.loss),
  );
  assert.deepEqual(
    steps.map((s) => s.windows),
    mine.map((s) => Array.from(s.windows)),
  );
  // The watched rows' weights and changes are the whole step's, among those rows.
  const last = mine[4];
  const d = c.d;
  watched.forEach((r, i) => {
    assert.deepEqual(
      Array.from(second.weight.data.subarray(i * d, (i + 1) * d)),
      Array.from(last.embeddingWeight.data.subarray(r * d, (r + 1) * d)),
    );
  });
  const among = Array.from(last.changed.rows).filter((r) => watched.includes(r));
  assert.deepEqual(steps[4].changed.rows, among);
  assert.equal(steps[4].changedCount, last.changed.rows.length);
  assert.deepEqual(Array.from(second.whole.token.data), Array.from(last.embeddingWeight.data));
  // The picked row's update: before is the step before's row, after the last step's.
  const { update } = second;
  assert.equal(update.row, c.ids[1]);
  assert.deepEqual(
    Array.from(update.before),
    Array.from(mine[3].embeddingWeight.data.subarray(update.row * d, (update.row + 1) * d)),
  );
  assert.deepEqual(Array.from(update.stateAfter.exp_avg).length, d);
  // Fewer steps than taken, or other inputs: from the start again.
  const again = session.run({ ...request, steps: 1, since: 0 });
  assert.equal(again.taken, 1);
  assert.equal(again.steps[0].loss, mine[0].loss);
  session.discard();
});
