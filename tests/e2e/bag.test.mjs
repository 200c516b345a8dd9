// The Bag view: the ids cut into bags at the offsets, mode sum/mean/max, per-sample weights and
// padding_idx; the multi-hot matrix M, M @ W next to F.embedding_bag, the verdict, and max's
// note (no matrix form). Numbers are checked against PyTorch run for the same input, and by hand
// for the TensorFlow notebook's table (row i = 0.11·i). Bad input shows the core's message next
// to the view's inputs, as text.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { pageOverflow, sitePerSuite, tableCells, waitForLookupRows } from './harness.mjs';
import { saveScreenshot } from './screenshots.mjs';
import { assertCellsClose, runTorch } from './torch-reference.mjs';
import { formView, openSiteWithIds } from './view-form.mjs';

// M is built here from its definition (one entry per id that counts, weights added, a mean's
// row divided by its count), not with the page's code.
const TORCH_BAG = `
import json, sys, torch
import torch.nn.functional as F
a = json.load(sys.stdin)
torch.manual_seed(a['seed'])
W = torch.nn.Embedding(a['V'], a['d']).weight.detach()
ids, offsets, V = a['ids'], a['offsets'], a['V']
psw = None if a['weights'] is None else torch.tensor(a['weights'])
out = F.embedding_bag(torch.tensor(ids), W, torch.tensor(offsets), mode=a['mode'],
                      per_sample_weights=psw, padding_idx=a['padding'])
result = {'output': out.tolist()}
pad = None if a['padding'] is None else a['padding'] % V
if a['mode'] == 'max':
    result['argmax'] = torch.embedding_bag(W, torch.tensor(ids), torch.tensor(offsets), False, 2,
                                           False, None, False, pad)[3].tolist()
else:
    M = torch.zeros(len(offsets), V)
    for b, start in enumerate(offsets):
        end = offsets[b + 1] if b + 1 < len(offsets) else len(ids)
        counted = [k for k in range(start, end) if ids[k] != pad]
        for k in counted:
            M[b, ids[k]] += 1.0 if psw is None else a['weights'][k]
        if a['mode'] == 'mean' and counted:
            M[b] /= len(counted)
    result['M'] = M.tolist()
    result['product'] = (M @ W).tolist()
print(json.dumps(result))
`;

// Bag 0 holds id 3 twice; bag 1 holds ids 1 and 2.
const IDS = [3, 3, 1, 2];

