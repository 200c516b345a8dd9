// What only the JS API has: the notebook's numbers through the whole WASM chain (table handles,
// their lookups, products, gradients and bags, to values worked out by hand), errors as
// EmbedlabError, argument checks, results that are copies, and one shared instance.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { notebook, printedAfter } from '../notebooks.mjs';
import { oneHotCells } from '../../web/model/cells.mjs';
import { npyOf, numpyF4 } from './cases.mjs';
import { assertThrowsEmbedlab, importEmbedlab, siteDir } from './harness.mjs';

const { loadEmbedlab, EmbedlabError } = await importEmbedlab();
const lab = await loadEmbedlab();

// Printed by notebook 002: torch.manual_seed(123); Embedding(4, 5) and Linear(4, 5, bias=False)
// after a fresh manual_seed(123); idx = [2, 3, 1].
const nb = notebook('002');
const notebookEmbedding = printedAfter(nb, 'In [5]:');
const notebookLinear = printedAfter(nb, 'In [16]:');
const notebookOneHot = printedAfter(nb, 'In [12]:');
const notebookProduct = printedAfter(nb, 'In [18]:');
const notebookLookup = printedAfter(nb, 'In [8]:');

const fourDecimals = (m) => Array.from(m.data, (x) => x.toFixed(4));

// Asserts that f() throws an EmbedlabError whose message matches `pattern`.
function throwsEmbedlab(f, pattern) {
  assert.throws(f, (error) => {
    assert.ok(error instanceof EmbedlabError, `${error} is not an EmbedlabError`);
    assert.ok(error instanceof Error);
    assert.equal(error.name, 'EmbedlabError');
    assert.match(error.message, pattern);
    return true;
  });
}

// The whole of a table handle's rows.
function rowsOf(table) {
  try {
    return table.rowsAt(0, table.rows);
  } finally {
    table.delete();
  }
}

const float32 = (rows, cols, values) => ({ rows, cols, data: Float32Array.from(values) });

test('seed 123, 4 x 5 gives the notebook table to 4 decimals', () => {
  const W = rowsOf(lab.openSeededTable(123, 4, 5));
  assert.deepEqual([W.rows, W.cols], [4, 5]);
  assert.ok(W.data instanceof Float32Array);
  assert.deepEqual(fourDecimals(W), [
    '0.3374',
    '-0.1778',
    '-0.3035',
    '-0.5880',
    '1.5810',
    '1.3010',
    '1.2753',
    '-0.2010',
    '-0.1606',
    '-0.4015',
    '0.6957',
    '-1.8061',
    '-1.1589',
    '0.3255',
    '-0.6315',
    '-2.8400',
    '-0.7849',
    '-1.4096',
    '-0.4076',
    '0.7953',
  ]);
});

test('the notebook walk-through prints as the notebook does', () => {
  const ids = lab.parseIds('torch.tensor([2, 3, 1])');
  const vocab = lab.defaultVocab(ids);
  assert.equal(vocab, 4);
  const table = lab.openSeededTable(123, vocab, 5);
  const param = { header: 'Parameter containing:\n', suffixes: ['requires_grad=True'] };
  assert.equal(lab.formatTensor(table.rowsAt(0, vocab), param), notebookEmbedding);
  const linear = lab.linearInit(123, vocab, 5, false);
  assert.equal(linear.bias, null);
  assert.equal(lab.formatTensor(linear.weight, param), notebookLinear);
  assert.equal(lab.formatTensor(oneHotCells(ids, vocab), { integer: true }), notebookOneHot);
  const { lookup, product, comparison } = table.product(ids);
  table.delete();
  assert.equal(lab.formatTensor(product, { suffixes: ['grad_fn=<MmBackward0>'] }), notebookProduct);
  assert.equal(
    lab.formatTensor(lookup, { suffixes: ['grad_fn=<EmbeddingBackward0>'] }),
    notebookLookup,
  );
  assert.equal(comparison.identical, true);
  assert.equal(comparison.bitIdentical, 15);
  assert.equal(comparison.grade.headline, 'bit-identical');
  assert.equal(comparison.grade.defined, null);
  assert.deepEqual(lab.compare(lookup, product), comparison);
});

