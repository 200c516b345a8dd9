// What a reader sees of the picture at 320, 375, 720 and 1280 px and in a 480 px article
// column, light and dark: every number of the notebook's W drawn (read from what the canvas
// recorded it drew, each in a font it fits), nothing past its frame, the verdict's headline on
// the first screen; the predict question hiding its answer until the pick; a token pointed at
// or focused marking its rows of one_hot, W and out; and one numbering (a token's row by its
// position and id, a row of W by its id) in the captions, the line below the picture and the
// labels, at every step of Product, Lookup and Backward.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { pageOverflow, sitePerSuite, waitForLookupRows, waitForVerdict } from './harness.mjs';
import { openInColumn } from './demo.mjs';
import { entriesOf, notebook, printedAfter } from '../notebooks.mjs';
import { PAGE_PICTURE, readFigure, setMode } from './picture.mjs';
import { saveScreenshot } from './screenshots.mjs';

const NOTEBOOK_W = entriesOf(printedAfter(notebook('002'), 'In [5]:')); // embedding.weight, 4 × 5
const IDS = [2, 3, 1];
// The sizes the first screen is checked at, and the one below them (320 px, the smallest).
const SCREENS = [
  [1280, 800],
  [720, 900],
  [375, 667],
  [320, 640],
];

// What the picture in `root` drew, from its canvas's record: W's cells { v, j, text, px, fits
// (the text measured in its own font against the cell, 1 px each side) }, and how far anything
// drawn (the canvas's cells and texts, the overlay's marks with their strokes) reaches past its
// frame on each side, in px (0 or less: inside).
function drawn(page, root) {
  return page.evaluate((selector) => {
    const host = document.querySelector(selector);
    const base = host.shadowRoot ?? host;
    const figure = host.matches('.equation-figure') ? host : base.querySelector('.equation-figure');
    const frame = base.querySelector('.equation-picture');
    const canvas = frame.querySelector('.equation-canvas');
    const { scene } = canvas;
    const context = document.createElement('canvas').getContext('2d');
    const measure = (text, font) => {
      context.font = font;
      return context.measureText(text).width;
    };
    const weight = scene.cells
      .filter((c) => c.grid === 'weight')
      .map((c) => ({
        v: c.v,
        j: scene.shownDims[c.column],
        text: c.text ?? null,
        px: c.font ? parseFloat(c.font.match(/([\d.]+)px/)[1]) : null,
        fits: c.text ? measure(c.text, c.font) <= c.width - 2 : null,
      }));
    const width = frame.clientWidth;
    const height = frame.clientHeight;
    const reach = { left: -Infinity, right: -Infinity, top: -Infinity, bottom: -Infinity };
    const extend = (left, right, top, bottom, what) => {
      reach.left = Math.max(reach.left, -left);
      reach.right = Math.max(reach.right, right - width);
      reach.top = Math.max(reach.top, -top);
      reach.bottom = Math.max(reach.bottom, bottom - height);
      if (right - width > 0.5 || -left > 0.5 || -top > 0.5 || bottom - height > 0.5)
        reach.what = what;
    };
    for (const c of scene.cells) extend(c.x, c.x + c.width, c.y, c.y + scene.row, `${c.grid} cell`);
    // A text's extent: its width in its font, its ascent above its baseline (an operator is set
    // on its middle).
    for (const t of scene.texts.filter((x) => !x.hidden)) {
      const w = measure(t.text, t.font);
      const size = parseFloat(t.font.match(/([\d.]+)px/)[1]);
      const left = t.align === 'left' ? t.x : t.align === 'right' ? t.x - w : t.x - w / 2;
      const top = t.kind === 'operator' ? t.y - size / 2 : t.y - 0.75 * size;
      extend(left, left + w, top, t.y, `text ${t.text}`);
    }
    // The overlay's marks, strokes included (a glow's halo is 9 px wide).
    const box = frame.getBoundingClientRect();
    for (const node of frame.querySelectorAll('.equation-svg *')) {
      const style = getComputedStyle(node);
      if (style.display === 'none' || !(node instanceof SVGGraphicsElement)) continue;
      if (node.closest('[style*="display: none"]')) continue;
      const r = node.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      const stroke = style.stroke === 'none' ? 0 : parseFloat(style.strokeWidth) / 2;
      extend(
        r.left - box.left - stroke,
        r.right - box.left + stroke,
        r.top - box.top - stroke,
        r.bottom - box.top + stroke,
        `${node.tagName}.${node.getAttribute('class')}`,
      );
    }
    const room = figure.getBoundingClientRect();
    return {
      weight,
      reach,
      zoom: frame.style.zoom,
      frameInFigure: box.left >= room.left - 0.5 && box.right <= room.right + 0.5,
    };
  }, root);
}

