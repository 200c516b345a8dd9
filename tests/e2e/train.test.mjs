// The Train view without a head, in Chromium: for V = 6, d = 3 and batches [1, 2], [3, 3], [0, 1],
// the rows each step lights for SGD, SGD with momentum, SGD with weight decay, Adam, AdamW,
// Adagrad and sparse SparseAdam are the rows PyTorch 1.13 changes (the table below, measured in
// PyTorch, is the reference); the verdict of the Linear route each step; PyTorch's refusal of
// sparse + Adam under the optimizer; a link that replays the training; the printout, run by
// PyTorch, printing what the page shows; the optimizer state of a picked row; Play;
// <embedding-demo view="train">; batches typed as text; and screenshots mid-training at 1280
// and 375 px, light and dark. With a head: train-head.test.mjs.
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { before, describe, test } from 'node:test';
import { openHost } from './demo.mjs';
import { saveScreenshot } from './screenshots.mjs';
import { trainPage, VIEW } from './train-view.mjs';
import { siteDir } from '../site-dir.mjs';

const ALL = [0, 1, 2, 3, 4, 5];
// Rows changed at each step, as the installed PyTorch (1.13) changes them for V = 6, d = 3,
// torch.manual_seed(123) and batches [1, 2], [3, 3], [0, 1].
const PYTORCH_ROWS = [
  ['SGD', { optimizer: 'sgd' }, [[1, 2], [3], [0, 1]]],
  [
    'SGD, momentum 0.9',
    { optimizer: 'sgd', hyper: { momentum: '0.9' } },
    [
      [1, 2],
      [1, 2, 3],
      [0, 1, 2, 3],
    ],
  ],
  [
    'SGD, weight_decay 0.01',
    { optimizer: 'sgd', hyper: { 'weight-decay': '0.01' } },
    [ALL, ALL, ALL],
  ],
  [
    'Adam',
    { optimizer: 'adam' },
    [
      [1, 2],
      [1, 2, 3],
      [0, 1, 2, 3],
    ],
  ],
  ['AdamW', { optimizer: 'adamw' }, [ALL, ALL, ALL]],
  ['Adagrad', { optimizer: 'adagrad' }, [[1, 2], [3], [0, 1]]],
  ['sparse=True, SparseAdam', { optimizer: 'sparse-adam', sparse: true }, [[1, 2], [3], [0, 1]]],
];

