// Expected numbers from real PyTorch (tests/tools.mjs's pythonPath), computed at test time for
// the same seeds, ids and options the test types into the page: the page is never checked against
// its own arithmetic. The script reads its arguments as JSON on stdin and prints JSON.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { pythonPath } from '../tools.mjs';

export function runTorch(script, args) {
  const out = execFileSync(pythonPath, ['-c', script], {
    input: JSON.stringify(args),
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return JSON.parse(out);
}

// A table's cells as the page shows them ([[row label, cell, ...], ...]) against expected rows
// of numbers: each cell is its value rounded to 4 significant decimals (fixed or scientific).
export function assertCellsClose(cells, expected, what) {
  assert.equal(cells.length, expected.length, `${what}: rows`);
  cells.forEach((row, i) => {
    const values = row.slice(1).map(Number);
    assert.equal(values.length, expected[i].length, `${what}: columns of row ${i}`);
    values.forEach((value, j) => {
      const want = expected[i][j];
      const tolerance = 5.01e-5 * Math.max(1, Math.abs(want));
      assert.ok(
        Math.abs(value - want) <= tolerance,
        `${what}[${i}][${j}]: the page shows ${row[j + 1]}, PyTorch gives ${want}`,
      );
    });
  });
}
