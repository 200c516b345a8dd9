// Play in the picture, read frame by frame on Playwright's fake clock (the motion reads the time
// only through requestAnimationFrame, which the clock drives): in the product each row of W
// slides to row k of out scaled by its one-hot entry, the zero rows shrinking away and
// dimming once added, while row k of out shows the sum of the rows added so far (the final
// row only once row idx[k] is in) and a counter ticks the multiply-adds by zero; the lookup's
// arrow reaches W[idx[k]] before the row is copied; backward, a repeated id's row of dW holds
// G[0] before G[2] is added to it. prefers-reduced-motion gets each mode's end state at once,
// and a keystroke stops Play. Screenshots mid-animation at 1280 and 375 px.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { openSite, waitForLookupRows, waitForVerdict } from './harness.mjs';
import { entriesOf, notebook, printedAfter } from '../notebooks.mjs';
import { PAGE_PICTURE, readFigure, readPicture, setMode, torchBackward } from './picture.mjs';
import { saveScreenshot } from './screenshots.mjs';

const NOTEBOOK_LOOKUP = entriesOf(printedAfter(notebook('002'), 'In [8]:')); // embedding(idx), idx = [2, 3, 1]
const STEP_MS = 900; // each of up to four steps: a play lasts 3.6 s (model/picture-play.mjs)
// PyTorch prints a 0 beside W's values (4 decimals) as 0.0000.
const ZEROS = Array(5).fill('0.0000');

