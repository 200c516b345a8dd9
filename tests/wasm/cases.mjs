// The cases that the native core and the WASM module must answer identically: each is
// [name, [jsFunction, ...args]], or [name, ['table.method', ...args]] for a method of a table
// handle opened on the arguments (harness.mjs). Random ones come from a fixed-seed generator, so
// every run checks the same cases.

// mulberry32: a tiny deterministic generator, independent of the code under test.
export function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const randomInt = (rng, lo, hi) => lo + Math.floor(rng() * (hi - lo + 1));
const ids = (rng, n, vocab) => Array.from({ length: n }, () => randomInt(rng, 0, vocab - 1));

function matrix(rows, cols, values) {
  return { rows, cols, data: Float32Array.from(values) };
}

function randomMatrix(rng, rows, cols) {
  return matrix(
    rows,
    cols,
    Array.from({ length: rows * cols }, () => (rng() - 0.5) * 8),
  );
}

// F.one_hot(ids, vocab).float(), as the page prints it.
function oneHotMatrix(idList, vocab) {
  const m = { rows: idList.length, cols: vocab, data: new Float32Array(idList.length * vocab) };
  idList.forEach((id, k) => {
    m.data[k * vocab + id] = 1;
  });
  return m;
}

// A .npy file: version 1.0 header (padded so the data starts at a multiple of 64) + payload.
function npy(descr, shapeText, payload, { fortran = false } = {}) {
  let header =
    `{'descr': '${descr}', 'fortran_order': ${fortran ? 'True' : 'False'}, ` +
    `'shape': ${shapeText}, }`;
  header += ' '.repeat((64 - ((10 + header.length + 1) % 64)) % 64) + '\n';
  const bytes = new Uint8Array(10 + header.length + payload.length);
  bytes.set([0x93, ...Buffer.from('NUMPY'), 1, 0, header.length & 0xff, header.length >> 8]);
  bytes.set(Buffer.from(header, 'latin1'), 10);
  bytes.set(payload, 10 + header.length);
  return bytes;
}

const f4 = (values) => new Uint8Array(Float32Array.from(values).buffer);
const f8 = (values) => new Uint8Array(Float64Array.from(values).buffer);

// A matrix as the .npy file of its float32 bits: how a given W becomes a table handle.
export const npyOf = (m) =>
  npy(
    '<f4',
    `(${m.rows}, ${m.cols})`,
    new Uint8Array(m.data.buffer, m.data.byteOffset, m.data.byteLength),
  );

// np.save of float32 [[0.5, -1.25, 3], [1e-3, -0.0, 65504]] and of that times 1.1 in float64,
// written by numpy itself.
export const numpyF4 = Buffer.from(
  '934e554d5059010076007b276465736372273a20273c6634272c2027666f727472616e5f6f72646572273a20' +
    '46616c73652c20277368617065273a2028322c2033292c207d20202020202020202020202020202020202020' +
    '2020202020202020202020202020202020202020202020202020202020202020202020202020200a0000003f' +
    '0000a0bf000040406f12833a0000008000e07f47',
  'hex',
);
export const numpyF8 = Buffer.from(
  '934e554d5059010076007b276465736372273a20273c6638272c2027666f727472616e5f6f72646572273a20' +
    '46616c73652c20277368617065273a2028322c2033292c207d20202020202020202020202020202020202020' +
    '2020202020202020202020202020202020202020202020202020202020202020202020202020200a9a999999' +
    '9999e13f000000000000f6bf6766666666660a4000000010bc05523f0000000000000080676666666697f140',
  'hex',
);

// A .safetensors file: 8 little-endian bytes giving N, the header's N bytes (the JSON as given,
// valid or not, padded with spaces to a multiple of 8 as the safetensors library pads it), then
// the data section.
export function safetensorsFile(json, data = new Uint8Array(0)) {
  const text = Buffer.from(json + ' '.repeat((8 - (Buffer.byteLength(json) % 8)) % 8));
  const file = new Uint8Array(8 + text.length + data.length);
  new DataView(file.buffer).setBigUint64(0, BigInt(text.length), true);
  file.set(text, 8);
  file.set(data, 8 + text.length);
  return file;
}

// tensors: [[name, dtype, shape, bytes]], their bytes in this order in the data section.
export function safetensors(tensors, metadata = null) {
  const header = {};
  let offset = 0;
  for (const [name, dtype, shape, bytes] of tensors) {
    header[name] = { dtype, shape, data_offsets: [offset, offset + bytes.length] };
    offset += bytes.length;
  }
  if (metadata) header.__metadata__ = metadata;
  return safetensorsFile(JSON.stringify(header), Buffer.concat(tensors.map((t) => t[3])));
}

// A GGUF file, version 3: metadata [[key, string value]], tensors [[name, ggml type id, [cols,
// rows], bytes]], each tensor's bytes at a multiple of 32 of the data section.
export function gguf(tensors, metadata = []) {
  const parts = [];
  const u32 = (x) => parts.push(new Uint8Array(new Uint32Array([x]).buffer));
  const u64 = (x) => parts.push(new Uint8Array(new BigUint64Array([BigInt(x)]).buffer));
  const str = (s) => {
    const bytes = Buffer.from(s, 'utf8');
    u64(bytes.length);
    parts.push(bytes);
  };
  parts.push(Buffer.from('GGUF'));
  u32(3);
  u64(tensors.length);
  u64(metadata.length);
  for (const [key, value] of metadata) {
    str(key);
    u32(8);
    str(value);
  }
  let offset = 0;
  const data = [];
  for (const [name, type, ne, bytes] of tensors) {
    const pad = (32 - (offset % 32)) % 32;
    data.push(new Uint8Array(pad), bytes);
    offset += pad;
    str(name);
    u32(ne.length);
    ne.forEach(u64);
    u32(type);
    u64(offset);
    offset += bytes.length;
  }
  const head = Buffer.concat(parts);
  return Buffer.concat([head, new Uint8Array((32 - (head.length % 32)) % 32), ...data]);
}

// The first 8 + N bytes of a .safetensors file: its header, as a reader reads it.
export function headerOf(file) {
  return file.subarray(
    0,
    8 + Number(new DataView(file.buffer, file.byteOffset).getBigUint64(0, true)),
  );
}

const u2 = (values) => new Uint8Array(Uint16Array.from(values).buffer);

// Values whose bits a lookup must copy untouched and a product may not: -0, Inf, NaN, subnormal.
const special = matrix(4, 3, [-0, 1, Infinity, -Infinity, NaN, 2.5e-42, 1e30, -1e-30, 0, 3, -0, 7]);

