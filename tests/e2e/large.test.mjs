// Big inputs still work and stay small in the DOM: GPT-2's table shape (V = 50257, d = 768)
// with 64 tokens is computed in full, and every matrix is shown summarised like PyTorch prints
// it (first and last rows/columns around an ellipsis), with the rows of the tokens shown (the
// first and last 3, and the one stepped through) always visible.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import {
  BOXES,
  openNumbers,
  sitePerSuite,
  tableCells,
  waitForShape,
  waitForVerdict,
} from './harness.mjs';

const GPT2_VOCAB = 50257;
const GPT2_DIM = 768;

describe('large inputs', () => {
  const env = sitePerSuite();
  afterEach(() => env.assertClean());

  // A heatmap's summarised table, its "Numbers" opened (they stay open, and follow the inputs).
  const caption = async (box) => {
    await openNumbers(env.page, BOXES[box]);
    return env.page.textContent(`${BOXES[box]} caption`);
  };
  const shownIndices = async (box) => {
    await openNumbers(env.page, BOXES[box]);
    return env.page.$$eval(`${BOXES[box]} tbody tr[data-index]`, (rows) =>
      rows.map((row) => Number(row.dataset.index)),
    );
  };

  test('V = 50257, d = 768, 64 tokens: computed in full, shown summarised', async () => {
    const { page } = env;
    const ids = Array.from({ length: 64 }, (_, i) => (i * 7919 + 50256) % GPT2_VOCAB);
    await page.fill('#dim', String(GPT2_DIM));
    await page.fill('#vocab', String(GPT2_VOCAB));
    await page.fill('#ids', ids.join(', '));
    await waitForVerdict(page, 'computing');
    await waitForVerdict(page, 'bit-identical', 120_000);
    assert.equal(
      await page.textContent('#results .verdict .verdict-sentence'),
      `All ${(64 * GPT2_DIM).toLocaleString('en-US')} elements hold the same 32 bits in both results.`,
    );

    // The tables show tokens 0, 1, 2, 61, 62, 63 (token 0 is the one stepped through).
    const shownTokens = [0, 1, 2, 61, 62, 63];
    // W: its first and last 3 rows, the rows those tokens look up, and 3 + 3 of the 768 columns.
    const weightRows = await shownIndices('weight');
    const expectedRows = [
      ...new Set([
        0,
        1,
        2,
        ...shownTokens.map((k) => ids[k]),
        GPT2_VOCAB - 3,
        GPT2_VOCAB - 2,
        GPT2_VOCAB - 1,
      ]),
    ].sort((a, b) => a - b);
    assert.deepEqual(weightRows, expectedRows);
    assert.equal(
      await caption('weight'),
      `embedding.weight (V × d): ${GPT2_VOCAB} × ${GPT2_DIM} (showing ${expectedRows.length} of ${GPT2_VOCAB} rows, 6 of ${GPT2_DIM} columns)`,
    );
    const weightHeader = await page.$$eval('#matrices [data-box="weight"] thead th', (cells) =>
      cells.map((c) => c.textContent),
    );
    assert.deepEqual(weightHeader, ['id', '0', '1', '2', '…', '765', '766', '767']);

    // One-hot: the rows of those tokens (and a gap), each with its single 1 visible.
    const onehot = (await tableCells(page, '#matrices [data-box="onehot"]')).filter(
      (row) => row[0] !== '⋮',
    );
    assert.equal(onehot.length, shownTokens.length);
    for (const row of onehot) assert.equal(row.filter((cell) => cell === '1').length, 1);
    assert.deepEqual(
      onehot.map((row) => row[0]),
      shownTokens.map((k) => String(ids[k])),
    );

    // The lookup and the product show the same cells; the DOM stays small.
    assert.deepEqual(
      await tableCells(page, '#results [data-box="lookup"]'),
      await tableCells(page, '#results [data-box="product"]'),
    );
    assert.ok((await page.$$eval('td', (cells) => cells.length)) < 20_000);

    await page.focus('#results [data-part="tokens"] [aria-checked="true"]');
    await page.keyboard.press('End');
    assert.equal(
      await page.textContent('#step [data-part="detail"] .step-title'),
      `idx[63] = ${ids[63]} (position 63 of 0–63)`,
    );
    const work = await page.textContent('#step [data-part="detail"] table.work');
    assert.ok(
      work.includes(
        `n·V·d = ${(64 * GPT2_VOCAB * GPT2_DIM).toLocaleString('en-US')} multiply-adds`,
      ),
    );
    // 49,152 of them are useful: the share of zeros is shown without rounding up to 100%.
    assert.ok(
      work.includes(
        `n·(V−1)·d = ${(64 * (GPT2_VOCAB - 1) * GPT2_DIM).toLocaleString('en-US')} (99.998%)`,
      ),
    );
  });

  test('more tokens than a table shows: the chosen one stays visible', async () => {
    const { page } = env;
    const ids = Array.from({ length: 100 }, (_, i) => (i * 37) % 1000);
    await page.focus('#results [data-part="tokens"] [aria-checked="true"]');
    await page.keyboard.press('Home');
    await page.fill('#vocab', '1000');
    await page.fill('#dim', '40');
    await page.fill('#ids', ids.join(' '));
    await waitForShape(page, BOXES.lookup, '100 × 40');
    await waitForVerdict(page, 'bit-identical');
    assert.equal(
      await caption('lookup'),
      'embedding(idx) (n × d): 100 × 40 (showing 6 of 100 rows, 6 of 40 columns)',
    );
    assert.deepEqual(await shownIndices('lookup'), [0, 1, 2, 97, 98, 99]);

    await page.focus('#results [data-part="tokens"] [aria-checked="true"]');
    for (let i = 0; i < 10; ++i) await page.keyboard.press('ArrowRight');
    assert.equal(
      await page.textContent('#step [data-part="detail"] .step-title'),
      `idx[10] = ${ids[10]} (position 10 of 0–99)`,
    );
    assert.deepEqual(await shownIndices('lookup'), [0, 1, 2, 10, 97, 98, 99]);
    assert.deepEqual(await shownIndices('product'), [0, 1, 2, 10, 97, 98, 99]);
    assert.ok((await shownIndices('weight')).includes(ids[10]));
    assert.equal(await page.evaluate(() => document.activeElement.textContent), String(ids[10]));
  });
});
