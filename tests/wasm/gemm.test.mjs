// The module's GEMM adds as core/src/gemm.hpp says it does in WebAssembly: each element's
// products in depth order, each rounded to float32 before it is added, a slice of 512 at a time
// from +0, each slice then added onto the output. Held against a naive reference of that rule
// in JavaScript (naive.mjs), on a general matrix, not a one-hot, whose sums round differently in
// any other order; the shapes reach every path of the kernel (its 2 x 16 tiles, the one-row tile
// of an odd row left over, the columns left over, several slices of the depth). The general
// matrix is a table's multi-hot one: a bag b of every id once, id p weighted a(b, p), times the
// table b (k, n).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { npyOf } from './cases.mjs';
import { importEmbedlab } from './harness.mjs';
import { GEMM_SLICE, gemmRule } from './naive.mjs';

const { loadEmbedlab } = await importEmbedlab();
const lab = await loadEmbedlab();

// Values of every sign and size, so that sums of them round.
function randomMatrix(rows, cols, seed) {
  let state = seed;
  const data = new Float32Array(rows * cols);
  for (let i = 0; i < data.length; ++i) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    data[i] = ((state >>> 8) / 2 ** 24 - 0.5) * 2 ** ((state & 15) - 6);
  }
  return { rows, cols, data };
}

const bits = (values) =>
  Array.from(new Uint32Array(values.buffer, values.byteOffset, values.length));

// a (m, k) times the table b (k, n) as the table's bag product: m bags, each of the k ids once,
// weighted by a's row.
function bagProduct(a, b) {
  const table = lab.openNpyTable(npyOf(b));
  try {
    const ids = Array.from({ length: a.rows * a.cols }, (_, i) => i % a.cols);
    const offsets = Array.from({ length: a.rows }, (_, i) => i * a.cols);
    return table.bagProduct(ids, offsets, { mode: 'sum', perSampleWeights: a.data }).product;
  } finally {
    table.delete();
  }
}

for (const [m, k, n] of [
  [6, 1100, 37],
  [4, 512, 16],
  [9, 3, 50],
  [1, 1025, 1],
]) {
  test(`${m} x ${k} times ${k} x ${n}: each element summed in depth order, ${GEMM_SLICE} at a time`, () => {
    const a = randomMatrix(m, k, m * 7 + 1);
    const b = randomMatrix(k, n, n * 11 + 3);
    const product = bagProduct(a, b);
    assert.deepEqual([product.rows, product.cols], [m, n]);
    assert.deepEqual(bits(product.data), bits(gemmRule(a.data, b.data, m, k, n)));
  });
}

test('a product in any other order is told apart: the reference is not blind to the order', () => {
  const [m, k, n] = [6, 1100, 37];
  const a = randomMatrix(m, k, 43);
  const b = randomMatrix(k, n, 410);
  const reversed = new Float32Array(m * n);
  for (let i = 0; i < m; ++i) {
    for (let j = 0; j < n; ++j) {
      let sum = 0;
      for (let p = k - 1; p >= 0; --p)
        sum = Math.fround(sum + Math.fround(a.data[i * k + p] * b.data[p * n + j]));
      reversed[i * n + j] = sum;
    }
  }
  assert.notDeepEqual(bits(reversed), bits(gemmRule(a.data, b.data, m, k, n)));
});