test('a lookup copies rows of W', () => {
  const table = lab.openSeededTable(5, 6, 3);
  const W = table.rowsAt(0, 6);
  const rows = table.lookup([5, 0, 5]);
  table.delete();
  assert.deepEqual(Array.from(rows.data), [
    ...W.data.slice(15, 18),
    ...W.data.slice(0, 3),
    ...W.data.slice(15, 18),
  ]);
});

test('the TensorFlow table: row i holds 0.11 * i as float32', () => {
  const W = rowsOf(lab.openTfTable(4, 2));
  assert.deepEqual(Array.from(W.data), [0, 0, 0.11, 0.11, 0.22, 0.22, 0.33, 0.33].map(Math.fround));
});

test('a .npy table holds what numpy wrote, from a Uint8Array or an ArrayBuffer', () => {
  const expected = float32(2, 3, [0.5, -1.25, 3, 1e-3, -0, 65504]);
  assert.deepEqual(rowsOf(lab.openNpyTable(new Uint8Array(numpyF4))), expected);
  const buffer = new Uint8Array(numpyF4).buffer;
  assert.deepEqual(rowsOf(lab.openNpyTable(buffer)), expected);
  assert.ok(Object.is(rowsOf(lab.openNpyTable(buffer)).data[4], -0));
});

test('ids and matrix data may be plain arrays or other typed arrays', () => {
  const table = lab.openNpyTable(npyOf(float32(3, 2, [1, 2, 3, 4, 5, 6])));
  const expected = float32(2, 2, [5, 6, 1, 2]);
  assert.deepEqual(table.lookup([2, 0]), expected);
  assert.deepEqual(table.lookup(Int32Array.from([2, 0])), expected);
  assert.deepEqual(table.lookup(new Uint8Array([2, 0])), expected);
  table.delete();
  const comparison = lab.compare(
    { rows: 2, cols: 2, data: [5, 6, 1, 2] },
    { rows: 2, cols: 2, data: Float64Array.from([5, 6, 1, 2]) },
  );
  assert.equal(comparison.identical, true);
});

// dL/dW for out = W[ids]: G's rows added into their ids' rows in position order, in float32.
function naiveScatterAdd(ids, G, vocab) {
  const grad = new Float32Array(vocab * G.cols);
  ids.forEach((id, k) => {
    for (let j = 0; j < G.cols; ++j) {
      grad[id * G.cols + j] = Math.fround(grad[id * G.cols + j] + G.data[k * G.cols + j]);
    }
  });
  return { rows: vocab, cols: G.cols, data: grad };
}

// A table's backward pass for G, held whole: { scatter, gemm, comparison }.
function backward(vocab, ids, G, options) {
  const table = lab.openTfTable(vocab, G.cols);
  try {
    const { scatter, gemm, comparison } = table.backward(ids, G, options);
    return { scatter: scatter.whole, gemm: gemm.whole, comparison };
  } finally {
    table.delete();
  }
}

test("a table's backward is the scatter-add, and the one-hot GEMM agrees with it", () => {
  const ids = [3, 0, 3, 3, 1, 3, 0]; // id 3 four times: the GEMM may add in another order
  const G = lab.randn(11, ids.length, 6);
  const { scatter, gemm } = backward(5, ids, G);
  assert.deepEqual(scatter, naiveScatterAdd(ids, G, 5));
  assert.deepEqual([gemm.rows, gemm.cols], [5, 6]);
  gemm.data.forEach((x, i) => assert.ok(Math.abs(x - scatter.data[i]) <= 1e-5 * (1 + Math.abs(x))));
  const twice = [2, 0, 2, 1];
  assert.ok(backward(3, twice, lab.randn(12, twice.length, 6)).comparison.identical);
});

test("a table's backward options: padding row left at zero, gradients scaled by frequency", () => {
  const ids = [1, 2, 1, 0];
  const G = { rows: 4, cols: 2, data: [1, 2, 3, 4, 5, 6, 7, 8] };
  assert.deepEqual(
    Array.from(backward(3, ids, G, { paddingIdx: -1 }).scatter.data),
    [7, 8, 6, 8, 0, 0],
  );
  assert.deepEqual(
    Array.from(backward(3, ids, G, { scaleGradByFreq: true }).scatter.data),
    [7, 8, 3, 4, 3, 4],
  );
});