// Checks what `drawn()` read: every one of W's numbers in `columns` drawn, the notebook's, in a
// font of at least `px` that it fits; nothing past the frame.
function assertDrawn(seen, { columns, px, where }) {
  const byRow = [0, 1, 2, 3].map((v) =>
    seen.weight.filter((c) => c.v === v).sort((a, b) => a.j - b.j),
  );
  for (const [v, row] of byRow.entries()) {
    assert.deepEqual(
      row.map((c) => c.j),
      columns,
      `${where}: W[${v}]'s columns drawn`,
    );
    assert.deepEqual(
      row.map((c) => c.text),
      columns.map((j) => NOTEBOOK_W[v][j]),
      `${where}: W[${v}]'s numbers, the notebook's`,
    );
    for (const c of row) {
      assert.ok(c.px >= px, `${where}: W[${v}, ${c.j}] drawn at ${c.px} px`);
      assert.ok(c.fits, `${where}: W[${v}, ${c.j}] = ${c.text} fits its cell`);
    }
  }
  assert.equal(seen.zoom, '', `${where}: the picture drawn at its size, not shrunk`);
  assert.ok(seen.frameInFigure, `${where}: the frame inside the figure`);
  for (const side of ['left', 'right', 'top', 'bottom']) {
    assert.ok(
      seen.reach[side] <= 0.5,
      `${where}: ${seen.reach[side]} px past the frame's ${side} (${seen.reach.what})`,
    );
  }
}

