// Table handles (wasm/tables.mjs) against naive references of the core's rules (naive.mjs):
// a table's rows and lookups are its stored bits, a product, a gradient and a bag follow the
// order of additions the core's headers state (NaNs of several payloads, Infs and -0.0 included,
// in blocks that do and do not divide V), the heatmap follows the page's rule, a source is read
// only where needed, and runs report progress, stop, and are freed. differential.test.mjs holds
// the handles against the native core, bit for bit.
//
// One thing WebAssembly leaves open: the payload and sign of a NaN that arithmetic makes. V8
// gives different ones from its baseline and its optimising compiler, so the same product run
// twice in one process can end a column holding several NaNs with another NaN. Results of
// arithmetic are therefore compared bit for bit where they are not NaN and NaN for NaN where
// they are.
import assert from 'node:assert/strict';
import {
  closeSync,
  ftruncateSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { generator, safetensors } from './cases.mjs';
import { assertThrowsEmbedlab, importEmbedlab, memorySource } from './harness.mjs';
import { fma32, gemmRule } from './naive.mjs';

const { loadEmbedlab, EmbedlabError } = await importEmbedlab();
const lab = await loadEmbedlab();

// A float32 matrix's bits, read without going through JS numbers (which may quieten a NaN).
const bits = (m) =>
  `${m.rows}x${m.cols}:` +
  Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength).toString('hex');

function sameBits(actual, expected, what) {
  assert.equal(bits(actual), bits(expected), what);
}

// Bit for bit but for NaNs, which must be NaN on both sides (see above).
function sameValues(actual, expected, what) {
  const canonical = (m) => ({
    ...m,
    data: Float32Array.from(m.data, (x) => (Number.isNaN(x) ? NaN : x)),
  });
  assert.equal(bits(canonical(actual)), bits(canonical(expected)), what);
}

// NaNs of several payloads and both signs, both infinities, -0: which NaN a sum of several ends
// with depends on the order of its additions.
const SPECIAL_BITS = [
  0x7fc00001, 0xffc00002, 0x7fc12345, 0xff80dead, 0x7f800000, 0xff800000, 0x80000000,
];

// A (rows, cols) float32 table as its bits, mostly normal values, one in 30 special.
function specialBits(rng, rows, cols) {
  const out = new Uint32Array(rows * cols);
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  for (let i = 0; i < out.length; ++i) {
    if (rng() < 1 / 30) {
      out[i] = SPECIAL_BITS[Math.floor(rng() * SPECIAL_BITS.length)];
    } else {
      f[0] = (rng() - 0.5) * 8;
      out[i] = u[0];
    }
  }
  return out;
}

