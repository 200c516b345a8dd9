// How far two float32 results agree, graded: the core's compare() counts the cells (bits, values,
// NaN on one side, signs of zero) and this module adds what it does not give: the distance in
// ulps, which cells differ, and the grade with its one-sentence reason. Pure: no DOM, no WASM.
import { count, scientific } from './format-number.mjs';

// The grades, best first. Each has its own colour in styles/base.css (.verdict.<state>).
export const STATES = Object.freeze({
  identical: 'bit-identical',
  value: 'equal in value',
  rounding: 'equal up to rounding',
  differs: 'differs',
});

// What the headlines mean, shown where they appear.
export const DEFINITIONS = Object.freeze({
  identical: 'Bit-identical: the same 32 bits in both results.',
  value: 'Equal in value: equal as float32 numbers, so −0.0 equals +0.0 (and NaN matches NaN).',
});

// A difference larger than this share of the largest magnitude in the two results is more than
// rounding: float32 addition errs by at most 2^-24 of each partial sum, so even a sum of
// thousands of terms, added in another order, stays far below it.
export const ROUNDING_SHARE = 2 ** -12;

// Why each kind of difference happens, for each pair of routes the page compares: the lookup
// against the one-hot product, the backward view's scatter-add against onehot.T @ G, and the
// bag view's bags against M @ W.
export const REASONS = Object.freeze({
  lookup: {
    rounding: 'the two routes add the same terms in another order, and float32 addition ' +
              'rounds after every step',
    signedZero: 'the lookup copies a −0.0 of W as it is, while the product adds +0.0 terms ' +
                '(0·w), and −0.0 + 0.0 = +0.0',
    nan: 'W holds an Inf or NaN, and the product multiplies it by the one-hot zeros: ' +
         '0·Inf = NaN, which poisons every output row, while the lookup copies rows untouched',
  },
  backward: {
    rounding: 'the scatter-add adds the rows of G of a repeated id in position order, ' +
              'onehot.T @ G in its own blocked order, and float32 addition rounds after every step',
    signedZero: 'the two routes start their sums differently, and −0.0 + 0.0 = +0.0',
    nan: 'G holds an Inf or NaN, and onehot.T @ G multiplies it by the zeros of onehot.T: ' +
         '0·Inf = NaN reaches every row of dW, while the scatter-add adds only the rows a token names',
  },
  bag: {
    rounding: 'a bag adds its rows in position order, M @ W in vocabulary order, and float32 ' +
              'rounds every weighted term and every partial sum',
    signedZero: 'the two routes start their sums differently, and −0.0 + 0.0 = +0.0',
    nan: 'W holds an Inf or NaN, and M @ W multiplies it by the zeros of M: 0·Inf = NaN reaches ' +
         'every bag, while a bag adds only its own rows',
  },
});

// A float32's bits as a signed integer in the order of the numbers: adjacent floats are
// adjacent integers, and +0.0 and −0.0 both map to 0.
const ordered = (bits) => (bits >= 0x80000000 ? -(bits - 0x80000000) : bits);
const bitsOf = (floats) => new Uint32Array(floats.buffer, floats.byteOffset, floats.length);

// The number of float32 values from a to b (0 when they are equal, +0.0 and −0.0 included);
// both finite.
export function ulpDistance(a, b) {
  const bits = bitsOf(Float32Array.of(a, b));
  return Math.abs(ordered(bits[0]) - ordered(bits[1]));
}

// A |difference| as the page prints it, everywhere: "0", or PyTorch's scientific notation
// ("1.1921e-07"), or "nan"/"inf".
export function formatAbsDiff(x) {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  return x === 0 ? '0' : scientific(x);
}

