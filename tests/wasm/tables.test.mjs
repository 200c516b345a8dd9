// Table handles (wasm/tables.mjs) against the typed-array functions of the same module: every
// operation on a handle gives the bits its typed-array twin gives on the same table (NaNs of
// several payloads, Infs and -0.0 included, in blocks that do and do not divide V), the
// heatmap follows the page's rule, a source is read only where needed, and runs report progress,
// stop, and are freed. differential.test.mjs checks the handles against the native core.
//
// One thing WebAssembly leaves open: the payload and sign of a NaN that arithmetic makes. V8
// gives different ones from its baseline and its optimising compiler, so the same product run
// twice in one process can end a column holding several NaNs with another NaN. Products are
// therefore compared bit for bit where they are not NaN and NaN for NaN where they are.
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

test("lookup, product and both routes: a handle gives the typed-array functions' bits", () => {
  const rng = generator(1);
  for (const [vocab, dim, n] of SHAPES) {
    const bytes = npyBytes(vocab, dim, specialBits(rng, vocab, dim));
    const W = lab.npyTable(bytes);
    const table = lab.openNpyTable(bytes);
    const ids = randomIds(rng, n, vocab);
    if (n > 2) ids[1] = ids[0];
    const what = `V = ${vocab}, d = ${dim}, n = ${n}`;
    sameBits(table.lookup(ids), lab.lookup(W, ids), what);
    const whole = lab.onehotProduct(lab.oneHot(ids, vocab), W);
    for (const blockRows of [512, 1024, 1536, 0]) {
      const { product, lookup, comparison } = table.product(ids, { blockRows });
      sameValues(product, whole, `${what}, blocks of ${blockRows}`);
      sameBits(lookup, lab.lookup(W, ids), what);
      assert.deepEqual(comparison, lab.compare(lookup, product));
    }
    const routes = table.bothRoutes(ids);
    const typed = lab.bothRoutes(W, ids);
    sameValues(routes.product, typed.product, what);
    assert.deepEqual(routes.comparison, lab.compare(routes.lookup, routes.product));
    table.delete();
  }
});

test('a seeded, a TensorFlow and a .safetensors table are the typed-array tables', () => {
  const seeded = lab.openSeededTable(123, 600, 7);
  sameBits(seeded.rowsAt(0, 600), lab.seededTable(123, 600, 7));
  assert.deepEqual(
    [seeded.rows, seeded.cols, seeded.dtype, seeded.name, seeded.inMemory],
    [600, 7, 'F32', null, true],
  );
  seeded.delete();
  const tf = lab.openTfTable(5, 2);
  sameBits(tf.rowsAt(0, 5), lab.tfTable(5, 2));
  tf.delete();
  // BF16, every bit pattern: the reader's table, and the handle's rows converted as it reads them.
  const every = new Uint8Array(Uint16Array.from({ length: 65536 }, (_, k) => k).buffer);
  const file = safetensors([['model.embed_tokens.weight', 'BF16', [256, 256], every]]);
  const reader = lab.safetensorsTable(file, file.length);
  reader.addRows(file.subarray(reader.begin, reader.end));
  const W = reader.finish();
  const table = lab.openSafetensorsTable(memorySource(file));
  assert.deepEqual(
    [table.name, table.dtype, table.conversion],
    ['model.embed_tokens.weight', 'BF16', 'BF16 (bfloat16), converted to float32 exactly'],
  );
  sameBits(table.rowsAt(0, 256), W);
  const ids = [255, 127, 0, 255, 128];
  sameValues(
    table.product(ids, { blockRows: 512 }).product,
    lab.onehotProduct(lab.oneHot(ids, 256), W),
  );
  table.delete();
});

test('the gradients: scatter-add and onehot^T G, whole or as a view', () => {
  const rng = generator(2);
  for (const [vocab, dim, n] of SHAPES) {
    const table = lab.openSeededTable(7, vocab, dim);
    const ids = randomIds(rng, n, vocab);
    const G = lab.npyTable(npyBytes(n, dim, specialBits(rng, n, dim)));
    for (const options of [{}, { paddingIdx: ids[0], scaleGradByFreq: true }]) {
      const what = `V = ${vocab}, d = ${dim}, n = ${n}, ${JSON.stringify(options)}`;
      const { scatter, gemm, comparison, stopped } = table.backward(ids, G, options, {
        blockRows: 512,
      });
      assert.equal(stopped, false);
      const expectedScatter = lab.embeddingBackward(ids, G, vocab, options);
      const expectedGemm = lab.onehotBackward(lab.oneHot(ids, vocab), G);
      sameBits(scatter.whole, expectedScatter, what);
      sameValues(gemm.whole, expectedGemm, what);
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
    const whole = lab.onehotBackward(lab.oneHot(ids, vocab), G);
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

test('nn.EmbeddingBag: forward, M W streamed and the backward view', () => {
  const rng = generator(3);
  const bytes = npyBytes(300, 6, specialBits(rng, 300, 6));
  const W = lab.npyTable(bytes);
  const table = lab.openNpyTable(bytes);
  const ids = [3, 299, 3, 9, 299, 2, 0];
  const offsets = [0, 2, 2, 5];
  for (const mode of ['sum', 'mean', 'max']) {
    const options = { mode, paddingIdx: 9 };
    const forward = table.embeddingBag(ids, offsets, options);
    const typed = lab.embeddingBag(W, ids, offsets, options);
    sameBits(forward.output, typed.output, mode);
    assert.deepEqual(Array.from(forward.maxRows), Array.from(typed.maxRows));
    const G = lab.randn(4, 4, 6);
    sameBits(
      table.bagBackward(ids, offsets, G, forward, options).whole,
      lab.embeddingBagBackward(ids, offsets, G, typed, 300, options),
      mode,
    );
    if (mode === 'max') continue;
    const { product, bags, comparison } = table.bagProduct(ids, offsets, options, {
      blockRows: 512,
    });
    const M = lab.bagMatrix(ids, offsets, 300, options);
    sameValues(product, lab.onehotProduct(M, W), mode);
    sameBits(bags, typed.output, mode);
    assert.deepEqual(comparison, lab.compare(bags, product, 'bag'));
  }
  table.delete();
});

test('max_norm makes a new table with the renormalised rows; the old one stays', () => {
  const table = lab.openSeededTable(5, 40, 8);
  const { table: renormed, scaledRows } = table.renorm([3, 7, 3], 1.5);
  const typed = lab.embeddingRenorm(lab.seededTable(5, 40, 8), [3, 7, 3], 1.5);
  assert.deepEqual(Array.from(scaledRows), Array.from(typed.scaledRows));
  sameBits(renormed.rowsAt(0, 40), typed.weight);
  sameBits(table.rowsAt(0, 40), lab.seededTable(5, 40, 8));
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
