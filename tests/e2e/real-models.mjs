// Real checkpoints' embedding tables through the page, in headless Chromium: each table as a
// sparse .safetensors file with its checkpoint's exact name, shape and dtype, and two quantized
// ones as sparse GGUF files (Llama 3 8B as Q4_K, Gemma 3 1B as Q8_0)
// (tests/real_model_tables.py, which the CLI's test uses too: the rows at the ids of "Hello
// world" and those PyTorch's printing shows are written, the rest is a hole), chosen on the page
// in a fresh browser, with the browser's memory watched until the verdict. What e2e:real-models
// checks, and, run as a script, what docs/real-models.md publishes:
//   node tests/e2e/real-models.mjs     (after a wasm preset build)
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sampleMemory } from './browser-memory.mjs';
import { BOXES, openSite, tableCells, waitForShape, waitForVerdict } from './harness.mjs';
import { runTorch } from './torch-reference.mjs';

const TESTS_DIR = fileURLToPath(new URL('..', import.meta.url));
export const HELLO_WORLD = [15496, 995];

// Writes every shape's file into a.dir (and Llama 3 8B's table as the first of four shards with
// its index), and prints, per shape, PyTorch's float32 of the written "Hello world" rows at the
// columns the page's tables show (the first and last three).
const WRITE_FILES = `
import json, os, sys
import numpy as np, torch
a = json.load(sys.stdin)
sys.path.insert(0, a['tests'])
from real_model_tables import GGUF_SHAPES, HELLO_WORLD, SHAPES, known_rows, write_gguf_table, write_table
def shown(dtype, stored):
    values = (torch.from_numpy(stored.astype(np.uint16).view(np.int16)).view(torch.bfloat16).float()
              if dtype == 'BF16' else torch.from_numpy(stored))
    return values[:3].tolist() + values[-3:].tolist()
out = []
for model, tensor, vocab, dim, dtype in SHAPES:
    rows = known_rows(vocab, dim, dtype)
    files = [model + '.safetensors']
    write_table(os.path.join(a['dir'], files[0]), tensor, vocab, dim, dtype, rows)
    out.append({'model': model, 'vocab': vocab, 'dim': dim, 'dtype': dtype, 'files': files,
                'hello': [shown(dtype, rows[i]) for i in HELLO_WORLD]})
model, tensor, vocab, dim, dtype = next(s for s in SHAPES if s[0] == 'Llama-3-8B')
shards = ['model-0000%d-of-00004.safetensors' % i for i in range(1, 5)]
rows = known_rows(vocab, dim, dtype, seed=1)
write_table(os.path.join(a['dir'], shards[0]), tensor, vocab, dim, dtype, rows)
json.dump({'weight_map': {tensor: shards[0], 'model.norm.weight': shards[3], 'lm_head.weight': shards[3]}},
          open(os.path.join(a['dir'], 'model.safetensors.index.json'), 'w'))
out.append({'model': 'Llama-3-8B, index and shard 1 of 4', 'vocab': vocab, 'dim': dim, 'dtype': dtype,
            'files': ['model.safetensors.index.json', shards[0]], 'hello': [shown(dtype, rows[i]) for i in HELLO_WORLD]})
rng = np.random.default_rng(35)
for model, vocab, dim, kind in GGUF_SHAPES:
    name = model + '-' + kind + '.gguf'
    rows = write_gguf_table(os.path.join(a['dir'], name), vocab, dim, kind, rng)
    out.append({'model': model, 'vocab': vocab, 'dim': dim, 'dtype': kind, 'files': [name],
                'hello': [rows[i][:3].tolist() + rows[i][-3:].tolist() for i in HELLO_WORLD]})
print(json.dumps(out))
`;

// { dir, shapes: [{ model, vocab, dim, dtype, files (paths), hello (PyTorch's shown values of
// the "Hello world" rows) }], remove() }.
export function writeRealModelFiles() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'embedlab-real-models-'));
  const shapes = runTorch(WRITE_FILES, { dir, tests: TESTS_DIR }).map((shape) => ({
    ...shape,
    files: shape.files.map((file) => path.join(dir, file)),
  }));
  return { dir, shapes, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

// Chooses shape's files on a freshly opened page (openSite()'s env) with the ids of "Hello world"
// typed first. Returns { rowsMs: from the choice until the lookup shows the file's rows,
// verdictMs: until the verdict, verdict: its word, lookup: the lookup's cells,
// growth: how far the browser's processes rose above their resident memory at the choice (the
// sum of their high-water marks' rises: no sampling gap can miss a peak) }.
export async function chooseOnPage(env, shape) {
  const { page } = env;
  await page.fill('#ids', HELLO_WORLD.join(', '));
  await waitForVerdict(page, 'bit-identical', 60_000);
  const memory = sampleMemory(env.profile);
  const start = performance.now();
  await page.setInputFiles('#weights-file', shape.files);
  // The seeded table before has d = 5: a lookup of d columns is the file's.
  await waitForShape(page, BOXES.lookup, `2 × ${shape.dim}`, 300_000);
  const rowsMs = performance.now() - start;
  await page.waitForFunction(
    () => !document.querySelector('#results .verdict').classList.contains('busy'),
    null,
    { timeout: 600_000 },
  );
  const verdictMs = performance.now() - start;
  const { bound } = memory.stop();
  return {
    rowsMs,
    verdictMs,
    growth: bound,
    verdict: await page.textContent('#results .verdict .verdict-word'),
    lookup: await tableCells(page, '#results [data-box="lookup"]'),
  };
}

// The script: one run per shape, each in a fresh browser, printed as docs/real-models.md's
// page columns.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = writeRealModelFiles();
  try {
    console.log(
      '| model | page: rows (s) | page: verdict (s) | page: browser growth (MiB) | verdict |',
    );
    for (const shape of files.shapes) {
      const env = await openSite({ weights: true });
      try {
        const run = await chooseOnPage(env, shape);
        console.log(
          `| ${shape.model} | ${(run.rowsMs / 1e3).toFixed(2)} | ${(run.verdictMs / 1e3).toFixed(2)} | ` +
            `${Math.round(run.growth / 2 ** 20)} | ${run.verdict} |`,
        );
      } finally {
        await env.close();
      }
    }
  } finally {
    files.remove();
  }
}
