// The module's GEMM adds as core/src/gemm.hpp says it does in WebAssembly: each element's
// products in depth order, each rounded to float32 before it is added, a slice of 512 at a time
// from +0, each slice then added onto the output. Held against a naive reference of that rule
// in JavaScript (Math.fround after every operation), on a general matrix, not a one-hot, whose
// sums round differently in any other order; the shapes reach every path of the kernel (its
// 2 x 16 tiles, the one-row tile of an odd row left over, the columns left over, several slices
// of the depth).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { importEmbedlab } from './harness.mjs';

const { loadEmbedlab } = await importEmbedlab();
const lab = await loadEmbedlab();

const SLICE = 512; // kGemmDepthBlock

// a (m, k) times b (k, n), row-major Float32Arrays, by the rule above.
function naiveProduct(a, b, m, k, n) {
  const out = new Float32Array(m * n);
  for (let i = 0; i < m; ++i) {
    for (let j = 0; j < n; ++j) {
      let total = 0;
      for (let p0 = 0; p0 < k; p0 += SLICE) {
        let sum = 0;
        for (let p = p0; p < Math.min(k, p0 + SLICE); ++p) {
          sum = Math.fround(sum + Math.fround(a[i * k + p] * b[p * n + j]));
        }
        total = Math.fround(total + sum);
      }
      out[i * n + j] = total;
    }
  }
  return out;
}

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

for (const [m, k, n] of [
  [6, 1100, 37],
  [4, 512, 16],
  [9, 3, 50],
  [1, 1025, 1],
]) {
  test(`${m} x ${k} times ${k} x ${n}: each element summed in depth order, ${SLICE} at a time`, () => {
    const a = randomMatrix(m, k, m * 7 + 1);
    const b = randomMatrix(k, n, n * 11 + 3);
    const product = lab.onehotProduct(a, b);
    assert.deepEqual([product.rows, product.cols], [m, n]);
    assert.deepEqual(bits(product.data), bits(naiveProduct(a.data, b.data, m, k, n)));
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
  assert.notDeepEqual(bits(reversed), bits(naiveProduct(a.data, b.data, m, k, n)));
});
