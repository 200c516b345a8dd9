// Every options object of the API refuses what it does not know, as Python refuses an unexpected
// keyword argument: an unknown key names itself, the keys the object takes and, for PyTorch's
// spelling or a slip, the key meant; every value is checked for its type and range; and every
// key each object takes is still taken (a full object runs, and changes the result).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { assertThrowsEmbedlab, importEmbedlab } from './harness.mjs';

const { loadEmbedlab, EmbedlabError } = await importEmbedlab();
const lab = await loadEmbedlab();

const throws = (f, pattern, argument = null) =>
  assertThrowsEmbedlab(EmbedlabError, f, pattern, argument);
const matrix = (rows, cols, values) => ({ rows, cols, data: Float32Array.from(values) });
const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// The whole message for an unknown key, as one pattern.
const unknownKey = (where, label, key, meant, keys) =>
  new RegExp(
    `^${escaped(
      `${where}: ${label} has no key '${key}'` +
        (meant ? ` (did you mean '${meant}'?)` : '') +
        `: its keys are ${keys}`,
    )}$`,
  );

function withTable(f) {
  const table = lab.openSeededTable(123, 6, 3);
  try {
    return f(table);
  } finally {
    table.delete();
  }
}

const IDS = [2, 3, 1, 3];
const G = matrix(4, 3, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);

test("the issue's three: PyTorch's padding_idx, a lower-case blockrows, a misspelt precision", () => {
  withTable((table) => {
    throws(
      () => table.backward(IDS, G, { padding_idx: 1 }),
      unknownKey(
        'backward',
        'options',
        'padding_idx',
        'paddingIdx',
        'paddingIdx and scaleGradByFreq',
      ),
      'padding_idx',
    );
    throws(
      () => table.product(IDS, { blockrows: 512 }),
      unknownKey(
        'product',
        'options',
        'blockrows',
        'blockRows',
        'blockRows, heatmap and onProgress',
      ),
    );
    throws(
      () => lab.formatTensor(table.rowsAt(0, 2), { precison: 2 }),
      unknownKey('formatTensor', 'options', 'precison', null, 'header, suffixes and integer'),
    );
    throws(
      () => table.product(IDS, { blockRows: -1 }),
      /^product: blockRows must be a whole number, 0 or more, got number -1$/,
    );
  });
});

test('every options object of a table refuses an unknown key, and says which was meant', () => {
  withTable((table) => {
    const forward = table.embeddingBag(IDS, [0, 2]);
    // [method, call, the unknown key, the key meant or null, the argument the error is about]
    const cases = [
      [
        'startProduct',
        () => table.startProduct(IDS, { block_rows: 512 }),
        'block_rows',
        'blockRows',
        null,
      ],
      [
        'startProduct',
        () => table.startProduct(IDS, { onProgress: () => {} }),
        'onProgress',
        null,
        null,
      ],
      [
        'heatmap',
        () => table.heatmap({ heatMap: { rows: 2, cols: 2 } }),
        'heatMap',
        'heatmap',
        null,
      ],
      ['startHeatmap', () => table.startHeatmap({ BlockRows: 0 }), 'BlockRows', 'blockRows', null],
      [
        'embeddingBag',
        () => table.embeddingBag(IDS, [0], { include_last_offset: true }),
        'include_last_offset',
        'includeLastOffset',
        null,
      ],
      [
        'bagMatrix',
        () => table.bagMatrix(IDS, [0], { per_sample_weights: [1, 1, 1, 1] }),
        'per_sample_weights',
        'perSampleWeights',
        'per_sample_weights',
      ],
      [
        'startBagProduct',
        () => table.startBagProduct(IDS, [0], { modes: 'sum' }),
        'modes',
        'mode',
        'mode',
      ],
      [
        'startBackward',
        () => table.startBackward(IDS, G, { scale_grad_by_freq: true }),
        'scale_grad_by_freq',
        'scaleGradByFreq',
        null,
      ],
      [
        'bagBackward',
        () =>
          table.bagBackward(IDS, [0, 2], matrix(2, 3, [1, 2, 3, 4, 5, 6]), forward, {
            paddingIndex: 1,
          }),
        'paddingIndex',
        'paddingIdx',
        'padding_idx',
      ],
      [
        'formatElements',
        () => lab.formatElements([1.5], [1.5], { integers: true }),
        'integers',
        'integer',
        null,
      ],
    ];
    for (const [where, f, key, meant, argument] of cases) {
      const hint = meant ? escaped(` (did you mean '${meant}'?)`) : '';
      throws(
        f,
        new RegExp(`^${where}: options has no key '${key}'${hint}: its keys are `),
        argument,
      );
    }
    // The second options object of a method, and one inside another, are named as such.
    throws(
      () => table.backward(IDS, G, {}, { keep_rows: [0] }),
      unknownKey(
        'backward',
        'view',
        'keep_rows',
        'keepRows',
        'whole, keepRows, blockRows, heatmap and onProgress',
      ),
    );
    throws(
      () => table.startBackward(IDS, G, {}, { onProgress: null, whole: true }),
      /^startBackward: view has no key 'onProgress': its keys are whole, keepRows, blockRows and heatmap$/,
    );
    throws(
      () => table.bagProduct(IDS, [0], {}, { blockRow: 512 }),
      unknownKey(
        'bagProduct',
        'streamOptions',
        'blockRow',
        'blockRows',
        'blockRows, heatmap and onProgress',
      ),
    );
    throws(
      () => table.startProduct(IDS, { heatmap: { row: 2, cols: 2 } }),
      unknownKey('startProduct', 'heatmap', 'row', 'rows', 'rows and cols'),
    );
  });
});