test('a table sums, averages and maxes each bag, and its backward checks the forward', () => {
  const table = lab.openNpyTable(npyOf(float32(3, 2, [1, 10, 2, 20, 4, -5])));
  const ids = [0, 2, 1, 1, 2];
  const offsets = [0, 2, 2]; // bags [0, 2], [], [1, 1, 2]
  const sum = table.embeddingBag(ids, offsets, { mode: 'sum' });
  assert.deepEqual(Array.from(sum.output.data), [5, 5, 0, 0, 8, 35]);
  assert.deepEqual(Array.from(sum.bagSize), [2, 0, 3]);
  assert.deepEqual(
    Array.from(table.embeddingBag(ids, offsets).output.data),
    [2.5, 2.5, 0, 0, 8 / 3, 35 / 3].map(Math.fround),
  );
  const max = table.embeddingBag(ids, offsets, { mode: 'max' });
  assert.deepEqual(Array.from(max.output.data), [4, 10, 0, 0, 4, 20]);
  assert.deepEqual(Array.from(max.maxRows), [2, 0, -1, -1, 2, 1]);
  const M = table.bagMatrix(ids, offsets, { mode: 'sum' });
  assert.deepEqual(Array.from(M.data), [1, 0, 1, 0, 0, 0, 0, 2, 1]);
  const G = { rows: 3, cols: 2, data: [1, 1, 1, 1, 1, 1] };
  assert.deepEqual(
    Array.from(table.bagBackward(ids, offsets, G, max, { mode: 'max' }).whole.data),
    [0, 1, 0, 1, 2, 0],
  );
  const G2 = { rows: 2, cols: 2, data: [1, 1, 1, 1] };
  throwsEmbedlab(
    () => table.bagBackward(ids, [0, 2], G2, max, { mode: 'max' }),
    /^the forward result does not belong to these bags/,
  );
  throwsEmbedlab(
    () => table.embeddingBag(ids, offsets, { mode: 'median' }),
    /^mode must be 'sum', 'mean' or 'max', got 'median'$/,
  );
  table.delete();
});

test('renorm scales rows over max_norm in a new table and names them', () => {
  const table = lab.openNpyTable(npyOf(float32(3, 2, [3, 4, 0.3, 0.4, 6, 8])));
  const { table: renormed, scaledRows } = table.renorm([2, 0, 1], 1);
  assert.deepEqual(Array.from(scaledRows), [0, 2]);
  const weight = rowsOf(renormed);
  assert.deepEqual(Array.from(table.rowsAt(0, 3).data), [3, 4, 0.3, 0.4, 6, 8].map(Math.fround));
  assert.ok(Math.abs(Math.hypot(weight.data[0], weight.data[1]) - 1) < 1e-6);
  assert.deepEqual(Array.from(weight.data.slice(2, 4)), [0.3, 0.4].map(Math.fround));
  throwsEmbedlab(() => table.renorm([0], 0), /^max_norm must be a positive number/);
  table.delete();
});

test('limits are the core defaults', () => {
  assert.deepEqual(
    { ...lab.limits },
    {
      maxIds: 65536,
      maxVocab: 1 << 22,
      maxDim: 1 << 16,
      maxElements: 1 << 26,
      maxConfigBytes: 1 << 20,
    },
  );
});

