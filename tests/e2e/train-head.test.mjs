// The Train view with a head, in Chromium: the chapter's loop on one sequence's windows. At its
// defaults (the tied head, AdamW, positions, the project's text through GPT-2's tokenizer) Play
// brings the loss below half of the first by the step counter's STEPS_TO_HALVE, in the page's
// own numbers, while the page stays usable; no token the defaults show is on a short list of
// offensive words; the head view says its table is untrained, then shows what the training
// taught. For a small table (V = 6, d = 3) and the tied and untied heads with SGD, momentum and
// AdamW: each step's batch, loss and changed rows against PyTorch 1.13's DataLoader and modules
// (tests/fixtures/train-head.json, made by make_train_head.py), the words of why, a picked row's
// update in PyTorch's numbers, the printout run in PyTorch, the training in the address, its
// errors under their fields, and the view at 1280 and 375 px (screenshots mid-training).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { waitForVerdict } from './harness.mjs';
import { saveScreenshot } from './screenshots.mjs';
import { STEPS_TO_HALVE, trainPage, VIEW } from './train-view.mjs';

const FIXTURE = JSON.parse(
  readFileSync(new URL('../fixtures/train-head.json', import.meta.url), 'utf8'),
);
const OFFENSIVE = new Set(
  readFileSync(new URL('../fixtures/offensive-tokens.sha256', import.meta.url), 'utf8')
    .split('\n')
    .filter(Boolean),
);
// A token as the list holds it (make_offensive_hashes.py): lowercased, letters a-z only.
const hashOf = (token) =>
  createHash('sha256')
    .update(token.toLowerCase().replace(/[^a-z]/g, ''))
    .digest('hex');
const offensive = (tokens) => tokens.filter((t) => OFFENSIVE.has(hashOf(t)));

const status = (page) =>
  page.$eval(`${VIEW} [data-part="status"]`, (node) => ({
    text: node.textContent,
    steps: Number(node.dataset.steps),
    loss: Number(node.dataset.loss),
    first: Number(node.dataset.firstLoss),
  }));

// Every token the page shows in the Train view's predictions and text and the head view's lists.
// A prediction is one item of text whose tokens (spaces drawn as "·") are apart by white space.
const visibleTokens = async (page) =>
  [
    ...(await page.$$eval(`${VIEW} .pred`, (items) =>
      items.flatMap((item) => item.textContent.split(/\s+/)),
    )),
    ...(await page.$$eval(
      `${VIEW} .train-token, #head [data-token-of], ${VIEW} .row-token`,
      (nodes) => nodes.map((node) => node.textContent),
    )),
  ].filter(Boolean);

