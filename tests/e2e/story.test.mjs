// The first screen tells a story: seven steps beside the picture, each with a Try button that
// fills the inputs; the weights behind a disclosure that names them; what the inputs did that a
// learner would not guess, said under them; one token picker.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import {
  BOXES,
  sitePerSuite,
  tableCells,
  waitForLookupRows,
  waitForShape,
  waitForVerdict,
} from './harness.mjs';
import { saveScreenshot } from './screenshots.mjs';

describe('the story on the first screen', () => {
  const env = sitePerSuite();
  afterEach(() => env.assertClean());

  const tryStep = (n) => env.page.click(`#story .story-step:nth-child(${n}) button.try`);
  const note = () =>
    env.page.evaluate(() => {
      const box = document.getElementById('shape-note');
      return box.hidden ? '' : box.textContent;
    });
  const current = () =>
    env.page.$$eval('#story .story-step', (steps) =>
      steps.map((step) => step.getAttribute('aria-current')),
    );

  test('seven steps, each with its Try; the weights are closed behind their summary', async () => {
    const { page } = env;
    assert.deepEqual(
      await page.$$eval('#story .story-step h3', (hs) => hs.map((h) => h.textContent)),
      [
        'One id is a one-hot row',
        'Only row id of W survives',
        'Every token gives out = W[idx]',
        "Grow V to GPT-2's 50,257",
        'Positions are a second lookup',
        'The same W at the output',
        'Training moves every row when tied',
      ],
    );
    assert.equal(await page.$eval('#weights-disclosure', (d) => d.open), false);
    assert.equal(
      await page.textContent('#weights-disclosure summary'),
      'Weights W: torch.manual_seed(123)',
    );
    for (const width of [1280, 720, 480, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      if (width === 1280 || width === 375)
        await saveScreenshot(page, `first-screen-story-${width}.png`);
      // Every step's words are shown whole, in a column and on a phone too.
      const words = await page.$$eval('.story-step p', (paragraphs) =>
        paragraphs.map((p) => ({
          height: p.getBoundingClientRect().height,
          clipped: p.scrollHeight > p.clientHeight || p.scrollWidth > p.clientWidth,
        })),
      );
      assert.ok(words.length >= 7);
      for (const [i, { height, clipped }] of words.entries()) {
        assert.ok(height > 0 && !clipped, `${width} px: step ${i + 1}'s words`);
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test("step 1 shows one id's one-hot row; step 2 grows V, and the note says W is a new table", async () => {
    const { page } = env;
    await tryStep(1);
    await waitForLookupRows(page, [2]);
    assert.equal(await page.inputValue('#ids'), '2');
    assert.equal(await page.inputValue('#vocab'), '4');
    assert.deepEqual(await current(), ['step', null, null, null, null, null, null]);
    assert.deepEqual(
      (await tableCells(page, BOXES.onehot)).map((row) => row.slice(1)),
      [['0', '0', '1', '0']],
    );
    await tryStep(2);
    await waitForLookupRows(page, [0, 0, 7]);
    assert.deepEqual(await current(), [null, 'step', null, null, null, null, null]);
    // V went from 4 to 8 with the same seed: PyTorch draws the 40 values of W anew.
    assert.equal(
      await note(),
      'A new shape means a new table: W is now 8 × 5, not 4 × 5, and PyTorch draws its 40 ' +
        'numbers from seed 123 afresh, so the rows you saw can change too. V follows the ' +
        'largest id unless you type one. Hold V = 4',
    );
    await tryStep(3);
    await waitForLookupRows(page, [2, 3, 1]);
    await waitForVerdict(page, 'bit-identical');
    assert.equal(await note(), '', 'the table the page began with: nothing to say');
    await page.fill('#ids', '3, 1');
    await waitForLookupRows(page, [3, 1]);
    assert.equal(await note(), '', 'the same shape: nothing to say');
  });

  test('typing ids one by one: the note stays only while V differs, and V can be held', async () => {
    const { page } = env;
    await page.fill('#ids', '2');
    await waitForLookupRows(page, [2]);
    assert.match(await note(), /^A new shape means a new table: W is now 3 × 5, not 4 × 5/);
    await page.fill('#ids', '2, 3, 1');
    await waitForLookupRows(page, [2, 3, 1]);
    assert.equal(await note(), '');
    // Held, V stays 4 while the ids are typed from the start: W is the notebook's throughout.
    const notebookW = await tableCells(page, BOXES.weight);
    await page.fill('#ids', '2');
    await waitForLookupRows(page, [2]);
    await page.click('#shape-note .hold-vocab');
    await waitForShape(page, BOXES.weight, '4 × 5');
    assert.equal(await page.inputValue('#vocab'), '4');
    assert.equal(await note(), '');
    await page.fill('#ids', '2, 3');
    await waitForLookupRows(page, [2, 3]);
    await page.fill('#ids', '2, 3, 1');
    await waitForLookupRows(page, [2, 3, 1]);
    assert.deepEqual(await tableCells(page, BOXES.weight), notebookW);
    await page.fill('#vocab', '');
    await waitForVerdict(page, 'bit-identical');
  });

  test("step 4 takes a text through GPT-2's tokenizer, and the note says what Text mode set", async () => {
    const { page } = env;
    await tryStep(4);
    await page.waitForFunction(() => document.getElementById('ids').value === '464, 3797, 3332');
    await waitForLookupRows(page, [464, 3797, 3332]);
    assert.ok(await page.isChecked('#from-text'));
    assert.equal(await page.inputValue('#text'), 'The cat sat');
    assert.equal(
      await note(),
      "Text mode set V = 50,257, GPT-2's vocabulary, and d = 8, small enough " +
        "to read W's rows; change either above.",
    );
    // The picker shows each token's text beside its id.
    assert.deepEqual(
      await page.$$eval('#results [data-part="tokens"] button', (bs) =>
        bs.map((b) => b.textContent),
      ),
      ['The 464', '·cat 3797', '·sat 3332'],
    );
    // Back to typed ids: the step of typed ids leaves Text mode.
    await tryStep(3);
    await waitForLookupRows(page, [2, 3, 1]);
    assert.ok(await page.isChecked('#from-ids'));
  });

  test("the disclosure's summary names where W comes from", async () => {
    const { page } = env;
    await page.click('#weights-disclosure summary');
    await page.check('#source-tf');
    await page.waitForFunction(
      () => document.getElementById('weights-summary').textContent === 'row i = 0.11·i',
    );
    await page.fill('#seed', '7');
    await page.waitForFunction(
      () => document.getElementById('weights-summary').textContent === 'torch.manual_seed(7)',
    );
    assert.ok(await page.isChecked('#source-seed'));
    await page.fill('#seed', '123');
    await page.click('#weights-disclosure summary');
    await waitForVerdict(page, 'bit-identical');
  });

  test("steps 5 to 7 set the positions, head and Train views' inputs and show them", async () => {
    const { page } = env;
    await tryStep(5);
    await page.waitForSelector('#positions .verdict[data-state="identical"]');
    assert.match(await page.inputValue('#positions [name="batch"]'), /^40,367,2885,1464; /);
    assert.equal((await current())[4], 'step');
    await tryStep(6);
    await page.waitForFunction(
      () => document.querySelector('#head [name="batch"]').value === '40,367,2885,1464',
    );
    assert.equal(await page.inputValue('#head [name="top-k"]'), '3');
    await page.waitForFunction(() =>
      document
        .querySelector('#head [data-part="lookup"]')
        .textContent.startsWith('The input lookup read a row for each of the n = 4 ids'),
    );
    await tryStep(7);
    // The Train view's defaults: the tied head on the project's text, ready to Play.
    await page.waitForFunction(() =>
      document
        .querySelector('#train [data-part="status"]')
        ?.textContent.startsWith('7 windows of 4 tokens'),
    );
    assert.equal(await page.inputValue('#train [name="head"]'), 'tied');
    assert.match(await page.inputValue('#train [name="batch-lines"]'), /^An embedding layer is/);
    assert.deepEqual(await current(), [null, null, null, null, null, null, 'step']);
  });
});