test('core errors are EmbedlabError with the core message', () => {
  throwsEmbedlab(() => lab.parseIds('2, x'), /^token 2 is "x", which is not an integer/);
  throwsEmbedlab(() => lab.parseIds('-1'), /^token 1 is "-1": token ids must be >= 0/);
  throwsEmbedlab(() => lab.parseIds(''), /^no token ids/);
  const table = lab.openSeededTable(123, 4, 5);
  throwsEmbedlab(
    () => table.lookup([2, 4]),
    /^index out of range in self: id 4 at position 2 is not below the vocabulary size V = 4/,
  );
  table.delete();
  throwsEmbedlab(() => lab.checkIds([1, 9], 4), /^index out of range in self: id 9/);
  throwsEmbedlab(
    () => lab.checkIdCount(65537),
    /^too many token ids: 65,537 given, at most 65,536 are accepted at once$/,
  );
  lab.checkIdCount(65536);
  throwsEmbedlab(
    () => lab.openSeededTable(1, 2 ** 23, 4),
    /vocabulary size V = 8,388,608 is over the limit/,
  );
  throwsEmbedlab(
    () => lab.openSeededTable(1, 2 ** 21, 64),
    /the embedding table \(V x d\) would be 2,097,152 x 64 floats/,
  );
  throwsEmbedlab(() => lab.openNpyTable(new Uint8Array([1, 2, 3])), /^not a \.npy file/);
});

test('numbers that are not whole, or too large for int64, are refused', () => {
  throwsEmbedlab(
    () => lab.openSeededTable(1.5, 4, 5),
    /^the seed must be a whole number, got 1\.5$/,
  );
  throwsEmbedlab(
    () => lab.openSeededTable(1, NaN, 5),
    /^the vocabulary size V must be a whole number, got NaN$/,
  );
  throwsEmbedlab(
    () => lab.openTfTable(4, Infinity),
    /^the embedding dimension d must be a whole number, got Infinity$/,
  );
  throwsEmbedlab(
    () => lab.openSeededTable(2 ** 64, 4, 5),
    /^the seed = 18446744073709552000 is too large: it must fit in int64$/,
  );
  const table = lab.openTfTable(4, 2);
  throwsEmbedlab(
    () => table.lookup([1, 0.5]),
    /^the id at position 2 must be a whole number, got 0\.5$/,
  );
  table.delete();
  throwsEmbedlab(() => lab.checkIds([1e300], 4), /^the id at position 1 = 1e\+300 is too large/);
});

test('arguments of the wrong type are refused with the argument named', () => {
  const table = lab.openTfTable(4, 2);
  const W = table.rowsAt(0, 4);
  throwsEmbedlab(() => lab.parseIds(42), /^parseIds: text must be a string, got number 42$/);
  throwsEmbedlab(
    () => table.lookup('2, 3'),
    /^lookup: ids must be an array of numbers, got the string "2, 3"$/,
  );
  throwsEmbedlab(
    () => table.lookup(new BigInt64Array(2)),
    /^lookup: ids must be an array of numbers, got a BigInt64Array$/,
  );
  throwsEmbedlab(() => lab.compare({ rows: 4 }, W), /^compare: expected must be a matrix/);
  throwsEmbedlab(() => lab.compare(W, null), /^compare: actual must be a matrix .*, got null$/);
  throwsEmbedlab(() => lab.openSeededTable('123', 4, 5), /^openSeededTable: seed must be a number/);
  throwsEmbedlab(() => lab.linearInit(1, 4, 5, 'yes'), /^linearInit: bias must be true or false/);
  throwsEmbedlab(
    () => lab.openNpyTable('w.npy'),
    /^openNpyTable: bytes must be a Uint8Array or ArrayBuffer/,
  );
  throwsEmbedlab(
    () => lab.formatTensor(W, { suffixes: 'requires_grad=True' }),
    /^formatTensor: suffixes must be an array of strings/,
  );
  throwsEmbedlab(
    () => lab.formatTensor(W, { header: 1 }),
    /^formatTensor: header must be a string/,
  );
  throwsEmbedlab(() => lab.formatTensor(W, 'integer'), /^formatTensor: options must be an object/);
  throwsEmbedlab(
    () => table.startBackward([0], W, { paddingIdx: '1' }),
    /^startBackward: paddingIdx must be a whole number, got the string "1"$/,
  );
  throwsEmbedlab(
    () => table.embeddingBag([0], [0], { perSampleWeights: 0.5 }),
    /^embeddingBag: perSampleWeights must be an array of numbers/,
  );
  throwsEmbedlab(
    () => table.bagBackward([0], [0], W, {}),
    /^bagBackward: forward.output must be a matrix/,
  );
  table.delete();
});