describe('Play', () => {
  let env;
  before(async () => {
    env = await openSite();
    await env.page.clock.install();
  });
  after(async () => {
    await env?.close();
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
  const row = (picture, grid, owner) =>
    picture.cells.filter((c) => c.grid === grid && (c.k ?? c.v) === owner);

  test('product: rows slide scaled by their entry, the sum holds only the rows added, the zeros tick', async () => {
    const { page } = env;
    for (const width of [1280, 375]) {
      await show([2, 3, 1], width);
      const frame = await play();
      // Token 0 (id 2), rows 0 to 3 of W in turn, each half-way at (i + 1/2) steps.
      const expected = [
        { ghost: '×0', added: 'no row of 4 added, 0 of 15', out: null, dimmed: [] },
        { ghost: '×0', added: 'row 0 of 4 added, 5 of 15', out: ZEROS, dimmed: [0] },
        { ghost: '×1', added: 'rows 0–1 of 4 added, 10 of 15', out: ZEROS, dimmed: [0, 1] },
        {
          ghost: '×0',
          added: 'rows 0–2 of 4 added, 10 of 15',
          out: NOTEBOOK_LOOKUP[0],
          dimmed: [0, 1],
        },
      ];
      for (const [i, want] of expected.entries()) {
        const picture = await frame(i * STEP_MS + STEP_MS / 2);
        assert.equal(picture.figure.play, 'playing');
        assert.equal(picture.figure.playText, 'Pause');
        assert.equal(picture.ghosts.length, 1);
        const [ghost] = picture.ghosts;
        assert.equal(ghost.label, want.ghost, `step ${i}`);
        // A row a 0 multiplies shrinks on its way; the row a 1 multiplies keeps its size.
        if (want.ghost === '×0')
          assert.ok(ghost.scale > 0.4 && ghost.scale < 0.6, `scale ${ghost.scale}`);
        else assert.equal(ghost.scale, 1);
        assert.ok(
          picture.figure.detail.includes(`${want.added} multiply-adds by zero so far`),
          picture.figure.detail,
        );
        // Row 0 of out: no sum before its first term, then the sum of the rows added so far, in
        // the line below the picture and, where cells are wide enough, in the cells.
        const out = row(picture, 'out', 0);
        assert.ok(
          picture.figure.detail.endsWith(`; out[0] = [${(want.out ?? ['…']).join(', ')}]`),
          picture.figure.detail,
        );
        if (want.out === null)
          assert.ok(out.every((c) => c.value === null && c.text === undefined));
        else if (width === 1280)
          assert.deepEqual(
            out.map((c) => c.text),
            want.out,
          );
        else assert.ok(out.every((c) => (want.out === ZEROS ? c.value === 0 : c.value !== 0)));
        const dimmed = [
          ...new Set(picture.cells.filter((c) => c.grid === 'weight' && c.dimmed).map((c) => c.v)),
        ];
        assert.deepEqual(dimmed, want.dimmed, `rows of W added with a 0, at step ${i}`);
        if (i === 2) await saveScreenshot(page.locator(PAGE_PICTURE), `picture-play-${width}.png`);
      }
      const end = await frame(4 * STEP_MS + 50);
      assert.equal(end.figure.play, 'ended');
      assert.deepEqual(end.ghosts, []);
      if (width === 1280)
        assert.deepEqual(
          row(end, 'out', 0).map((c) => c.text),
          NOTEBOOK_LOOKUP[0],
        );
      assert.equal(
        end.figure.detail,
        `idx[0] = 2 → W[2] → out[0] = [${NOTEBOOK_LOOKUP[0].join(', ')}]`,
      );
    }
  });

  test('lookup: the arrow reaches row idx[k] of W, then the row is copied into out', async () => {
    const { page } = env;
    await show([2, 3, 1]);
    await setMode(page, 'lookup');
    const frame = await play();
    let picture = await frame(STEP_MS / 2);
    assert.equal(picture.figure.verdict.shown, false, 'the label waits for the arrow');
    assert.ok(row(picture, 'out', 0).every((c) => c.text === undefined));
    assert.match(picture.figure.detail, /: 0 of 5 values copied, 0 multiply-adds$/);
    picture = await frame(1.5 * STEP_MS);
    assert.deepEqual(
      picture.ghosts.map((g) => g.label),
      ['W[2]'],
    );
    assert.match(picture.figure.detail, /: 2 of 5 values copied, 0 multiply-adds$/);
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
    let picture = await frame(STEP_MS / 2);
    assert.deepEqual(
      picture.ghosts.map((g) => g.label),
      ['G[0]'],
    );
    assert.deepEqual(values(picture, 2), [0, 0, 0, 0, 0]);
    assert.deepEqual(picture.figure.backArrows, []);
    picture = await frame(1.5 * STEP_MS);
    assert.deepEqual(values(picture, 2), torch.G[0], 'G[0] added into row 2');
    assert.deepEqual(values(picture, 3), [0, 0, 0, 0, 0]);
    assert.deepEqual(picture.figure.backArrows, [0]);
    assert.match(
      picture.figure.detail,
      /^1 of 3 rows of G added into dW, 5 additions so far; dW\[2\] = G\[0\] = \[/,
    );
    picture = await frame(2.5 * STEP_MS);
    assert.deepEqual(
      picture.ghosts.map((g) => g.label),
      ['G[2]'],
    );
    assert.deepEqual(values(picture, 2), torch.G[0], 'still G[0] alone while G[2] is on its way');
    assert.deepEqual(values(picture, 3), torch.G[1]);
    picture = await frame(3 * STEP_MS + 50);
    assert.equal(picture.figure.play, 'ended');
    assert.deepEqual(values(picture, 2), torch.grad[2], 'G[0] + G[2]');
    assert.deepEqual(picture.figure.backArrows, [0, 1, 2]);
  });

  test("prefers-reduced-motion: Play shows each mode's end state at once", async () => {
    const { page } = env;
    await show([2, 3, 1]);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    for (const mode of ['product', 'lookup', 'backward']) {
      await setMode(page, mode);
      const rest = await readPicture(page);
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
      await page.click(`${PAGE_PICTURE} .picture-play`);
      await page.clock.runFor(100);
      const figure = await readFigure(page);
      assert.equal(figure.play, 'ended', mode);
      const shown = await readPicture(page);
      assert.deepEqual(shown.ghosts, []);
      assert.deepEqual(shown.cells, rest.cells, `${mode}: the end state, as at rest`);
      await page.clock.resume();
    }
  });

  test('a keystroke stops Play: no frame of it runs into typing', async () => {
    const { page } = env;
    await show([2, 3, 1]);
    const frame = await play();
    assert.equal((await frame(STEP_MS / 2)).ghosts.length, 1);
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
