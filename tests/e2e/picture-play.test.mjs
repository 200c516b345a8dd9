// The picture's stepper, read step by step and, for Play, frame by frame on Playwright's fake
// clock (the motion reads the time only through requestAnimationFrame, which the clock drives).
// Product: Next and Prev go through the rows of W one at a time, each with its equation
// (0 · W[r] = 0, 1 · W[2] = W[2]) and caption, row 0 of out holding the sum of the rows added so
// far (the final row only once row idx[k] is in), and a last step: only row 2 survived, with
// the cost. Play slides each row at full size, labelled by its entry; the lookup's arrow reaches
// W[idx[k]] before the row is copied; backward, a repeated id's row of dW holds G[0] before G[2]
// is added to it. prefers-reduced-motion gets the same steps without movement; the keys step;
// a keystroke in the ids stops Play. Screenshots of each step at 1280 and 375 px.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import {
  openSite,
  pageOverflow,
  sitePerSuite,
  waitForLookupRows,
  waitForVerdict,
} from './harness.mjs';
import { entriesOf, notebook, printedAfter } from '../notebooks.mjs';
import {
  changed,
  misPainted,
  PAGE_PICTURE,
  readFigure,
  readPicture,
  setMode,
  torchBackward,
} from './picture.mjs';
import { saveScreenshot } from './screenshots.mjs';
import { openInColumn } from './demo.mjs';

const NOTEBOOK_LOOKUP = entriesOf(printedAfter(notebook('002'), 'In [8]:')); // embedding(idx), idx = [2, 3, 1]
const STEP_MS = 2000; // a step at 1× (model/picture-stepper.mjs): its move the first half
// PyTorch prints a 0 beside W's values (4 decimals) as 0.0000.
const ZEROS = Array(5).fill('0.0000');

