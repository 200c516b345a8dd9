// The Train view in Chromium: for V = 6, d = 3 and batches [1, 2], [3, 3], [0, 1], the rows each
// step lights for SGD, SGD with momentum, SGD with weight decay, Adam, AdamW, Adagrad and sparse
// SparseAdam are the rows PyTorch 1.13 changes (the table below, measured in PyTorch, is the
// reference); the verdict of the Linear route each step; PyTorch's refusal of sparse + Adam under
// the optimizer; a link that replays the training; the printout, run by PyTorch, printing what
// the page shows; the optimizer state of a picked row; Play; <embedding-demo view="train">; and
// screenshots mid-training at 1280 and 375 px, light and dark. With a head (next-token
// training, tied or untied, SGD, momentum and Adam): each step's loss and the rows it moves
// against PyTorch 1.13 (tests/fixtures/train-head.json, made by make_train_head.py), the words
// of why, a picked row's update in PyTorch's numbers, the printout run in PyTorch, the head in
// the address, its errors, and the view at 1280 and 375 px with nothing clipped.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, afterEach, before, describe, test } from 'node:test';
import { openSite, pageOverflow, waitForVerdict } from './harness.mjs';
import { openHost } from './demo.mjs';
import { saveScreenshot } from './screenshots.mjs';
import { siteDir } from '../site-dir.mjs';
import { pythonPath } from '../tools.mjs';

const VIEW = '#train';
const HEAD_FIXTURE = JSON.parse(
  readFileSync(new URL('../fixtures/train-head.json', import.meta.url), 'utf8'),
);
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