export function differentialCases() {
  const rng = generator(20240611);
  const cases = [];
  const add = (name, call) => cases.push([name, call]);

  // Seeded tables, each whole and looked up: the notebooks' seed, seeds that wrap, and sizes on
  // both sides of 16 elements (below 16, normal_ takes PyTorch's serial path).
  add('openSeededTable, the notebook', ['openSeededTable', 123, 4, 5, [2, 3, 1]]);
  for (const seed of [0, 1, 42, -1, -123456789, 2 ** 32 + 5, 2 ** 40 + 3, 2 ** 53 - 1]) {
    add(`seed ${seed}, 3 x 7`, ['openSeededTable', seed, 3, 7, [2, 0]]);
  }
  for (const [v, d] of [
    [1, 1],
    [3, 5],
    [1, 15],
    [2, 8],
    [4, 4],
    [1, 17],
    [16, 1],
    [5, 3],
    [7, 9],
    [100, 37],
    [1000, 64],
    [2, 8192],
  ]) {
    add(`seed 7, ${v} x ${d}`, ['openSeededTable', 7, v, d, [v - 1]]);
  }
  for (let i = 0; i < 24; ++i) {
    const seed = randomInt(rng, -1e9, 1e9);
    const v = randomInt(rng, 1, i % 3 === 0 ? 5 : 300);
    const d = randomInt(rng, 1, i % 3 === 0 ? 3 : 40);
    add(`random seed ${seed}, ${v} x ${d}`, ['openSeededTable', seed, v, d, [0]]);
  }
  for (const [seed, r, c] of [
    [0, 1, 1],
    [123, 3, 4],
    [5, 4, 4],
    [99, 31, 33],
  ]) {
    add(`randn seed ${seed}, ${r} x ${c}`, ['randn', seed, r, c]);
  }
  for (const [seed, inF, outF, bias] of [
    [123, 4, 5, true],
    [123, 4, 5, false],
    [1, 1, 1, true],
    [-7, 50, 3, true],
    [2 ** 33, 3, 17, false],
  ]) {
    add(`linearInit seed ${seed}, ${inF} -> ${outF}, bias ${bias}`, [
      'linearInit',
      seed,
      inF,
      outF,
      bias,
    ]);
  }
  for (const [v, d] of [
    [4, 5],
    [1, 1],
    [100, 3],
    [1000, 8],
  ])
    add(`openTfTable ${v} x ${d}`, ['openTfTable', v, d, [v - 1, 0]]);

  // Lookups and one-hot products on random tables, and on special values.
  for (let i = 0; i < 12; ++i) {
    const v = randomInt(rng, 1, 60);
    const d = randomInt(rng, 1, 20);
    const W = randomMatrix(rng, v, d);
    const idList = ids(rng, randomInt(rng, 1, 25), v);
    add(`both routes ${v} x ${d}, ${idList.length} ids`, ['openNpyTable', npyOf(W), idList]);
  }
  const specialIds = [3, 0, 1, 2, 2];
  add('compare a lookup with the product over special values', [
    'compare',
    matrix(5, 3, [
      0,
      3,
      -0,
      -0,
      1,
      Infinity,
      -Infinity,
      NaN,
      2.5e-42,
      1e30,
      -1e-30,
      0,
      1e30,
      -1e-30,
      0,
    ]),
    matrix(5, 3, [0, 3, 0, 0, 1, NaN, NaN, NaN, 2.5e-42, 1e30, -1e-30, 0, 1e30, -1e-30, 0]),
  ]);
  add('both routes over -0, Inf, NaN and subnormals', ['openNpyTable', npyOf(special), specialIds]);
  add('both routes with an id out of range', ['openNpyTable', npyOf(special), [0, 4]]);
  add('compare equal matrices', ['compare', special, special]);
  add("compare with the backward pair's reasons", [
    'compare',
    matrix(1, 3, [1, 2, 3]),
    matrix(1, 3, [1, 2, NaN]),
    'backward',
  ]);
  add("compare with the bag pair's reasons", [
    'compare',
    matrix(1, 2, [-0, 1]),
    matrix(1, 2, [0, 1]),
    'bag',
  ]);
  add("compare with the training pair's reasons", [
    'compare',
    matrix(1, 2, [1, 1 + 2 ** -23]),
    matrix(1, 2, [1, 1]),
    'training',
  ]);
  add('compare with a pair that does not exist', [
    'compare',
    matrix(1, 1, [1]),
    matrix(1, 1, [1]),
    'forward',
  ]);
  add('formatElements in the notation of other values', [
    'formatElements',
    [1e-5, 0.5],
    [0.25, -0.0, NaN],
    {},
  ]);
  add('formatElements of integer tensors', [
    'formatElements',
    [0, 1],
    [1, 0, 3],
    { integer: true },
  ]);
  add('formatElements of ties and integral values', [
    'formatElements',
    [0.03125, 2.5, 0.09375],
    [0.03125, 2.5, 0.09375],
    {},
  ]);
  add('compare values that differ', [
    'compare',
    matrix(1, 3, [1, 2, 3]),
    matrix(1, 3, [1, 2.5, -3]),
  ]);
  add('compare different shapes', [
    'compare',
    matrix(2, 3, [1, 2, 3, 4, 5, 6]),
    matrix(3, 2, [1, 2, 3, 4, 5, 6]),
  ]);

  // PyTorch-style printing.
  add('formatTensor plain', ['formatTensor', randomMatrix(rng, 3, 4), {}]);
  add('formatTensor with header and suffix', [
    'formatTensor',
    randomMatrix(rng, 4, 5),
    { header: 'Parameter containing:\n', suffixes: ['requires_grad=True'] },
  ]);
  add('formatTensor two suffixes', [
    'formatTensor',
    randomMatrix(rng, 2, 2),
    { suffixes: ['grad_fn=<MmBackward0>', 'dtype=torch.float64'] },
  ]);
  add('formatTensor integer one-hot', [
    'formatTensor',
    oneHotMatrix([2, 3, 1], 4),
    { integer: true },
  ]);
  add('formatTensor summarised (> 1000 elements)', ['formatTensor', randomMatrix(rng, 50, 40), {}]);
  add('formatTensor wide rows wrap at 80 columns', ['formatTensor', randomMatrix(rng, 2, 30), {}]);
  add('formatTensor scientific notation', [
    'formatTensor',
    matrix(2, 2, [1e-5, 123.5, 3e8, -2]),
    {},
  ]);
  add('formatTensor integer-valued floats', ['formatTensor', matrix(1, 3, [1, 0, -2]), {}]);
  add('formatTensor nan and inf', ['formatTensor', special, {}]);
  add('formatTensor tf table', [
    'formatTensor',
    { rows: 3, cols: 2, data: new Float32Array([0, 0, 0.11, 0.11, 0.22, 0.22]) },
    {},
  ]);
  add('formatTensor an empty matrix', ['formatTensor', matrix(0, 3, []), {}]);
  add('formatTensor one element', ['formatTensor', matrix(1, 1, [-0.5]), {}]);

  // Ids as people type them, valid and not.
  for (const text of [
    '2, 3, 1',
    '[2,3,1]',
    'tensor([2, 3, 1])',
    'torch.tensor([0])',
    ' 7\n8\t9 ',
    '2 3 1',
    '0, 00012, 4',
    '[1, 2, 3,]',
    '2, x',
    '-1',
    '',
    '   ',
    '[2,3',
    '2,,3',
    '(1, 2]',
    'tensor([1, ...])',
    '1.5',
    '2，3',
    'foo(1)',
    '[[1, 2]]',
    '99999999999999999999',
    '1) 2',
    'tensor([1]) 2',
    '1e3',
    '-0',
    '0,'.repeat(65537),
    '5 '.repeat(65536),
  ]) {
    const shown = text.length > 30 ? `${text.slice(0, 12)}... (${text.length} characters)` : text;
    add(`parseIds ${JSON.stringify(shown)}`, ['parseIds', text]);
  }
  add('defaultVocab [2, 3, 1]', ['defaultVocab', [2, 3, 1]]);
  add('defaultVocab over the V limit', ['defaultVocab', [3, 2 ** 20]]);
  // per_sample_weights as typed, valid and not.
  for (const text of [
    '1, 0.5, 2',
    '[1,2e-3, -4]',
    '',
    '  ',
    '1, y, 3',
    '1 inf',
    ',,',
    '0x10',
    '1 '.repeat(65537),
  ]) {
    const shown = text.length > 30 ? `${text.slice(0, 6)}... (${text.length} characters)` : text;
    add(`parseSampleWeights ${JSON.stringify(shown)}`, ['parseSampleWeights', text]);
  }
  // Every size a request makes, checked before anything is made.
  add('checkSizes within the limits', ['checkSizes', 3, 50257, 768]);
  add('checkIdCount at the limit', ['checkIdCount', 65536]);
  add('checkIdCount over the limit', ['checkIdCount', 65537]);
  // padding_idx in [-V, V), counted from the end when negative.
  for (const p of [0, 3, -1, -4, 4, -5, 2 ** 53]) {
    add(`checkPaddingIdx ${p} for V = 4`, ['checkPaddingIdx', p, 4]);
  }
  add('checkSizes V over the limit', ['checkSizes', 3, 2 ** 22 + 1, 5]);
  add('checkSizes default V over the limit', ['checkSizes', 3, 2 ** 22 + 1, 5, true]);
  add('checkSizes table too large from the ids', ['checkSizes', 3, 200000, 2048, true]);
  add('checkSizes d over the limit', ['checkSizes', 3, 10, 2 ** 16 + 1]);
  add('checkSizes table held whole too large', ['checkSizes', 3, 2 ** 20, 65]);
  add('checkSizes a one-hot larger than memory holds: streamed', ['checkSizes', 65536, 2 ** 20, 1]);
  add("checkSizes a file's table larger than memory holds", [
    'checkSizes',
    3,
    128256,
    16384,
    false,
    false,
  ]);
  add("checkSizes no ids into a file's table", ['checkSizes', 0, 128256, 16384, false, false]);
  add('checkSizes result too large', ['checkSizes', 65536, 4, 8192]);
  add('checkSizes no ids', ['checkSizes', 0, 4, 5]);
  add('defaultVocab [0]', ['defaultVocab', [0]]);
  add('defaultVocab []', ['defaultVocab', []]);
  add('defaultVocab with a negative id', ['defaultVocab', [4, -1, 3]]);
  add('checkIds in range', ['checkIds', [2, 3, 1], 4]);
  add('checkIds id = V', ['checkIds', [2, 3, 4], 4]);
  add('checkIds negative id', ['checkIds', [0, -1], 4]);
  add('checkIds V = 0', ['checkIds', [0], 0]);
  add('checkIds V negative', ['checkIds', [0], -5]);
  const W45 = npyOf(randomMatrix(rng, 4, 5));
  add('lookup 65536 ids (the limit)', [
    'openNpyTable',
    npyOf(matrix(2, 1, [1.5, -2])),
    new Array(65536).fill(1),
  ]);
  add('lookup no ids', ['openNpyTable', W45, []]);
  add('lookup on an empty table', ['openNpyTable', npyOf(matrix(0, 5, [])), [0]]);

  // Shapes over the limits, or not positive.
  for (const [v, d] of [
    [0, 5],
    [5, 0],
    [-1, 5],
    [2 ** 22 + 1, 1],
    [1, 2 ** 16 + 1],
    [2 ** 20, 65],
    [8192, 8193],
    [1e15, 1],
  ]) {
    add(`openSeededTable ${v} x ${d}`, ['openSeededTable', 1, v, d, [0]]);
    add(`openTfTable ${v} x ${d}`, ['openTfTable', v, d, [0]]);
  }
  add('linearInit over the limits', ['linearInit', 1, 2 ** 22 + 1, 4, true]);
  add('linearInit 0 inputs', ['linearInit', 1, 0, 4, true]);
  add('randn 0 x 5', ['randn', 1, 0, 5]);
  add('randn over the element limit', ['randn', 1, 2 ** 14, 2 ** 13 + 1]);

  // Gradients on a (V, d) table: the scatter-add with repeated ids, padding_idx (also counted
  // from the end) and scale_grad_by_freq. The one-hot GEMM beside it only where no id repeats
  // more than twice (the last argument): a sum of three or more rows is added in the GEMM's own
  // blocked order, which differs between Eigen's native and WASM kernels (tables.test.mjs checks
  // those against the scatter-add to rounding).
  for (const [n, v, d] of [
    [3, 4, 5],
    [10, 4, 3],
    [40, 7, 9],
    [1, 1, 1],
    [64, 300, 17],
  ]) {
    const idList = ids(rng, n, v);
    const G = randomMatrix(rng, n, d);
    add(`backward ${n} ids, V = ${v}, d = ${d}`, ['table.backward', v, idList, G, {}, false]);
    add(`backward ${n} ids, padding and scaled`, [
      'table.backward',
      v,
      idList,
      G,
      { paddingIdx: idList[0], scaleGradByFreq: true },
      false,
    ]);
    add(`backward ${n} ids, padding -1`, [
      'table.backward',
      v,
      idList,
      G,
      { paddingIdx: -1 },
      false,
    ]);
    const twice = Array.from({ length: Math.min(n, 2 * v) }, (_, k) => (k * 5 + 3) % v);
    add(`backward and onehot^T G, ${twice.length} ids at most twice, V = ${v}, d = ${d}`, [
      'table.backward',
      v,
      twice,
      randomMatrix(rng, twice.length, d),
      {},
      true,
    ]);
  }
  const G35 = randomMatrix(rng, 3, 5);
  add('backward G rows != n', ['table.backward', 4, [0, 1], G35, {}, true]);
  add('backward id >= V', ['table.backward', 4, [0, 1, 4], G35, {}, true]);
  add('backward V over the limit', ['table.backward', 2 ** 22 + 1, [0, 1, 2], G35, {}, true]);

  // EmbeddingBag: every mode, offsets both ways, padding, per-sample weights, empty bags.
  const Wbag = npyOf(randomMatrix(rng, 10, 6));
  const bagIds = ids(rng, 12, 10);
  const weights = Array.from({ length: 12 }, () => rng() * 2 - 0.5);
  const Gbag = randomMatrix(rng, 4, 6);
  for (const mode of ['sum', 'mean', 'max']) {
    for (const [label, offsets, extra] of [
      ['4 bags', [0, 3, 3, 7], {}],
      ['include_last_offset', [0, 5, 5, 9, 12], { includeLastOffset: true }],
      ['padding_idx', [0, 2, 6, 10], { paddingIdx: bagIds[1] }],
      ['padding_idx -1 and scaled', [0, 2, 6, 10], { paddingIdx: -1, scaleGradByFreq: true }],
    ]) {
      const options = { mode, ...extra };
      add(`embeddingBag ${mode}, ${label}`, ['table.embeddingBag', Wbag, bagIds, offsets, options]);
      add(`bagBackward ${mode}, ${label}`, [
        'table.bagBackward',
        Wbag,
        bagIds,
        offsets,
        Gbag,
        options,
      ]);
      add(`bagMatrix ${mode}, ${label}`, ['table.bagMatrix', 10, bagIds, offsets, options]);
    }
  }
  const weighted = { mode: 'sum', perSampleWeights: weights };
  add('embeddingBag per-sample weights', [
    'table.embeddingBag',
    Wbag,
    bagIds,
    [0, 3, 3, 7],
    weighted,
  ]);
  add('embeddingBag per-sample weights and padding', [
    'table.embeddingBag',
    Wbag,
    bagIds,
    [0, 3, 3, 7],
    { ...weighted, paddingIdx: bagIds[0] },
  ]);
  add('bagBackward per-sample weights', [
    'table.bagBackward',
    Wbag,
    bagIds,
    [0, 3, 3, 7],
    Gbag,
    weighted,
  ]);
  add('bagMatrix per-sample weights', ['table.bagMatrix', 10, bagIds, [0, 3, 3, 7], weighted]);
  add('embeddingBag weights with mode mean', [
    'table.embeddingBag',
    Wbag,
    bagIds,
    [0],
    { mode: 'mean', perSampleWeights: weights },
  ]);
  add('embeddingBag too few weights', [
    'table.embeddingBag',
    Wbag,
    bagIds,
    [0],
    { mode: 'sum', perSampleWeights: weights.slice(1) },
  ]);
  add('embeddingBag offsets not from 0', ['table.embeddingBag', Wbag, bagIds, [1, 4], {}]);
  add('embeddingBag offsets decreasing', ['table.embeddingBag', Wbag, bagIds, [0, 5, 4], {}]);
  add('embeddingBag offset past the end', ['table.embeddingBag', Wbag, bagIds, [0, 13], {}]);
  add('embeddingBag no offsets', ['table.embeddingBag', Wbag, bagIds, [], {}]);
  add('embeddingBag last offset is not n', [
    'table.embeddingBag',
    Wbag,
    bagIds,
    [0, 5, 11],
    { includeLastOffset: true },
  ]);
  add('embeddingBag id >= V', ['table.embeddingBag', Wbag, [0, 10], [0], {}]);
  add('bagBackward G rows != bags', ['table.bagBackward', Wbag, bagIds, [0, 6], Gbag, {}]);
  add('bagMatrix B x V over the limit', [
    'table.bagMatrix',
    2 ** 20,
    [0, 0],
    [0, 1],
    { mode: 'sum' },
  ]);

  // max_norm: rows scaled in a new table, for several norms.
  const Wnorm = npyOf(randomMatrix(rng, 8, 13));
  for (const [maxNorm, normType] of [
    [1, 2],
    [3.5, 2],
    [100, 2],
    [2, 1],
    [1.5, Infinity],
    [2, 3],
    [1, 0.5],
  ]) {
    add(`renorm max_norm ${maxNorm}, norm ${normType}`, [
      'table.renorm',
      Wnorm,
      [5, 0, 5, 7, 2],
      maxNorm,
      normType,
    ]);
  }
  add('renorm max_norm 0', ['table.renorm', Wnorm, [1], 0, 2]);
  add('renorm norm_type -1', ['table.renorm', Wnorm, [1], 1, -1]);
  add('renorm id >= V', ['table.renorm', Wnorm, [8], 1, 2]);

  // .npy files, each opened as a table and read whole: numpy's own, hand-made valid ones, and
  // corrupt ones.
  add('npy written by numpy, float32', ['openNpyTable', new Uint8Array(numpyF4), [0]]);
  add('npy written by numpy, float64', ['openNpyTable', new Uint8Array(numpyF8), [0]]);
  const values = Array.from({ length: 12 }, () => (rng() - 0.5) * 100);
  add('npy <f4 3 x 4', ['openNpyTable', npy('<f4', '(3, 4)', f4(values)), [0]]);
  add('npy <f8 4 x 3', ['openNpyTable', npy('<f8', '(4, 3)', f8(values)), [0]]);
  add('npy <f8 value too large for float32', [
    'openNpyTable',
    npy('<f8', '(1, 2)', f8([1, 1e300])),
    [0],
  ]);
  add('npy <f4 NaN and Inf', ['openNpyTable', npy('<f4', '(1, 3)', f4([NaN, Infinity, -0])), [0]]);
  add('npy big-endian float32', ['openNpyTable', npy('>f4', '(1, 1)', f4([1])), [0]]);
  add('npy int64', ['openNpyTable', npy('<i8', '(1, 1)', f8([1])), [0]]);
  add('npy Fortran order', [
    'openNpyTable',
    npy('<f4', '(2, 2)', f4([1, 2, 3, 4]), { fortran: true }),
    [0],
  ]);
  add('npy 1-D', ['openNpyTable', npy('<f4', '(4,)', f4([1, 2, 3, 4])), [0]]);
  add('npy 3-D', ['openNpyTable', npy('<f4', '(1, 2, 2)', f4([1, 2, 3, 4])), [0]]);
  add('npy empty shape', ['openNpyTable', npy('<f4', '(0, 3)', f4([])), [0]]);
  add('npy truncated payload', ['openNpyTable', npy('<f4', '(2, 3)', f4([1, 2, 3, 4, 5])), [0]]);
  add('npy extra bytes', ['openNpyTable', npy('<f4', '(1, 2)', f4([1, 2, 3])), [0]]);
  add('npy shape over the limits', ['openNpyTable', npy('<f4', '(5000000, 1)', f4([1])), [0]]);
  add('npy shape that overflows', [
    'openNpyTable',
    npy('<f4', '(99999999999999999999, 1)', f4([1])),
    [0],
  ]);
  add('npy garbage header', ['openNpyTable', npy('<f4', '(2, 2', f4([1, 2, 3, 4])), [0]]);
  add('npy bad magic', ['openNpyTable', new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]), [0]]);
  add('npy a zip archive', [
    'openNpyTable',
    new Uint8Array(Buffer.from('PK\x03\x04rest', 'latin1')),
    [0],
  ]);
  add('npy no bytes', ['openNpyTable', new Uint8Array(0), [0]]);
  add('npy truncated header', ['openNpyTable', numpyF4.subarray(0, 40), [0]]);
  add('npy version 9.0', [
    'openNpyTable',
    Uint8Array.from(numpyF4, (b, i) => (i === 6 ? 9 : b)),
    [0],
  ]);
  add('npy header length beyond the file', [
    'openNpyTable',
    Uint8Array.from(numpyF4.subarray(0, 20), (b, i) => (i === 9 ? 0xff : b)),
    [0],
  ]);

  // .safetensors files: the header in two steps, the table a block of rows at a time.
  add("hasNpyMagic of numpy's file", ['hasNpyMagic', numpyF4.subarray(0, 6)]);
  add('hasNpyMagic of a .safetensors file', ['hasNpyMagic', safetensorsFile('{}')]);
  add('hasNpyMagic of 3 bytes', ['hasNpyMagic', new Uint8Array([0x93, 0x4e, 0x55])]);
  const every16 = u2(Array.from({ length: 65536 }, (_, k) => k)); // every F16/BF16 bit pattern
  const f32Rows = f4(Array.from({ length: 15 }, () => (rng() - 0.5) * 10));
  const f64Rows = f8([0.1, -1 / 3, 1e-40, 3.4e38, -0, 65504.000001]);
  const model = safetensors(
    [
      ['transformer.h.0.ln_1.bias', 'F32', [5], f4([1, 2, 3, 4, 5])],
      ['transformer.wte.weight', 'BF16', [256, 256], every16],
      ['transformer.wpe.weight', 'F16', [256, 256], every16],
      ['lm_head.weight', 'F32', [3, 5], f32Rows],
      ['step', 'I64', [], f8([0])],
      ['proj.weight', 'F64', [2, 3], f64Rows],
    ],
    { format: 'pt', 'made by': 'cases.mjs' },
  );
  const modelHeader = headerOf(model);
  add('safetensorsHeaderSize of a model', [
    'safetensorsHeaderSize',
    model.subarray(0, 8),
    model.length,
  ]);
  add('safetensorsHeaderSize from the whole file', ['safetensorsHeaderSize', model, model.length]);
  add('safetensorsHeaderSize from 5 bytes', [
    'safetensorsHeaderSize',
    model.subarray(0, 5),
    model.length,
  ]);
  add('safetensorsHeaderSize of a 7-byte file', ['safetensorsHeaderSize', model.subarray(0, 7), 7]);
  add('safetensorsHeaderSize past the end', ['safetensorsHeaderSize', model.subarray(0, 8), 100]);
  add('safetensorsHeaderSize over 100 MB', [
    'safetensorsHeaderSize',
    new Uint8Array([0, 0, 0, 0x40, 0, 0, 0, 0]),
    2 ** 33,
  ]);
  add('safetensorsHeaderSize of a .npy file', [
    'safetensorsHeaderSize',
    numpyF4.subarray(0, 8),
    numpyF4.length,
  ]);
  add('safetensorsHeader of a model', ['safetensorsHeader', modelHeader, model.length]);
  add('safetensorsHeader from the whole file', ['safetensorsHeader', model, model.length]);
  const twoCandidates = safetensors([
    ['model.embed_tokens.weight', 'F32', [2, 2], f4([1, 2, 3, 4])],
    ['shared.weight', 'F32', [2, 2], f4([1, 2, 3, 4])],
  ]);
  add('safetensorsHeader with two candidates', [
    'safetensorsHeader',
    headerOf(twoCandidates),
    twoCandidates.length,
  ]);
  add('safetensorsHeader with two candidates, one named', [
    'safetensorsHeader',
    headerOf(twoCandidates),
    twoCandidates.length,
    'shared.weight',
  ]);
  add('safetensorsHeader a name not in the file', [
    'safetensorsHeader',
    modelHeader,
    model.length,
    'wte.weigth',
  ]);
  add('safetensorsHeader a 1-D tensor named', [
    'safetensorsHeader',
    modelHeader,
    model.length,
    'transformer.h.0.ln_1.bias',
  ]);
  const onlyBias = safetensors([
    ['bias', 'F32', [2], f4([1, 2])],
    ['w', 'F16', [1, 2], u2([1, 2])],
  ]);
  add('safetensorsHeader without a candidate', ['safetensorsHeader', onlyBias, onlyBias.length]);
  const int8Table = safetensors([['wte.weight', 'I8', [2, 2], new Uint8Array([1, 2, 3, 4])]]);
  add('safetensorsHeader whose candidate is I8', [
    'safetensorsHeader',
    int8Table,
    int8Table.length,
  ]);
  add('safetensorsHeader of no tensors', ['safetensorsHeader', safetensorsFile('{}'), 16]);
  add('safetensorsHeader of a file shorter than its header', [
    'safetensorsHeader',
    safetensorsFile('{}'),
    12,
  ]);
  add('safetensorsHeader cut short', [
    'safetensorsHeader',
    modelHeader.subarray(0, 40),
    model.length,
  ]);
  const corrupt = [
    ['invalid JSON', '{"wte.weight": {"dtype": "F32",, }}'],
    ['not an object', '[1, 2]'],
    ['a missing field', '{"wte.weight": {"dtype": "F32", "shape": [1, 1]}}'],
    [
      'a shape of the wrong type',
      '{"wte.weight": {"dtype": "F32", "shape": "1x1", "data_offsets": [0, 4]}}',
    ],
    [
      'reversed offsets',
      '{"wte.weight": {"dtype": "F32", "shape": [1, 1], "data_offsets": [4, 0]}}',
    ],
    [
      'offsets past the end',
      '{"wte.weight": {"dtype": "F32", "shape": [1, 2], "data_offsets": [0, 8]}}',
    ],
    [
      'offsets that disagree with the shape',
      '{"wte.weight": {"dtype": "F16", "shape": [1, 1], "data_offsets": [0, 4]}}',
    ],
    [
      'overlapping tensors',
      '{"a": {"dtype": "F16", "shape": [2], "data_offsets": [0, 4]}, ' +
        '"b": {"dtype": "F16", "shape": [1], "data_offsets": [2, 4]}}',
    ],
    [
      'a name listed twice',
      '{"a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}, ' +
        '"a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}',
    ],
    ['nesting too deep', '{"a": {"dtype": "F32", "shape": [[1]], "data_offsets": [0, 4]}}'],
    ['metadata not strings', '{"__metadata__": {"epochs": 3}}'],
    ['a number beyond double', '{"a": {"dtype": "F32", "shape": [1e999], "data_offsets": [0, 4]}}'],
  ];
  for (const [label, json] of corrupt) {
    const file = safetensorsFile(json, new Uint8Array(4));
    add(`safetensorsHeader with ${label}`, ['safetensorsHeader', file, file.length]);
  }
  // Every F16 and BF16 bit pattern, a table's rows read through a handle (no product: its
  // columns hold NaNs of many payloads, and engines differ in which one a sum of them ends with).
  add('rowsAt of BF16, every bit pattern, picked by its name', ['table.rowsAt', model, '', 0, 256]);
  add('rowsAt of F16, every bit pattern', [
    'table.rowsAt',
    model,
    'transformer.wpe.weight',
    0,
    256,
  ]);
  add('rowsAt of F16, a window', ['table.rowsAt', model, 'transformer.wpe.weight', 200, 56]);
  const tooLarge = safetensors([['wte.weight', 'F64', [1, 2], f8([1, 1e300])]]);
  add('openSafetensorsTable a name not in the file', [
    'openSafetensorsTable',
    model,
    'wte.weigth',
    [0],
  ]);
  add('openSafetensorsTable a 1-D tensor', [
    'openSafetensorsTable',
    model,
    'transformer.h.0.ln_1.bias',
    [0],
  ]);
  add('openSafetensorsTable an I64 scalar', ['openSafetensorsTable', model, 'step', [0]]);
  add('openSafetensorsTable an I8 table', ['openSafetensorsTable', int8Table, '', [0]]);
  add('openSafetensorsTable one of two candidates, named', [
    'openSafetensorsTable',
    twoCandidates,
    'shared.weight',
    [1],
  ]);

  // Sharded checkpoints: the index, and the shard of the table.
  const llamaIndex = JSON.stringify({
    metadata: { total_size: 40 },
    weight_map: {
      'lm_head.weight': 'model-00002-of-00002.safetensors',
      'model.embed_tokens.weight': 'model-00001-of-00002.safetensors',
      'model.norm.weight': 'model-00002-of-00002.safetensors',
    },
  });
  add('safetensorsIndex, the table by its name', ['safetensorsIndex', llamaIndex, '']);
  add('safetensorsIndex, a tensor named', ['safetensorsIndex', llamaIndex, 'lm_head.weight']);
  add('safetensorsIndex, a name in no shard', [
    'safetensorsIndex',
    llamaIndex,
    'embed_tokens.weight',
  ]);
  add('safetensorsIndex without a weight_map', ['safetensorsIndex', '{"metadata": {}}', '']);
  add('safetensorsIndex of invalid JSON', ['safetensorsIndex', '{"weight_map": {"a": "b",}}', '']);
  add('safetensorsIndex with a path as a shard', [
    'safetensorsIndex',
    '{"weight_map": {"wte.weight": "../w.safetensors"}}',
    '',
  ]);

  // Table handles: opened, then its lookup, its product streamed (a 3 x 4 heatmap gathered on
  // the way) and how they compare, on both sides.
  add('openSeededTable, 600 rows in 3 blocks', ['openSeededTable', 7, 600, 3, [599, 0, 599]]);
  add('openSeededTable over the limits', ['openSeededTable', 1, 2 ** 20, 65, [0]]);
  add('openSeededTable, an id past V', ['openSeededTable', 1, 4, 5, [4]]);
  add('openTfTable', ['openTfTable', 4, 3, [1, 2]]);
  add("openSeededPositions, the book's batch", [
    'openSeededPositions',
    123,
    50257,
    16,
    4,
    '40,367,2885,1464; 1807,3619,402,271',
  ]);
  add('openSeededPositions, 3 rows of 2', ['openSeededPositions', 7, 20, 3, 5, '1,2; 3,4; 19,0']);
  add('openSeededPositions, a row past the context', [
    'openSeededPositions',
    1,
    10,
    3,
    4,
    '1,2,3,4,5',
  ]);
  add('openSeededPositions, ragged rows', ['openSeededPositions', 1, 10, 3, 4, '1,2; 3']);
  add('openSeededPositions, context_length 0', ['openSeededPositions', 1, 10, 3, 0, '1']);
  for (const head of ['tied', 'untied']) {
    add(`seededNextTokenTraining ${head}, SGD with momentum`, [
      'seededNextTokenTraining',
      7,
      6,
      3,
      head,
      'sgd',
      { momentum: 0.9 },
      '1,2,3; 3,3,0; 4,5',
    ]);
  }
  add('seededNextTokenTraining with a head that is neither', [
    'seededNextTokenTraining',
    1,
    5,
    2,
    'shared',
    'sgd',
    {},
    '1,2',
  ]);
  add('seededNextTokenTraining on a sequence of one id', [
    'seededNextTokenTraining',
    1,
    5,
    2,
    'tied',
    'adam',
    {},
    '1,2; 3',
  ]);
  // The chapter's loader and its loop: the windows' order, the drawn tables and each step's
  // changed rows and their roles, on both sides.
  add('checkLoader: 5 windows of 3', [
    'checkLoader',
    12,
    { maxLength: 3, stride: 2, batchSize: 2, shuffle: true },
  ]);
  add('checkLoader: a window longer than the ids', [
    'checkLoader',
    3,
    { maxLength: 3, stride: 1, batchSize: 1, shuffle: false },
  ]);
  add('checkLoader: too few windows for a batch', [
    'checkLoader',
    5,
    { maxLength: 2, stride: 2, batchSize: 3, shuffle: false },
  ]);
  for (const [head, positions, shuffle] of [
    ['tied', true, true],
    ['untied', false, false],
  ]) {
    add(`windowTraining ${head}, positions ${positions}, shuffle ${shuffle}`, [
      'windowTraining',
      7,
      6,
      3,
      [1, 2, 3, 3, 0, 4, 5, 1, 2, 0, 1],
      head,
      'adamw',
      { lr: 0.05 },
      { positions, maxLength: 3, stride: 2, batchSize: 2, shuffle },
      5,
    ]);
  }
  add('windowTraining on ids past V', [
    'windowTraining',
    7,
    6,
    3,
    [1, 2, 9, 3],
    'tied',
    'sgd',
    {},
    { positions: true, maxLength: 2, stride: 1, batchSize: 1, shuffle: false },
    1,
  ]);
  add('openPositionTables', [
    'openPositionTables',
    { rows: 3, cols: 2, data: Float32Array.from([1, 2, -3, 4, 0.5, -6]) },
    { rows: 2, cols: 2, data: Float32Array.from([0, 1, 1, 0]) },
    '0,1; 2,2',
  ]);
  add("openPositionTables whose d's differ", [
    'openPositionTables',
    { rows: 3, cols: 2, data: Float32Array.from([1, 2, -3, 4, 0.5, -6]) },
    { rows: 2, cols: 1, data: Float32Array.from([0, 1]) },
    '0',
  ]);
  add('openTfTable d = 0', ['openTfTable', 4, 0, [1]]);
  add("openNpyTable of numpy's float32 file", ['openNpyTable', numpyF4, [1, 0, 1]]);
  add("openNpyTable of numpy's float64 file", ['openNpyTable', numpyF8, [1]]);
  add('openNpyTable of garbage', ['openNpyTable', new Uint8Array([1, 2, 3]), [0]]);
  // Engines differ in which NaN a sum of several ends with: a column holds one Inf at most.
  const bf16Rows = u2(
    Array.from({ length: 300 * 7 }, (_, k) =>
      k === 7 * 299 + 2 ? 0x7f80 : k === 7 * 4 ? 0x8000 : 0x3f00 + (k % 251),
    ),
  );
  const bf16Model = safetensors([['model.embed_tokens.weight', 'BF16', [300, 7], bf16Rows]]);
  add('openSafetensorsTable, BF16 picked by its name', [
    'openSafetensorsTable',
    bf16Model,
    '',
    [299, 4, 0, 4],
  ]);
  add('openSafetensorsTable, F32 named', ['openSafetensorsTable', model, 'lm_head.weight', [2, 0]]);
  add('openSafetensorsTable, F64 named', ['openSafetensorsTable', model, 'proj.weight', [1, 0]]);
  add('openSafetensorsTable, F64 too large for float32', [
    'openSafetensorsTable',
    tooLarge,
    '',
    [0],
  ]);
  // Positions on checkpoints: GPT-2's names with no lm_head (tied), the same with an lm_head
  // (untied, unless its config.json says otherwise), no position table, or another d. (The model
  // above holds every F16 pattern: engines differ in the NaN a product of them ends with.)
  const gpt2Tensors = [
    ['h.0.ln_1.weight', 'F32', [3], f4([1, 1, 1])],
    ['wpe.weight', 'F32', [5, 3], f4(Array.from({ length: 15 }, () => rng() - 0.5))],
    ['wte.weight', 'F32', [20, 3], f4(Array.from({ length: 60 }, () => rng() - 0.5))],
  ];
  const gpt2 = safetensors(gpt2Tensors);
  const gpt2Untied = safetensors([
    ...gpt2Tensors,
    ['lm_head.weight', 'F32', [20, 3], f4(Array(60).fill(1))],
  ]);
  add('openCheckpointPositions, GPT-2 tied', ['openCheckpointPositions', gpt2, '', '19,0; 4,4']);
  add('openCheckpointPositions, an lm_head', ['openCheckpointPositions', gpt2Untied, '', '1,2,19']);
  add('openCheckpointPositions, tied by its config', [
    'openCheckpointPositions',
    gpt2Untied,
    '{"tie_word_embeddings": true}',
    '7',
  ]);
  add('openCheckpointPositions, a config that is not JSON', [
    'openCheckpointPositions',
    gpt2,
    '{tie',
    '1',
  ]);
  add('openCheckpointPositions, a row past the context', [
    'openCheckpointPositions',
    gpt2,
    '',
    '1,2,3,4,5,6',
  ]);
  add('openCheckpointPositions, no position table', [
    'openCheckpointPositions',
    bf16Model,
    '',
    '1',
  ]);
  add('openCheckpointPositions, another d', [
    'openCheckpointPositions',
    safetensors([
      ['wpe.weight', 'F32', [2, 2], f4([1, 2, 3, 4])],
      ['wte.weight', 'F32', [2, 3], f4([1, 2, 3, 4, 5, 6])],
    ]),
    '',
    '1',
  ]);
  // GGUF files: Q8_0 (d = 0.5, quants -16..15) and Q4_K blocks (d = 1, dmin = 0.5).
  const q8 = Uint8Array.from({ length: 34 * 2 * 3 }, (_, k) =>
    k % 34 === 0 ? 0 : k % 34 === 1 ? 0x38 : (k * 7) % 32 >= 16 ? 256 - ((k * 7) % 16) : k % 16,
  );
  const q4k = Uint8Array.from({ length: 144 * 4 }, (_, k) =>
    k % 144 === 1 ? 0x3c : k % 144 === 3 ? 0x38 : k % 144 < 4 ? 0 : (k * 13) % 256,
  );
  const ggufQ8 = gguf(
    [
      ['token_embd.weight', 8, [64, 3], q8],
      ['output.weight', 12, [256, 4], q4k],
    ],
    [['general.architecture', 'llama']],
  );
  add('hasGgufMagic of a GGUF file', ['hasGgufMagic', ggufQ8.subarray(0, 4)]);
  add('hasGgufMagic of a .safetensors file', ['hasGgufMagic', safetensorsFile('{}')]);
  add('ggufHeader of a whole file', ['ggufHeader', ggufQ8, ggufQ8.length, '']);
  add('ggufHeader, a tensor named that is not there', [
    'ggufHeader',
    ggufQ8,
    ggufQ8.length,
    'nope',
  ]);
  add('ggufHeader of garbage', ['ggufHeader', Buffer.from('GGML and more'), 13, '']);
  add('openGgufTable, Q8_0', ['openGgufTable', ggufQ8, '', [2, 0, 2]]);
  add('openGgufTable, Q4_K named', ['openGgufTable', ggufQ8, 'output.weight', [3, 1]]);
  add('openGgufTable of a Q5_K table', [
    'openGgufTable',
    gguf([['token_embd.weight', 13, [256, 1], new Uint8Array(176)]]),
    '',
    [0],
  ]);
  add('openSafetensorsTable with two candidates', ['openSafetensorsTable', twoCandidates, '', [0]]);
  add('openSafetensorsTable of a corrupt header', [
    'openSafetensorsTable',
    safetensorsFile('{"a": 1}'),
    '',
    [0],
  ]);

  // Training: both routes stepped side by side, G drawn after the table as `embedlab train` draws
  // it; each id at most twice per batch, so that the one-hot GEMM adds the same terms in the same
  // order in both builds (see the gradients above).
  const issueBatches = '1,2; 3,3; 0,1';
  for (const [name, hyper] of [
    ['sgd', {}],
    ['sgd', { momentum: 0.9 }],
    ['sgd', { weight_decay: 0.01 }],
    ['sgd', { momentum: 0.5, nesterov: true, maximize: true, lr: 0.37 }],
    ['adam', {}],
    ['adam', { amsgrad: true, betas: [0.5, 0.9], weight_decay: 0.1 }],
    ['adamw', {}],
    ['adagrad', {}],
    ['adagrad', { lr_decay: 0.1, initial_accumulator_value: 0.5 }],
    ['rmsprop', {}],
    ['rmsprop', { momentum: 0.9, centered: true, alpha: 0.5 }],
  ]) {
    add(`seededTraining ${name} ${JSON.stringify(hyper)}, V = 6, d = 3`, [
      'seededTraining',
      123,
      6,
      3,
      name,
      hyper,
      {},
      issueBatches,
    ]);
  }
  for (const [name, hyper] of [
    ['sgd', {}],
    ['sgd', { momentum: 0.9 }],
    ['sparse-adam', {}],
    ['adagrad', {}],
  ]) {
    add(`seededTraining ${name} ${JSON.stringify(hyper)}, sparse=True`, [
      'seededTraining',
      123,
      6,
      3,
      name,
      hyper,
      { sparse: true },
      issueBatches,
    ]);
  }
  add('seededTraining sparse-adam on a dense gradient: the Linear route cannot follow', [
    'seededTraining',
    5,
    4,
    2,
    'sparse-adam',
    {},
    { sparse: true, paddingIdx: 1 },
    '1,1,0; 3',
  ]);
  add('seededTraining adam with padding_idx -1', [
    'seededTraining',
    7,
    5,
    4,
    'adam',
    {},
    { paddingIdx: -1 },
    '4,0,4; 2,3',
  ]);
  add('seededTraining sgd momentum, padding_idx 2, sparse', [
    'seededTraining',
    9,
    5,
    2,
    'sgd',
    { momentum: 0.9 },
    { sparse: true, paddingIdx: 2 },
    '2,2,1; 0,2; 4',
  ]);
  for (let i = 0; i < 6; ++i) {
    const v = randomInt(rng, 2, 12);
    const d = randomInt(rng, 1, 7);
    const batches = Array.from({ length: randomInt(rng, 1, 5) }, () => {
      const batch = ids(rng, randomInt(rng, 1, 6), v);
      return batch
        .filter((id, k) => batch.slice(0, k).filter((x) => x === id).length < 2)
        .join(', ');
    }).join('; ');
    const [name, hyper, options] = [
      ['adam', { lr: 0.1 }, {}],
      ['sgd', { momentum: 0.9, dampening: 0.3 }, { paddingIdx: 0 }],
      ['adagrad', { lr: 0.3 }, { sparse: true }],
      ['rmsprop', { weight_decay: 0.1 }, {}],
      ['adamw', { weight_decay: 0.25, amsgrad: true }, { paddingIdx: v - 1 }],
      ['sparse-adam', { eps: 1e-3 }, { sparse: true }],
    ][i];
    add(`seededTraining random ${name}, V = ${v}, d = ${d}, batches ${batches}`, [
      'seededTraining',
      randomInt(rng, -1e6, 1e6),
      v,
      d,
      name,
      hyper,
      options,
      batches,
    ]);
  }
  const Wtrain = randomMatrix(rng, 5, 3);
  add("tableTraining from a given W, G after the notebooks' seed", [
    'tableTraining',
    Wtrain,
    'sgd',
    { momentum: 0.9 },
    { paddingIdx: 4 },
    '4, 1; 1, 3',
  ]);
  add('tableTraining with gradSeed 7', [
    'tableTraining',
    Wtrain,
    'adagrad',
    {},
    { gradSeed: 7, sparse: true },
    '0; 2, 2',
  ]);
  add('tableTraining an id past V', ['tableTraining', Wtrain, 'sgd', {}, {}, '1; 5']);
  add('tableTraining SparseAdam on a dense gradient', [
    'tableTraining',
    Wtrain,
    'sparse-adam',
    {},
    {},
    '1',
  ]);
  // Refusals, in PyTorch's words, and bad input.
  add('seededTraining sparse=True with Adam', [
    'seededTraining',
    123,
    6,
    3,
    'adam',
    {},
    { sparse: true },
    issueBatches,
  ]);
  add('seededTraining sparse=True with AdamW', [
    'seededTraining',
    123,
    6,
    3,
    'adamw',
    {},
    { sparse: true },
    issueBatches,
  ]);
  add('seededTraining sparse=True, SGD with weight decay', [
    'seededTraining',
    123,
    6,
    3,
    'sgd',
    { weight_decay: 0.01 },
    { sparse: true },
    issueBatches,
  ]);
  add('seededTraining Adam takes no momentum', [
    'seededTraining',
    123,
    6,
    3,
    'adam',
    { momentum: 0.9 },
    {},
    issueBatches,
  ]);
  add('seededTraining a negative learning rate', [
    'seededTraining',
    123,
    6,
    3,
    'sgd',
    { lr: -0.1 },
    {},
    issueBatches,
  ]);
  add('seededTraining nesterov without momentum', [
    'seededTraining',
    123,
    6,
    3,
    'sgd',
    { nesterov: true },
    {},
    issueBatches,
  ]);
  add('seededTraining a learning rate past float32', [
    'seededTraining',
    123,
    6,
    3,
    'sgd',
    { lr: 1e39 },
    {},
    issueBatches,
  ]);
  add('seededTraining an id past V in batch 2', [
    'seededTraining',
    123,
    4,
    3,
    'sgd',
    {},
    {},
    '1; 4',
  ]);
  add('seededTraining padding_idx outside V', [
    'seededTraining',
    123,
    4,
    3,
    'sgd',
    {},
    { paddingIdx: 4 },
    '1',
  ]);
  add('seededTraining too large to train', ['seededTraining', 1, 100000, 100, 'sgd', {}, {}, '1']);
  add('seededTraining an optimizer that does not exist', [
    'seededTraining',
    1,
    4,
    3,
    'lbfgs',
    {},
    {},
    '1',
  ]);
  add('seededTraining bad batches', ['seededTraining', 1, 4, 3, 'sgd', {}, {}, '1; x']);
  for (const text of [
    '1,2; 3,3; 0,1',
    '[1, 2]; tensor([3])',
    '1,2;',
    ' 5 ',
    '',
    '1,2;;3',
    '1, x; 2',
    ';',
  ]) {
    add(`parseBatches ${JSON.stringify(text)}`, ['parseBatches', text]);
  }
  for (const [name, hyper] of [
    ['sgd', {}],
    ['sgd', { momentum: 0.9, nesterov: true, weight_decay: 1e-5 }],
    ['adam', { betas: [0.9, 0.99], eps: 1e-6 }],
    ['adamw', { weight_decay: 0.01 }],
    ['adagrad', { initial_accumulator_value: 0.1 }],
    ['rmsprop', { centered: true }],
    ['sparse-adam', {}],
    ['adam', { momentum: 0.9 }],
    ['adagrad', { lr: -1 }],
    ['adam', { betas: [1, 0.9] }],
    ['sparse-adam', { weight_decay: 0.1 }],
  ]) {
    add(`optimizerCode ${name} ${JSON.stringify(hyper)}`, [
      'optimizerCode',
      name,
      hyper,
      'embedding.parameters()',
    ]);
  }
  add('checkTraining SGD, V = 6, d = 3', ['checkTraining', 6, 3, 'sgd', {}, {}]);
  add('checkTraining sparse=True with Adam', ['checkTraining', 6, 3, 'adam', {}, { sparse: true }]);
  add('checkTraining too large', ['checkTraining', 2 ** 20, 64, 'adam', {}, {}]);
  add('checkTraining padding_idx -7 for V = 6', [
    'checkTraining',
    6,
    3,
    'sgd',
    {},
    { paddingIdx: -7 },
  ]);
  add('checkTraining d = 0', ['checkTraining', 6, 0, 'sgd', {}, {}]);

  return cases;
}