describe('what a reader sees of the picture', () => {
  const env = sitePerSuite();
  afterEach(async () => {
    await env.page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
    env.assertClean();
  });

  async function open(width, height, colorScheme = 'light') {
    const { page } = env;
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width, height });
    await page.goto(env.url);
    await waitForVerdict(page, 'bit-identical');
  }

  for (const colorScheme of ['light', 'dark']) {
    test(`${colorScheme}: W's numbers drawn, nothing past its frame, the verdict on the first screen`, async () => {
      const { page } = env;
      for (const [width, height] of SCREENS) {
        const where = `${width} × ${height}, ${colorScheme}`;
        await open(width, height, colorScheme);
        // At 320 px the first two columns and the last; wider, all five. Numbers at their whole
        // size (11 px) from 720 px, at 9 px or more on a phone.
        assertDrawn(await drawn(page, PAGE_PICTURE), {
          columns: width === 320 ? [0, 1, 4] : [0, 1, 2, 3, 4],
          px: width >= 720 ? 11 : 9,
          where,
        });
        assert.equal(await pageOverflow(page), 0, `${where}: nothing wider than the page`);
        const headline = await page.$eval(`${PAGE_PICTURE} .verdict-word`, (node) => ({
          text: node.textContent,
          bottom: node.getBoundingClientRect().bottom,
        }));
        assert.equal(headline.text, 'bit-identical');
        if (width !== 320) {
          assert.ok(
            headline.bottom <= height,
            `${where}: the verdict's headline ends at ${headline.bottom} px`,
          );
        }
        // The page small at its defaults, every section drawn: the pictures are canvases, with no
        // element per value.
        const elements = await page.evaluate(() => document.querySelectorAll('*').length);
        assert.ok(elements <= 1500, `${where}: ${elements} elements`);
        const suffix = colorScheme === 'dark' ? '-dark' : '';
        await saveScreenshot(page, `reader-${width}${suffix}.png`);
      }
    });

    test(`${colorScheme}: in a 480 px article column, every number of W`, async () => {
      const { page } = env;
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width: 1280, height: 900 });
      await openInColumn(env, `reader-column-${colorScheme}`, 480, IDS.join(', '));
      assertDrawn(await drawn(page, '#e'), {
        columns: [0, 1, 2, 3, 4],
        px: 9,
        where: `480 px column, ${colorScheme}`,
      });
      assert.equal(await pageOverflow(page), 0);
      const suffix = colorScheme === 'dark' ? '-dark' : '';
      await saveScreenshot(page.locator('#e'), `reader-480${suffix}.png`);
    });
  }

  // What the picture marks of the answer while it asks which row of W out[0] will be: its 1
  // (filled in the token's colour once known), the labels of its column and of W's row, the
  // glow on W's row and the flows.
  const answerMarks = (page) =>
    page.evaluate((root) => {
      const figure = document.querySelector(root);
      const { scene } = figure.querySelector('.equation-canvas');
      const shown = (selector) =>
        [...figure.querySelectorAll(selector)].some((n) => getComputedStyle(n).display !== 'none');
      return {
        lit: scene.cells.some((c) => c.grid === 'onehot' && c.lit),
        labelled: scene.texts.filter((t) => t.current && t.id === 2).map((t) => t.text),
        rowGlow: shown('.eq-glow-row'),
        oneGlow: shown('.eq-glow-one'),
        flows: shown('.eq-flow:not(.absent)'),
        question: figure.querySelector('.predict-question')?.checkVisibility() ?? false,
        reply: figure.querySelector('.predict-reply').textContent,
        play: figure.dataset.play,
      };
    }, PAGE_PICTURE);

  for (const [width, height] of [
    [1280, 800],
    [375, 667],
  ]) {
    test(`${width} px: the predict question hides its answer, says why a wrong pick is wrong, and lets the learner try again`, async () => {
      const { page } = env;
      await open(width, height);
      await page.click(`${PAGE_PICTURE} .picture-next`);
      let marks = await answerMarks(page);
      assert.equal(marks.question, true, 'step 1 asks');
      assert.deepEqual(
        [marks.lit, marks.labelled, marks.rowGlow, marks.oneGlow, marks.flows],
        [false, [], false, false, false],
        'nothing marks W[2] or the 1 before the pick',
      );
      // W[0]: token 0's position, not its id.
      await page.click(`${PAGE_PICTURE} .predict-choice[data-row="0"]`);
      marks = await answerMarks(page);
      assert.match(marks.reply, /^Not W\[0\]: one_hot\[0, 0\] = 0/);
      assert.match(marks.reply, /position in idx, not its id/);
      assert.match(marks.reply, /try again\.$/);
      assert.equal(marks.question, true, 'the question stays');
      assert.equal(marks.lit, false, 'still hidden');
      assert.equal(
        await page.getAttribute(`${PAGE_PICTURE} .predict-choice[data-row="0"]`, 'aria-disabled'),
        'true',
      );
      await page.click(`${PAGE_PICTURE} .predict-choice[data-row="2"]`);
      marks = await answerMarks(page);
      assert.match(marks.reply, /^W\[2\]: right\./);
      assert.equal(marks.lit, true, 'the 1 is lit once answered');
      assert.equal(marks.question, false);
      await saveScreenshot(page.locator(PAGE_PICTURE), `reader-predict-${width}.png`, {
        publish: false,
      });
    });
  }

  test('Play waits at the question, and goes on once it is answered', async () => {
    const { page } = env;
    await open(1280, 800);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.click(`${PAGE_PICTURE} .picture-play`);
    await page.waitForFunction(
      (root) => document.querySelector(root).dataset.play === 'paused',
      PAGE_PICTURE,
    );
    let marks = await answerMarks(page);
    assert.equal(marks.question, true);
    assert.equal(marks.lit, false);
    assert.match((await readFigure(page)).caption, /^Step 1 of 5: /);
    await page.click(`${PAGE_PICTURE} .predict-choice[data-row="2"]`);
    await page.waitForFunction(
      (root) => document.querySelector(root).dataset.play === 'ended',
      PAGE_PICTURE,
      { timeout: 20_000 },
    );
    marks = await answerMarks(page);
    assert.equal(marks.lit, true);
  });

  // The overlay's marks of a token pointed at or focused: each dashed mark's token or row, and
  // where it stands against the cells of the grid it marks.
  const linkedMarks = (page) =>
    page.evaluate((root) => {
      const figure = document.querySelector(root);
      const frame = figure.querySelector('.equation-picture').getBoundingClientRect();
      const { scene } = figure.querySelector('.equation-canvas');
      return [...figure.querySelectorAll('.equation-svg rect.linked')].map((rect) => {
        const r = rect.getBoundingClientRect();
        const [x, y] = [r.left - frame.left, r.top - frame.top];
        // The cells inside the mark (drawn 1 px inside the row's edge).
        const over = scene.cells.filter(
          (c) =>
            c.x >= x - 2 &&
            c.x + c.width <= x + r.width + 2 &&
            c.y >= y - 2 &&
            c.y + scene.row <= y + r.height + 2,
        );
        return {
          token: rect.dataset.token ?? null,
          vocab: rect.dataset.vocab ?? null,
          stroke: getComputedStyle(rect).stroke,
          dashed: getComputedStyle(rect).strokeDasharray !== 'none',
          grids: [...new Set(over.map((c) => c.grid))].sort(),
          rows: [...new Set(over.map((c) => c.k ?? c.v))],
        };
      });
    }, PAGE_PICTURE);

  for (const [width, height] of [
    [1280, 800],
    [375, 667],
  ]) {
    test(`${width} px: a token pointed at or focused marks its rows of one_hot, W and out`, async () => {
      const { page } = env;
      await open(width, height);
      // Token 1 (id 3), focused in the token picker.
      await page.focus('#results .step-tokens [data-token="1"]');
      const focused = await linkedMarks(page);
      const token1 = await page.evaluate(() =>
        getComputedStyle(document.documentElement).getPropertyValue('--token-1'),
      );
      assert.ok(token1.trim(), 'token 1 has a colour');
      const summary = focused.map(({ token, vocab, grids, rows }) => ({
        token,
        vocab,
        grids,
        rows,
      }));
      assert.deepEqual(
        summary.sort((a, b) => (a.grids[0] < b.grids[0] ? -1 : 1)),
        [
          { token: '1', vocab: null, grids: ['onehot'], rows: [1] },
          { token: '1', vocab: null, grids: ['out'], rows: [1] },
          { token: null, vocab: '3', grids: ['weight'], rows: [3] },
        ],
      );
      assert.ok(focused.every((mark) => mark.dashed));
      assert.equal(new Set(focused.map((mark) => mark.stroke)).size, 1, 'in one colour');
      // Pointed at: a row of the lookup table below, token 2 (id 1).
      await page.locator(`${PAGE_PICTURE} .equation-picture`).focus();
      await page.hover('#results [data-box="lookup"] tbody tr[data-index="2"]');
      const pointed = await linkedMarks(page);
      assert.deepEqual(pointed.map(({ grids, rows }) => [grids[0], rows[0]]).sort(), [
        ['onehot', 2],
        ['out', 2],
        ['weight', 1],
      ]);
      await saveScreenshot(page, `reader-hover-${width}.png`, { publish: false });
    });
  }

  test("the stepper's keys, shown where the stepper is, and said to a screen reader", async () => {
    const { page } = env;
    await open(1280, 800);
    const keys = () =>
      page.$$eval(`${PAGE_PICTURE} .picture-keyed`, (keyed) =>
        keyed.map((node) => {
          const button = node.querySelector('button');
          const kbd = node.querySelector('kbd');
          const [b, k] = [button.getBoundingClientRect(), kbd.getBoundingClientRect()];
          return {
            key: kbd.checkVisibility() ? kbd.textContent : null,
            said: button.getAttribute('aria-keyshortcuts'),
            // On the button's corner: overlapping its box.
            onIt: k.right > b.left && k.left < b.right && k.bottom > b.top && k.top < b.bottom,
          };
        }),
      );
    assert.deepEqual(await keys(), [
      { key: ',', said: ',', onIt: true },
      { key: 'k', said: 'k', onIt: true },
      { key: '.', said: '.', onIt: true },
    ]);
    // On a step, Escape too, beside the scrubber.
    await page.click(`${PAGE_PICTURE} .picture-next`);
    assert.equal(await page.textContent(`${PAGE_PICTURE} .picture-escape`), 'Esc back to rest');
    await page.keyboard.press('Escape');
    assert.equal((await readFigure(page)).play, '');
    // A phone's touch screen has no keys to show.
    await page.setViewportSize({ width: 375, height: 667 });
    assert.deepEqual(
      (await keys()).map((k) => k.key),
      [null, null, null],
    );
  });

  // Every caption names the step's token by its position and its id, and a row of W by its id:
  // no "row 3 of W", no "token 1"; the line below the picture names the same token.
  function assertOneNumbering(ids, { equation, caption, detail }, where) {
    const words = caption.replace(/^Step \d+ of \d+: /, '').replace(equation, '');
    assert.doesNotMatch(words, /\b(row|column|token) \d/i, `${where}: ${words}`);
    for (const [, grid, k, id] of words.matchAll(/\b(out|G)\[(\d+)\] · id (\d+)/g)) {
      assert.equal(Number(id), ids[Number(k)], `${where}: ${grid}[${k}] · id ${id}`);
    }
    const token = /\b(out|G)\[(\d+)\] · id (\d+)/.exec(words);
    if (token) assert.ok(detail.includes(`${token[1]}[${token[2]}]`), `${where}: ${detail}`);
  }

  test('one numbering at every step of Product, Lookup and Backward, and in the labels', async () => {
    const { page } = env;
    await open(1280, 800);
    const ids = [2, 3, 2];
    await page.fill('#ids', ids.join(', '));
    await waitForLookupRows(page, ids);
    // The labels: a token's row by its position and its id.
    assert.deepEqual((await readFigure(page)).rowLabels, ['[0] 2', '[1] 3', '[2] 2']);
    const steps = { product: 5, lookup: 2, backward: 4 };
    for (const [mode, count] of Object.entries(steps)) {
      await setMode(page, mode);
      for (let step = 1; step <= count; ++step) {
        await page.click(`${PAGE_PICTURE} .picture-next`);
        const figure = await readFigure(page);
        assert.match(figure.caption, new RegExp(`^Step ${step} of ${count}: `));
        assertOneNumbering(ids, figure, `${mode}, step ${step}`);
        // In Backward, each step's line follows its token: G[k] · id → dW[id].
        if (mode === 'backward' && step <= ids.length) {
          const k = step - 1;
          assert.match(
            figure.detail,
            new RegExp(`^G\\[${k}\\] · id ${ids[k]} → dW\\[${ids[k]}\\]: ${step} of 3 rows`),
          );
        }
      }
      await page.keyboard.press('Escape');
    }
    await setMode(page, 'product');
  });

  // The picture's dimming and the line over it, and the verdict's headline and words.
  const stale = (page) =>
    page.evaluate((root) => {
      const figure = document.querySelector(root);
      const note = figure.querySelector('.picture-stale-note');
      return {
        dimmed: Number(getComputedStyle(figure.querySelector('.equation-picture')).opacity) < 1,
        note: note.checkVisibility() ? note.textContent : null,
        verdict: figure.querySelector('.verdict-word').textContent,
        words: figure.querySelector('.verdict-sentence').textContent,
      };
    }, PAGE_PICTURE);

  test('while the ids are wrong, the picture and verdict say which ids they still show', async () => {
    const { page } = env;
    await open(1280, 800);
    await page.focus('#ids');
    await page.keyboard.press('End');
    await page.keyboard.type(', x');
    await page.locator('#ids').blur(); // leaving the field shows the error at once
    await page.waitForFunction(() => !document.getElementById('ids-error').hidden);
    assert.deepEqual(await stale(page), {
      dimmed: true,
      note: 'Showing the last valid ids: idx = [2, 3, 1], V = 4, d = 5',
      verdict: 'no result',
      words: 'Fix the input: showing the last valid ids, idx = [2, 3, 1], V = 4, d = 5.',
    });
    await saveScreenshot(page.locator(PAGE_PICTURE), 'reader-stale-1280.png', { publish: false });
    await page.fill('#ids', '2, 3, 1');
    await waitForVerdict(page, 'bit-identical');
    assert.equal((await stale(page)).dimmed, false);
    assert.equal((await stale(page)).note, null);
  });

  test('an id typed past V asks before V grows: grow it, or keep it and see the error', async () => {
    const { page } = env;
    await open(1280, 800);
    const weight = () =>
      page.$eval(PAGE_PICTURE, (figure) =>
        figure
          .querySelector('.equation-canvas')
          .scene.cells.filter((c) => c.grid === 'weight' && c.v === 3)
          .map((c) => c.text),
      );
    const row3 = await weight();
    assert.deepEqual(row3, NOTEBOOK_W[3]);
    await page.focus('#ids');
    await page.keyboard.press('End');
    await page.keyboard.type(', 99999');
    await page.locator('#ids').blur();
    const choice = page.locator('#vocab-choice');
    await choice.waitFor({ state: 'visible' });
    assert.equal(
      await choice.textContent(),
      'id 99,999 is past V = 4: Grow V to 100,000 Keep V = 4',
    );
    // V is held: the ids' error says why, W (the notebook's) is still drawn, dimmed.
    assert.equal(await page.inputValue('#vocab'), '4');
    assert.match(await page.textContent('#ids-error'), /99999/);
    assert.deepEqual(await weight(), row3);
    assert.equal((await stale(page)).dimmed, true);
    // Keep V = 4: the choice goes, the error stays, the focus back on the ids.
    await page.click('#vocab-choice button:has-text("Keep V = 4")');
    await choice.waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement.id), 'ids');
    assert.ok(await page.isVisible('#ids-error'));
    // Typing on past V again asks again; Grow makes the new table, W drawn afresh.
    await page.keyboard.press('End');
    await page.keyboard.type('9');
    await page.locator('#ids').blur();
    await choice.waitFor({ state: 'visible' });
    await page.click('#vocab-choice button:has-text("Grow V to 1,000,000")');
    await waitForVerdict(page, 'bit-identical');
    assert.equal(await page.inputValue('#vocab'), '');
    assert.equal(await page.getAttribute('#vocab', 'placeholder'), 'auto: 1,000,000');
    assert.notDeepEqual(await weight(), row3, 'a new V is a new table');
    // A list put in whole is meant as it stands: V follows it, no question.
    await page.fill('#ids', '2, 3, 1');
    await waitForVerdict(page, 'bit-identical');
    assert.deepEqual(await weight(), row3);
    assert.equal(await choice.isVisible(), false);
  });
});
