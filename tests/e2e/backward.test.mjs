// The Backward view: G drawn as torch.manual_seed(s); G = torch.randn(n, d), the scatter-add
// (a repeated id's row of dW is the sum of its tokens' rows of G, added in order), onehot.T @ G,
// the verdict, and padding_idx (its row of dW is zero; the product knows nothing of it), every
// number checked against PyTorch run for the same input. Bad input shows the core's message
// next to the view's inputs, as text.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { frames, pageOverflow, sitePerSuite, waitForLookupRows } from './harness.mjs';
import { saveScreenshot } from './screenshots.mjs';
import { assertCellsClose, runTorch } from './torch-reference.mjs';
import { formView, openSiteWithIds } from './view-form.mjs';

const TORCH_BACKWARD = `
import json, sys, torch
a = json.load(sys.stdin)
torch.manual_seed(a['seed'])
embedding = torch.nn.Embedding(a['V'], a['d'], padding_idx=a['padding'])
idx = torch.tensor(a['ids'])
out = embedding(idx)
torch.manual_seed(a['gradSeed'])
G = torch.randn(len(a['ids']), a['d'])
out.backward(G)
onehot = torch.nn.functional.one_hot(idx, a['V']).float()
print(json.dumps({'G': G.tolist(), 'grad': embedding.weight.grad.tolist(),
                  'product': (onehot.T @ G).tolist()}))
`;

const IDS = [2, 3, 1, 3];

