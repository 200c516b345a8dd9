// The module's positions on a GPT-2-shaped .safetensors checkpoint (wte, wpe and blocks, written
// by tests/safetensors_file.py), read through a { size, read } source as the page reads a File:
// the embeddings must hold the bits PyTorch's Embedding.from_pretrained gives for the file's
// tables, the top logits must be those torch.topk ranks first, and the head is tied exactly when
// the file stores no lm_head.weight (or its config.json's tie_word_embeddings says so).
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

// Each file as base64, and for the GPT-2-shaped one what PyTorch computes on its tables.
const TORCH_CHECKPOINTS = `
import base64, json, sys
import numpy as np
import torch
sys.path.insert(0, sys.argv[1])
from safetensors_file import safetensors_bytes

def bits(t):
    a = np.ascontiguousarray(t.detach().numpy(), dtype=np.float32)
    a = a.reshape(-1, a.shape[-1])
    return f'{a.shape[0]}x{a.shape[1]}:' + ''.join(f'{x:08x}' for x in a.view(np.uint32).ravel())

rng = np.random.default_rng(5)
wte = rng.standard_normal((40, 6)).astype(np.float32)
wpe = rng.standard_normal((5, 6)).astype(np.float32)
ln = np.ones(6, dtype=np.float32)
blocks = [('transformer.h.0.ln_1.weight', 'F32', ln),
          ('transformer.wpe.weight', 'F32', wpe),
          ('transformer.wte.weight', 'F32', wte)]
files = {
    'tied': safetensors_bytes(blocks),
    'untied': safetensors_bytes(blocks + [('lm_head.weight', 'F32', wte)]),
    'noPositions': safetensors_bytes([('wte.weight', 'F32', wte)]),
    'otherWidth': safetensors_bytes([('wte.weight', 'F32', wte), ('wpe.weight', 'F32', wpe[:, :4])]),
}
tok = torch.nn.Embedding.from_pretrained(torch.from_numpy(wte))
pos = torch.nn.Embedding.from_pretrained(torch.from_numpy(wpe))
inputs = torch.tensor([[39, 0, 7], [3, 3, 12]])
h = tok(inputs) + pos(torch.arange(3))
top = torch.topk((h @ tok.weight.T).reshape(-1, 40), 3)
print(json.dumps({
    'files': {k: base64.b64encode(v).decode() for k, v in files.items()},
    'tok': bits(tok(inputs)), 'pos': bits(pos(torch.arange(3))), 'sum': bits(h),
    'ids': top.indices.tolist(), 'values': top.values.tolist(),
}))
`;

const expected = JSON.parse(
  execFileSync(pythonPath, ['-c', TORCH_CHECKPOINTS, testsDir], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }),
);

// A file's bytes as the { size, read(offset, length) } a File gives in a worker.
function source(name) {
  const bytes = Buffer.from(expected.files[name], 'base64');
  return { size: bytes.length, read: (offset, length) => bytes.subarray(offset, offset + length) };
}

function opened(name, config) {
  const positions = lab.openCheckpointPositions(source(name), config);
  test.after(() => positions.delete());
  return positions;
}

test("a GPT-2-shaped checkpoint: wte and wpe found, PyTorch's bits, tied", () => {
  const positions = opened('tied');
  assert.equal(positions.vocab, 40);
  assert.equal(positions.dim, 6);
  assert.equal(positions.contextLength, 5);
  assert.equal(positions.checkpoint.tokenTensor, 'transformer.wte.weight');
  assert.equal(positions.checkpoint.positionTensor, 'transformer.wpe.weight');
  assert.equal(positions.checkpoint.tied, true);
  assert.match(positions.checkpoint.tyingReason, /no lm_head\.weight or output\.weight/);
  const e = positions.embed('39,0,7; 3,3,12');
  assert.equal(matrixText(e.tokenEmbeddings), expected.tok);
  assert.equal(matrixText(e.posEmbeddings), expected.pos);
  assert.equal(matrixText(e.inputEmbeddings), expected.sum);
  assert.equal(e.comparison.grade.state, 'identical');
  const head = positions.head('39,0,7; 3,3,12', { topK: 3 });
  head.top.forEach((top, i) => {
    assert.deepEqual(
      top.map((t) => t.id),
      expected.ids[i],
    );
    top.forEach((t, j) => assert.ok(Math.abs(t.logit - expected.values[i][j]) <= 1e-5));
  });
});

test('an lm_head.weight unties the head; a config.json decides when it says', () => {
  const untied = opened('untied');
  assert.equal(untied.checkpoint.tied, false);
  assert.match(untied.checkpoint.tyingReason, /'lm_head\.weight'/);
  const byConfig = opened('untied', '{"tie_word_embeddings": true}');
  assert.equal(byConfig.checkpoint.tied, true);
  assert.match(byConfig.checkpoint.tyingReason, /config\.json says "tie_word_embeddings": true/);
  assert.equal(opened('tied', '{"tie_word_embeddings": false}').checkpoint.tied, false);
  assert.throws(
    () => lab.openCheckpointPositions(source('tied'), '{"tie_word_embeddings": 1}'),
    (e) =>
      e instanceof EmbedlabError && e.argument === 'weights' && /not true or false/.test(e.message),
  );
});

test('a checkpoint without one position table, or of another width, is refused and why', () => {
  assert.throws(
    () => lab.openCheckpointPositions(source('noPositions')),
    (e) => e instanceof EmbedlabError && /no tensor named like a position table/.test(e.message),
  );
  assert.throws(
    () => lab.openCheckpointPositions(source('otherWidth')),
    (e) =>
      e instanceof EmbedlabError &&
      /d = 4 but the token table wte\.weight has d = 6/.test(e.message),
  );
  assert.throws(
    () => lab.openCheckpointPositions({ size: 3 }),
    (e) => e instanceof EmbedlabError && /source must be an object/.test(e.message),
  );
});