test('matrices whose shape does not match their data are refused', () => {
  const W = { rows: 1, cols: 2, data: [1, 2] };
  throwsEmbedlab(
    () => lab.compare({ rows: 4, cols: 5, data: new Float32Array(12) }, W),
    /^expected\.data holds 12 numbers, but expected is 4 x 5 = 20$/,
  );
  throwsEmbedlab(
    () => lab.compare({ rows: -1, cols: 5, data: [] }, W),
    /^expected would be -1 x 5: a size cannot be negative$/,
  );
  throwsEmbedlab(
    () => lab.compare({ rows: 1.5, cols: 2, data: [1, 2, 3] }, W),
    /^expected\.rows must be a whole number, got 1\.5$/,
  );
  throwsEmbedlab(
    () => lab.compare({ rows: 2 ** 20, cols: 2 ** 20, data: [] }, W),
    /^expected would be 1,048,576 x 1,048,576 floats, over the limit of 67,108,864 floats/,
  );
});

test('a result too large for WASM memory is refused before allocating, not an abort', () => {
  // 65536 rows of a (1, 8192) table: tiny inputs, a 2 GiB result, more than the module may use.
  const table = lab.openTfTable(1, 8192);
  throwsEmbedlab(
    () => table.lookup(new Array(65536).fill(0)),
    /^the result \(n x d\) would be 65,536 x 8,192 floats, over the limit/,
  );
  table.delete();
});

test('the module keeps working after errors', () => {
  for (let i = 0; i < 100; ++i) {
    const table = lab.openTfTable(4, 3);
    throwsEmbedlab(() => table.lookup([i + 4]), /index out of range/);
    table.delete();
  }
  const wide = lab.openTfTable(1, 8192);
  throwsEmbedlab(() => wide.product(new Array(65536).fill(0)), /over the limit/);
  wide.delete();
  const table = lab.openSeededTable(123, 4, 5);
  assert.deepEqual(fourDecimals(table.lookup([1])), [
    '1.3010',
    '1.2753',
    '-0.2010',
    '-0.1606',
    '-0.4015',
  ]);
  table.delete();
});

test('results are copies that survive memory growth and do not alias', () => {
  const table = lab.openSeededTable(123, 4, 5);
  const before = table.lookup([0, 1]);
  const big = rowsOf(lab.openTfTable(4096, 4096)); // 64 MiB: memory grows
  assert.equal(big.data.length, 4096 * 4096);
  assert.equal(before.data.length, 10);
  assert.equal(before.data[0].toFixed(4), '0.3374');
  before.data[0] = 42;
  assert.equal(table.lookup([0]).data[0].toFixed(4), '0.3374');
  table.delete();
});

test('every loadEmbedlab() shares one instance', async () => {
  const [a, b] = await Promise.all([
    loadEmbedlab(),
    loadEmbedlab({ wasmBinary: new ArrayBuffer(8) }),
  ]);
  assert.equal(a, lab);
  assert.equal(b, lab);
  assert.ok(Object.isFrozen(lab));
});

test('the shipped .d.ts declares every function of the API', () => {
  const declarations = readFileSync(path.join(siteDir, 'embedlab', 'embedlab.d.ts'), 'utf8');
  for (const name of Object.keys(lab)) {
    assert.ok(new RegExp(`\\b${name}[(:]`).test(declarations), `${name} is not declared`);
  }
});

test("training: the optimizers and their defaults are PyTorch's, as torch.optim's signatures give them", () => {
  const adam = lab.optimizers.find((o) => o.name === 'adam');
  assert.equal(adam.className, 'Adam');
  assert.deepEqual(
    adam.arguments.map((a) => [a.name, a.form, a.text]),
    [
      ['lr', 'number', '0.001'],
      ['betas', 'pair', '0.9, 0.999'],
      ['eps', 'number', '1e-08'],
      ['weight_decay', 'number', '0.0'],
      ['amsgrad', 'flag', 'False'],
      ['maximize', 'flag', 'False'],
    ],
  );
  assert.deepEqual(adam.arguments[1].default, [0.9, 0.999]);
  assert.equal(
    lab.optimizers.find((o) => o.name === 'adamw').arguments.find((a) => a.name === 'weight_decay')
      .default,
    0.01,
  );
  assert.equal(
    lab.optimizers.find((o) => o.name === 'adagrad').arguments.find((a) => a.name === 'eps').text,
    '1e-10',
  );
  assert.deepEqual(
    lab.optimizers.map((o) => o.className),
    ['SGD', 'Adam', 'AdamW', 'Adagrad', 'RMSprop', 'SparseAdam'],
  );
  assert.deepEqual(
    lab.rowCauses.map((c) => c.text),
    ['in the batch', 'weight decay', 'momentum', 'optimizer state', 'the tied head'],
  );
  assert.ok(Object.isFrozen(lab.optimizers) && Object.isFrozen(lab.optimizers[0].arguments));
});