test('every value is checked for its type and range before anything runs', () => {
  withTable((table) => {
    const bad = [
      [
        () => table.startProduct(IDS, { blockRows: 1.5 }),
        /^startProduct: blockRows must be a whole number, 0 or more, got number 1\.5$/,
      ],
      [
        () => table.product(IDS, { blockRows: '512' }),
        /^product: blockRows must be a whole number, 0 or more, got the string "512"$/,
      ],
      [
        () => table.product(IDS, { heatmap: { rows: -2, cols: 4 } }),
        /^product: heatmap\.rows must be a whole number, 0 or more, got number -2$/,
      ],
      [
        () => table.product(IDS, { heatmap: [2, 2] }),
        /^product: heatmap must be an object, got an Array$/,
      ],
      [
        () => table.product(IDS, { onProgress: true }),
        /^product: onProgress must be a function, got boolean true$/,
      ],
      [
        () => table.heatmap({ heatmap: { rows: 2, cols: Infinity } }),
        /^heatmap: heatmap\.cols must be a whole number, 0 or more, got number Infinity$/,
      ],
      [
        () => table.startBackward(IDS, G, { paddingIdx: 0.5 }),
        /^startBackward: paddingIdx must be a whole number, got number 0\.5$/,
        'padding_idx',
      ],
      [
        () => table.backward(IDS, G, { scaleGradByFreq: 1 }),
        /^backward: scaleGradByFreq must be true or false, got number 1$/,
      ],
      [
        () => table.backward(IDS, G, {}, { whole: 'yes' }),
        /^backward: view\.whole must be true or false, got the string "yes"$/,
      ],
      [
        () => table.backward(IDS, G, {}, { keepRows: [0, -1] }),
        /^backward: view\.keepRows must be an array of whole numbers, 0 or more, got an Array$/,
      ],
      [
        () => table.backward(IDS, G, {}, { blockRows: -512 }),
        /^backward: view\.blockRows must be a whole number, 0 or more, got number -512$/,
      ],
      [
        () => table.embeddingBag(IDS, [0], { mode: 2 }),
        /^embeddingBag: mode must be a string, got number 2$/,
        'mode',
      ],
      [
        () => table.embeddingBag(IDS, [0], { includeLastOffset: 'no' }),
        /^embeddingBag: includeLastOffset must be true or false/,
      ],
      [
        () => table.bagProduct(IDS, [0], {}, { blockRows: -1 }),
        /^bagProduct: streamOptions\.blockRows must be a whole number, 0 or more, got number -1$/,
      ],
      [
        () => lab.formatTensor(matrix(1, 1, [1]), { integer: 'true' }),
        /^formatTensor: integer must be true or false, got the string "true"$/,
      ],
      [
        () => lab.formatElements([1], [1], 'integer'),
        /^formatElements: options must be an object, got the string "integer"$/,
      ],
    ];
    for (const [f, pattern, argument = null] of bad) throws(f, pattern, argument);
    // What the core checks against the table, in its words.
    throws(
      () => table.backward(IDS, G, {}, { keepRows: [6] }),
      /^a row to keep must lie in \[0, V\) = \[0, 6\), got 6$/,
      'grad',
    );
    throws(
      () => table.backward(IDS, G, { paddingIdx: 6 }),
      /^padding_idx = 6 is outside the vocabulary: it must lie in \[-6, 5\] for V = 6$/,
      'padding_idx',
    );
  });
});