describe('bag view', () => {
  const env = sitePerSuite(() => openSiteWithIds(IDS));
  afterEach(() => env.assertClean());

  const {
    view,
    input,
    cellsOf,
    verdictWord,
    alertText,
    waitForAlert,
    waitForCommand,
    checkBadInput,
  } = formView(() => env.page, 'bag');

  // Sets the view's inputs and waits until it shows them: its CLI line names every option.
  async function setInputs({ offsets = [0, 2], mode = 'mean', weights = null, padding = null }) {
    const { page } = env;
    await page.fill(input('offsets'), offsets.join(', '));
    await page.selectOption(input('mode'), mode);
    await page.fill(input('weights'), weights === null ? '' : weights.join(', '));
    await page.fill(input('padding-idx'), padding === null ? '' : String(padding));
    let cli = `embedlab bag --offsets ${offsets.join(',')} --mode ${mode}`;
    if (weights !== null) cli += ` --per-sample-weights ${weights.join(',')}`;
    if (padding !== null) cli += ` --padding-idx ${padding}`;
    await waitForCommand('code', cli);
  }

  function torchBag(options) {
    return runTorch(TORCH_BAG, {
      seed: 123,
      V: 4,
      d: 5,
      ids: IDS,
      offsets: [0, 2],
      mode: 'mean',
      weights: null,
      padding: null,
      ...options,
    });
  }

  test('sum: a repeated id counts twice in M, and M @ W matches the bags (PyTorch)', async () => {
    await setInputs({ mode: 'sum' });
    const torch = torchBag({ mode: 'sum' });
    const M = await cellsOf('multihot');
    assertCellsClose(M, torch.M, 'M');
    assert.equal(M[0][4], '2.'); // whole-valued floats print as PyTorch prints them: "2."
    assertCellsClose(await cellsOf('output'), torch.output, 'F.embedding_bag');
    assertCellsClose(await cellsOf('product'), torch.product, 'M @ W');
    assert.equal(await verdictWord(), 'bit-identical');
    const bags = await env.page.locator(`${view} .bag`).allTextContents();
    assert.deepEqual(bags, ['bag 0 = idx[0:2]33sum of 2 rows', 'bag 1 = idx[2:4]12sum of 2 rows']);
  });

  test('sum with per-sample weights: they fill M (PyTorch)', async () => {
    const weights = [1, 0.5, 2, 1];
    await setInputs({ mode: 'sum', weights });
    const torch = torchBag({ mode: 'sum', weights });
    const M = await cellsOf('multihot');
    assertCellsClose(M, torch.M, 'M');
    assert.deepEqual(M[0].slice(1), ['0.0000', '0.0000', '0.0000', '1.5000']);
    assertCellsClose(await cellsOf('output'), torch.output, 'F.embedding_bag');
    assertCellsClose(await cellsOf('product'), torch.product, 'M @ W');
    assert.deepEqual(await env.page.locator(`${view} .bag-id small`).allTextContents(), [
      '×1',
      '×0.5',
      '×2',
      '×1',
    ]);
  });

  test('mean with padding_idx: the padding id is left out of its bag and of the count (PyTorch)', async () => {
    await setInputs({ mode: 'mean', padding: 1 });
    const torch = torchBag({ mode: 'mean', padding: 1 });
    const M = await cellsOf('multihot');
    assertCellsClose(M, torch.M, 'M');
    assert.deepEqual(M[1].slice(1), ['0.', '0.', '1.', '0.']);
    const output = await cellsOf('output');
    assertCellsClose(output, torch.output, 'F.embedding_bag');
    // Bag 1 = [1, 2] less the padding id: row 2 of W alone.
    const W = await tableCells(env.page, '#matrices [data-box="weight"]');
    assert.deepEqual(output[1].slice(1), W[2].slice(1));
    assert.equal(await verdictWord(), 'bit-identical');
    assert.equal(await env.page.locator(`${view} .bag-id.skipped`).count(), 1);
    assert.equal(
      await env.page.textContent(`${view} .bag-id.skipped`),
      '1 (padding_idx: left out)',
    );
    assert.match(
      await env.page.textContent(`${view} [data-part="notes"]`),
      /padding_idx = 1: its ids are left out of every bag and of the count a mean divides by\./,
    );
  });

  test("max: no matrix form, said so; each maximum's row of W (PyTorch)", async () => {
    await setInputs({ mode: 'max' });
    const torch = torchBag({ mode: 'max' });
    assertCellsClose(await cellsOf('output'), torch.output, 'F.embedding_bag');
    const argmax = await cellsOf('argmax');
    assert.deepEqual(
      argmax.map((row) => row.slice(1).map(Number)),
      torch.argmax,
    );
    assert.equal(await verdictWord(), 'no product form');
    assert.equal(
      await env.page.textContent(`${view} .verdict-sentence`),
      "mode='max' has no M @ W: the note below says why.",
    );
    assert.match(
      await env.page.textContent(`${view} [data-part="notes"]`),
      /mode='max' takes, column by column, the largest entry of the bag's rows: no multi-hot matrix M/,
    );
    assert.ok(await env.page.locator(`${view} [data-item="multihot"]`).isHidden());
    assert.ok(await env.page.locator(`${view} [data-item="product"]`).isHidden());
  });

  test("the TensorFlow notebook's table, by hand: sum and mean of 0.11·id", async () => {
    const { page } = env;
    await page.check('#source-tf');
    await page.fill('#ids', '2, 3, 1, 3');
    await waitForLookupRows(page, [2, 3, 1, 3]);
    const expect = async (bag0, bag1) => {
      const rows = await cellsOf('output');
      assert.deepEqual(
        rows.map((row) => row.slice(1)),
        [Array(5).fill(bag0), Array(5).fill(bag1)],
      );
    };
    await setInputs({ mode: 'sum' });
    await expect('0.5500', '0.4400'); // 0.22 + 0.33, 0.11 + 0.33
    await setInputs({ mode: 'mean' });
    await expect('0.2750', '0.2200');
    await setInputs({ mode: 'sum', weights: [1, 0.5, 2, 1] });
    await expect('0.3850', '0.5500'); // 0.22 + 0.5·0.33, 2·0.11 + 0.33
    await setInputs({ mode: 'max', padding: 3 });
    await expect('0.2200', '0.1100'); // id 3 left out: [2], [1]
    await page.check('#source-seed');
    await page.fill('#ids', IDS.join(', '));
    await waitForLookupRows(page, IDS);
    await setInputs({});
  });

  test("bad input: the core's message inline, as text, on the input it is about", async () => {
    const { page } = env;
    const cases = [
      [
        'offsets',
        '0, 5',
        'offsets[1] = 5 is past the end of the ids: an offset can be at most the number of ids, n = 4',
      ],
      [
        'offsets',
        '1, 2',
        'offsets[0] = 1 but the first bag must start at the first id: offsets[0] must be 0',
      ],
      [
        'offsets',
        '0, 3, 2',
        'offsets[2] = 2 is less than offsets[1] = 3: offsets must not decrease (a bag runs from its offset to the next one)',
      ],
      [
        'offsets',
        '0, <i>2</i>',
        'offsets: token 2 is "<i>2</i>": "<" does not belong in a list of ids; separate ids with commas or spaces, e.g. 2, 3, 1',
      ],
      [
        'offsets',
        '',
        'offsets is empty: give the position where each bag starts, beginning with 0, e.g. 0, 2',
      ],
      [
        'weights',
        '1, 2',
        "per_sample_weights are only supported for mode='sum' (got mode='mean'), as in PyTorch",
      ],
      [
        'weights',
        '1, x',
        'per_sample_weights: value 2 is "x", which is not a finite number, e.g. 1, 0.5, 2',
      ],
      [
        'padding-idx',
        '4',
        'padding_idx = 4 is outside the vocabulary: it must lie in [-4, 3] for V = 4',
      ],
    ];
    for (const [name, text, message] of cases) {
      await checkBadInput(name, text, message, {
        box: 'output',
        rows: 2,
        kept: 'the last good bags stay',
      });
    }
    // The weights' count is checked in mode sum.
    await page.selectOption(input('mode'), 'sum');
    await page.fill(input('weights'), '1, 2, 3');
    await waitForAlert(true);
    assert.equal(
      await alertText(),
      'per_sample_weights has 3 values but there are 4 ids: give one weight per id',
    );
    assert.equal(await page.getAttribute(input('weights'), 'aria-invalid'), 'true');
    await setInputs({});
    assert.equal(await alertText(), '');
  });

  test('screenshot at 1280 px: weighted sums, a repeated id, padding_idx', async () => {
    const { page } = env;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.fill('#ids', '2, 3, 1, 3, 3');
    await waitForLookupRows(page, [2, 3, 1, 3, 3]);
    await setInputs({ mode: 'sum', weights: [1, 0.5, 2, 1, 3], padding: 1 });
    await page.evaluate(() => document.activeElement.blur()); // no focus ring in the picture
    await saveScreenshot(page.locator(view), 'bag.png');
    assert.equal(await pageOverflow(page), 0);
  });
});