describe('the Train view', () => {
  let env;
  before(async () => {
    env = await openSite();
    await openTrain(`${env.url}?ids=1,2,3,0&vocab=6&dim=3`);
  });
  after(async () => {
    await env?.close();
  });
  afterEach(() => env.assertClean());

  const field = (name) => `${VIEW} [name="${name}"]`;
  // The error shown under a field, with the field's aria-invalid, or null where none is shown.
  const fieldError = (name) =>
    env.page.evaluate((selector) => {
      const input = document.querySelector(selector);
      const box = document.getElementById(input.getAttribute('aria-describedby'));
      return box.hidden ? null : [box.textContent, input.getAttribute('aria-invalid')];
    }, field(name));
  // Resolves once the field is marked invalid.
  const invalid = (name) =>
    env.page.waitForFunction(
      (selector) => document.querySelector(selector).getAttribute('aria-invalid') === 'true',
      field(name),
    );

  // The page at url, scrolled to the Train view once it shows a table.
  async function openTrain(url) {
    const { page } = env;
    await page.goto(url);
    await waitForVerdict(page, 'bit-identical');
    await page.locator(VIEW).scrollIntoViewIfNeeded();
    await page.waitForSelector(`${VIEW} .train-weights`);
  }

  // Resolves once the view shows step k of its inputs (not stale).
  function waitForStep(k) {
    return env.page.waitForFunction(
      ([view, k]) => {
        const root = document.querySelector(`${view} .train-view`);
        const status = root.querySelector('[data-part="status"]').textContent;
        return (
          !root.classList.contains('stale') &&
          (k === 0 ? status.endsWith('Step takes the first.') : status.startsWith(`Step ${k} of `))
        );
      },
      [VIEW, k],
    );
  }

  // The optimizer, its hyperparameters as typed (by input name), sparse=True, padding_idx and
  // the batches, in the view's fields; resolves at step 0 of that training.
  async function setTraining({
    head = 'none',
    optimizer,
    hyper = {},
    sparse = false,
    paddingIdx = '',
    batches = '1,2; 3,3; 0,1',
  }) {
    const { page } = env;
    // sparse=True and padding_idx are shown without a head only.
    await page.selectOption(field('head'), 'none');
    await page.setChecked(field('sparse'), sparse);
    await page.fill(field('padding-idx'), paddingIdx);
    await page.selectOption(field('head'), head);
    await page.selectOption(field('optimizer'), optimizer);
    for (const [name, text] of Object.entries(hyper)) await page.fill(field(name), text);
    await page.fill(field('batches'), batches);
    await waitForStep(0);
  }

  // Batches typed as 'ids' or as 'text', picked as the learner does, by the switch's label.
  const batchesFrom = (value) =>
    env.page.click(`${VIEW} .train-batches-head label[for$="-from-${value}"]`);

  async function step(k) {
    await env.page.click(`${VIEW} [data-action="step"]`);
    await waitForStep(k);
  }

  // At 1280 and then 375 px, the view in sight and the page no wider than the screen: check(width)
  // for each; then back to 1280 px.
  async function atWidths(check) {
    const { page } = env;
    for (const [width, height] of [
      [1280, 900],
      [375, 800],
    ]) {
      await page.setViewportSize({ width, height });
      await page.locator(VIEW).scrollIntoViewIfNeeded();
      assert.equal(await pageOverflow(page), 0, `sideways overflow at ${width} px`);
      await check(width);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  // The rows lit in W, each with the words of why.
  const litRows = () =>
    env.page.$$eval(`${VIEW} .train-weights tbody tr.changed`, (rows) =>
      rows.map((row) => [
        Number(row.dataset.vocab),
        row.querySelector('td.why .cause-text').textContent,
      ]),
    );
  // The timeline: for each step taken, the rows marked changed.
  const timeline = () =>
    env.page.$$eval(`${VIEW} .train-timeline tbody tr[data-vocab]`, (rows) => {
      const steps = [];
      for (const row of rows) {
        [...row.querySelectorAll('td')].forEach((cell, k) => {
          if (cell.classList.contains('future')) return;
          steps[k] ??= [];
          if (cell.classList.contains('changed')) steps[k].push(Number(row.dataset.vocab));
        });
      }
      return steps;
    });
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
    const { page } = env;
    await page.evaluate(() => {
      Object.defineProperty(navigator.clipboard, 'writeText', {
        value: async (text) => {
          window.copiedText = text;
        },
        configurable: true,
      });
      window.copiedText = null;
    });
    const details = `${VIEW} details.train-printout`;
    if (!(await page.locator(details).evaluate((node) => node.open)))
      await page.click(`${details} summary`);
    await page.click(`${details} .copy-script`);
    await page.waitForFunction(() => window.copiedText !== null);
    const script = await page.evaluate(() => window.copiedText);
    const printed = await page.$$eval(`${details} .printout-out`, (outs) =>
      outs.map((out) => out.textContent),
    );
    const out = execFileSync(pythonPath, ['-'], {
      input: script,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'inherit'],
    });
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
          scheme === 'light' ? `train-${width}.png` : `train-${width}-dark.png`,
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
        [...item.querySelectorAll('.train-token-id')].map((id) => Number(id.textContent)),
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
    assert.equal(link.searchParams.get('batches_from'), 'text');
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

  // With a head: the fixture's trainings, the losses shown, the picked row's update.
  const noSpace = (text) => text.replace(/\s+/g, '');
  const headCase = (head, name) =>
    HEAD_FIXTURE.cases.find((c) => c.head === head && c.name === name);
  const setHead = (c) =>
    setTraining({
      head: c.head,
      optimizer: c.optimizer,
      hyper: c.hyper,
      batches: HEAD_FIXTURE.batches,
    });
  const losses = () =>
    env.page.$$eval(`${VIEW} [data-part="losses"] li`, (items) =>
      items.map((item) => [
        Number(item.dataset.loss),
        item.querySelector('.loss-text').textContent,
      ]),
    );
  const sequences = HEAD_FIXTURE.batches.split(';').map((b) => b.split(',').map(Number));
  const inputRows = (k) => [...new Set(sequences[k].slice(0, -1))].sort((a, b) => a - b);

  for (const c of HEAD_FIXTURE.cases) {
    test(`${c.head} head, ${c.name}: each step's loss and the rows it moves are PyTorch's`, async () => {
      const { page } = env;
      await setHead(c);
      for (let k = 1; k <= c.steps.length; ++k) {
        await step(k);
        const theirs = c.steps[k - 1];
        assert.deepEqual(
          (await litRows()).map(([row]) => row),
          theirs.changed,
          `step ${k}`,
        );
        // What moves, as PyTorch moved it: untied with plain SGD the input rows alone, tied
        // every row at every step.
        if (c.head === 'tied') assert.deepEqual(theirs.changed, ALL);
        if (c.head === 'untied' && c.name === 'sgd')
          assert.deepEqual(theirs.changed, inputRows(k - 1));
      }
      assert.deepEqual(
        await timeline(),
        c.steps.map((s) => s.changed),
      );
      const shown = await losses();
      assert.equal(shown.length, c.steps.length);
      shown.forEach(([loss, text], k) => {
        const theirs = c.steps[k];
        // The dense side is graded: the core's products sum in another order than the BLAS's.
        assert.ok(
          Math.abs(loss - theirs.loss) <= Math.abs(theirs.loss) / 4096,
          `step ${k + 1}: loss ${loss} against PyTorch's ${theirs.loss}`,
        );
        assert.equal(`tensor(${text}, grad_fn=<NllLossBackward0>)`, theirs.printed);
      });
      assert.equal(await page.locator(`${VIEW} .loss-point`).count(), c.steps.length);
      assert.match(
        await page.textContent(`${VIEW} [data-part="status"]`),
        new RegExp(`^Step 3 of 3: batch \\[4, 5\\], loss ${shown[2][1].replace('.', '\\.')}\\.$`),
      );
      // The points: every row, the last step's input row marked.
      assert.equal(await page.locator(`${VIEW} .row-point`).count(), 6);
      assert.deepEqual(
        await page.$$eval(`${VIEW} .row-point.input`, (gs) =>
          gs.map((g) => Number(g.dataset.vocab)),
        ),
        inputRows(2),
      );
      const legend = await page.$$eval(`${VIEW} .train-legend li`, (items) =>
        items.map((item) => item.textContent),
      );
      assert.equal(legend.includes('★the tied head'), c.head === 'tied', legend.join(' '));
    });
  }

  test('with a head, why the rows moved, in words', async () => {
    const { page } = env;
    const why = () => page.textContent(`${VIEW} [data-part="why"]`);
    await setHead(headCase('tied', 'sgd'));
    assert.match(await why(), /^Tied: head\.weight is embedding\.weight, one Parameter/);
    await step(1);
    assert.equal(
      await why(),
      'Tied: head.weight is embedding.weight, so the loss reaches W twice, and autograd adds ' +
        "both gradients into the same embedding.weight.grad: the lookup's, on the input rows " +
        "[1, 2] only, and the head's, which is dense, because the softmax over all 6 tokens " +
        'gives every row a share at every position. So all 6 rows moved in step 1.',
    );
    await setHead(headCase('untied', 'sgd'));
    await step(1);
    assert.match(
      await why(),
      /nonzero on the input rows \[1, 2\] only\. With torch\.optim\.SGD as set, only those rows moved\.$/,
    );
    await setHead(headCase('untied', 'momentum'));
    await step(1);
    await step(2);
    assert.match(
      await why(),
      /2 other rows moved as well, with no gradient of their own: the momentum buffer still holds an earlier step's gradient for them\.$/,
    );
  });

  test("a picked row's update, rule by rule, in the numbers PyTorch computes", async () => {
    const { page } = env;
    // [head, optimizer, row]: after step 2 (inputs [3, 3]), a row the lookup missed and one it hit.
    for (const [head, name, r] of [
      ['untied', 'sgd', 1],
      ['untied', 'momentum', 1],
      ['tied', 'sgd', 1],
      ['tied', 'adam', 3],
    ]) {
      const c = headCase(head, name);
      await setHead(c);
      await step(1);
      await step(2);
      await page.click(`${VIEW} .row-pick[data-row="${r}"]`);
      await page.waitForFunction(
        ([view, r]) =>
          document
            .querySelector(`${view} [data-part="state-title"]`)
            .textContent.startsWith(`Row ${r} in step 2: `),
        [VIEW, r],
      );
      const lines = await page.$$eval(`${VIEW} .train-update li`, (items) =>
        items.map((item) => [
          item.querySelector('.update-rule').textContent,
          item.querySelector('.update-numbers').textContent,
        ]),
      );
      const was = c.steps[0].rows[r];
      const now = c.steps[1].rows[r];
      const { grad, before, after, headGrad } = now;
      const origin =
        head === 'untied'
          ? 'zero: the lookup reaches only the input rows'
          : r === 3
            ? `the lookup's share plus the head's, ${headGrad}`
            : "all of it the head's: the lookup reaches only the input rows";
      // What the words say, PyTorch's numbers say: untied, row 1 has no gradient; tied, all of
      // its gradient is the head's.
      if (head === 'untied') assert.equal(noSpace(grad), '[0.,0.,0.]');
      if (head === 'tied' && r === 1) assert.equal(grad, headGrad);
      const expected = {
        sgd: [
          ['g = embedding.weight.grad[1]', `${grad}: ${origin}`],
          ['W[1] ← W[1] − 0.5·g', `${before} − 0.5·${grad} = ${after}`],
        ],
        momentum: [
          ['g = embedding.weight.grad[1]', `${grad}: ${origin}`],
          [
            'v ← 0.9·v + g',
            `0.9·${was.state.momentum_buffer} + ${grad} = ${now.state.momentum_buffer}`,
          ],
          ['W[1] ← W[1] − 0.5·v', `${before} − 0.5·${now.state.momentum_buffer} = ${after}`],
        ],
        adam: [
          ['g = embedding.weight.grad[3]', `${grad}: ${origin}`],
          [
            'm ← 0.9·m + (1 − 0.9)·g',
            `0.9·${was.state.exp_avg} + (1 − 0.9)·${grad} = ${now.state.exp_avg}`,
          ],
          [
            'v ← 0.999·v + (1 − 0.999)·g²',
            `0.999·${was.state.exp_avg_sq} + (1 − 0.999)·${grad}² = ${now.state.exp_avg_sq}`,
          ],
          [
            'W[3] ← W[3] − 0.05/(1 − 0.9^2)·m / (√v/√(1 − 0.999^2) + 1e-08)',
            `${before} − 0.05/(1 − 0.9^2)·${now.state.exp_avg} / ` +
              `(√${now.state.exp_avg_sq}/√(1 − 0.999^2) + 1e-08) = ${after}`,
          ],
        ],
      }[name];
      assert.deepEqual(
        lines.map(([rule, numbers]) => [rule, noSpace(numbers)]),
        expected.map(([rule, numbers]) => [rule, noSpace(numbers)]),
        `${head} ${name} row ${r}`,
      );
    }
  });

  test('with a head, the printout, run in PyTorch, prints what the view shows', async () => {
    await setHead(headCase('tied', 'momentum'));
    await step(1);
    await step(2);
    await step(3);
    const { script, printed } = await checkPrintout();
    assert.match(script, /\nhead\.weight = embedding\.weight {2}# tied/);
    assert.match(
      script,
      /opt = torch\.optim\.SGD\(embedding\.parameters\(\), lr=0\.5, momentum=0\.9\)/,
    );
    const shown = await losses();
    assert.deepEqual(
      printed.filter((text) => text.startsWith('tensor(')),
      shown.map(([, text]) => `tensor(${text}, grad_fn=<NllLossBackward0>)`),
    );
    assert.match(printed.at(-1), /step 3 changed rows \[0, 1, 2, 3, 4, 5\]$/);
    await setHead(headCase('untied', 'adam'));
    await step(1);
    const untied = await checkPrintout();
    assert.match(
      untied.script,
      /opt = torch\.optim\.Adam\(list\(embedding\.parameters\(\)\) \+ list\(head\.parameters\(\)\), lr=0\.05\)/,
    );
    assert.doesNotMatch(untied.script, /head\.weight = /);
    await env.page.click(`${VIEW} details.train-printout summary`);
  });

  test('the head in the address: a link replays it; a head that is none of them, and a sequence of one id, are named', async () => {
    const { page } = env;
    // A page whose address holds this training alone (the tests before typed long texts).
    await openTrain(`${env.url}?ids=1,2,3,0&vocab=6&dim=3`);
    await setHead(headCase('tied', 'adam'));
    await step(1);
    await step(2);
    await page.waitForFunction(() => new URL(location.href).searchParams.get('steps') === '2');
    const link = new URL(page.url());
    assert.equal(link.searchParams.get('head'), 'tied');
    const before = { lit: await litRows(), losses: await losses() };
    await page.goto('about:blank');
    await openTrain(link.href);
    await waitForStep(2);
    assert.equal(await page.inputValue(field('head')), 'tied');
    assert.deepEqual({ lit: await litRows(), losses: await losses() }, before);

    link.searchParams.set('head', 'shared');
    await page.goto('about:blank');
    await page.goto(link.href);
    await waitForVerdict(page, 'bit-identical');
    await page.locator(VIEW).scrollIntoViewIfNeeded();
    await invalid('head');
    assert.deepEqual(await fieldError('head'), [
      'head is none, untied or tied; got "shared"',
      'true',
    ]);
    assert.ok(await page.isDisabled(`${VIEW} [data-action="step"]`));
    await page.selectOption(field('head'), 'untied');
    await page.fill(field('batches'), '1, 2; 3');
    await invalid('batches');
    assert.deepEqual(await fieldError('batches'), [
      'batch 2 is the single id 3: with a head, each batch is a sequence whose next ids are ' +
        'predicted (inputs seq[:-1], targets seq[1:]), so it needs at least 2 ids',
      'true',
    ]);
    assert.ok(await page.isDisabled(`${VIEW} [data-action="step"]`));
    await openTrain(`${env.url}?ids=1,2,3,0&vocab=6&dim=3`);
  });

  test('with a head, at 1280 and 375 px: nothing clipped, a box that scrolls says so', async () => {
    const { page } = env;
    await page.emulateMedia({ reducedMotion: 'reduce' });
    for (const [head, name] of [
      ['tied', 'sgd'],
      ['untied', 'sgd'],
    ]) {
      await setHead(headCase(head, name));
      await step(1);
      await step(2);
      await page.click(`${VIEW} .row-pick[data-row="1"]`);
      await atWidths(async (width) => {
        const clipped = await page.evaluate(async (view) => {
          // The boxes' observers run after layout: two frames later they have.
          for (let k = 0; k < 2; ++k) await new Promise(requestAnimationFrame);
          const root = document.querySelector(`${view} .train-view`);
          const right = root.getBoundingClientRect().right;
          const out = [];
          // A table box may scroll, and then it is a named region the keyboard reaches.
          for (const box of root.querySelectorAll('.table-box')) {
            const scrolls = box.scrollWidth > box.clientWidth;
            if (
              scrolls &&
              !(box.getAttribute('role') === 'region' && box.getAttribute('aria-label'))
            )
              out.push(`an unnamed scrolling box: ${box.dataset.box}`);
          }
          for (const node of root.querySelectorAll(
            '.train-chart-svg, .train-update, .train-why, .train-losses, [data-part="origin"]',
          )) {
            if (node.getBoundingClientRect().right > right + 0.5)
              out.push(`${node.className.baseVal ?? node.className} passes the view's edge`);
            if (node.scrollWidth > node.clientWidth + 1) out.push(`${node.className} clips`);
          }
          return out;
        }, VIEW);
        assert.deepEqual(clipped, [], `${head} at ${width} px`);
        await saveScreenshot(page.locator(VIEW), `train-${head}-${width}.png`);
      });
    }
    await page.emulateMedia({ reducedMotion: 'no-preference' });
  });

  test('<embedding-demo view="train">', async () => {
    const { page } = env;
    await openHost(
      env,
      'train-demo',
      '<embedding-demo id="demo" view="train" ids="1, 2, 3, 0" vocab="6" dim="3"></embedding-demo>',
    );
    const inDemo = (selector) => page.locator(`#demo >> ${selector}`);
    await inDemo('.train-weights').waitFor();
    await inDemo('[data-action="step"]').click();
    await page.waitForFunction(() =>
      document
        .querySelector('#demo')
        .shadowRoot.querySelector('[data-part="status"]')
        .textContent.startsWith('Step 1 of 3'),
    );
    const lit = await page.evaluate(() =>
      [
        ...document.querySelector('#demo').shadowRoot.querySelectorAll('.train-weights tr.changed'),
      ].map((row) => Number(row.dataset.vocab)),
    );
    assert.deepEqual(lit, [1, 2]);
    assert.equal(await inDemo('.verdict-word').textContent(), 'bit-identical');
    // The view's style sheet came along into the shadow root.
    assert.equal(
      await page.evaluate(
        () =>
          getComputedStyle(document.querySelector('#demo').shadowRoot.querySelector('.train-bar'))
            .display,
      ),
      'flex',
    );
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
