// The picture on the first screen: one_hot(idx) × W = out as cell grids, with the selected
// token's 1 lit in its own colour, its row of W glowing, the V − 1 rows its zeros multiply
// dimmed (their numbers still readable), the counts of useful and wasted multiply-adds,
// numbers from the notebook where cells are wide enough and in the line below the picture at
// any width, a real "×" the size of the "="; the picture and the verdict's headline inside the
// first screen at 1280 × 800, 720 × 900 and 375 × 667; a new token moves the glow and replays the flow, with no motion
// under prefers-reduced-motion; the whole page stays within its element budget at n = 64, V = 4096,
// d = 64; and <embedding-demo view="equation"> draws the same picture in its shadow root.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import {
  PAGE_ELEMENTS,
  pageOverflow,
  showLargeCase,
  sitePerSuite,
  waitForVerdict,
} from './harness.mjs';
import { demoText, openHost, settle } from './demo.mjs';
import { entriesOf, notebook, printedAfter } from '../notebooks.mjs';
import { changed, misPainted, readFigure, readPicture } from './picture.mjs';
import { saveScreenshot } from './screenshots.mjs';

const nb = notebook('002');
const NOTEBOOK_W = entriesOf(printedAfter(nb, 'In [5]:')); // embedding.weight, 4 x 5
const NOTEBOOK_LOOKUP = entriesOf(printedAfter(nb, 'In [8]:')); // embedding(idx), idx = [2, 3, 1]
const IDS = [2, 3, 1];
const V = 4;
const D = 5;
// The page's token colours (styles/palette.css, light): token 0's, token 1's.
const TOKEN_COLOURS = [
  [211, 2, 67, 1],
  [0, 118, 144, 1],
];

// What the picture in `root` (a selector, or a demo's shadow root) shows.
async function pictureState(page, root = '#results .equation-figure') {
  const { cells, texts } = await readPicture(page, root);
  const figure = await readFigure(page, root);
  const grid = (name) => cells.filter((c) => c.grid === name);
  const onehot = grid('onehot');
  return {
    ...figure,
    onehotCells: onehot.length,
    ones: onehot.filter((c) => c.one).length,
    lit: onehot.findIndex((c) => c.lit),
    litFill: onehot.find((c) => c.lit)?.fill,
    litCount: onehot.filter((c) => c.lit).length,
    otherOnes: onehot.filter((c) => c.one && !c.lit),
    zeroFill: onehot.find((c) => !c.one && !c.dimmed)?.fill,
    dimmedZeros: onehot.filter((c) => c.dimmed).length,
    weightCells: grid('weight').length,
    dimmed: grid('weight').filter((c) => c.dimmed),
    dimmedWeights: grid('weight').filter((c) => c.dimmed).length,
    weightNumbers: grid('weight').flatMap((c) => c.text ?? []),
    outNumbers: grid('out').flatMap((c) => c.text ?? []),
    operators: texts.filter((t) => t.kind === 'operator'),
    misPainted: misPainted(cells),
  };
}

const rows = (flat, width) =>
  Array.from({ length: flat.length / width }, (_, i) => flat.slice(i * width, (i + 1) * width));

