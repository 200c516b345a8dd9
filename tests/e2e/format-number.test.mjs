// The tables' number notation against PyTorch itself: each case is a 1-row float32 tensor and
// what torch 1.13.1 printed for it (repr, default print options). Runs in Node, no browser.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tensorFormatter } from '../../web/model/format-number.mjs';

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

function entries(printed) {
  return printed.slice('tensor([['.length, -']])'.length).split(',').map((s) => s.trim());
}

test('table cells are written as PyTorch prints the same float32 values', () => {
  for (const [values, printed] of PRINTED_BY_TORCH) {
    const float32 = values.map(Math.fround);
    const format = tensorFormatter(float32);
    assert.deepEqual(float32.map(format), entries(printed), printed);
  }
});

test('an integer tensor (F.one_hot) prints its values as integers', () => {
  assert.deepEqual([0, 1, 0].map(tensorFormatter([0, 1, 0], { integer: true })), ['0', '1', '0']);
});
