// What a model's table at the end of a 1 GB .safetensors file costs the page, in headless
// Chromium (a measurement, not a test: `node tests/e2e/safetensors-timing.mjs [runs]` after a
// wasm preset build). GPT-2's table (V = 50257, d = 768; 154 MB as float32) in BF16 and in F32,
// written at the end of a sparse 1 GB file; each run in a fresh browser. Prints the median
// time until the page says the table is read and until the verdict, and the browser's memory
// growth while it was read (sampled, and bounded by the processes' high-water marks).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSite } from './harness.mjs';
import { loadThroughPage, writeSparseModel } from './large-safetensors.mjs';

const runs = Number(process.argv[2] ?? 3);
const [vocab, dim] = [50257, 768];
const FILE_BYTES = 1e9;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (bytes) => `${Math.round(bytes / 1e6)} MB`;

const dir = mkdtempSync(path.join(os.tmpdir(), 'embedlab-timing-'));
try {
  for (const dtype of ['BF16', 'F32']) {
    const file = path.join(dir, `${dtype}.safetensors`);
    writeSparseModel(file, { fileBytes: FILE_BYTES, vocab, dim, dtype });
    const results = [];
    for (let run = 0; run < runs; ++run) {
      const env = await openSite();
      try {
        results.push(await loadThroughPage(env, file, { vocab, dim, ids: [15496, 995, vocab - 1] }));
      } finally {
        await env.close();
      }
    }
    const growth = results.map((r) => r.memory.peak - r.memory.baseline);
    console.log(`${dtype} table (${mb(vocab * dim * 4)} as float32) at the end of a ${mb(FILE_BYTES)} file, ` +
      `median of ${runs}: read in ${Math.round(median(results.map((r) => r.readMs)))} ms, verdict after ` +
      `${Math.round(median(results.map((r) => r.verdictMs)))} ms; memory while read: +${mb(median(growth))} ` +
      `sampled, at most +${mb(median(results.map((r) => r.memory.bound)))} (high-water marks)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
