// Naive references in JavaScript of what the module computes, written from the rules the core's
// headers state (core/src/gemm.hpp, backward.hpp, embedding_bag.hpp) and not from its code:
// float32 arithmetic as Math.fround after every operation.

export const GEMM_SLICE = 512; // kGemmDepthBlock

// a (m, k) times b (k, n), row-major: each element's products in depth order, each rounded to
// float32 before it is added, GEMM_SLICE of them at a time from +0, each slice's sum then added
// onto the output (from +0).
export function gemmRule(a, b, m, k, n) {
  const out = new Float32Array(m * n);
  for (let i = 0; i < m; ++i) {
    for (let j = 0; j < n; ++j) {
      let total = 0;
      for (let p0 = 0; p0 < k; p0 += GEMM_SLICE) {
        let sum = 0;
        for (let p = p0; p < Math.min(k, p0 + GEMM_SLICE); ++p) {
          sum = Math.fround(sum + Math.fround(a[i * k + p] * b[p * n + j]));
        }
        total = Math.fround(total + sum);
      }
      out[i * n + j] = total;
    }
  }
  return out;
}

const one = new Float32Array(1);
const oneBits = new Uint32Array(one.buffer);

// The float32 beside x (a finite float32) above it or below it.
function nextFloat(x, up) {
  if (x === 0) return up ? 2 ** -149 : -(2 ** -149);
  one[0] = x;
  oneBits[0] += x > 0 === up ? 1 : -1;
  return one[0];
}

// fma(a, b, c) of float32 values, rounded once to float32. a * b is exact in a double; the
// double sum s and its error e (TwoSum) are the exact result, and where s falls on the midpoint
// between two floats, e says which side the exact result lies on.
export function fma32(a, b, c) {
  const p = a * b;
  const s = p + c;
  const r = Math.fround(s);
  if (!Number.isFinite(s) || !Number.isFinite(r) || r === s) return r;
  const t = s - p;
  const e = p - (s - t) + (c - t);
  const other = nextFloat(r, s > r);
  if (e === 0 || s - r !== (other - r) / 2) return r;
  return e > 0 === s > r ? other : r;
}