// A version 1.0 .npy file of float32 values given as bits.
function npyBytes(rows, cols, valueBits) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${rows}, ${cols}), }`;
  header += ' '.repeat((64 - ((10 + header.length + 1) % 64)) % 64) + '\n';
  const out = new Uint8Array(10 + header.length + valueBits.byteLength);
  out.set([0x93, ...Buffer.from('NUMPY'), 1, 0, header.length & 0xff, header.length >> 8]);
  out.set(Buffer.from(header, 'latin1'), 10);
  out.set(
    new Uint8Array(valueBits.buffer, valueBits.byteOffset, valueBits.byteLength),
    10 + header.length,
  );
  return out;
}

const randomIds = (rng, n, vocab) => Array.from({ length: n }, () => Math.floor(rng() * vocab));

const throwsEmbedlab = (f, pattern, argument) =>
  assertThrowsEmbedlab(EmbedlabError, f, pattern, argument);

const SHAPES = [
  [1, 1, 1],
  [3, 5, 4],
  [511, 7, 3],
  [512, 16, 17],
  [513, 3, 9],
  [1300, 33, 40],
  [1500, 5, 300],
  [600, 3, 3000],
];

// A (rows, cols) float32 matrix of the given bits, read without going through JS numbers.
const ofBits = (rows, cols, valueBits) => ({
  rows,
  cols,
  data: new Float32Array(valueBits.buffer),
});

// The rows W[ids[k]], copied as bits.
function gathered(W, valueBits, ids) {
  const out = new Uint32Array(ids.length * W.cols);
  ids.forEach((id, k) => out.set(valueBits.subarray(id * W.cols, (id + 1) * W.cols), k * W.cols));
  return ofBits(ids.length, W.cols, out);
}

// F.one_hot(ids, vocab).float(), row-major.
function oneHot(ids, vocab) {
  const out = new Float32Array(ids.length * vocab);
  ids.forEach((id, k) => {
    out[k * vocab + id] = 1;
  });
  return out;
}

// a (m, k) @ b (k, n) by the GEMM's rule, as a matrix.
const product = (a, b, m, k, n) => ({ rows: m, cols: n, data: gemmRule(a, b, m, k, n) });

// A (rows, cols) matrix transposed.
function transposed(data, rows, cols) {
  const out = new Float32Array(rows * cols);
  for (let i = 0; i < rows; ++i)
    for (let j = 0; j < cols; ++j) out[j * rows + i] = data[i * cols + j];
  return out;
}

test('a lookup is the rows of W, a product its one-hot GEMM, whatever the blocks of rows', () => {
  const rng = generator(1);
  for (const [vocab, dim, n] of SHAPES) {
    const valueBits = specialBits(rng, vocab, dim);
    const W = ofBits(vocab, dim, valueBits);
    const table = lab.openNpyTable(npyBytes(vocab, dim, valueBits));
    const ids = randomIds(rng, n, vocab);
    if (n > 2) ids[1] = ids[0];
    const what = `V = ${vocab}, d = ${dim}, n = ${n}`;
    sameBits(table.rowsAt(0, vocab), W, what);
    const rows = gathered(W, valueBits, ids);
    sameBits(table.lookup(ids), rows, what);
    const expected = product(oneHot(ids, vocab), W.data, n, vocab, dim);
    for (const blockRows of [512, 1024, 1536, 0]) {
      const { product: streamed, lookup, comparison } = table.product(ids, { blockRows });
      sameValues(streamed, expected, `${what}, blocks of ${blockRows}`);
      sameBits(lookup, rows, what);
      assert.deepEqual(comparison, lab.compare(lookup, streamed));
    }
    table.delete();
  }
});

test('a seeded table is held in memory; a .safetensors table converts BF16 exactly', () => {
  const seeded = lab.openSeededTable(123, 600, 7);
  assert.deepEqual(
    [seeded.rows, seeded.cols, seeded.dtype, seeded.name, seeded.inMemory],
    [600, 7, 'F32', null, true],
  );
  const all = Array.from({ length: 600 }, (_, i) => i);
  sameBits(seeded.rowsAt(0, 600), seeded.lookup(all));
  seeded.delete();
  // BF16, every bit pattern: a float32's top half, its bits followed by 16 zero bits (NaNs as
  // they are, as PyTorch converts them).
  const every = Uint16Array.from({ length: 65536 }, (_, k) => k);
  const file = safetensors([
    ['model.embed_tokens.weight', 'BF16', [256, 256], new Uint8Array(every.buffer)],
  ]);
  const W = ofBits(
    256,
    256,
    Uint32Array.from(every, (b) => b << 16),
  );
  const table = lab.openSafetensorsTable(memorySource(file));
  assert.deepEqual(
    [table.name, table.dtype, table.conversion],
    ['model.embed_tokens.weight', 'BF16', 'BF16 (bfloat16), converted to float32 exactly'],
  );
  sameBits(table.rowsAt(0, 256), W);
  const ids = [255, 127, 0, 255, 128];
  sameValues(
    table.product(ids, { blockRows: 512 }).product,
    product(oneHot(ids, 256), W.data, ids.length, 256, 256),
  );
  table.delete();
});

// dL/dW (V, d) of the lookup: row v adds G's rows k with ids[k] == v in increasing k from +0;
// scaled by frequency, each is fma(G(k, j), float(1 / count(v)), acc); the padding row stays 0.
function scatterAdd(ids, G, vocab, { paddingIdx = null, scaleGradByFreq = false } = {}) {
  const d = G.cols;
  const out = new Float32Array(vocab * d);
  const padding = paddingIdx === null ? -1 : (paddingIdx + vocab) % vocab;
  const count = new Map();
  ids.forEach((v) => count.set(v, (count.get(v) ?? 0) + 1));
  ids.forEach((v, k) => {
    if (v === padding) return;
    const s = scaleGradByFreq ? Math.fround(1 / count.get(v)) : 1;
    for (let j = 0; j < d; ++j) out[v * d + j] = fma32(G.data[k * d + j], s, out[v * d + j]);
  });
  return { rows: vocab, cols: d, data: out };
}

test('the gradients: scatter-add and onehot^T G, whole or as a view', () => {
  const rng = generator(2);
  for (const [vocab, dim, n] of SHAPES) {
    const table = lab.openSeededTable(7, vocab, dim);
    const ids = randomIds(rng, n, vocab);
    const G = ofBits(n, dim, specialBits(rng, n, dim));
    const whole = product(transposed(oneHot(ids, vocab), n, vocab), G.data, vocab, n, dim);
    for (const options of [{}, { paddingIdx: ids[0], scaleGradByFreq: true }]) {
      const what = `V = ${vocab}, d = ${dim}, n = ${n}, ${JSON.stringify(options)}`;
      const { scatter, gemm, comparison, stopped } = table.backward(ids, G, options, {
        blockRows: 512,
      });
      assert.equal(stopped, false);
      sameValues(scatter.whole, scatterAdd(ids, G, vocab, options), what);
      sameValues(gemm.whole, whole, what);
      // The plain comparison's, but where the padding row alone differs by more than rounding,
      // the run's grade says PyTorch defines that difference.
      const plain = lab.compare(scatter.whole, gemm.whole, 'backward');
      const { defined, headline, ...grade } = comparison.grade;
      const { defined: none, headline: plainHeadline, ...plainGrade } = plain.grade;
      assert.equal(none, null);
      assert.deepEqual({ ...comparison, grade }, { ...plain, grade: plainGrade }, what);
      if (defined) {
        assert.equal(defined.row, options.paddingIdx, what);
        assert.equal(headline, 'differs, as PyTorch defines it', what);
      } else {
        assert.equal(headline, plainHeadline, what);
      }
    }
    // Not held whole: the rows the ids ask for, and those asked to be kept.
    const view = table.backward(ids, G, {}, { whole: false, keepRows: [vocab - 1] }).gemm;
    assert.equal(view.whole, null);
    const kept = [...new Set([...ids, vocab - 1])].sort((a, b) => a - b);
    assert.deepEqual(Array.from(view.kept), kept);
    kept.forEach((row, k) => {
      const expected = {
        rows: 1,
        cols: dim,
        data: whole.data.subarray(row * dim, (row + 1) * dim),
      };
      const actual = {
        rows: 1,
        cols: dim,
        data: view.keptRows.data.subarray(k * dim, (k + 1) * dim),
      };
      sameValues(actual, expected, `kept row ${row}`);
    });
    table.delete();
  }
});

// F.embedding_bag's forward, padding_idx left out: sum adds the rows in position order from +0,
// mean divides by float(size), max keeps the first largest; and the multi-hot M whose product
// with W gives sum and mean.
function naiveBags(W, ids, offsets, { mode, paddingIdx }) {
  const d = W.cols;
  const ends = [...offsets.slice(1), ids.length];
  const output = new Float32Array(offsets.length * d);
  const maxRows = mode === 'max' ? new Array(offsets.length * d).fill(-1) : [];
  const M = new Float32Array(offsets.length * W.rows);
  offsets.forEach((begin, b) => {
    const members = ids.slice(begin, ends[b]).filter((v) => v !== paddingIdx);
    members.forEach((v, i) => {
      M[b * W.rows + v] += 1;
      for (let j = 0; j < d; ++j) {
        const x = W.data[v * d + j];
        const at = b * d + j;
        if (mode !== 'max') output[at] = Math.fround(output[at] + x);
        else if (i === 0 || x > output[at]) [output[at], maxRows[at]] = [x, v];
      }
    });
    if (mode === 'mean' && members.length > 0) {
      for (let j = 0; j < d; ++j)
        output[b * d + j] = Math.fround(output[b * d + j] / members.length);
      for (let v = 0; v < W.rows; ++v) M[b * W.rows + v] /= members.length;
    }
  });
  return { output: { rows: offsets.length, cols: d, data: output }, maxRows, M };
}

// The bags' dL/dW: sum and mean add each id's G(bag) in position order, mean's scaled by
// float(1 / size) in an fma; max gives G(b, j) to the row that was the maximum.
function naiveBagBackward(forward, ids, offsets, G, vocab, { mode, paddingIdx }) {
  const d = G.cols;
  const out = new Float32Array(vocab * d);
  const ends = [...offsets.slice(1), ids.length];
  offsets.forEach((begin, b) => {
    if (mode === 'max') {
      for (let j = 0; j < d; ++j) {
        const v = forward.maxRows[b * d + j];
        if (v >= 0) out[v * d + j] = Math.fround(out[v * d + j] + G.data[b * d + j]);
      }
      return;
    }
    const members = ids.slice(begin, ends[b]).filter((v) => v !== paddingIdx);
    const s = mode === 'mean' ? Math.fround(1 / members.length) : 1;
    for (const v of members) {
      for (let j = 0; j < d; ++j) out[v * d + j] = fma32(s, G.data[b * d + j], out[v * d + j]);
    }
  });
  return { rows: vocab, cols: d, data: out };
}

test('nn.EmbeddingBag: forward, M W streamed and the backward view', () => {
  const rng = generator(3);
  const valueBits = specialBits(rng, 300, 6);
  const W = ofBits(300, 6, valueBits);
  const table = lab.openNpyTable(npyBytes(300, 6, valueBits));
  const ids = [3, 299, 3, 9, 299, 2, 0];
  const offsets = [0, 2, 2, 5];
  const G = lab.randn(4, 4, 6);
  for (const mode of ['sum', 'mean', 'max']) {
    const options = { mode, paddingIdx: 9 };
    const naive = naiveBags(W, ids, offsets, options);
    const forward = table.embeddingBag(ids, offsets, options);
    sameValues(forward.output, naive.output, mode);
    assert.deepEqual(Array.from(forward.maxRows), naive.maxRows);
    sameValues(
      table.bagBackward(ids, offsets, G, forward, options).whole,
      naiveBagBackward(forward, ids, offsets, G, 300, options),
      mode,
    );
    if (mode === 'max') continue;
    const M = table.bagMatrix(ids, offsets, options);
    sameBits(M, { rows: offsets.length, cols: 300, data: naive.M }, mode);
    const {
      product: streamed,
      bags,
      comparison,
    } = table.bagProduct(ids, offsets, options, {
      blockRows: 512,
    });
    sameValues(streamed, product(naive.M, W.data, offsets.length, 300, 6), mode);
    sameBits(bags, forward.output, mode);
    assert.deepEqual(comparison, lab.compare(bags, streamed, 'bag'));
  }
  table.delete();
});

test('max_norm makes a new table with the rows over it scaled to it; the old one stays', () => {
  const table = lab.openSeededTable(5, 40, 8);
  const before = table.rowsAt(0, 40);
  const norm = (m, row) => Math.hypot(...m.data.subarray(row * 8, (row + 1) * 8));
  const { table: renormed, scaledRows } = table.renorm([3, 7, 3, 20], 1.5);
  const over = [3, 7, 20].filter((row) => norm(before, row) > 1.5);
  assert.ok(over.length >= 2, `rows over max_norm: ${over}`);
  assert.deepEqual(Array.from(scaledRows), over);
  const after = renormed.rowsAt(0, 40);
  for (let row = 0; row < 40; ++row) {
    const rowOf = (m) => ({ rows: 1, cols: 8, data: m.data.subarray(row * 8, (row + 1) * 8) });
    if (over.includes(row)) assert.ok(Math.abs(norm(after, row) - 1.5) < 1e-5, `row ${row}`);
    else sameBits(rowOf(after), rowOf(before), `row ${row}`);
  }
  sameBits(table.rowsAt(0, 40), before);
  renormed.delete();
  table.delete();
});

test("the heatmap of W follows the page's rule (web/heatmap.mjs)", () => {
  const rng = generator(4);
  const [vocab, dim, height, width] = [1000, 700, 256, 512];
  const valueBits = specialBits(rng, vocab, dim);
  const values = new Float32Array(valueBits.buffer);
  const table = lab.openNpyTable(npyBytes(vocab, dim, valueBits));
  const { heatmap, stopped } = table.heatmap({
    blockRows: 512,
    heatmap: { rows: height, cols: width },
  });
  assert.equal(stopped, false);
  assert.deepEqual([heatmap.rows, heatmap.cols], [height, width]);
  // The rule, as the page reads all cells: largest magnitude, the first of equal ones, NaN wins.
  for (let p = 0; p < height; ++p) {
    for (let q = 0; q < width; ++q) {
      let best = 0;
      for (
        let i = Math.floor((p * vocab) / height);
        i < Math.floor(((p + 1) * vocab) / height);
        ++i
      ) {
        for (let j = Math.floor((q * dim) / width); j < Math.floor(((q + 1) * dim) / width); ++j) {
          const v = values[i * dim + j];
          if (!Number.isNaN(best) && (Number.isNaN(v) || Math.abs(v) > Math.abs(best))) best = v;
        }
      }
      const got = heatmap.data[p * width + q];
      assert.ok(
        Object.is(got, best) || (Number.isNaN(got) && Number.isNaN(best)),
        `pixel (${p}, ${q})`,
      );
    }
  }
  table.delete();
});

test('a table larger than memory keeps is read where it lies: its rows, then block by block', () => {
  // 20000 x 256 float32, 20 MB: over the 16 MiB held in memory.
  const rng = generator(5);
  const valueBits = specialBits(rng, 20000, 256);
  const file = safetensors([['wte.weight', 'F32', [20000, 256], new Uint8Array(valueBits.buffer)]]);
  const counted = { ...memorySource(file), reads: 0, bytes: 0 };
  const source = {
    size: file.length,
    read(offset, length) {
      counted.reads += 1;
      counted.bytes += length;
      return file.slice(offset, offset + length);
    },
  };
  const table = lab.openSafetensorsTable(source);
  assert.equal(table.inMemory, false);
  const header = counted.bytes;
  assert.ok(header < 200, `the header took ${header} bytes`);
  table.lookup([19999, 0, 7]);
  assert.equal(counted.bytes - header, 3 * 1024);
  const before = counted.bytes;
  const run = table.startProduct([1, 2], { blockRows: 4096 });
  assert.equal(counted.bytes, before + 2 * 1024, 'the run starts with the lookup alone');
  const steps = [];
  while (!run.done) steps.push(run.step());
  assert.equal(steps.length, 5);
  assert.deepEqual(
    steps.map((p) => p.rowsDone),
    [4096, 8192, 12288, 16384, 20000],
  );
  assert.equal(counted.bytes, before + 2 * 1024 + 20000 * 1024);
  assert.equal(steps.at(-1).bytesRead, 20000 * 1024);
  assert.equal(steps.at(-1).multiplyAdds, 2 * 20000 * 256);
  run.delete();
  table.delete();
});

test('a run reports progress, can be stopped, and gives no result before it is done', () => {
  const table = lab.openSeededTable(1, 1000, 4);
  const run = table.startProduct([5], { blockRows: 512 });
  sameBits(run.expected, table.lookup([5]));
  assert.deepEqual(run.progress, {
    rowsDone: 0,
    rows: 1000,
    bytesRead: 0,
    bytes: 16000,
    multiplyAdds: 0,
    totalMultiplyAdds: 4000,
    done: false,
  });
  throwsEmbedlab(
    () => run.result(),
    /^the product is not done: 0 of 1000 rows of W have been read; step\(\) until done$/,
    'weights',
  );
  assert.equal(run.step(1).rowsDone, 512);
  assert.equal(run.step(100).rowsDone, 1000);
  assert.ok(run.result().comparison.identical);
  run.delete();
  run.delete(); // no effect the second time
  throwsEmbedlab(() => run.step(), /^startProduct: step\(\) after delete\(\)/, null);
  const calls = [];
  const stopped = table.product([5], {
    blockRows: 512,
    onProgress: (p) => {
      calls.push(p.rowsDone);
      return false;
    },
  });
  assert.deepEqual(calls, [512]);
  assert.equal(stopped.stopped, true);
  assert.equal(stopped.product, undefined);
  sameBits(stopped.lookup, table.lookup([5]));
  table.delete();
  throwsEmbedlab(
    () => table.lookup([1]),
    /^table: lookup\(\) after delete\(\): open the table again$/,
    null,
  );
});

test('a source that fails, or answers wrongly, is an error about the weights', () => {
  const file = safetensors([['wte.weight', 'F32', [2, 2], new Uint8Array(16)]]);
  throwsEmbedlab(
    () =>
      lab.openSafetensorsTable({
        size: file.length,
        read() {
          throw new Error('the file was moved');
        },
      }),
    /^cannot read bytes 0 to 8 of the file: the file was moved$/,
    'weights',
  );
  throwsEmbedlab(
    () => lab.openSafetensorsTable({ size: file.length, read: () => new Uint8Array(3) }),
    /^cannot read bytes 0 to 8 of the file: read\(0, 8\) returned 3 bytes, not 8$/,
    'weights',
  );
  throwsEmbedlab(
    () => lab.openSafetensorsTable({ size: file.length, read: () => [1, 2] }),
    /read\(0, 8\) returned an Array, not a Uint8Array$/,
    'weights',
  );
  throwsEmbedlab(
    () => lab.openSafetensorsTable(file),
    /^openSafetensorsTable: source must be an object \{ size, read\(offset, length\) \}/,
    'weights',
  );
  throwsEmbedlab(
    () => lab.openSafetensorsTable({ size: -1, read: () => file }),
    /source must be/,
    'weights',
  );
  throwsEmbedlab(
    () => lab.openSeededTable(1, 2 ** 20, 65),
    /the embedding table \(V x d\) would be 1,048,576 x 65 floats/,
    'vocab',
  );
  const table = lab.openSeededTable(1, 4, 2);
  throwsEmbedlab(
    () => table.rowsAt(3, 2),
    /^rows 3 to 5 are not all in the table, which has rows 0 to 4$/,
    'weights',
  );
  throwsEmbedlab(
    () => table.startBackward([1], lab.randn(1, 1, 3)),
    /^G has 3 columns but the table has 2: dL\/dout is as wide as the table, \(n, d\)$/,
    'grad',
  );
  throwsEmbedlab(
    () => table.product([4]),
    /^index out of range in self: id 4 at position 1/,
    'ids',
  );
  table.delete();
});

test("Gemma 3's table from a 600 MB file in Node, through fs.readSync, in bounded memory", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'embedlab-tables-'));
  try {
    // A sparse file: the header, then 262144 x 1152 BF16 values, all holes but row 995.
    const [vocab, dim] = [262144, 1152];
    const head = safetensors([
      ['model.embed_tokens.weight', 'BF16', [vocab, dim], new Uint8Array(0)],
    ]);
    const json = JSON.parse(Buffer.from(head.subarray(8)).toString());
    json['model.embed_tokens.weight'].data_offsets = [0, vocab * dim * 2];
    const header = Buffer.from(JSON.stringify(json) + ' '.repeat(8));
    const text = header.subarray(0, header.length - (header.length % 8));
    const file = path.join(dir, 'model.safetensors');
    const start = Buffer.alloc(8);
    start.writeBigUInt64LE(BigInt(text.length));
    writeFileSync(file, Buffer.concat([start, text]));
    const fd = openSync(file, 'r+');
    ftruncateSync(fd, 8 + text.length + vocab * dim * 2);
    const row = new Uint8Array(
      Uint16Array.from({ length: dim }, (_, j) => 0x3f80 + (j % 64)).buffer,
    );
    writeSync(fd, row, 0, row.length, 8 + text.length + 995 * dim * 2);
    const source = {
      size: 8 + text.length + vocab * dim * 2,
      read(offset, length) {
        const bytes = new Uint8Array(length);
        readSync(fd, bytes, 0, length, offset);
        return bytes;
      },
    };
    const before = process.memoryUsage().arrayBuffers;
    const table = lab.openSafetensorsTable(source);
    const rows = table.lookup([995, 15496]);
    assert.equal(rows.data[0], 1);
    assert.equal(rows.data[dim], 0);
    const { comparison } = table.product([995, 15496]);
    assert.ok(comparison.identical, comparison.grade.sentence);
    // The module's memory holds blocks of rows, never the table (1.2 GB as float32).
    assert.ok(process.memoryUsage().arrayBuffers - before < 128 * 2 ** 20);
    table.delete();
    closeSync(fd);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