describe('backward view', () => {
  const env = sitePerSuite(() => openSiteWithIds(IDS));
  afterEach(() => env.assertClean());

  const { view, input, cellsOf, verdictWord, waitForCommand, checkBadInput } = formView(
    () => env.page,
    'backward',
  );

  // Sets the view's inputs and waits until the view shows them (its CLI line names both).
  async function setInputs(gradSeed, paddingIdx) {
    const { page } = env;
    await page.fill(input('grad-seed'), String(gradSeed));
    await page.fill(input('padding-idx'), paddingIdx === null ? '' : String(paddingIdx));
    await waitForCommand(
      'draw',
      `embedlab backward --grad-seed ${gradSeed}` +
        (paddingIdx === null ? '' : ` --padding-idx ${paddingIdx}`),
    );
  }

  test("a repeated id: its row of dW is the sum of its tokens' rows of G (PyTorch)", async () => {
    await setInputs(5, null);
    const torch = runTorch(TORCH_BACKWARD, {
      seed: 123,
      V: 4,
      d: 5,
      ids: IDS,
      gradSeed: 5,
      padding: null,
    });
    assert.equal(
      await env.page.textContent(`${view} [data-part="draw"] code`),
      'torch.manual_seed(5); G = torch.randn(4, 5)',
    );
    const G = await cellsOf('upstream');
    assert.deepEqual(
      G.map((row) => row[0]),
      ['0: 2', '1: 3', '2: 1', '3: 3'],
    );
    assertCellsClose(G, torch.G, 'G');
    const grad = await cellsOf('grad');
    assertCellsClose(grad, torch.grad, 'embedding.weight.grad');
    assertCellsClose(await cellsOf('product'), torch.product, 'onehot.T @ G');
    assert.equal(await verdictWord(), 'bit-identical');

    // Row 3 (id 3 at positions 1 and 3) adds G[1] and then G[3]; row 0 (no token) stays zero.
    assert.deepEqual(grad[0].slice(1), ['0.0000', '0.0000', '0.0000', '0.0000', '0.0000']);
    grad[3].slice(1).forEach((cell, j) => {
      assert.ok(Math.abs(Number(cell) - (Number(G[1][j + 1]) + Number(G[3][j + 1]))) <= 1.01e-4);
    });
    assert.ok(
      (await env.page
        .locator(`${view} [data-box="grad"] .matrix-values .matrix-row[data-index="3"].repeat`)
        .count()) === 1,
    );
    const item = env.page.locator(`${view} .scatter-list > li.repeat`);
    assert.match(await item.textContent(), /^dW\[3\] = G\[1\] \+ G\[3\] \(id 3 at 2 positions\)/);
    const steps = await item.locator('.running > li').allTextContents();
    assert.equal(steps.length, 2);
    // The running sum after G[1] is G[1]; after G[3] it is the row of dW.
    assert.equal(steps[0], `0 + G[1] = [${G[1].slice(1).join(', ')}]`);
    assert.equal(steps[1], `+ G[3] = [${grad[3].slice(1).join(', ')}]`);
    assert.match(
      await env.page.textContent(`${view} [data-part="notes"]`),
      /Row 3 receives the sum of several rows of G: the id repeats in idx\./,
    );
  });

  test('padding_idx: its row of dW is zero, onehot.T @ G still has it (PyTorch)', async () => {
    for (const typed of [1, -3]) {
      // -3 counts from the end: row 1 of V = 4
      await setInputs(5, typed);
      const torch = runTorch(TORCH_BACKWARD, {
        seed: 123,
        V: 4,
        d: 5,
        ids: IDS,
        gradSeed: 5,
        padding: typed,
      });
      const grad = await cellsOf('grad');
      assertCellsClose(grad, torch.grad, `embedding.weight.grad, padding_idx=${typed}`);
      assert.deepEqual(grad[1].slice(1), ['0.0000', '0.0000', '0.0000', '0.0000', '0.0000']);
      assert.ok(
        (await env.page
          .locator(`${view} [data-box="grad"] .matrix-values .matrix-row[data-index="1"].padding`)
          .count()) === 1,
      );
      // The product adds token 2's row of G (id 1) all the same.
      const product = await cellsOf('product');
      const G = await cellsOf('upstream');
      assert.deepEqual(product[1].slice(1), G[2].slice(1));
      assertCellsClose(product, torch.product, 'onehot.T @ G');
      // The core grades the whole gradient 'differs'; the view says why, calmly: PyTorch defines
      // the padding row's gradient so, and every other row agrees bit for bit.
      assert.equal(await verdictWord(), 'differs, as PyTorch defines it');
      assert.equal(await env.page.getAttribute(`${view} .verdict`, 'data-state'), 'defined');
      assert.equal(
        await env.page.textContent(`${view} .verdict-reason`),
        'Row 1 is padding_idx: nn.Embedding ' +
          'gives it no gradient, while onehot.T @ G knows nothing of padding_idx and adds G[2] into it. ' +
          'Everything else: bit-identical.',
      );
      assert.match(
        await env.page.textContent(`${view} .verdict-sentence`),
        /^5 of 20 elements differ by more than rounding explains/,
      );
      // Only row 1's cells differ, outlined calmly in both gradients.
      for (const box of ['grad', 'product']) {
        assert.deepEqual(
          await env.page.$$eval(`${view} [data-box="${box}"] .differs`, (cells) => [
            ...new Set(
              cells.map((cell) => `${cell.parentElement.dataset.index} ${cell.className}`),
            ),
          ]),
          ['1 differs differs-defined'],
        );
      }
      assert.equal(
        await env.page.textContent(`${view} .scatter-list > li.padding`),
        'dW[1] = 0: padding_idx, so G[2] is not added',
      );
      assert.match(
        await env.page.textContent(`${view} [data-part="notes"]`),
        /row 1 of the scatter-add gets no gradient, though 1 token has id 1; onehot\.T @ G knows nothing of padding_idx/,
      );
    }
    await setInputs(5, null);
    assert.equal(await verdictWord(), 'bit-identical');
  });

  test('bad input: the message inline, as text, the last result kept and marked stale', async () => {
    const cases = [
      [
        'padding-idx',
        '9',
        'padding_idx = 9 is outside the vocabulary: it must lie in [-4, 3] for V = 4',
      ],
      [
        'padding-idx',
        '-5',
        'padding_idx = -5 is outside the vocabulary: it must lie in [-4, 3] for V = 4',
      ],
      ['padding-idx', '1.5', 'padding_idx must be a whole number, got "1.5"'],
      ['grad-seed', '<b>7</b>', 'the seed of G must be a whole number, got "<b>7</b>"'],
      ['grad-seed', ' ', 'the seed of G is empty: type a whole number'],
    ];
    for (const [name, text, message] of cases) {
      await checkBadInput(name, text, message, {
        box: 'grad',
        rows: 4,
        kept: 'the last good gradient stays',
      });
    }
  });

  test("the page's inputs drive the view; a bad one marks it stale", async () => {
    const { page } = env;
    await setInputs(0, null);
    await page.fill('#ids', '0, 0, 0');
    await waitForLookupRows(page, [0, 0, 0]);
    const torch = runTorch(TORCH_BACKWARD, {
      seed: 123,
      V: 1,
      d: 5,
      ids: [0, 0, 0],
      gradSeed: 0,
      padding: null,
    });
    assertCellsClose(await cellsOf('grad'), torch.grad, 'embedding.weight.grad for ids 0, 0, 0');
    assert.equal((await env.page.locator(`${view} .running > li`).allTextContents()).length, 3);
    await page.fill('#ids', '0, x');
    await page.waitForFunction(() =>
      document.getElementById('backward').classList.contains('stale'),
    );
    await page.fill('#ids', IDS.join(', '));
    await waitForLookupRows(page, IDS);
    assert.ok(
      !(await page.locator('#backward').evaluate((node) => node.classList.contains('stale'))),
    );
  });

  test('screenshots at 1280 and 375 px: a repeated id and padding_idx, calmly', async () => {
    const { page } = env;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.fill('#ids', '2, 3, 1, 3, 3');
    await waitForLookupRows(page, [2, 3, 1, 3, 3]);
    await setInputs(0, 1);
    await page.evaluate(() => document.activeElement.blur()); // no focus ring in the picture
    await saveScreenshot(page.locator(view), 'backward.png');
    assert.equal(await pageOverflow(page), 0);
    await page.setViewportSize({ width: 375, height: 812 });
    await page.$eval(view, (section) => section.scrollIntoView({ block: 'start' }));
    await frames(page);
    await saveScreenshot(page, 'backward-padding-375.png');
    assert.equal(await pageOverflow(page), 0);
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
