// The graded verdict as the page gets it (lab.compare(...).grade, the core's verdict.hpp through
// WASM), in Node: each of the four grades for small results, every sentence written out here,
// and the |diff| and ulp distances worked out by hand.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { importEmbedlab } from './harness.mjs';

const row = (values) => ({ rows: 1, cols: values.length, data: Float32Array.from(values) });

describe("the core's grades, through the module", () => {
  let lab;
  before(async () => {
    lab = await (await importEmbedlab()).loadEmbedlab();
  });
  const grade = (a, b, pair) => lab.compare(row(a), row(b), pair).grade;

  test('bit-identical', () => {
    assert.deepEqual(grade([1, 2, 3, 4], [1, 2, 3, 4]), {
      state: 'identical',
      headline: 'bit-identical',
      sentence: 'All 4 elements hold the same 32 bits in both results.',
      maxAbsDiff: 0,
      maxAbsDiffText: '0',
      maxUlps: 0,
      differing: null,
      defined: null,
    });
  });

  test('equal in value: only the sign of a zero differs', () => {
    const g = grade([1, -0, 3, 4], [1, 0, 3, 4]);
    assert.equal(g.state, 'value');
    assert.equal(g.headline, 'equal in value');
    assert.equal(
      g.sentence,
      '1 of 4 elements differ only in the sign of zero: the lookup copies ' +
        'a −0.0 of W as it is, while the product adds +0.0 terms (0·w), and −0.0 + 0.0 = +0.0.',
    );
    assert.deepEqual([...g.differing], [1]);
  });

  test("equal up to rounding, with the bag's reason: ulps and |diff|", () => {
    // (0.1 + 0.1) + 0.5 and 0.1 + (0.1 + 0.5) in float32: neighbours 2^-24 apart.
    const f = Math.fround;
    const a = f(f(f(0.1) + f(0.1)) + f(0.5));
    const b = f(f(0.1) + f(f(0.1) + f(0.5)));
    const g = grade([a, 1, 2, 3], [b, 1, 2, 3], 'bag');
    assert.equal(g.state, 'rounding');
    assert.equal(g.maxUlps, 1);
    assert.equal(g.maxAbsDiffText, '5.9605e-08');
    assert.equal(
      g.sentence,
      '1 of 4 elements differ in the last bits (the largest difference ' +
        'is 1 ulp, |diff| = 5.9605e-08): a bag adds its rows in position order, M @ W in vocabulary ' +
        'order, and float32 rounds every weighted term and every partial sum.',
    );
  });

  test('differs: NaN on one side, with 0·Inf = NaN', () => {
    const g = grade([Infinity, 1, 2, 3], [NaN, NaN, 2, 3]);
    assert.equal(g.state, 'differs');
    assert.ok(Number.isNaN(g.maxAbsDiff));
    assert.equal(g.maxAbsDiffText, 'nan');
    assert.deepEqual([...g.differing], [0, 1]);
    assert.match(g.sentence, /^2 of 4 elements are NaN in one result only: .*0·Inf = NaN/);
  });

  test('differs: more than rounding explains', () => {
    const g = grade([1.5, 2, 3, 4], [1, 2, 3, 4]);
    assert.equal(g.state, 'differs');
    assert.equal(g.maxAbsDiff, 0.5);
    assert.equal(g.maxUlps, 2 ** 22); // 1 and 1.5 are 2^22 float32 steps apart
    assert.match(g.sentence, /^1 of 4 elements differ by more than rounding explains/);
  });

  test("an unknown pair of routes is the compared argument's error", () => {
    assert.throws(
      () => grade([1], [1], 'forward'),
      (error) =>
        error.argument === 'compared' &&
        /^the routes compared must be one of 'lookup', 'backward', 'bag', 'training', 'sparse_training'/.test(
          error.message,
        ),
    );
  });
});

describe('numbers as PyTorch prints them, through the module', () => {
  let lab;
  before(async () => {
    lab = await (await importEmbedlab()).loadEmbedlab();
  });

  // Each case: float32 values and what torch 1.13.1 printed for a 1-row tensor of them.
  const PRINTED_BY_TORCH = [
    // ties at the 4th decimal go to the even digit, as Python's format() does
    [[0.03125, -0.03125, 0.09375, 2.5], 'tensor([[ 0.0312, -0.0312,  0.0938,  2.5000]])'],
    [[-0.0, 1.5, 2.0], 'tensor([[-0.0000, 1.5000, 2.0000]])'],
    // scientific when the smallest magnitude is under 1e-4, or the range spans over 1000x
    [[1e-5, 0.5], 'tensor([[1.0000e-05, 5.0000e-01]])'],
    [[123456.0, 0.5, 3.0], 'tensor([[1.2346e+05, 5.0000e-01, 3.0000e+00]])'],
    [[1.0e9, 2.0], 'tensor([[1.0000e+09, 2.0000e+00]])'],
    // integral values print as "1.", non-finite values by name
    [[NaN, -Infinity, 1.0, -0.0], 'tensor([[nan, -inf, 1., -0.]])'],
    [[0.0, 0.0], 'tensor([[0., 0.]])'],
  ];
  const entries = (printed) =>
    printed
      .slice('tensor([['.length, -']])'.length)
      .split(',')
      .map((s) => s.trim());

  test('each value as PyTorch prints the same float32 values', () => {
    for (const [values, printed] of PRINTED_BY_TORCH) {
      assert.deepEqual(lab.formatElements(values.map(Math.fround)), entries(printed), printed);
    }
  });

  test('a value takes the notation of the values shown with it', () => {
    assert.deepEqual(lab.formatElements([1e-5, 0.5], [0.25]), ['2.5000e-01']);
    assert.deepEqual(lab.formatElements([0, 1, 0], [0, 1, 0], { integer: true }), ['0', '1', '0']);
  });
});
