// The page shows the notebooks' numbers: every table cell and every printout block is compared
// with what PyTorch printed in the notebooks (read at test time), and the verdict is a match.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import {
  openSite,
  sitePerSuite,
  tableCells,
  waitForLookupRows,
  waitForVerdict,
} from './harness.mjs';
import { entriesOf, notebook, printedAfter } from '../notebooks.mjs';
import { npyFloat32 } from './npy-bytes.mjs';

const cellsOnly = (rows) => rows.map((row) => row.slice(1));
const rowLabels = (rows) => rows.map((row) => row[0]);

describe('the notebooks on the page', () => {
  const env = sitePerSuite(() => openSite({ weights: true }));
  afterEach(() => env.assertClean());

  async function printout() {
    const details = env.page.locator('#printout-section details');
    if (!(await details.evaluate((node) => node.open)))
      await env.page.click('#printout-section details summary');
    // The toggle event, which fills the printout, comes after the click. Its text, not its
    // rendering: off screen, a section's rendering is skipped (content-visibility).
    await env.page.waitForSelector('#printout-section .printout figure');
    return env.page.locator('#printout-section .printout').textContent();
  }

  async function checkNotebook(number, cells, ids) {
    const text = notebook(number);
    const block = (cell) => printedAfter(text, cell);
    const { page } = env;
    await waitForLookupRows(page, ids);
    await waitForVerdict(page, 'bit-identical');
    assert.deepEqual(
      cellsOnly(await tableCells(page, '#matrices [data-box="weight"]')),
      entriesOf(block(cells.weight)),
    );
    assert.deepEqual(
      cellsOnly(await tableCells(page, '#results [data-box="lookup"]')),
      entriesOf(block(cells.lookup)),
    );
    assert.deepEqual(
      cellsOnly(await tableCells(page, '#results [data-box="product"]')),
      entriesOf(block(cells.product)),
    );
    assert.deepEqual(
      cellsOnly(await tableCells(page, '#matrices [data-box="onehot"]')),
      entriesOf(block(cells.onehot)),
    );
    assert.deepEqual(
      rowLabels(await tableCells(page, '#results [data-box="lookup"]')),
      ids.map(String),
    );
    // nn.Linear's weight is the transpose: notebook 004 prints it after the assignment.
    assert.deepEqual(
      cellsOnly(await tableCells(page, '#matrices [data-box="linear"]')),
      entriesOf(printedAfter(notebook('004'), 'In [43]:')),
    );
    const highlighted = await page.$$eval('#matrices [data-box="weight"] tr.hit', (rows) =>
      rows.map((r) => Number(r.dataset.index)),
    );
    assert.deepEqual(
      highlighted,
      [...new Set(ids)].sort((a, b) => a - b),
    );

    const printed = await printout();
    for (const cell of Object.values(cells))
      assert.ok(printed.includes(block(cell)), `printout lacks ${number} ${cell}`);
  }

  test('seed 002: the default page, ids 2, 3, 1 with seed 123', async () => {
    const { page } = env;
    assert.equal(await page.inputValue('#ids'), '2, 3, 1');
    assert.equal(await page.getAttribute('#vocab', 'placeholder'), 'auto: 4');
    assert.equal(await page.inputValue('#dim'), '5');
    assert.equal(await page.inputValue('#seed'), '123');
    await checkNotebook(
      '002',
      {
        weight: 'In [5]:',
        lookup: 'In [8]:',
        onehot: 'In [12]:',
        product: 'In [18]:',
      },
      [2, 3, 1],
    );
    assert.equal(
      await page.textContent('#results .verdict .verdict-sentence'),
      'All 15 elements hold the same 32 bits in both results.',
    );
    assert.equal(await page.getAttribute('#results .verdict', 'aria-live'), 'polite');
  });

  test('seed 004: typing 3, 2, 0, 1', async () => {
    const { page } = env;
    await page.fill('#ids', '');
    await page.locator('#ids').pressSequentially('3, 2, 0, 1');
    await checkNotebook(
      '004',
      {
        weight: 'In [26]:',
        lookup: 'In [32]:',
        onehot: 'In [34]:',
        linear: 'In [43]:',
        product: 'In [46]:',
      },
      [3, 2, 0, 1],
    );
  });

  test("seed 003: the TensorFlow notebook's fixed weights", async () => {
    const { page } = env;
    await page.fill('#ids', '2, 3, 1');
    await page.check('#source-tf');
    // The notebook prints float32 arrays (0.22); PyTorch's notation has 4 decimals.
    const printed = printedAfterArray(notebook('003'), 'In [8]:');
    await page.waitForFunction(
      () => document.querySelector('#results [data-box="lookup"] td')?.textContent === '0.2200',
    );
    await waitForVerdict(page, 'bit-identical');
    assert.deepEqual(cellsOnly(await tableCells(page, '#results [data-box="lookup"]')), printed);
    assert.deepEqual(cellsOnly(await tableCells(page, '#results [data-box="product"]')), printed);
    assert.deepEqual(
      cellsOnly(await tableCells(page, '#matrices [data-box="weight"]')),
      printedAfterArray(notebook('003'), 'In [7]:'),
    );
    await page.check('#source-seed');
    await page.waitForFunction(
      () => document.querySelector('#results [data-box="lookup"] td')?.textContent === '0.6957',
    );
  });

  test('a .npy file sets W, V and d; switching back restores the typed shape', async () => {
    const { page } = env;
    await page.fill('#vocab', '7');
    await page.fill('#ids', '2, 0, 2');
    await page.setInputFiles('#weights-file', {
      name: 'w.npy',
      mimeType: 'application/octet-stream',
      buffer: npyFloat32(3, 2, [0.5, -1.25, 2, 0.375, -3.5, 1]),
    });
    await page.waitForFunction(
      () => document.querySelector('#results [data-box="lookup"] td')?.textContent === '-3.5000',
    );
    assert.equal(await page.inputValue('#vocab'), '3');
    assert.equal(await page.inputValue('#dim'), '2');
    assert.ok(await page.isDisabled('#vocab'));
    assert.ok(await page.isChecked('#source-file'));
    assert.equal(await page.textContent('#file-name'), 'w.npy: 3 × 2');
    await waitForVerdict(page, 'bit-identical');
    assert.deepEqual(cellsOnly(await tableCells(page, '#results [data-box="lookup"]')), [
      ['-3.5000', '1.0000'],
      ['0.5000', '-1.2500'],
      ['-3.5000', '1.0000'],
    ]);
    assert.deepEqual(cellsOnly(await tableCells(page, '#matrices [data-box="weight"]')), [
      ['0.5000', '-1.2500'],
      ['2.0000', '0.3750'],
      ['-3.5000', '1.0000'],
    ]);

    await page.check('#source-seed');
    await page.waitForFunction(() => document.querySelector('#vocab').value === '7');
    assert.equal(await page.inputValue('#dim'), '5');
    assert.ok(await page.isEnabled('#vocab'));
    await page.fill('#vocab', '');
    await page.fill('#ids', '2, 3, 1');
    await page.waitForFunction(
      () => document.querySelector('#results [data-box="lookup"] td')?.textContent === '0.6957',
    );
  });

  test('a .npy file dropped on the drop zone', async () => {
    const { page } = env;
    await page.fill('#ids', '1');
    const bytes = [...npyFloat32(2, 3, [1, 2, 3, 0.25, 0.5, 0.75])];
    await page.evaluate((data) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(data)], 'dropped.npy'));
      document
        .getElementById('drop-zone')
        .dispatchEvent(
          new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }),
        );
    }, bytes);
    await page.waitForFunction(
      () => document.getElementById('file-name').textContent === 'dropped.npy: 2 × 3',
    );
    await page.waitForFunction(
      () => document.querySelector('#results [data-box="lookup"] td')?.textContent === '0.2500',
    );
    await waitForVerdict(page, 'bit-identical');
    assert.deepEqual(cellsOnly(await tableCells(page, '#results [data-box="lookup"]')), [
      ['0.2500', '0.5000', '0.7500'],
    ]);
    await page.check('#source-seed');
    await page.fill('#ids', '2, 3, 1');
    await page.waitForFunction(
      () => document.querySelector('#results [data-box="lookup"] td')?.textContent === '0.6957',
    );
  });

  test('an Inf in W: the product gets NaN where the lookup copies Inf, and the verdict says so', async () => {
    const { page } = env;
    await page.fill('#ids', '1, 0');
    await page.setInputFiles('#weights-file', {
      name: 'inf.npy',
      mimeType: 'application/octet-stream',
      buffer: npyFloat32(2, 2, [Infinity, 1, 2, 3]),
    });
    await waitForVerdict(page, 'differs');
    assert.match(
      await page.textContent('#results .verdict .verdict-sentence'),
      /^1 of 4 elements are NaN in one result only: .*0·Inf = NaN/,
    );
    // 0 * Inf = NaN in column 0 of the first row; PyTorch prints integral floats as "2.".
    assert.deepEqual(cellsOnly(await tableCells(page, '#results [data-box="lookup"]')), [
      ['2.', '3.'],
      ['inf', '1.'],
    ]);
    assert.deepEqual(cellsOnly(await tableCells(page, '#results [data-box="product"]')), [
      ['nan', '3.'],
      ['inf', '1.'],
    ]);
    await page.check('#source-seed');
    await page.fill('#ids', '2, 3, 1');
    await waitForLookupRows(page, [2, 3, 1]);
    await waitForVerdict(page, 'bit-identical');
  });
});

// A NumPy array printed in the TF notebook ("array([[0.22, 0.22, ...], ...])" after `cell`),
// its entries written with PyTorch's 4 decimals.
function printedAfterArray(text, cell) {
  const at = text.indexOf(cell);
  const start = text.indexOf('array([[', at);
  const end = text.indexOf(']]', start);
  const rows = [...text.slice(start + 7, end + 1).matchAll(/\[([^\]]*)\]/g)];
  return rows.map((row) => row[1].split(',').map((s) => Number(s).toFixed(4)));
}