describe('the Train view without a head', () => {
  const opened = trainPage((env) => `${env.url}?ids=1,2,3,0&vocab=6&dim=3`);
  let env;
  let view;
  before(() => ({ env, view } = opened()));

  const field = (name) => view.field(name);
  const fieldError = (name) => view.fieldError(name);
  const invalid = (name) => view.invalid(name);
  const waitForStep = (k) => view.waitForStep(k);
  const openTrain = (url) => view.openTrain(url);
  const setTraining = (spec) => view.setTraining(spec);
  const step = (k) => view.step(k);
  const atWidths = (check) => view.atWidths(check);
  const litRows = () => view.litRows();
  const timeline = () => view.timeline();
  const batchesFrom = (value) => view.dataFrom(value);
  const verdictWord = () => env.page.textContent(`${VIEW} .verdict .verdict-word`);

  for (const [label, training, expected] of PYTORCH_ROWS) {
    test(`${label}: the rows each step lights are the rows PyTorch changes`, async () => {
      await setTraining(training);
      for (let k = 1; k <= 3; ++k) {
        await step(k);
        assert.deepEqual(
          (await litRows()).map(([row]) => row),
          expected[k - 1],
          `step ${k}`,
        );
        const word = await verdictWord();
        if (training.optimizer === 'sparse-adam') assert.equal(word, 'no Linear route');
        else
          assert.ok(
            ['bit-identical', 'equal in value', 'equal up to rounding'].includes(word),
            word,
          );
      }
      assert.deepEqual(await timeline(), expected);
      assert.ok(await env.page.isDisabled(`${VIEW} [data-action="step"]`), 'no batch is left');
    });
  }

  test('why each row changed, in words beside the colour', async () => {
    await setTraining({ optimizer: 'sgd', hyper: { momentum: '0.9' } });
    await step(1);
    await step(2);
    assert.deepEqual(await litRows(), [
      [1, 'momentum'],
      [2, 'momentum'],
      [3, 'in the batch'],
    ]);
    await setTraining({ optimizer: 'adam' });
    await step(1);
    await step(2);
    assert.deepEqual(await litRows(), [
      [1, 'optimizer state'],
      [2, 'optimizer state'],
      [3, 'in the batch'],
    ]);
    assert.equal(await verdictWord(), 'bit-identical');
    await setTraining({ optimizer: 'adamw' });
    await step(1);
    assert.deepEqual(
      (await litRows()).filter(([, why]) => why === 'weight decay').map(([row]) => row),
      [0, 3, 4, 5],
    );
    const legend = await env.page.$$eval(`${VIEW} .train-legend li`, (items) =>
      items.map((item) => item.textContent),
    );
    assert.deepEqual(legend, ['●in the batch', '■weight decay', '▲momentum', '◆optimizer state']);
  });

  test("PyTorch's refusal of sparse=True with Adam, under the optimizer; bad input under its field", async () => {
    const { page } = env;
    await page.selectOption(field('optimizer'), 'adam');
    await page.setChecked(field('sparse'), true);
    await invalid('optimizer');
    assert.deepEqual(await fieldError('optimizer'), [
      'Adam does not support sparse gradients, please consider SparseAdam instead',
      'true',
    ]);
    assert.ok(await page.isDisabled(`${VIEW} [data-action="step"]`));
    await page.setChecked(field('sparse'), false);
    await waitForStep(0);
    assert.equal(await fieldError('optimizer'), null);

    await page.fill(field('lr'), '0.0x1');
    await invalid('lr');
    assert.deepEqual(await fieldError('lr'), [
      'lr must be a number, e.g. 0.001; got "0.0x1"',
      'true',
    ]);
    await page.fill(field('lr'), '-1');
    await page.waitForFunction(
      (selector) =>
        document.getElementById(document.querySelector(selector).getAttribute('aria-describedby'))
          .textContent === 'Invalid learning rate: -1.0',
      field('lr'),
    );
    await page.fill(field('lr'), '0.001');
    await page.fill(field('batches'), '1, 2; 6');
    await invalid('batches');
    assert.deepEqual(await fieldError('batches'), [
      'batch 2: index out of range in self: id 6 at position 1 is not ' +
        'below the vocabulary size V = 6 (valid ids are 0..5)',
      'true',
    ]);
    await setTraining({ optimizer: 'sgd' });
  });

  test('a table too large to train here gets a clear message, and nothing trains', async () => {
    const { page } = env;
    await page.fill('#vocab', '100000');
    await page.fill('#dim', '8');
    await page.locator(VIEW).scrollIntoViewIfNeeded(); // the view checks once in sight
    const alert = `${VIEW} [data-part="alert"]`;
    // The result of V alone (d still 3) may come first, from a compute worker already started:
    // the view's message follows the inputs to the last.
    await page.waitForFunction(
      (selector) => document.querySelector(selector).textContent.includes('V × d = 800,000'),
      alert,
    );
    assert.ok(await page.isVisible(alert));
    assert.match(
      await page.textContent(alert),
      /^V × d = 800,000 is more than this page trains between two frames \(at most 262,144\)/,
    );
    assert.ok(await page.isDisabled(`${VIEW} [data-action="step"]`));
    await page.fill('#vocab', '6');
    await page.fill('#dim', '3');
    await page.locator(VIEW).scrollIntoViewIfNeeded(); // the view trains (draws W) once in sight
    await waitForStep(0);
  });

  test('Play steps through every batch and stops at the last', async () => {
    const { page } = env;
    await setTraining({ optimizer: 'sgd', hyper: { momentum: '0.9' } });
    await page.click(`${VIEW} [data-action="play"]`);
    await waitForStep(3);
    await page.waitForFunction(
      (view) => document.querySelector(`${view} [data-action="play"]`).textContent === 'Play',
      VIEW,
    );
    assert.deepEqual(await timeline(), PYTORCH_ROWS[1][2]);
  });

  test('a link reproduces the training, step for step', async () => {
    const { page } = env;
    await setTraining({
      optimizer: 'adam',
      hyper: { lr: '0.05', betas: '0.5, 0.9' },
      paddingIdx: '1',
    });
    await step(1);
    await step(2);
    await page.waitForFunction(() => new URL(location.href).searchParams.get('steps') === '2');
    const link = page.url();
    const url = new URL(link);
    assert.equal(url.searchParams.get('opt'), 'adam');
    assert.equal(url.searchParams.get('opt.lr'), '0.05');
    assert.equal(url.searchParams.get('padding_idx'), '1');
    const shown = async () => ({
      lit: await litRows(),
      timeline: await timeline(),
      word: await verdictWord(),
      cells: await page.$$eval(`${VIEW} .train-weights tbody td`, (cells) =>
        cells.map((cell) => cell.textContent),
      ),
    });
    const before = await shown();
    await page.goto('about:blank');
    await openTrain(link);
    await waitForStep(2);
    assert.equal(await page.inputValue(field('betas')), '0.5, 0.9');
    assert.equal(await page.inputValue(field('optimizer')), 'adam');
    assert.deepEqual(await shown(), before);
    await openTrain(`${env.url}?ids=1,2,3,0&vocab=6&dim=3`);
  });

  test('picking a row shows its optimizer state, and picks its token on the page', async () => {
    const { page } = env;
    await setTraining({ optimizer: 'adam' });
    await step(1);
    await page.click(`${VIEW} .row-pick[data-row="3"]`);
    await page.waitForFunction(
      (view) =>
        document.querySelector(`${view} [data-part="state-title"]`).textContent.endsWith('row 3'),
      VIEW,
    );
    const terms = await page.$$eval(`${VIEW} .train-state-list dt`, (dts) =>
      dts.map((dt) => dt.textContent),
    );
    assert.deepEqual(terms, ['step', 'exp_avg[3]', 'exp_avg_sq[3]']);
    // Row 3 has not been in a batch yet: Adam's running averages of it are still zero.
    assert.deepEqual(
      await page.$$eval(`${VIEW} .train-state-list dd`, (dds) => dds.map((dd) => dd.textContent)),
      ['1', '[0., 0., 0.]', '[0., 0., 0.]'],
    );
    // Id 3 is the page's token 2: the page follows it.
    await page.waitForFunction(() => new URL(location.href).searchParams.get('k') === '2');
    await page.hover(`${VIEW} .train-weights tr[data-vocab="1"] td`);
    await page.waitForFunction(() =>
      document
        .querySelector('#results [data-box="lookup"] tr[data-token="0"]')
        ?.classList.contains('linked'),
    );
  });

  // The copied script, run in PyTorch, prints what the view shows under its steps.
  async function checkPrintout() {
    const { script, printed, out } = await view.checkPrintout();
    assert.equal(out, `${printed.join('\n')}\n`);
    return { script, printed };
  }

  test('the printout, run in PyTorch, prints what the view shows', async () => {
    await setTraining({
      optimizer: 'sgd',
      hyper: { momentum: '0.9' },
      paddingIdx: '-1',
      batches: '1, 5, 5; 3, 3; 0, 1',
    });
    await env.page.check(field('nesterov'));
    await waitForStep(0);
    await step(1);
    await step(2);
    await step(3);
    const { script, printed } = await checkPrintout();
    assert.match(
      script,
      /opt_e = torch\.optim\.SGD\(embedding\.parameters\(\), lr=0\.1, momentum=0\.9, nesterov=True\)/,
    );
    assert.match(script, /embedding = nn\.Embedding\(V, d, padding_idx=-1\)/);
    // What PyTorch printed is what the view shows: the rows it lit, the verdict's torch.equal.
    const lit = (await litRows()).map(([row]) => row);
    assert.match(printed.at(-2), new RegExp(`step 3 changed rows \\[${lit.join(', ')}\\]$`));
    assert.equal(printed.at(-1), (await verdictWord()) === 'bit-identical' ? 'True' : 'False');

    await setTraining({ optimizer: 'sparse-adam', sparse: true });
    await step(1);
    await step(2);
    const sparse = await checkPrintout();
    assert.match(
      sparse.script,
      /# the Linear route cannot follow: .* SparseAdam does not support dense gradients/,
    );
    assert.match(sparse.printed.at(-1), /step 2 changed rows \[3\]$/);
    await env.page.click(`${VIEW} details.train-printout summary`);
  });

  test('mid-training at 1280 and 375 px, light and dark: nothing overflows the page', async () => {
    const { page } = env;
    await setTraining({ optimizer: 'sgd', hyper: { momentum: '0.9' } });
    await step(1);
    await step(2);
    await page.emulateMedia({ reducedMotion: 'reduce' }); // the rows' light, without its fading
    await atWidths(async (width) => {
      // V = 6, d = 3: W and the timeline fit without scrolling their boxes.
      const boxes = await page.$$eval(`${VIEW} .table-box`, (all) =>
        all.map((box) => box.scrollWidth - box.clientWidth),
      );
      assert.deepEqual(boxes, [0, 0], `the tables scroll sideways at ${width} px`);
      for (const scheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: scheme });
        await saveScreenshot(
          page.locator(VIEW),
          scheme === 'light' ? `train-none-${width}.png` : `train-none-${width}-dark.png`,
          { publish: false },
        );
      }
    });
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
  });

  test("batches typed as text: each line GPT-2's ids, trained on its whole vocabulary, the rows lit those ids, a link restores it", async () => {
    const { page } = env;
    // The ids, from the tokenizer's own package, not from the page's worker.
    const { encode } = await import('gpt-tokenizer/encoding/r50k_base');
    const lines = ['the cat', 'the dog'];
    const ids = lines.map((line) => encode(line));
    const rowsOf = (batch) => [...new Set(batch)].sort((a, b) => a - b);
    // Plain SGD, whatever the tests before left in its fields: only a batch's rows change.
    await setTraining({ optimizer: 'sgd', hyper: { momentum: '0', 'weight-decay': '0' } });
    await batchesFrom('text');
    await page.selectOption(field('batch-tokenizer'), 'gpt2');
    await page.fill(field('batch-lines'), lines.join('\n'));
    await waitForStep(0);
    const shownIds = await page.$$eval(`${VIEW} .train-line`, (items) =>
      items.map((item) =>
        [...item.querySelectorAll('.train-token')].map((token) => Number(token.dataset.id)),
      ),
    );
    assert.deepEqual(shownIds, ids);
    assert.equal(
      await page.textContent(`${VIEW} [data-part="shape"]`),
      "GPT-2's vocabulary has 50,257 rows, " +
        "one for every id it can give: trained as V = 50,257, with the page's d = 3.",
    );
    assert.match(
      await page.textContent(`${VIEW} [data-part="origin"]`),
      /^torch\.manual_seed\(123\); embedding = nn\.Embedding\(50257, 3\)/,
    );
    await step(1);
    assert.deepEqual(
      (await litRows()).map(([row]) => row),
      rowsOf(ids[0]),
    );
    assert.match(
      await page.textContent(`${VIEW} [data-part="status"]`),
      /^Step 1 of 2: batch \[[\d, ]+\], "the cat"\.$/,
    );
    assert.ok(
      ['bit-identical', 'equal in value', 'equal up to rounding'].includes(await verdictWord()),
    );
    await step(2);
    assert.deepEqual(
      (await litRows()).map(([row]) => row),
      rowsOf(ids[1]),
    );
    assert.deepEqual(await timeline(), ids.map(rowsOf));
    const { script } = await checkPrintout();
    assert.match(script, /# batch 2: "the dog"\nidx = torch\.tensor\(\[(\d+), (\d+)\]\)/);
    await page.click(`${VIEW} details.train-printout summary`);

    await page.waitForFunction(() => new URL(location.href).searchParams.get('steps') === '2');
    const link = new URL(page.url());
    assert.equal(link.searchParams.get('head'), 'none');
    assert.equal(link.searchParams.get('batches_from'), null, 'text is the default');
    assert.equal(link.searchParams.get('batch_lines'), 'the cat\nthe dog');
    assert.equal(link.searchParams.get('batch_tokenizer'), 'gpt2');
    const lit = await litRows();
    await page.goto('about:blank');
    await openTrain(link.href);
    await waitForStep(2);
    assert.equal(await page.inputValue(field('batch-lines')), 'the cat\nthe dog');
    assert.ok(await page.isChecked(`${VIEW} input[name="batches-from"][value="text"]`));
    assert.deepEqual(await litRows(), lit);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await atWidths((width) =>
      saveScreenshot(page.locator(VIEW), `train-text-${width}.png`, { publish: false }),
    );
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await openTrain(`${env.url}?ids=1,2,3,0&vocab=6&dim=3`);
  });

  test('batches typed as text: an empty line, a line of too many tokens, a vocabulary too large, each named', async () => {
    const { page } = env;
    await page.selectOption(field('head'), 'none');
    await batchesFrom('text');
    const errorOf = async (name, words) => {
      await page.waitForFunction(
        ([selector, words]) => {
          const input = document.querySelector(selector);
          const box = document.getElementById(input.getAttribute('aria-describedby'));
          return (
            !box.hidden &&
            box.textContent.startsWith(words) &&
            input.getAttribute('aria-invalid') === 'true'
          );
        },
        [field(name), words],
      );
      assert.ok(await page.isDisabled(`${VIEW} [data-action="step"]`));
    };
    await page.selectOption(field('batch-tokenizer'), 'gpt2');
    await page.fill(field('batch-lines'), 'the cat\n\nthe dog');
    await errorOf('batch-lines', 'Line 2 is empty: each line is one batch');
    const { loadEmbedlab } = await import(
      pathToFileURL(path.join(siteDir, 'embedlab/embedlab.node.mjs')).href
    );
    const { maxIds } = (await loadEmbedlab()).limits;
    // "a a a …": one token a word.
    await page.fill(field('batch-lines'), `the cat\n${'a '.repeat(maxIds)}a`);
    // The core's words for too many ids.
    const [most, given] = [maxIds, maxIds + 1].map((n) => n.toLocaleString('en-US'));
    await errorOf(
      'batch-lines',
      `Line 2: too many token ids: ${given} given, at most ${most} are accepted at once`,
    );
    await page.selectOption(field('batch-tokenizer'), 'gemma3');
    await errorOf(
      'batch-tokenizer',
      "Gemma 3's vocabulary has 262,145 rows, one for every id it can give: more than the 262,144",
    );
    await batchesFrom('ids');
    await waitForStep(0);
  });

  test('<embedding-demo view="train">: the defaults train in it; without a head, its fields as here', async () => {
    const { page } = env;
    await openHost(
      env,
      'train-demo',
      '<embedding-demo id="demo" view="train" ids="1, 2, 3, 0" vocab="6" dim="3"></embedding-demo>',
    );
    const inDemo = (selector) => page.locator(`#demo >> ${selector}`);
    const status = () =>
      page.evaluate(
        () =>
          document.querySelector('#demo').shadowRoot.querySelector('[data-part="status"]')
            .textContent,
      );
    // The defaults: the tied head on the text, through GPT-2's tokenizer, in the element too.
    await page.waitForFunction(() =>
      document
        .querySelector('#demo')
        .shadowRoot.querySelector('[data-part="status"]')
        .textContent.startsWith('7 windows of 4 tokens'),
    );
    await inDemo('[data-action="step"]').click();
    await page.waitForFunction(() =>
      document
        .querySelector('#demo')
        .shadowRoot.querySelector('[data-part="status"]')
        .textContent.startsWith('Step 1: epoch 1, batch 1 of 3'),
    );
    assert.match(await status(), /loss \d+\.\d{4}/);
    // Tied, every row moved: each row W shows, its batch's, lit (drawn once on screen).
    await inDemo('[data-draw="weights"]').scrollIntoViewIfNeeded();
    await page.waitForFunction(
      () =>
        document.querySelector('#demo').shadowRoot.querySelector('[data-draw="weights"]').dataset
          .drawn === '1',
    );
    const [lit, shown] = await page.evaluate(() => {
      const root = document.querySelector('#demo').shadowRoot;
      return [
        root.querySelectorAll('.train-weights tr.changed').length,
        root.querySelectorAll('.train-weights tr[data-vocab]').length,
      ];
    });
    assert.ok(shown >= 5);
    assert.equal(lit, shown);
    // The view's style sheet came along into the shadow root.
    assert.equal(
      await page.evaluate(
        () =>
          getComputedStyle(document.querySelector('#demo').shadowRoot.querySelector('.train-bar'))
            .display,
      ),
      'flex',
    );
    await page.selectOption('#demo >> select[name="head"]', 'none');
    await page.selectOption('#demo >> select[name="optimizer"]', 'adam');
    await inDemo('input[name="sparse"]').check();
    await page.waitForFunction(
      () =>
        document
          .querySelector('#demo')
          .shadowRoot.querySelector('select[name="optimizer"]')
          .getAttribute('aria-invalid') === 'true',
    );
  });
});