test('training: hyperparameters of the wrong type, or unknown, are errors of that hyperparameter', () => {
  const check = (optimizer, pattern, argument) =>
    assertThrowsEmbedlab(
      EmbedlabError,
      () => lab.checkTraining(6, 3, { optimizer }),
      pattern,
      argument,
    );
  check(
    { name: 'sgd', lr: '0.1' },
    /^checkTraining: optimizer\.lr must be a number, got the string "0\.1"$/,
    'lr',
  );
  check({ name: 'adam', amsgrad: 1 }, /optimizer\.amsgrad must be true or false/, 'amsgrad');
  check(
    { name: 'adam', betas: [0.9] },
    /optimizer\.betas must be two numbers \[beta1, beta2\]/,
    'betas',
  );
  check(
    { name: 'sgd', foo: 1 },
    /^checkTraining: optimizer has no key 'foo': its keys are name, lr, momentum, /,
    'optimizer',
  );
  check({ name: 'sgd', ids: 1 }, /optimizer has no key 'ids'/, 'optimizer');
  check({ name: 'adam', momentum: 0.9 }, /^torch\.optim\.Adam takes no momentum/, 'momentum');
  check({ lr: 0.1 }, /optimizer\.name must be a string, got undefined/, 'optimizer');
  assert.equal(
    lab.optimizerCode({ name: 'sgd', momentum: 0.9, nesterov: null }),
    'torch.optim.SGD(params, lr=0.1, momentum=0.9)',
  );
});

test('training: a table too large to train is refused before it is copied in', () => {
  assertThrowsEmbedlab(
    EmbedlabError,
    () =>
      lab.tableTraining(
        { rows: 2 ** 20, cols: 64, data: new Float32Array(0) },
        { optimizer: { name: 'sgd' } },
      ),
    /^training a \(V x d\) = \(1048576 x 64\) table holds 12 matrices/,
    'vocab',
  );
  assertThrowsEmbedlab(
    EmbedlabError,
    () => lab.parseBatches('1; 9007199254740993'),
    /^batch 2: token 1 is 9007199254740993: ids above 2\^53/,
    'ids',
  );
});

test('training: steps are counted, a refused batch changes nothing, and delete() ends it', () => {
  const training = lab.seededTraining(123, 6, 3, { optimizer: { name: 'sgd', momentum: 0.9 } });
  assert.equal(training.steps, 0);
  const first = training.step([1, 2]);
  assert.equal(training.steps, 1);
  assertThrowsEmbedlab(
    EmbedlabError,
    () => training.step([1, 6]),
    /index out of range in self: id 6/,
    'ids',
  );
  assert.equal(training.steps, 1);
  const again = lab.seededTraining(123, 6, 3, { optimizer: { name: 'sgd', momentum: 0.9 } });
  again.step([1, 2]);
  assert.deepEqual(
    training.step([3, 3]).upstream,
    again.step([3, 3]).upstream,
    'the refused batch drew no G',
  );
  assert.deepEqual(
    training.rowState(1).state.map((s) => s.name),
    ['momentum_buffer'],
  );
  assert.equal(first.linearChanged.length, 2);
  training.delete();
  again.delete();
  assertThrowsEmbedlab(EmbedlabError, () => training.step([1]), /step\(\) after delete\(\)/, null);
  assertThrowsEmbedlab(EmbedlabError, () => training.rowState(7), /after delete/, null);
});
