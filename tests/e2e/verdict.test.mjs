// The graded verdict (web/model/verdict.mjs) in Node, no browser: ulp distances against the float32
// format worked out by hand, and each of the four grades for small results whose comparison
// counts are written out here as the core reports them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatAbsDiff, gradeComparison, REASONS, ulpDistance } from '../../web/model/verdict.mjs';

const f32 = (values) => Float32Array.from(values);
// The float32 whose bits are `bits`.
const fromBits = (bits) => new Float32Array(Uint32Array.of(bits).buffer)[0];

describe('ulp distance', () => {
  test('neighbours, zeros, the sign boundary and subnormals', () => {
    assert.equal(ulpDistance(1, 1), 0);
    assert.equal(ulpDistance(1, 1 + 2 ** -23), 1);       // the next float32 after 1
    assert.equal(ulpDistance(1, 1 + 2 ** -22), 2);
    assert.equal(ulpDistance(1 - 2 ** -24, 1), 1);       // the one before 1 (finer spacing)
    assert.equal(ulpDistance(0, -0), 0);
    assert.equal(ulpDistance(2 ** -149, -(2 ** -149)), 2);  // smallest subnormals, through 0
    assert.equal(ulpDistance(1, -1), 2 * 0x3f800000);    // 1.0 is 0x3f800000
    assert.equal(ulpDistance(fromBits(0x7f7fffff), fromBits(0x7f7ffffe)), 1);  // the largest float32s
  });

  test('one way to print a |difference|', () => {
    assert.equal(formatAbsDiff(0), '0');
    assert.equal(formatAbsDiff(2 ** -23), '1.1921e-07');
    assert.equal(formatAbsDiff(1.5), '1.5000e+00');
    assert.equal(formatAbsDiff(NaN), 'nan');
    assert.equal(formatAbsDiff(Infinity), 'inf');
  });
});

// The core's compare() for 4 elements, with the counts given.
const comparison = (counts) => ({
  elements: 4, bitIdentical: 4, valueEqual: 4, nanMismatches: 0, signedZeroMismatches: 0,
  maxAbsDiff: 0, identical: false, ...counts,
});

describe('grades', () => {
  test('bit-identical', () => {
    const grade = gradeComparison(comparison({ identical: true }), f32([1, 2, 3, 4]), f32([1, 2, 3, 4]));
    assert.equal(grade.state, 'identical');
    assert.equal(grade.headline, 'bit-identical');
    assert.equal(grade.sentence, 'All 4 elements hold the same 32 bits in both results.');
    assert.equal(grade.maxAbsDiff, 0);
    assert.equal(grade.maxUlps, 0);
    assert.equal(grade.differing, null);
  });

  test('equal in value: only the sign of a zero differs', () => {
    const grade = gradeComparison(comparison({ bitIdentical: 3, signedZeroMismatches: 1 }),
      f32([1, -0, 3, 4]), f32([1, 0, 3, 4]));
    assert.equal(grade.state, 'value');
    assert.equal(grade.headline, 'equal in value');
    assert.equal(grade.sentence, `1 of 4 elements differ only in the sign of zero: ${REASONS.lookup.signedZero}.`);
    assert.ok(!grade.sentence.includes('equal in value'), 'the headline is not repeated');
    assert.equal(grade.maxUlps, 0);
    assert.deepEqual([...grade.differing], [0, 1, 0, 0]);
  });

  test('equal up to rounding: ulps and |diff|, and why', () => {
    // (0.1 + 0.1) + 0.5 and 0.1 + (0.1 + 0.5) in float32: 0.69999999 and 0.70000005, neighbours
    // (between 0.5 and 1 the float32 spacing is 2^-24).
    const f = Math.fround;
    const a = f(f(f(0.1) + f(0.1)) + f(0.5));
    const b = f(f(0.1) + f(f(0.1) + f(0.5)));
    assert.equal(b - a, 2 ** -24);
    const diff = Math.abs(a - b);
    const grade = gradeComparison(
      comparison({ bitIdentical: 3, valueEqual: 3, maxAbsDiff: diff }),
      f32([a, 1, 2, 3]), f32([b, 1, 2, 3]), REASONS.bag);
    assert.equal(grade.state, 'rounding');
    assert.equal(grade.headline, 'equal up to rounding');
    assert.equal(grade.maxUlps, 1);
    assert.equal(grade.sentence, '1 of 4 elements differ in the last bits (the largest difference ' +
      `is 1 ulp, |diff| = ${formatAbsDiff(diff)}): ${REASONS.bag.rounding}.`);
  });

  test('differs: NaN on one side, with 0·Inf = NaN', () => {
    const grade = gradeComparison(comparison({ bitIdentical: 2, valueEqual: 2, nanMismatches: 2 }),
      f32([Infinity, 1, 2, 3]), f32([NaN, NaN, 2, 3]));
    assert.equal(grade.state, 'differs');
    assert.ok(Number.isNaN(grade.maxAbsDiff));
    assert.deepEqual([...grade.differing], [1, 1, 0, 0]);
    assert.match(grade.sentence, /^2 of 4 elements are NaN in one result only: .*0·Inf = NaN/);
  });

  test('differs: more than rounding explains', () => {
    const grade = gradeComparison(comparison({ bitIdentical: 3, valueEqual: 3, maxAbsDiff: 0.5 }),
      f32([1.5, 2, 3, 4]), f32([1, 2, 3, 4]));
    assert.equal(grade.state, 'differs');
    assert.equal(grade.maxAbsDiff, 0.5);
    assert.equal(grade.maxUlps, 2 ** 22);  // 1 and 1.5 are 2^22 float32 steps apart
    assert.match(grade.sentence, /^1 of 4 elements differ by more than rounding explains/);
  });
});