describe('the Train view at its defaults', () => {
  const opened = trainPage();
  let env;
  let view;
  let untrainedRight = 0; // the positions whose likeliest token, untrained, is their target
  before(async () => {
    ({ env, view } = opened());
    // The list's first entry once it is drawn: the sections above it, built as they come near,
    // may have moved an empty list out of sight.
    await env.page.locator('#head [data-part="top"] li').first().scrollIntoViewIfNeeded();
    await env.page.waitForFunction(() =>
      document.querySelector('#head [data-part="top-tokens"]').textContent.startsWith('Each token'),
    );
    await env.page.locator(VIEW).scrollIntoViewIfNeeded();
    await view.waitForStep(0);
  });

  test('untrained, the defaults show no offensive token, and the head view says its tokens are noise', async () => {
    const { page } = env;
    await view.drawnPart('predictions');
    // Each position: its input → its target, then the three likeliest with their shares.
    const lines = await page.$$eval(`${VIEW} .pred`, (items) =>
      items.map((item) => item.textContent.split('\n')),
    );
    assert.equal(lines.length, 7 * 4);
    for (const [pair, likeliest] of lines) {
      assert.match(pair, /^\S+ → \S+$/);
      assert.match(likeliest, /^(✓ )?\S+ [<\d.]+% \| (✓ )?\S+ [<\d.]+% \| (✓ )?\S+ [<\d.]+%$/);
    }
    untrainedRight = await page.locator(`${VIEW} .pred.learned`).count();
    const tokens = await visibleTokens(page);
    assert.ok(tokens.length >= 7 * 4 * 5 + 28 + 31, `${tokens.length} tokens`);
    assert.deepEqual(offensive(tokens), []);
    // The test can fail: the list holds a word GPT-2 has as a token of its own.
    assert.deepEqual(offensive(['·Hello', ' world']), []);
    assert.ok(OFFENSIVE.size >= 30);
    assert.match(
      await page.textContent('#head [data-part="trained"]'),
      /^This table is untrained: torch\.manual_seed\(123\) drew it and nothing has trained it, so its top tokens are noise/,
    );
    assert.match(
      (await status(page)).text,
      /^7 windows of 4 tokens, 3 batches an epoch: Play trains until you pause it/,
    );
  });

  test(`Play: by step ${STEPS_TO_HALVE} the loss is below half of the first, in the page's own numbers`, async () => {
    const { page } = env;
    await page.click(`${VIEW} [data-action="play"]`);
    assert.equal(await page.getAttribute(`${VIEW} [data-action="play"]`, 'aria-pressed'), 'true');
    // While it plays, the page's own inputs still answer: a new id gets its verdict.
    await page.waitForFunction(
      (view) => Number(document.querySelector(`${view} [data-part="status"]`).dataset.steps) >= 3,
      VIEW,
    );
    await page.fill('#ids', '2, 3, 1, 0');
    await waitForVerdict(page, 'bit-identical');
    await page.waitForFunction(
      ([view, steps]) =>
        Number(document.querySelector(`${view} [data-part="status"]`).dataset.steps) >= steps,
      [VIEW, STEPS_TO_HALVE],
      { timeout: 240_000 },
    );
    const { loss, first, steps } = await status(page);
    assert.ok(steps >= STEPS_TO_HALVE);
    assert.ok(loss < first / 2, `step ${steps}: loss ${loss} is not below half of ${first}`);
    await page.click(`${VIEW} [data-action="play"]`);
    assert.equal(await page.getAttribute(`${VIEW} [data-action="play"]`, 'aria-pressed'), 'false');
    // Each epoch's mean, under the chart (drawn whole once paused), falls too.
    await view.drawnPart('summary');
    const means = await page.$$eval(`${VIEW} [data-part="losses"] li`, (items) =>
      items.map((item) => Number(item.dataset.mean)),
    );
    assert.ok(means.length >= STEPS_TO_HALVE / 3);
    assert.ok(means.at(-1) < means[0] / 2, `epoch means ${means.join(', ')}`);
    // Mid-training, paused, as a learner sees it: at 1280 and 375 px, light and dark, each part
    // drawn at the step the view is at.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    for (const [width, height] of [
      [1280, 900],
      [375, 800],
    ]) {
      await page.setViewportSize({ width, height });
      for (const part of ['points', 'predictions', 'weights', 'steps']) await view.drawnPart(part);
      await page.locator(VIEW).scrollIntoViewIfNeeded();
      for (const scheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: scheme });
        await saveScreenshot(
          page.locator(VIEW),
          scheme === 'light' ? `train-${width}.png` : `train-${width}-dark.png`,
        );
      }
    }
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test('trained, the predictions come right, and the head view shows what the training taught', async () => {
    const { page } = env;
    await view.drawnPart('predictions');
    const learned = await page.$$eval(`${VIEW} .pred.learned`, (items) => items.length);
    // Untrained, hardly a position's likeliest token is its target; trained, a quarter or more.
    assert.ok(untrainedRight <= 2, `${untrainedRight} right untrained`);
    assert.ok(learned >= 7, `${learned} of 28 positions predict their target first`);
    await page.locator('#head').scrollIntoViewIfNeeded();
    await page.waitForFunction(() =>
      document
        .querySelector('#head [data-part="trained"]')
        .textContent.startsWith('This table is the Train view'),
    );
    const { steps } = await status(page);
    assert.match(
      await page.textContent('#head [data-part="trained"]'),
      new RegExp(
        `^This table is the Train view's, after ${steps} steps \\(\\d+ epochs\\) of next-token training`,
      ),
    );
    // Its batch is the text's windows: each position's top token is mostly the one that comes next.
    const batch = (await page.inputValue('#head input[name="batch"]'))
      .split(';')
      .map((row) => row.split(',').map(Number));
    const flat = batch.flat();
    const tops = await page.$$eval('#head [data-part="top"] li[data-position]', (items) =>
      items.map((li) => [
        Number(li.dataset.position),
        Number(li.querySelector('[data-id]').dataset.id),
      ]),
    );
    const right = tops.filter(([i, id]) => i % 4 < 3 && flat[i + 1] === id).length;
    assert.ok(right >= 2, `${right} of the shown positions predict the next token first`);
    await page.locator('#head [data-part="top"]').scrollIntoViewIfNeeded();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('#head [data-token-of]')].every((n) => n.textContent !== ''),
    );
    assert.deepEqual(offensive(await visibleTokens(page)), []);
  });
});