test('every key each object takes is still taken, and null or a key left out is its default', () => {
  withTable((table) => {
    let reports = 0;
    const full = table.product(IDS, {
      blockRows: 512,
      heatmap: { rows: 2, cols: 3 },
      onProgress: () => void ++reports,
    });
    assert.equal(reports, 1);
    assert.deepEqual([full.heatmap.rows, full.heatmap.cols], [2, 3]);
    assert.equal(
      table.product(IDS, { blockRows: null, heatmap: null, onProgress: null }).heatmap,
      null,
    );
    assert.equal(table.heatmap({ heatmap: { rows: 3 } }).heatmap, null, 'cols 0: no heatmap');
    const plain = table.backward(IDS, G);
    const given = table.backward(
      IDS,
      G,
      { paddingIdx: -3, scaleGradByFreq: true },
      {
        whole: false,
        keepRows: [5],
        blockRows: 0,
        heatmap: { rows: 2, cols: 2 },
        onProgress: null,
      },
    );
    assert.equal(given.gemm.whole, null, 'whole: false');
    assert.deepEqual(Array.from(given.gemm.kept), [1, 2, 3, 5]);
    assert.deepEqual([given.gemm.heatmap.rows, given.gemm.heatmap.cols], [2, 2]);
    // padding_idx = -3 is row 3: no gradient, where the plain backward gives it G[1] + G[3].
    assert.deepEqual(Array.from(given.scatter.keptRows.data.slice(6, 9)), [0, 0, 0]);
    assert.deepEqual(Array.from(plain.scatter.whole.data.slice(9, 12)), [14, 16, 18]);
    const bags = table.embeddingBag(IDS, [0, 2, 4], {
      mode: 'sum',
      includeLastOffset: true,
      paddingIdx: null,
      perSampleWeights: [1, 2, 3, 4],
      scaleGradByFreq: false,
    });
    assert.equal(bags.output.rows, 2, 'includeLastOffset: 3 offsets, 2 bags');
    assert.equal(
      lab.formatTensor(matrix(1, 2, [1, 0]), { header: 'h\n', suffixes: ['s'], integer: true }),
      'h\ntensor([[1, 0]], s)',
    );
    assert.deepEqual(lab.formatElements([2], [2], { integer: true }), ['2']);
    assert.deepEqual(lab.formatElements([2], [2], null), ['2.']);
  });
});