describe('the equation picture', () => {
  const env = sitePerSuite();
  afterEach(() => env.assertClean());

  async function reload(width, height) {
    await env.page.setViewportSize({ width, height });
    await env.page.goto(env.url);
    await waitForVerdict(env.page, 'bit-identical');
  }

  // The bottoms of the picture and the verdict's headline, and the viewport's height. The
  // verdict stands right under the picture: the counts and the line of values follow it.
  const firstScreen = () =>
    env.page.evaluate(() => ({
      picture: document.querySelector('#results .equation-figure svg').getBoundingClientRect()
        .bottom,
      verdict: document.querySelector('#results .verdict-word').getBoundingClientRect().bottom,
      top: document.querySelector('#results .equation-figure svg').getBoundingClientRect().top,
      height: innerHeight,
    }));

  for (const [width, height, name] of [
    [1280, 800, 'desktop'],
    [720, 900, 'tablet'],
    [375, 667, 'phone'],
  ]) {
    test(`the picture and the verdict are on the first screen at ${width} × ${height}`, async () => {
      await reload(width, height);
      const at = await firstScreen();
      assert.ok(at.top > 0);
      assert.ok(at.picture <= at.height, `the picture ends at ${at.picture} of ${at.height}`);
      assert.ok(at.verdict <= at.height, `the verdict ends at ${at.verdict} of ${at.height}`);
      assert.equal(await pageOverflow(env.page), 0);
      await saveScreenshot(env.page, `first-screen-${name}.png`);
    });
  }

  test('the default ids: the lit 1, the glowing row, the dimmed zeros, the counts', async () => {
    const { page } = env;
    await reload(1280, 900);
    const state = await pictureState(page);
    assert.equal(state.token, 'token 1 of 3');
    // Token 0's way through the picture, and its row of out as the notebook prints it.
    assert.equal(state.detail, `idx[0] = 2 → W[2] → out[0] = [${NOTEBOOK_LOOKUP[0].join(', ')}]`);
    assert.deepEqual(state.litFill, TOKEN_COLOURS[0], "the 1 is lit in token 0's colour");
    // The other tokens' 1s are not filled, as values are: the zero colour, outlined and written
    // in their token's colour.
    assert.equal(state.otherOnes.length, IDS.length - 1);
    for (const one of state.otherOnes) {
      assert.deepEqual(one.fill, state.zeroFill, `token ${one.k}'s 1 is not filled`);
      assert.deepEqual(one.stroke, one.ink);
    }
    assert.deepEqual(state.otherOnes.find((c) => c.k === 1).stroke, TOKEN_COLOURS[1]);
    assert.equal(state.onehotCells, IDS.length * V);
    assert.equal(state.ones, IDS.length);
    assert.equal(state.litCount, 1);
    assert.equal(state.lit, 0 * V + IDS[0]); // row 0, column idx[0]
    // The selected token multiplies V − 1 rows of W by zero: its zeros and those rows dimmed.
    assert.equal(state.dimmedZeros, V - 1);
    assert.equal(state.weightCells, V * D);
    assert.equal(state.dimmedWeights, (V - 1) * D);
    // Wide cells at 1280 px show the numbers, which are the notebook's.
    assert.deepEqual(rows(state.weightNumbers, D), NOTEBOOK_W);
    assert.deepEqual(rows(state.outNumbers, D), NOTEBOOK_LOOKUP);
    // The canvas shows each cell in its fill, the dimmed ones faded.
    assert.deepEqual(state.misPainted, []);
    assert.match(state.counts, /useful multiply-adds n·d = 15/);
    assert.match(state.counts, /by zero \(dimmed\) n·\(V−1\)·d = 45 \(75\.0%\)/);
    // The numbers on dimmed cells stay readable: drawn whole, at WCAG's 4.5:1 for small text.
    for (const c of state.dimmed) {
      assert.ok(
        c.contrast >= 4.5,
        `W[${c.v}] = ${c.text}, dimmed, has contrast ${c.contrast.toFixed(2)}`,
      );
    }
    // A real "×", as large and as heavy as the "=".
    assert.deepEqual(
      state.operators.map((t) => t.text),
      ['×', '='],
    );
    assert.equal(state.operators[0].font, state.operators[1].font);
    assert.match(state.operators[0].font, /^700 26px /);
  });

  test('a scroll into the picture (scrollIntoView, the focus) leaves the canvas under its labels', async () => {
    const { page } = env;
    await reload(1280, 900);
    const before = await pictureState(page);
    // The canvas is larger than the part of it the frame shows: a box that clips it by
    // scrolling would scroll it under the overlay's labels.
    const offset = await page.evaluate(() => {
      const cells = document.querySelector('#results .equation-cells');
      cells.querySelector('canvas').scrollIntoView({ block: 'end', inline: 'end' });
      document.querySelector('#results .equation-picture').focus();
      return [cells.scrollLeft, cells.scrollTop];
    });
    assert.deepEqual(offset, [0, 0]);
    const after = await pictureState(page);
    assert.deepEqual(after.misPainted, []);
    assert.deepEqual(after.weightNumbers, before.weightNumbers);
  });

  test('values are colours on a diverging scale that follows light and dark mode', async () => {
    const { page } = env;
    // W[0, 0] = 0.3374 and W[0, 1] = -0.1778, as painted.
    const fills = async () =>
      (await readPicture(page)).cells
        .filter((c) => c.grid === 'weight')
        .slice(0, 2)
        .map((c) => c.pixel);
    const light = await fills();
    assert.notDeepEqual(light[0], light[1], 'positive and negative values differ in colour');
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await changed(page, fills, light);
    assert.notDeepEqual(dark[0], light[0]);
    assert.notDeepEqual(dark[0], dark[1]);
    assert.deepEqual((await pictureState(page)).misPainted, []);
    await page.emulateMedia({ colorScheme: 'light' });
  });

  test('another token: the glow moves and the flow replays; no motion when reduced', async () => {
    const { page } = env;
    const before = await pictureState(page);
    await page.click('#results button[aria-label="Next token"]');
    await page.waitForFunction(() =>
      document
        .querySelector('#results .equation-picture')
        .getAttribute('aria-valuetext')
        .startsWith('token 2 of 3:'),
    );
    const after = await pictureState(page);
    assert.equal(after.detail, `idx[1] = 3 → W[3] → out[1] = [${NOTEBOOK_LOOKUP[1].join(', ')}]`);
    assert.equal(after.lit, 1 * V + IDS[1]);
    assert.deepEqual(after.litFill, TOKEN_COLOURS[1], 'token 1 is marked in its own colour');
    assert.notEqual(after.rowGlow, before.rowGlow, 'the glow moves to row 3 of W');
    assert.equal(after.replays, 2);
    assert.equal(after.dimmedWeights, (V - 1) * D);
    assert.deepEqual(after.misPainted, []);
    // The step-through below follows the same token.
    assert.equal(
      await page.textContent('#step [data-part="detail"] .step-title'),
      'idx[1] = 3 (position 1 of 0–2)',
    );

    const motion = () =>
      page.evaluate(() => ({
        glow: getComputedStyle(document.querySelector('#results .equation-figure .eq-glow-row'))
          .transitionDuration,
        flow: getComputedStyle(document.querySelector('#results .equation-figure .eq-flow'))
          .animationName,
      }));
    const moving = await motion();
    assert.notEqual(moving.glow, '0s');
    assert.equal(moving.flow, 'eq-flow');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    assert.deepEqual(await motion(), { glow: '0s', flow: 'none' });
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.click('#results button[aria-label="Previous token"]');
  });

  test('n = 64, V = 4096, d = 64: drawn summarised, the page within its element budget', async () => {
    const { page } = env;
    const ids = await showLargeCase(page);
    // The views below draw when scrolled to: each of them drawn, with its verdict.
    for (const id of ['backward', 'bag']) {
      await page.locator(`#${id}`).scrollIntoViewIfNeeded();
      await page.waitForSelector(`#${id} [data-part="verdict"][data-state]`);
    }
    await page.locator('#benchmark').scrollIntoViewIfNeeded();
    const elements = await page.evaluate(() => document.getElementsByTagName('*').length);
    assert.ok(elements < PAGE_ELEMENTS, `${elements} elements`);
    const picture = await page.$eval(
      '#results .equation-figure',
      (box) => box.getElementsByTagName('*').length,
    );
    assert.ok(picture < 400, `the picture has ${picture} elements`);

    const state = await pictureState(page);
    assert.equal(state.token, 'token 1 of 64');
    assert.match(
      state.detail,
      new RegExp(`^idx\\[0\\] = ${ids[0]} → W\\[${ids[0]}\\] → out\\[0\\] = \\[`),
    );
    assert.equal(state.litCount, 1);
    assert.match(state.counts, /n·d = 4,096/);
    assert.match(
      state.counts,
      new RegExp(`n·\\(V−1\\)·d = ${(64 * 4095 * 64).toLocaleString('en-US')} \\(99\\.98%\\)`),
    );
    await page.fill('#ids', '2, 3, 1');
    await page.fill('#vocab', '');
    await page.fill('#dim', '5');
    await waitForVerdict(page, 'bit-identical');
  });

  test('typing within one shape: the picture grows to fit and then stays where it is', async () => {
    const { page } = env;
    // The last token's id 1, then 15 (one more column of the one-hot and row of W), then 1.
    const ids = Array.from({ length: 64 }, (_, i) => (i * 61) % 4096);
    ids[63] = 1;
    await page.fill('#vocab', '4096');
    await page.fill('#dim', '64');
    await page.fill('#ids', ids.join(', '));
    await waitForVerdict(page, 'bit-identical');
    const labelled = (text, shown) =>
      page.waitForFunction(
        ([t, s]) =>
          document
            .querySelector('#results .equation-canvas')
            .scene.texts.some((x) => x.text === t) === s,
        [text, shown],
      );
    const frame = () =>
      page.$eval('#results .equation-picture', (node) => {
        const { x, width, height } = node.getBoundingClientRect();
        return { x, width, height };
      });
    // The room in the frame left of the token labels' text and right of out's cells, in px.
    const margins = () =>
      page.$eval('#results .equation-picture', (node) => {
        const labels = [...node.querySelectorAll('text.eq-label')].filter(
          (text) => text.textContent,
        );
        const { cells } = node.querySelector('.equation-canvas').scene;
        const right = Math.max(...cells.filter((c) => c.grid === 'out').map((c) => c.x + c.width));
        return [Math.min(...labels.map((text) => text.getBBox().x)), node.clientWidth - right];
      });
    const small = await frame();
    await page.focus('#ids');
    await page.keyboard.press('End');
    await page.keyboard.press('5');
    await labelled('15', true);
    const grown = await frame();
    assert.ok(
      grown.width > small.width,
      `15 shows one more column: ${JSON.stringify([small, grown])}`,
    );
    await page.keyboard.press('Backspace');
    await labelled('15', false);
    assert.deepEqual(
      await frame(),
      grown,
      'deleting the 5 neither shrinks the picture nor moves it sideways',
    );
    // Drawn narrower than the frame it keeps, the picture stands in its middle (right of out,
    // 4 px more: the room of the halo of out's mark).
    const [left, right] = await margins();
    assert.ok(
      Math.abs(left - (right - 4)) <= 4,
      `the picture is centred in its frame: ${left} px left, ${right} px right`,
    );
    await page.fill('#ids', '2, 3, 1');
    await page.fill('#vocab', '');
    await page.fill('#dim', '5');
    await waitForVerdict(page, 'bit-identical');
  });

  // An article column (720 and 480 px in a 1000 px window) and phones (375 and 320 px, the
  // column padded by 16 px): stacked where side by side would drop numbers, fewer of d's columns
  // only where even stacked the width asks (the first two and the last), each cell with its
  // number, at its whole size (11 px) but on a phone (9 px or more).
  for (const [viewport, column, columns, smallest] of [
    [1000, 720, [0, 1, 2, 3, 4], 11],
    [1000, 480, [0, 1, 2, 3, 4], 11],
    [375, 375, [0, 1, 2, 3, 4], 9],
    [320, 320, [0, 1, 4], 9],
  ]) {
    test(`in a ${column} px column, the element's picture shows its numbers at ${smallest} px or more`, async () => {
      const { page } = env;
      await page.setViewportSize({ width: viewport, height: 900 });
      await openHost(
        env,
        `equation-column-${column}`,
        `<article style="max-width: ${column}px; margin: 0 auto; padding: 0 16px; box-sizing: border-box">` +
          '<p>Text before.</p><embedding-demo id="e" view="equation" ids="2, 3, 1"></embedding-demo></article>',
        '<style>body { margin: 0 }</style>',
      );
      const { cells, texts } = await readPicture(page, '#e');
      const scene = await page.evaluate(() => {
        const root = document.getElementById('e').shadowRoot;
        const canvas = root.querySelector('.equation-canvas');
        return {
          cell: canvas.scene.cell,
          cells: canvas.scene.cells.map(({ grid, x, width, font, column }) => ({
            grid,
            x,
            width,
            font,
            column,
          })),
          shownDims: canvas.scene.shownDims,
          zoom: root.querySelector('.equation-picture').style.zoom,
          room: root.querySelector('.equation-figure').clientWidth,
        };
      });
      assert.deepEqual(scene.shownDims, columns, 'the columns of W and out drawn');
      const values = cells.filter((c) => c.grid === 'weight' || c.grid === 'out');
      assert.equal(values.length, (V + IDS.length) * columns.length);
      // W's numbers are the notebook's, column by column.
      for (const k of [0, 1, 2]) {
        const row = values.filter((c) => c.grid === 'out' && c.k === k).map((c) => c.text);
        assert.deepEqual(
          row,
          columns.map((j) => NOTEBOOK_LOOKUP[k][j]),
          `out[${k}]`,
        );
      }
      const ones = cells.filter((c) => c.grid === 'onehot');
      assert.equal(ones.length, IDS.length * V);
      assert.ok(
        ones.every((c) => c.text === (c.one ? '1' : '0')),
        'every one-hot cell has its digit',
      );
      // W's and out's numbers at `smallest` px or more; the one-hot's digits, half a row tall, at 9.
      for (const { grid, font } of scene.cells) {
        const px = Number(font.match(/([\d.]+)px/)[1]);
        assert.ok(px >= (grid === 'onehot' ? 9 : smallest), `a number of ${grid} at ${px} px`);
      }
      // The widest number, "-1.8061" (7 characters of 0.6 em), fits inside its cell, and the
      // picture inside the element, unshrunk.
      assert.ok(scene.cell >= 7 * 0.6 * smallest, `cells of ${scene.cell} px`);
      assert.equal(scene.zoom, '');
      const right = Math.max(...scene.cells.map((c) => c.x + c.width));
      assert.ok(right <= scene.room, `the grids end at ${right} of ${scene.room} px`);
      assert.ok(texts.some((t) => t.text === 'W'));
      // The line below the picture spells the whole row, whatever the columns drawn.
      assert.equal(
        (await readFigure(page, '#e')).detail,
        `idx[0] = 2 → W[2] → out[0] = [${NOTEBOOK_LOOKUP[0].join(', ')}]`,
      );
      await saveScreenshot(page.locator('#e'), `element-equation-${column}.png`);
      await page.setViewportSize({ width: 1280, height: 800 });
    });
  }

  test('<embedding-demo view="equation"> draws the picture in its shadow root', async () => {
    const { page } = env;
    await openHost(
      env,
      'equation',
      '<embedding-demo id="e" view="equation" step="1"></embedding-demo>',
    );
    const state = await pictureState(page, '#e');
    assert.equal(state.token, 'token 2 of 3');
    assert.equal(state.detail, `idx[1] = 3 → W[3] → out[1] = [${NOTEBOOK_LOOKUP[1].join(', ')}]`);
    assert.equal(state.lit, 1 * V + IDS[1]);
    assert.equal(state.dimmedWeights, (V - 1) * D);
    assert.deepEqual(state.misPainted, []);
    assert.equal(await demoText(page, '#e', '.verdict-word'), 'bit-identical');
    await page.evaluate(() =>
      document
        .getElementById('e')
        .shadowRoot.querySelector('button[aria-label="Next token"]')
        .click(),
    );
    await settle(page);
    assert.equal(await page.getAttribute('#e', 'step'), '2');
    assert.equal((await pictureState(page, '#e')).token, 'token 3 of 3');
    await page.emulateMedia({ reducedMotion: 'reduce' }); // the glow where it ends, for the picture
    await saveScreenshot(page.locator('#e'), 'element-equation.png');
    await page.emulateMedia({ reducedMotion: 'no-preference' });

    // A host page that switches its own theme (color-scheme on <html>, as a dark-mode toggle
    // does) gets the element's dark colours in the picture too, painted on its canvas.
    const positive = async () =>
      (await readPicture(page, '#e')).cells.find((c) => c.grid === 'weight' && !c.dimmed).pixel;
    const light = await positive();
    await page.evaluate(() => {
      document.documentElement.style.colorScheme = 'dark';
    });
    const dark = await changed(page, positive, light);
    assert.notDeepEqual(dark, light);
    assert.deepEqual((await pictureState(page, '#e')).misPainted, []);
    // So does an author who restyles the element itself (its --embedlab-* properties).
    await page.evaluate(() => {
      const demo = document.getElementById('e');
      demo.style.setProperty('--embedlab-positive', 'rgb(0, 160, 0)');
      demo.style.setProperty('--embedlab-negative', 'rgb(160, 0, 160)');
    });
    assert.notDeepEqual(await changed(page, positive, dark), dark);
    assert.deepEqual((await pictureState(page, '#e')).misPainted, []);
  });
});