describe('the Train view with a head, against PyTorch', () => {
  const opened = trainPage((env) => `${env.url}?ids=1,2,3,0&vocab=6&dim=3`);
  let env;
  let view;
  before(() => ({ env, view } = opened()));

  const noSpace = (text) => text.replace(/\s+/g, '');
  const ids = FIXTURE.ids.split(',').map(Number);
  const loaderOf = () => ({ ...FIXTURE.loader, positions: true });
  const setHead = (c) =>
    view.setTraining({
      head: c.head,
      optimizer: c.optimizer,
      hyper: c.hyper,
      batches: FIXTURE.ids,
      loader: loaderOf(),
    });
  const headCase = (head, name) => FIXTURE.cases.find((c) => c.head === head && c.name === name);
  // The batch x of the step the view shows, from its windows.
  const shownBatch = async () => {
    const { text } = await status(env.page);
    const windows = /windows \[([\d, ]+)\]/.exec(text)[1].split(', ').map(Number);
    const { maxLength, stride } = FIXTURE.loader;
    return windows.map((w) => ids.slice(w * stride, w * stride + maxLength));
  };

  for (const c of FIXTURE.cases) {
    test(`${c.head} head, ${c.name}: each step's batch, loss and changed rows are PyTorch's`, async () => {
      await setHead(c);
      for (let k = 1; k <= c.steps.length; ++k) {
        await view.step(k);
        const theirs = c.steps[k - 1];
        assert.deepEqual(await shownBatch(), theirs.x, `step ${k}: DataLoader's batch`);
        // W shows the batch's rows, inputs and targets, and the picked one, 1 (the first id).
        const shown = await view.shownRows();
        assert.deepEqual(
          (await view.litRows()).map(([row]) => row),
          theirs.changed.filter((r) => shown.includes(r)),
          `step ${k}`,
        );
        const more = await env.page.textContent(`${VIEW} [data-part="more"]`);
        const hidden =
          theirs.changed.length - theirs.changed.filter((r) => shown.includes(r)).length;
        if (hidden > 0)
          assert.match(more, new RegExp(`^${hidden} more rows? changed in step ${k}`));
        const { loss, text } = await status(env.page);
        // The dense side is graded: the core's products sum in another order than the BLAS's.
        assert.ok(
          Math.abs(loss - theirs.loss) <= Math.abs(theirs.loss) / 4096,
          `step ${k}: loss ${loss} against PyTorch's ${theirs.loss}`,
        );
        const printed = /loss (\S+) \(/.exec(text)[1];
        assert.equal(`tensor(${printed}, grad_fn=<NllLossBackward0>)`, theirs.printed);
      }
      const shown = await view.shownRows();
      assert.deepEqual(
        await view.timeline(),
        c.steps.map((s) => s.changed.filter((r) => shown.includes(r))),
      );
    });
  }

  test('why the rows moved, in words; the batch rows named inputs or targets', async () => {
    const { page } = env;
    const why = () => page.textContent(`${VIEW} [data-part="why"]`);
    await setHead(headCase('tied', 'sgd'));
    assert.match(await why(), /^Tied: head\.weight is tok\.weight, one Parameter/);
    await view.step(1);
    assert.match(
      await why(),
      /^Tied: head\.weight is tok\.weight, so the loss reaches W twice, .* the lookup's, on the input rows \[0, 4, 5\] only, and the head's, which is dense: the softmax over all 6 tokens gives every row a share at every position, and pulls each target's row, \[1, 4, 5\], toward h\. So all 6 rows moved in step 1\.$/,
    );
    // x = [0, 4, 5], y = [4, 5, 1]: 0 an input, 4 and 5 both, 1 a target; rows 2 and 3, out of
    // the batch, moved by the head's gradient alone.
    assert.deepEqual(await view.litRows(), [
      [0, 'in the batch: input'],
      [1, 'in the batch: target'],
      [4, 'in the batch: input and target'],
      [5, 'in the batch: input and target'],
    ]);
    assert.match(
      await page.textContent(`${VIEW} [data-part="more"]`),
      /^2 more rows changed in step 1, out of view: the tied head's gradient reaches every row\.$/,
    );
    await setHead(headCase('untied', 'sgd'));
    await view.step(1);
    assert.match(
      await why(),
      /nonzero on the input rows \[0, 4, 5\] only\. With torch\.optim\.SGD as set, only those rows moved\.$/,
    );
    await setHead(headCase('untied', 'momentum'));
    await view.step(1);
    await view.step(2);
    assert.match(
      await why(),
      /2 other rows moved as well, with no gradient of their own: the momentum buffer still holds an earlier step's gradient for them\.$/,
    );
  });

  test("a picked row's update, rule by rule, in the numbers PyTorch computes", async () => {
    const { page } = env;
    // [head, optimizer, row]: after step 2 (x = [3, 3, 0], y = [3, 0, 4]), row 4, a target the
    // lookup missed (an input of step 1), and row 3, an input.
    for (const [head, name, r] of [
      ['untied', 'sgd', 4],
      ['untied', 'momentum', 4],
      ['tied', 'sgd', 4],
      ['tied', 'adamw', 3],
    ]) {
      const c = headCase(head, name);
      await setHead(c);
      await view.step(1);
      await view.step(2);
      await view.drawnPart('weights');
      await page.click(`${VIEW} .row-pick[data-row="${r}"]`);
      await page.locator(`${VIEW} [data-draw="steps"]`).scrollIntoViewIfNeeded();
      await page.waitForFunction(
        ([v, r]) =>
          document
            .querySelector(`${v} [data-part="state-title"]`)
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
      const { grad, before, after: later, headGrad } = now;
      const origin =
        head === 'untied'
          ? 'zero: the lookup reaches only the input rows'
          : r === 3
            ? `the lookup's share plus the head's, ${headGrad}`
            : "all of it the head's: the lookup reaches only the input rows";
      if (head === 'untied') assert.equal(noSpace(grad), '[0.,0.,0.]');
      if (head === 'tied' && r === 4) assert.equal(grad, headGrad);
      const expected = {
        sgd: [
          [`g = tok.weight.grad[${r}]`, `${grad}: ${origin}`],
          [`W[${r}] ← W[${r}] − 0.5·g`, `${before} − 0.5·${grad} = ${later}`],
        ],
        momentum: [
          [`g = tok.weight.grad[${r}]`, `${grad}: ${origin}`],
          [
            'v ← 0.9·v + g',
            `0.9·${was.state.momentum_buffer} + ${grad} = ${now.state.momentum_buffer}`,
          ],
          [`W[${r}] ← W[${r}] − 0.5·v`, `${before} − 0.5·${now.state.momentum_buffer} = ${later}`],
        ],
        adamw: [
          [`g = tok.weight.grad[${r}]`, `${grad}: ${origin}`],
          [
            `W[${r}] ← W[${r}]·(1 − 0.05·0.01) (decoupled weight decay)`,
            `${before}·(1 − 0.05·0.01)`,
          ],
          [
            'm ← 0.9·m + (1 − 0.9)·g',
            `0.9·${was.state.exp_avg} + (1 − 0.9)·${grad} = ${now.state.exp_avg}`,
          ],
          [
            'v ← 0.999·v + (1 − 0.999)·g²',
            `0.999·${was.state.exp_avg_sq} + (1 − 0.999)·${grad}² = ${now.state.exp_avg_sq}`,
          ],
          [
            `W[${r}] ← W[${r}] − 0.05/(1 − 0.9^2)·m / (√v/√(1 − 0.999^2) + 1e-08)`,
            `${before} − 0.05/(1 − 0.9^2)·${now.state.exp_avg} / ` +
              `(√${now.state.exp_avg_sq}/√(1 − 0.999^2) + 1e-08) = ${later}`,
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

  test('the printout, run in PyTorch, prints what the view shows', async () => {
    await setHead(headCase('tied', 'adamw'));
    for (let k = 1; k <= 3; ++k) await view.step(k);
    const { script, printed, out } = await view.checkPrintout();
    assert.match(script, /\nhead\.weight = tok\.weight {2}# tied/);
    assert.match(script, /\nopt = torch\.optim\.AdamW\(\[tok\.weight, pos\.weight\], lr=0\.05\)/);
    const line =
      /^step (\d+): x = (.*), loss tensor\(([-\d.e]+), grad_fn=<NllLossBackward0>\), rows changed: (\d+)$/;
    const mine = printed
      .at(-1)
      .split('\n')
      .map((l) => line.exec(l));
    const theirs = out
      .trim()
      .split('\n')
      .map((l) => line.exec(l));
    assert.equal(mine.length, 3);
    assert.equal(theirs.length, 3);
    mine.forEach((m, k) => {
      // The batches and the rows changed exactly; the loss to its printed digits, but for a
      // rare last one (the BLAS's summation order).
      assert.equal(m[2], theirs[k][2], `step ${k + 1}: x`);
      assert.equal(m[4], theirs[k][4], `step ${k + 1}: rows changed`);
      assert.ok(Math.abs(Number(m[3]) - Number(theirs[k][3])) <= 1e-4, `step ${k + 1}: loss`);
    });
    await env.page.click(`${VIEW} details.train-printout summary`);
  });

  test('the training in the address: a link replays it; bad input under its field', async () => {
    const { page } = env;
    await setHead(headCase('tied', 'adamw'));
    await view.step(1);
    await view.step(2);
    await page.waitForFunction(() => new URL(location.href).searchParams.get('steps') === '2');
    const link = new URL(page.url());
    assert.equal(link.searchParams.get('max_length'), '3');
    assert.equal(link.searchParams.get('stride'), '2');
    assert.equal(link.searchParams.get('batch_size'), '1');
    // The batch's rows, as the link's page lights them (the picked row is the page's own).
    const batchRows = async () =>
      (await view.litRows()).filter(([, why]) => why.startsWith('in the batch'));
    const lit = await batchRows();
    const shown = await status(page);
    await page.goto('about:blank');
    await view.openTrain(link.href);
    await view.waitForStep(2);
    assert.deepEqual(await batchRows(), lit);
    assert.equal((await status(page)).text, shown.text);

    link.searchParams.set('head', 'shared');
    await page.goto('about:blank');
    await page.goto(link.href);
    await waitForVerdict(page, 'bit-identical');
    await page.locator(VIEW).scrollIntoViewIfNeeded();
    await view.invalid('head');
    assert.deepEqual(await view.fieldError('head'), [
      'head is tied, untied or none; got "shared"',
      'true',
    ]);
    await page.selectOption(view.field('head'), 'untied');
    await page.fill(view.field('batches'), '1, 2; 3, 4');
    await view.invalid('batches');
    assert.match((await view.fieldError('batches'))[0], /^with a head, the ids are one sequence/);
    await page.fill(view.field('batches'), '1, 2, 3');
    await view.invalid('max-length');
    assert.match(
      (await view.fieldError('max-length'))[0],
      /^a window of max_length = 3 ids needs its target, shifted by one: 4 ids, and the sequence has 3 ids/,
    );
    assert.ok(await page.isDisabled(`${VIEW} [data-action="step"]`));
    await page.fill(view.field('batches'), FIXTURE.ids);
    await page.fill(view.field('batch-size'), '4');
    await view.invalid('batch-size');
    assert.match(
      (await view.fieldError('batch-size'))[0],
      /^max_length = 3 and stride = 2 cut the 9 ids into 3 windows, fewer than batch_size = 4/,
    );
    await page.fill(view.field('batch-size'), '1');
    await view.waitForStep(0);
  });

  test('at 1280 and 375 px: nothing clipped, a box that scrolls says so', async () => {
    const { page } = env;
    await page.emulateMedia({ reducedMotion: 'reduce' });
    for (const [head, name] of [
      ['untied', 'momentum'],
      ['tied', 'sgd'],
    ]) {
      await setHead(headCase(head, name));
      await view.step(1);
      await view.step(2);
      await view.drawnPart('weights');
      await page.click(`${VIEW} .row-pick[data-row="3"]`);
      await view.atWidths(async (width) => {
        for (const part of ['points', 'predictions', 'weights', 'steps'])
          await view.drawnPart(part);
        const clipped = await page.evaluate(async (v) => {
          // The boxes' observers run after layout: two frames later they have.
          for (let k = 0; k < 2; ++k) await new Promise(requestAnimationFrame);
          const root = document.querySelector(`${v} .train-view`);
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
            '.train-chart-svg, .train-update, .train-why, .train-losses, .train-predictions, [data-part="origin"]',
          )) {
            if (node.getBoundingClientRect().right > right + 0.5)
              out.push(`${node.className.baseVal ?? node.className} passes the view's edge`);
            if (node.scrollWidth > node.clientWidth + 1) out.push(`${node.className} clips`);
          }
          return out;
        }, VIEW);
        assert.deepEqual(clipped, [], `${head} at ${width} px`);
        if (head === 'untied')
          await saveScreenshot(page.locator(VIEW), `train-untied-${width}.png`);
      });
    }
    await page.emulateMedia({ reducedMotion: 'no-preference' });
  });
});