test('the head, the trainings and the optimizer refuse unknown keys too', () => {
  const positions = lab.openSeededPositions(0, 6, 3, 4);
  try {
    throws(
      () => positions.head('1,2', { top_k: 3 }),
      unknownKey('head', 'options', 'top_k', 'topK', 'topK'),
      'ids',
    );
    throws(
      () => positions.head('1,2', { topK: -1 }),
      /^head: topK must be a whole number, 0 or more, got number -1$/,
      'ids',
    );
    throws(
      () => positions.head('1,2', { topK: 7 }),
      /^top-k must be between 0 and V = 6, got 7$/,
      'ids',
    );
    assert.equal(positions.head('1,2', { topK: 2 }).top[0].length, 2);
  } finally {
    positions.delete();
  }
  const sgd = { name: 'sgd' };
  throws(
    () => lab.checkTraining(6, 3, { optimizer: sgd, padding_idx: 1 }),
    unknownKey(
      'checkTraining',
      'options',
      'padding_idx',
      'paddingIdx',
      'optimizer, sparse and paddingIdx',
    ),
    'padding_idx',
  );
  throws(
    () => lab.seededTraining(1, 6, 3, { optimizer: sgd, Sparse: true }),
    /^seededTraining: options has no key 'Sparse' \(did you mean 'sparse'\?\)/,
  );
  throws(
    () => lab.tableTraining(matrix(2, 2, [1, 2, 3, 4]), { optimizer: sgd, grad_seed: 5 }),
    unknownKey(
      'tableTraining',
      'options',
      'grad_seed',
      'gradSeed',
      'optimizer, sparse, paddingIdx and gradSeed',
    ),
    'grad',
  );
  throws(
    () => lab.tableTraining(matrix(2, 2, [1, 2, 3, 4]), { optimizer: sgd, gradSeed: 0.5 }),
    /^tableTraining: gradSeed must be a whole number, got number 0\.5$/,
    'grad',
  );
  throws(
    () => lab.seededNextTokenTraining(1, 6, 3, { optimizer: sgd, tied: true }),
    unknownKey('seededNextTokenTraining', 'options', 'tied', null, 'head and optimizer'),
  );
  throws(
    () => lab.seededNextTokenTraining(1, 6, 3, { optimizer: sgd, head: true }),
    /^seededNextTokenTraining: head must be a string, got boolean true$/,
    'weights',
  );
  // An optimizer's hyperparameters are torch.optim's names: weightDecay is weight_decay.
  throws(
    () => lab.optimizerCode({ name: 'sgd', weightDecay: 0.1 }),
    /^optimizerCode: optimizer has no key 'weightDecay' \(did you mean 'weight_decay'\?\): its keys are name, lr, /,
    'weight_decay',
  );
  throws(
    () => lab.checkTraining(6, 3, { optimizer: 'sgd' }),
    /^checkTraining: optimizer must be an object, got the string "sgd"$/,
    'optimizer',
  );
  throws(
    () => lab.checkTraining(6, 3, {}),
    /^checkTraining: optimizer\.name must be a string, got undefined$/,
    'optimizer',
  );
  assert.equal(
    lab.optimizerCode({ name: 'sgd', lr: 0.5, weight_decay: 0.1, momentum: undefined }),
    'torch.optim.SGD(params, lr=0.5, weight_decay=0.1)',
  );
  const training = lab.tableTraining(matrix(2, 2, [1, 2, 3, 4]), {
    optimizer: sgd,
    sparse: true,
    paddingIdx: 1,
    gradSeed: 7,
  });
  assert.equal(training.paddingRow, 1);
  training.delete();
});

test('loadEmbedlab refuses options it does not know, on every call', async () => {
  await assert.rejects(loadEmbedlab({ wasmUrl: 'x.wasm' }), (error) => {
    assert.ok(error instanceof EmbedlabError);
    assert.match(
      error.message,
      /^loadEmbedlab: options has no key 'wasmUrl' \(did you mean 'wasmURL'\?\): its keys are wasmURL, deferredURL, locateFile, wasmBinary, deferredBinary, wasmModule, deferredModule and early$/,
    );
    return true;
  });
  await assert.rejects(loadEmbedlab({ early: 'yes' }), /loadEmbedlab: early must be true or false/);
  await assert.rejects(
    loadEmbedlab('early'),
    /^EmbedlabError: loadEmbedlab: options must be an object/,
  );
  await assert.rejects(
    loadEmbedlab({ wasmBinary: 'x' }),
    /wasmBinary must be an ArrayBuffer or a Uint8Array/,
  );
  await assert.rejects(
    loadEmbedlab({ deferredModule: new Uint8Array(8) }),
    /deferredModule must be a WebAssembly.Module, got/,
  );
  assert.equal(await loadEmbedlab({ early: true }), lab, 'a good call still shares the instance');
});