describe('the stepper', () => {
  const env = sitePerSuite(async () => {
    const opened = await openSite();
    await opened.page.clock.install();
    return opened;
  });
  afterEach(async () => {
    await env.page.clock.resume();
    env.assertClean();
  });

  async function show(ids, width = 1280) {
    const { page } = env;
    await page.clock.resume();
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.goto(env.url);
    await waitForVerdict(page, 'bit-identical');
    await page.fill('#ids', ids.join(', '));
    await waitForLookupRows(page, ids);
    // Leaving the field checks the ids again (a new result, which stops Play): done here.
    await page.locator('#ids').blur();
  }

  // Answers the product's question (which row of W out[0] will be: W[id]) and goes back to rest:
  // Play then goes through every step without waiting at it.
  async function answer(id = 2) {
    const { page } = env;
    await page.click(`${PAGE_PICTURE} .picture-next`);
    await page.click(`${PAGE_PICTURE} .predict-choice[data-row="${id}"]`);
    await page.keyboard.press('Escape');
  }

  // Presses Play on a stopped clock and runs its first frame: returns frame(ms), which runs the
  // clock to `ms` after that frame and reads the picture.
  async function play() {
    const { page } = env;
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    // What the page has scheduled (the check of the ids once typing pauses) runs first: a new
    // result stops Play.
    await page.clock.runFor(1000);
    await page.click(`${PAGE_PICTURE} .picture-play`);
    await page.clock.runFor(16);
    let now = 0;
    return async (ms) => {
      await page.clock.runFor(ms - now);
      now = ms;
      return { ...(await readPicture(page)), figure: await readFigure(page) };
    };
  }
  const read = async () => ({
    ...(await readPicture(env.page)),
    figure: await readFigure(env.page),
  });
  const row = (picture, grid, owner) =>
    picture.cells.filter((c) => c.grid === grid && (c.k ?? c.v) === owner);
  const dimmedRows = (picture) => [
    ...new Set(picture.cells.filter((c) => c.grid === 'weight' && c.dimmed).map((c) => c.v)),
  ];

  test('product: Next and Prev go row by row, each in words, then only row 2 survived', async () => {
    const { page } = env;
    for (const width of [1280, 375]) {
      await show([2, 3, 1], width);
      // Token 0 (id 2): rows 0 to 3 of W, then the end.
      const expected = [
        { equation: '0 · W[0] = 0', out: ZEROS, dimmed: [] },
        { equation: '0 · W[1] = 0', out: ZEROS, dimmed: [0] },
        { equation: '1 · W[2] = W[2]', out: NOTEBOOK_LOOKUP[0], dimmed: [0, 1] },
        { equation: '0 · W[3] = 0', out: NOTEBOOK_LOOKUP[0], dimmed: [0, 1] },
      ];
      for (const [i, want] of expected.entries()) {
        await page.click(`${PAGE_PICTURE} .picture-next`);
        const picture = await read();
        assert.equal(picture.figure.play, 'paused');
        assert.equal(picture.figure.equation, want.equation, `step ${i + 1}`);
        assert.ok(picture.figure.caption.startsWith(`Step ${i + 1} of 5: `));
        assert.deepEqual(picture.ghosts, [], 'a step taken by hand is in place');
        assert.equal(picture.marks, 2, 'the row of W and its one-hot entry, outlined');
        assert.equal(picture.figure.detail, `out[0] · id 2 so far = [${want.out.join(', ')}]`);
        if (width === 1280)
          assert.deepEqual(
            row(picture, 'out', 0).map((c) => c.text),
            want.out,
          );
        assert.deepEqual(dimmedRows(picture), want.dimmed, `rows of W added with a 0, step ${i}`);
        await saveScreenshot(page.locator(PAGE_PICTURE), `picture-step-${i + 1}-${width}.png`);
      }
      await page.click(`${PAGE_PICTURE} .picture-next`);
      const end = await read();
      assert.equal(end.figure.equation, 'out[0] = W[2]');
      assert.match(
        end.figure.caption,
        /Only W\[2\] survived: out\[0\] · id 2 = W\[2\], the lookup's row\. The other 3 rows of W cost 15 multiply-adds by zero for this token, n·\(V−1\)·d = 45 for all 3 tokens\./,
      );
      assert.equal(end.marks, 0);
      assert.deepEqual(dimmedRows(end), [0, 1, 3]);
      assert.equal(
        end.figure.detail,
        `idx[0] = 2 → W[2] → out[0] = [${NOTEBOOK_LOOKUP[0].join(', ')}]`,
      );
      await saveScreenshot(page.locator(PAGE_PICTURE), `picture-step-5-${width}.png`);
      assert.ok(
        (await page.getAttribute(`${PAGE_PICTURE} .picture-next`, 'aria-disabled')) === 'true',
        'no step after the last',
      );
      await page.click(`${PAGE_PICTURE} .picture-prev`);
      assert.equal((await read()).figure.equation, '0 · W[3] = 0');
    }
  });

  test('product in dark mode: step 3 at 1280 and 375 px, painted in the dark palette', async () => {
    const { page } = env;
    const pixels = async () => (await readPicture(page)).cells.map((c) => c.pixel);
    for (const width of [1280, 375]) {
      await show([2, 3, 1], width);
      const light = await pixels();
      await page.emulateMedia({ colorScheme: 'dark' });
      await changed(page, pixels, light);
      for (let i = 0; i < 3; ++i) await page.click(`${PAGE_PICTURE} .picture-next`);
      const picture = await read();
      assert.equal(picture.figure.equation, '1 · W[2] = W[2]');
      assert.deepEqual(misPainted(picture.cells), []);
      await saveScreenshot(page.locator(PAGE_PICTURE), `picture-step-3-${width}-dark.png`);
      await page.emulateMedia({ colorScheme: 'light' });
    }
  });

  test('product: Play slides each row at full size, labelled by its entry; the sum waits for it', async () => {
    const { page } = env;
    for (const width of [1280, 375]) {
      await show([2, 3, 1], width);
      await answer();
      const frame = await play();
      let picture = await frame(STEP_MS / 4); // step 1, its move half done
      assert.equal(picture.figure.play, 'playing');
      assert.equal(picture.figure.playText, 'Pause');
      assert.deepEqual(
        picture.ghosts.map((g) => [g.label, g.scale]),
        [['0 ·', 1]],
      );
      assert.ok(
        row(picture, 'out', 0).every((c) => c.value === null),
        'no term yet',
      );
      picture = await frame((3 * STEP_MS) / 4); // in place
      assert.deepEqual(picture.ghosts, []);
      assert.ok(row(picture, 'out', 0).every((c) => c.value === 0));
      picture = await frame(2 * STEP_MS + STEP_MS / 4); // row 2 on its way
      assert.equal(picture.figure.equation, '1 · W[2] = W[2]');
      assert.deepEqual(
        picture.ghosts.map((g) => [g.label, g.scale]),
        [['1 ·', 1]],
      );
      assert.ok(
        row(picture, 'out', 0).every((c) => c.value === 0),
        'not in the sum yet',
      );
      if (width === 1280)
        await saveScreenshot(page.locator(PAGE_PICTURE), `picture-play-${width}.png`);
      picture = await frame(2 * STEP_MS + (3 * STEP_MS) / 4);
      if (width === 1280)
        assert.deepEqual(
          row(picture, 'out', 0).map((c) => c.text),
          NOTEBOOK_LOOKUP[0],
        );
      const end = await frame(5 * STEP_MS + 50);
      assert.equal(end.figure.play, 'ended');
      assert.equal(end.figure.playText, 'Play');
      assert.deepEqual(end.ghosts, []);
      assert.match(end.figure.caption, /^Step 5 of 5: out\[0\] = W\[2\] Only W\[2\] survived/);
    }
  });

  test('lookup: the arrow reaches row idx[k] of W, then the row is copied into out', async () => {
    const { page } = env;
    await show([2, 3, 1]);
    await setMode(page, 'lookup');
    const frame = await play();
    let picture = await frame(STEP_MS / 4);
    assert.equal(picture.figure.verdict.shown, false, 'the label waits for the arrow');
    assert.equal(picture.figure.equation, 'idx[0] = 2');
    assert.ok(row(picture, 'out', 0).every((c) => c.text === undefined));
    picture = await frame(STEP_MS + STEP_MS / 4);
    assert.deepEqual(
      picture.ghosts.map((g) => g.label),
      ['W[2]'],
    );
    assert.equal(picture.figure.equation, 'out[0] = W[2]');
    picture = await frame(2 * STEP_MS + 50);
    assert.equal(picture.figure.play, 'ended');
    assert.equal(picture.figure.verdict.shown, true);
    assert.deepEqual(
      row(picture, 'out', 0).map((c) => c.text),
      NOTEBOOK_LOOKUP[0],
    );
  });

  test('backward: row 2 of dW holds G[0] until G[2] is added to it', async () => {
    const { page } = env;
    const ids = [2, 3, 2];
    const torch = torchBackward(ids, 4, 5);
    await show(ids);
    await setMode(page, 'backward');
    const frame = await play();
    const values = (picture, v) => row(picture, 'grad', v).map((c) => c.value);
    let picture = await frame(STEP_MS / 4);
    assert.deepEqual(
      picture.ghosts.map((g) => g.label),
      ['G[0]'],
    );
    assert.deepEqual(values(picture, 2), [0, 0, 0, 0, 0]);
    assert.deepEqual(picture.figure.backArrows, []);
    picture = await frame((3 * STEP_MS) / 4);
    assert.deepEqual(values(picture, 2), torch.G[0], 'G[0] added into row 2');
    assert.deepEqual(values(picture, 3), [0, 0, 0, 0, 0]);
    assert.deepEqual(picture.figure.backArrows, [0]);
    assert.match(
      picture.figure.detail,
      /^G\[0\] · id 2 → dW\[2\]: 1 of 3 rows of G added into dW, 5 additions so far; dW\[2\] = G\[0\] = \[/,
    );
    picture = await frame(2 * STEP_MS + STEP_MS / 4);
    assert.deepEqual(
      picture.ghosts.map((g) => g.label),
      ['G[2]'],
    );
    assert.equal(picture.figure.equation, 'dW[2] = G[0] + G[2]');
    assert.deepEqual(values(picture, 2), torch.G[0], 'still G[0] alone while G[2] is on its way');
    assert.deepEqual(values(picture, 3), torch.G[1]);
    await saveScreenshot(page.locator(PAGE_PICTURE), 'picture-backward-step-1280.png');
    picture = await frame(4 * STEP_MS + 50);
    assert.equal(picture.figure.play, 'ended');
    assert.equal(picture.figure.equation, 'dW = one_hot(idx)ᵀ @ G');
    assert.deepEqual(values(picture, 2), torch.grad[2], 'G[0] + G[2]');
    assert.deepEqual(picture.figure.backArrows, [0, 1, 2]);
  });

  test('prefers-reduced-motion at 1280, 720, 480 and 375 px: Play goes through the same steps, without movement', async () => {
    const { page } = env;
    for (const width of [1280, 720, 480, 375]) {
      await show([2, 3, 1], width);
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await answer();
      const rest = await readPicture(page);
      // The columns of out drawn at this width, each with its number.
      const dims = await page.$eval(`${PAGE_PICTURE} .equation-canvas`, (c) => c.scene.shownDims);
      const frame = await play();
      const equations = [];
      for (let i = 0; i < 5; ++i) {
        const picture = await frame(i * STEP_MS + STEP_MS / 4);
        assert.equal(picture.figure.play, 'playing', `${width} px, step ${i + 1}`);
        assert.deepEqual(picture.ghosts, [], `${width} px: nothing moves`);
        equations.push(picture.figure.equation);
        if (i === 2) {
          assert.deepEqual(
            row(picture, 'out', 0).map((c) => c.text),
            dims.map((j) => NOTEBOOK_LOOKUP[0][j]),
            `${width} px: the row in place at once`,
          );
        }
      }
      assert.deepEqual(equations, [
        '0 · W[0] = 0',
        '0 · W[1] = 0',
        '1 · W[2] = W[2]',
        '0 · W[3] = 0',
        'out[0] = W[2]',
      ]);
      const end = await frame(5 * STEP_MS + 50);
      assert.equal(end.figure.play, 'ended');
      assert.deepEqual(end.cells, rest.cells, `${width} px: the end state, as at rest`);
    }
  });

  test('predict: before row 2 survives, the learner picks a row of W, tries again after a wrong pick, and the picture answers', async () => {
    const { page } = env;
    const predict = () =>
      page.$eval(`${PAGE_PICTURE} .picture-predict`, (box) => ({
        shown: !box.hidden,
        question: box.querySelector('.predict-question').hidden
          ? ''
          : box.querySelector('.predict-question').textContent,
        choices: [...box.querySelectorAll('.predict-choice')]
          .filter((b) => b.checkVisibility())
          .map((b) => `${b.textContent}${b.getAttribute('aria-disabled') === 'true' ? ' ✗' : ''}`),
        reply: box.querySelector('.predict-reply').textContent,
      }));
    for (const width of [1280, 375]) {
      await show([2, 3, 1], width);
      // Token 0 (id 2): asked on the steps of rows 0 and 1, no longer once row 2 is shown.
      await page.click(`${PAGE_PICTURE} .picture-next`);
      const asked = await predict();
      assert.equal(asked.shown, true);
      assert.equal(asked.question, 'Predict: which row of W will out[0] · id 2 be? ');
      assert.deepEqual(asked.choices, ['W[0]', 'W[1]', 'W[2]', 'W[3]']);
      await saveScreenshot(page.locator(PAGE_PICTURE), `picture-predict-${width}.png`);
      await page.click(`${PAGE_PICTURE} .picture-next`);
      await page.click(`${PAGE_PICTURE} .picture-next`);
      assert.equal((await predict()).shown, false, 'unanswered: gone once row 2 is shown');

      await page.click(`${PAGE_PICTURE} .picture-prev`);
      await page.click(`${PAGE_PICTURE} .predict-choice:text("W[1]")`);
      const wrong = await predict();
      assert.equal(
        wrong.reply,
        'Not W[1]: one_hot[0, 1] = 0, so W[1] is multiplied by 0 and adds nothing to ' +
          "out[0] · id 2. Find the 1 in one_hot's row [0], and try again.",
      );
      assert.deepEqual(wrong.choices, ['W[0]', 'W[1] ✗', 'W[2]', 'W[3]'], 'the question stays');
      await page.click(`${PAGE_PICTURE} .predict-choice:text("W[2]")`);
      const replied = await predict();
      assert.match(replied.reply, /^W\[2\]: right\. one_hot\[0, 2\] = 1 is the only 1/);
      assert.deepEqual(replied.choices, []);
      assert.equal(
        await page.evaluate(() => document.activeElement?.classList.contains('picture-next')),
        true,
        'the focus goes on to Next',
      );
      await saveScreenshot(page.locator(PAGE_PICTURE), `picture-predict-reply-${width}.png`);
      // The reply stays to the end of the token's steps.
      for (let i = 0; i < 3; ++i) await page.click(`${PAGE_PICTURE} .picture-next`);
      assert.equal((await readFigure(page)).equation, 'out[0] = W[2]');
      assert.equal((await predict()).reply, replied.reply);
    }
    // Another token asks anew: token 1, id 3.
    await page.keyboard.press('Escape');
    await page.click('#results .token-picker button:text("3")');
    await page.click(`${PAGE_PICTURE} .picture-next`);
    const again = await predict();
    assert.equal(again.question, 'Predict: which row of W will out[1] · id 3 be? ');
    assert.equal(again.reply, '');
  });

  test('keys: "." and "," step, Escape goes back to rest, "k" plays and pauses', async () => {
    const { page } = env;
    await show([2, 3, 1]);
    await answer();
    await page.focus(`${PAGE_PICTURE} .equation-picture`);
    await page.keyboard.press('.');
    await page.keyboard.press('.');
    assert.equal((await readFigure(page)).equation, '0 · W[1] = 0');
    await page.keyboard.press(',');
    assert.equal((await readFigure(page)).equation, '0 · W[0] = 0');
    await page.keyboard.press('Escape');
    let figure = await readFigure(page);
    assert.equal(figure.play, '');
    assert.equal(figure.equation, 'out[0] = W[2]', 'at rest: the last step');
    // On the stepper's buttons, the arrow keys, Home and End.
    await page.focus(`${PAGE_PICTURE} .picture-next`);
    await page.keyboard.press('End');
    assert.equal((await readFigure(page)).equation, 'out[0] = W[2]');
    await page.keyboard.press('ArrowLeft');
    assert.equal((await readFigure(page)).equation, '0 · W[3] = 0');
    await page.keyboard.press('Home');
    assert.equal((await readFigure(page)).equation, '0 · W[0] = 0');
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    await page.clock.runFor(1000);
    await page.keyboard.press('k');
    await page.clock.runFor(16);
    figure = await readFigure(page);
    assert.equal(figure.play, 'playing');
    await page.keyboard.press('k');
    assert.equal((await readFigure(page)).play, 'paused');
  });

  test('320 and 480 px: the stepper fits in the figure, and its caption reads at 11 px or more', async () => {
    const { page } = env;
    for (const width of [320, 480]) {
      await show([2, 3, 1], width);
      await page.click(`${PAGE_PICTURE} .picture-next`);
      const fit = await page.evaluate((selector) => {
        const figure = document.querySelector(selector);
        const edge = figure.getBoundingClientRect().right;
        const controls = [
          ...figure.querySelectorAll('.equation-bar :is(button, label, input, select)'),
        ];
        const caption = getComputedStyle(figure.querySelector('.picture-caption'));
        return {
          outside: controls.filter((n) => n.getBoundingClientRect().right > edge + 0.5).length,
          captionPx: parseFloat(caption.fontSize),
        };
      }, PAGE_PICTURE);
      assert.equal(fit.outside, 0, `${width} px: a control outside the figure`);
      assert.ok(fit.captionPx >= 11, `${width} px: a caption of ${fit.captionPx} px`);
      assert.equal(await pageOverflow(page), 0, `${width} px`);
      await saveScreenshot(page.locator(PAGE_PICTURE), `picture-step-1-${width}.png`);
    }
  });

  test("in a 720 and a 480 px article column, the element's steps show each row's numbers", async () => {
    const { page } = env;
    await page.clock.resume();
    await page.setViewportSize({ width: 1000, height: 900 });
    for (const column of [720, 480]) {
      await openInColumn(env, `stepper-column-${column}`, column, '2, 3, 1');
      const next = () =>
        page.evaluate(() =>
          document.getElementById('e').shadowRoot.querySelector('.picture-next').click(),
        );
      for (let i = 0; i < 3; ++i) await next();
      const picture = await readPicture(page, '#e');
      const figure = await readFigure(page, '#e');
      assert.equal(figure.equation, '1 · W[2] = W[2]', `${column} px`);
      assert.equal(figure.detail, `out[0] · id 2 so far = [${NOTEBOOK_LOOKUP[0].join(', ')}]`);
      // Row 0 of out holds W[2] in each column drawn, with its number.
      const dims = await page.evaluate(
        () =>
          document.getElementById('e').shadowRoot.querySelector('.equation-canvas').scene.shownDims,
      );
      assert.deepEqual(
        row(picture, 'out', 0).map((c) => c.text),
        dims.map((j) => NOTEBOOK_LOOKUP[0][j]),
        `${column} px`,
      );
      await saveScreenshot(page.locator('#e'), `picture-step-3-column-${column}.png`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test('a keystroke stops Play: no frame of it runs into typing', async () => {
    const { page } = env;
    await show([2, 3, 1]);
    const frame = await play();
    assert.equal((await frame(STEP_MS / 4)).ghosts.length, 1);
    await page.focus('#ids');
    await page.keyboard.press('End');
    await page.keyboard.type(', 0');
    const typed = await frame(STEP_MS);
    assert.equal(typed.figure.play, '');
    assert.deepEqual(typed.ghosts, []);
    assert.equal(
      typed.cells.filter((c) => c.grid === 'out').length,
      4 * 5,
      'the new ids drawn, at rest',
    );
  });
});