// The cells whose bits differ (a Uint8Array with 1 there, or null when none do), and over those
// finite on both sides the largest ulp distance and |difference|; whether one pairs a finite
// value with an infinite one. Only differing cells cost more than an integer compare, so a
// gradient of GPT-2's size (V·d = 38.6 million) that agrees takes one quick pass.
function measure(expected, actual) {
  const bitsA = bitsOf(expected);
  const bitsB = bitsOf(actual);
  let differing = null;
  let maxUlps = 0;
  let maxAbsDiff = 0;
  let infinite = false;
  for (let i = 0; i < bitsA.length; ++i) {
    if (bitsA[i] === bitsB[i]) continue;
    differing ??= new Uint8Array(bitsA.length);
    differing[i] = 1;
    const a = expected[i];
    const b = actual[i];
    if (Number.isFinite(a) && Number.isFinite(b)) {
      maxUlps = Math.max(maxUlps, Math.abs(ordered(bitsA[i]) - ordered(bitsB[i])));
      maxAbsDiff = Math.max(maxAbsDiff, Math.abs(a - b));
    } else if (!Number.isNaN(a) && !Number.isNaN(b)) {
      infinite = true;
    }
  }
  return { differing, maxUlps, maxAbsDiff, infinite };
}

// The largest finite magnitude in either result: the scale rounding is measured against.
function largestMagnitude(expected, actual) {
  let max = 0;
  for (const floats of [expected, actual]) {
    for (const v of floats) if (Math.abs(v) > max && Number.isFinite(v)) max = Math.abs(v);
  }
  return max;
}

const ofAll = (part, c) => `${count(part)} of ${count(c.elements)} elements`;

// comparison: the core's compare(expected, actual) of the two Float32Arrays; why: one of
// REASONS, for the routes compared.
// Returns { state, headline, sentence, maxAbsDiff, maxUlps, differing }: maxAbsDiff is NaN when
// some element is NaN on one side only (and Infinity where an infinity meets a finite number),
// else the core's largest |difference|; maxUlps is over the elements finite on both sides;
// differing marks the elements whose bits differ (a Uint8Array), or is null when none do.
export function gradeComparison(comparison, expected, actual, why = REASONS.lookup) {
  const c = comparison;
  const m = c.bitIdentical === c.elements
    ? { differing: null, maxUlps: 0, maxAbsDiff: 0, infinite: false }
    : measure(expected, actual);
  const maxAbsDiff = c.nanMismatches > 0 ? NaN : m.infinite ? Infinity : c.maxAbsDiff;
  const grade = (state, sentence) => ({
    state, headline: STATES[state], sentence, maxAbsDiff, maxUlps: m.maxUlps, differing: m.differing,
  });
  const differing = c.elements - c.valueEqual;
  const ulps = `${count(m.maxUlps)} ${m.maxUlps === 1 ? 'ulp' : 'ulps'}`;
  const largest = `the largest difference is ${ulps}, |diff| = ${formatAbsDiff(maxAbsDiff)}`;

  if (c.bitIdentical === c.elements) {
    return grade('identical', `All ${count(c.elements)} elements hold the same 32 bits in both results.`);
  }
  if (c.valueEqual === c.elements) {
    const payloads = c.elements - c.bitIdentical - c.signedZeroMismatches;
    return grade('value', c.signedZeroMismatches > 0
      ? `${ofAll(c.signedZeroMismatches, c)} differ only in the sign of zero: ${why.signedZero}.`
      : `${ofAll(payloads, c)} are NaN in both results, with different bits.`);
  }
  if (c.nanMismatches > 0) {
    return grade('differs', `${ofAll(c.nanMismatches, c)} are NaN in one result only: ${why.nan}.`);
  }
  if (m.infinite) {
    return grade('differs', 'An infinity in one result meets a finite number in the other.');
  }
  const scale = largestMagnitude(expected, actual);
  if (maxAbsDiff <= ROUNDING_SHARE * scale) {
    return grade('rounding', `${ofAll(differing, c)} differ in the last bits (${largest}): ` +
      `${why.rounding}.`);
  }
  return grade('differs', `${ofAll(differing, c)} differ by more than rounding explains ` +
    `(${largest}, over 2^-12 of the largest magnitude, ${formatAbsDiff(scale)}).`);
}

// The grade of a result's two routes (compute/plan.mjs's run()), worked out once per result for
// every view that shows it.
const routeGrades = new WeakMap();
export function routesGrade(result) {
  if (!routeGrades.has(result)) {
    routeGrades.set(result, gradeComparison(result.comparison, result.lookup.data, result.product.data));
  }
  return routeGrades.get(result);
}
