// A large model file that costs no disk, and its table read through the page with the browser's
// memory watched: what e2e:safetensors checks and safetensors-timing.mjs measures.
import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { sampleMemory } from './browser-memory.mjs';
import { waitForLookupRows, waitForVerdict } from './harness.mjs';

export const TABLE_NAME = 'model.embed_tokens.weight';

// The table's entry (row r, column c): a multiple of 1/16 below 8 in magnitude, exact in BF16
// (at most 8 significant bits), so its float32 and its 4-decimal text are known here.
export const tableValue = (r, c) => (((r * 31 + c * 7) % 255) - 127) / 16;

const VALUE_BYTES = { BF16: 2, F32: 4 };

function headerFor(filler, vocab, dim, dtype) {
  const tableBytes = vocab * dim * VALUE_BYTES[dtype];
  const json = JSON.stringify({
    'model.layers.filler': { dtype: 'U8', shape: [filler], data_offsets: [0, filler] },
    [TABLE_NAME]: { dtype, shape: [vocab, dim], data_offsets: [filler, filler + tableBytes] },
  });
  const text = Buffer.from(json + ' '.repeat((8 - (json.length % 8)) % 8));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(text.length));
  return Buffer.concat([length, text]);
}

// tableValue for every entry, as dtype ('BF16' or 'F32') stores it.
function tableData(vocab, dim, dtype) {
  const f32 = Float32Array.from({ length: vocab * dim }, (_, k) => tableValue(Math.floor(k / dim), k % dim));
  if (dtype === 'F32') return new Uint8Array(f32.buffer);
  // BF16: the top half of each float32, exact here as the low 16 bits are zero.
  return new Uint8Array(Uint16Array.from(new Uint32Array(f32.buffer), (bits) => bits >>> 16).buffer);
}

// A .safetensors file of fileBytes: its header, a U8 filler tensor that is a hole in the file
// (ftruncate: no disk blocks, read as zeros) and a (vocab, dim) table of dtype 'BF16' or 'F32'
// at its very end, the only bytes written besides the header.
export function writeSparseModel(file, { fileBytes, vocab, dim, dtype = 'BF16' }) {
  const tableBytes = vocab * dim * VALUE_BYTES[dtype];
  let header = headerFor(0, vocab, dim, dtype);
  for (let filler = -1; filler !== fileBytes - tableBytes - header.length;) {
    filler = fileBytes - tableBytes - header.length;  // the header grows with the filler's digits
    header = headerFor(filler, vocab, dim, dtype);
  }
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, header, 0, header.length, 0);
    ftruncateSync(fd, fileBytes);
    writeSync(fd, tableData(vocab, dim, dtype), 0, tableBytes, fileBytes - tableBytes);
  } finally {
    closeSync(fd);
  }
}

// Chooses the file on the page (env: openSite()'s) with ids typed first, and waits for the table
// and then both routes' verdict. Returns { readMs: until the page says the table is read,
// verdictMs: until the verdict, memory: sampleMemory()'s { baseline, peak, bound } while the
// table was read (what the views then compute from it, such as the Backward view's (V, d)
// gradient, is the page's cost for any table of that shape), statuses: every text the tensor
// status line showed }.
export async function loadThroughPage(env, file, { vocab, dim, ids }) {
  const { page } = env;
  await page.fill('#ids', ids.join(', '));
  await waitForLookupRows(page, ids, 60_000);
  await page.evaluate(() => {
    window.tensorStatuses = [];
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) window.tensorStatuses.push(node.textContent);
      }
    }).observe(document.getElementById('tensor-status'), { childList: true });
  });
  const memory = sampleMemory(env.profile);
  const start = performance.now();
  await page.setInputFiles('#weights-file', file);
  await page.waitForFunction((name) => document.getElementById('tensor-status').textContent.startsWith(`${name} (`),
    TABLE_NAME, { timeout: 300_000 });
  const readMs = performance.now() - start;
  const read = memory.stop();
  await page.waitForFunction((shape) => document.querySelector('#matrices [data-box="weight"] caption')?.textContent.includes(shape),
    `${vocab} × ${dim}`, { timeout: 300_000 });
  await waitForLookupRows(page, ids, 300_000);
  await waitForVerdict(page, 'bit-identical', 300_000);
  const verdictMs = performance.now() - start;
  return { readMs, verdictMs, memory: read, statuses: await page.evaluate(() => window.tensorStatuses) };
}
