// Reading the picture and moving through it: in Text mode its rows are labelled with the
// tokens' texts and the line below reads "·cat → 3797 → W[3797] → out[1] = [...]"; at GPT-2's
// size (V = 50,257) the selected id is always labelled and no labels overlap, at 1280 and 375
// px; at 375 px the selected row's values are readable below the picture, the lookup's numbers;
// the picture is one tab stop with a visible focus ring, arrow keys move the token, its name
// and value say what is selected, and focus stays on it when an arrow button runs out;
// pointing at a row of W marks its token in every view, a click on a row picks it.
// Screenshots of Text mode at 1280 and 375 px.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import {
  BOXES,
  pageOverflow,
  sitePerSuite,
  tableCells,
  waitForLookupRows,
  waitForVerdict,
} from './harness.mjs';
import { PAGE_PICTURE, readFigure, readPicture } from './picture.mjs';
import { saveScreenshot } from './screenshots.mjs';

const THE_CAT_SAT = [464, 3797, 3332]; // GPT-2's ids, tests/e2e/text.test.mjs checks them
const TEXTS = ['The', '·cat', '·sat'];
const LABEL_CHAR = 6.2; // px per character of the picture's 10 px monospace labels

describe("the picture's labels and keys", () => {
  const env = sitePerSuite();
  afterEach(() => env.assertClean());

  async function open(width) {
    const { page } = env;
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.goto(env.url);
    await waitForVerdict(page, 'bit-identical');
  }

  async function theCatSat() {
    const { page } = env;
    await page.click('label[for="from-text"]');
    await page.fill('#text', 'The cat sat');
    await waitForLookupRows(page, THE_CAT_SAT, 30_000);
  }

  // The one-hot's column labels as drawn: [text, start, end] in px. They stand in the row over
  // the grids, or stacked (W over the one-hot), over the one-hot.
  async function headerLabels() {
    const { texts, cells } = await readPicture(env.page);
    const stacked = await env.page.$eval(
      `${PAGE_PICTURE} .equation-canvas`,
      (canvas) => canvas.scene.stacked,
    );
    const weightX = cells.find((c) => c.grid === 'weight').x;
    const onehotTop = Math.min(...cells.filter((c) => c.grid === 'onehot').map((c) => c.y));
    const top = stacked ? onehotTop - 5 : Math.min(...texts.map((t) => t.y));
    return texts
      .filter((t) => t.y === top && t.x < weightX && t.align === 'center')
      .map((t) => [
        t.text,
        t.x - (t.text.length * LABEL_CHAR) / 2,
        t.x + (t.text.length * LABEL_CHAR) / 2,
      ]);
  }

  const pick = async (key) => {
    await env.page.keyboard.press(key);
    return readFigure(env.page);
  };

  test("Text mode at GPT-2's size: rows labelled with the tokens' texts, every selected id labelled", async () => {
    const { page } = env;
    for (const width of [1280, 375]) {
      await open(width);
      await theCatSat();
      let figure = await readFigure(page);
      // Each row by its position and its text.
      const labels = TEXTS.map((text, k) => `[${k}] ${text}`);
      assert.deepEqual(figure.rowLabels.filter((label) => label !== '⋮').slice(0, 1), [labels[0]]);
      if (width === 1280) assert.deepEqual(figure.rowLabels, labels);
      assert.match(figure.detail, /^\[0\] The → 464 → W\[464\] → out\[0\] = \[/);
      await page.focus(`${PAGE_PICTURE} .equation-picture`);
      for (const [k, id] of THE_CAT_SAT.entries()) {
        if (k > 0) figure = await pick('ArrowDown');
        assert.equal(
          figure.valuetext,
          `token ${k + 1} of 3: [${k}] ${TEXTS[k]} → ${id} → W[${id}] → out[${k}]`,
        );
        assert.ok(
          figure.detail.startsWith(`[${k}] ${TEXTS[k]} → ${id} → W[${id}] → out[${k}] = [`),
          figure.detail,
        );
        assert.ok(figure.rowLabels.includes(`[${k}] ${TEXTS[k]}`), `${TEXTS[k]} is labelled`);
        // The selected id heads its column of the one-hot; no two labels there overlap.
        const header = await headerLabels();
        assert.ok(
          header.some(([text]) => text === String(id)),
          `${id} labels its column: ${header.map(([t]) => t)}`,
        );
        header
          .slice(1)
          .forEach(([text, start], i) =>
            assert.ok(start >= header[i][2], `${header[i][0]} and ${text} overlap`),
          );
        // The first column's too; the others' columns, narrowed so that W's cells hold their
        // numbers (and W's rows their notes), may leave their labels to W's rows.
        if (width === 1280)
          assert.ok(
            header.some(([text]) => text === '0'),
            '0 labels its column',
          );
        // The row's values, readable below the picture: the lookup's numbers for token k.
        const [, ...lookup] = (await tableCells(page, BOXES.lookup))[k];
        const shown = [...lookup.slice(0, 3), '…', ...lookup.slice(-2)];
        assert.ok(
          figure.detail.endsWith(`= [${shown.join(', ')}]`),
          `${figure.detail} ends with the lookup's ${shown}`,
        );
      }
      const size = await page.$eval(`${PAGE_PICTURE} .picture-detail`, (p) =>
        parseFloat(getComputedStyle(p).fontSize),
      );
      assert.ok(size >= 12, `the values in ${size} px, whatever the size of the cells`);
      assert.equal(await pageOverflow(page), 0);
      // The glow where it ends, and no focus ring, for the picture.
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.keyboard.press('Home');
      await page.locator(`${PAGE_PICTURE} .equation-picture`).blur();
      await saveScreenshot(page.locator(PAGE_PICTURE), `picture-text-${width}.png`);
      await page.emulateMedia({ reducedMotion: 'no-preference' });
    }
  });

  test('one tab stop with a focus ring; arrow keys, Home and End move the token; focus never falls to the page', async () => {
    const { page } = env;
    await open(1280);
    // Tabbing from the stepper's last button, Next, reaches the picture, and the picture holds
    // no other tab stop.
    await page.focus(`${PAGE_PICTURE} .picture-next`);
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const frame = document.activeElement;
      const style = getComputedStyle(frame);
      return {
        picture: frame.classList.contains('equation-picture'),
        outline: `${style.outlineStyle} ${style.outlineWidth}`,
        inside: frame.querySelectorAll('a, button, input, [tabindex]').length,
      };
    });
    assert.deepEqual(focused, { picture: true, outline: 'solid 3px', inside: 0 });
    let figure = await readFigure(page);
    assert.equal(figure.role, 'slider');
    assert.equal(figure.name, 'Picture: one_hot(idx) × W = out');
    assert.equal(figure.valuetext, 'token 1 of 3: idx[0] = 2 → W[2] → out[0]');
    assert.match(
      figure.description,
      /^one_hot\(idx\), 3 × 4, times W, 4 × 5, equals out, 3 × 5\. out\[0\] · id 2: /,
    );
    figure = await pick('ArrowRight');
    assert.equal(figure.valuetext, 'token 2 of 3: idx[1] = 3 → W[3] → out[1]');
    assert.equal(
      await page.textContent('#step [data-part="detail"] .step-title'),
      'idx[1] = 3 (position 1 of 0–2)',
    );
    assert.equal((await pick('End')).valuetext, 'token 3 of 3: idx[2] = 1 → W[1] → out[2]');
    assert.equal((await pick('ArrowDown')).token, 'token 3 of 3', 'the last token stays');
    assert.equal((await pick('Home')).valuetext, 'token 1 of 3: idx[0] = 2 → W[2] → out[0]');
  });

  test('pointing at a row of W marks its token everywhere; a click on a row of out picks its token', async () => {
    const { page } = env;
    await open(1280);
    // Row 3 of W is token 1's (ids 2, 3, 1).
    await page.hover(`${PAGE_PICTURE} rect[data-vocab="3"]`);
    const marked = () =>
      page.$$eval(`${BOXES.lookup} tbody tr.linked`, (rows) =>
        rows.map((row) => Number(row.dataset.index)),
      );
    assert.deepEqual(await marked(), [1]);
    assert.equal(
      await page.textContent('#step [data-part="detail"] .step-title'),
      'idx[0] = 2 (position 0 of 0–2)',
      'pointing picks nothing',
    );
    // Token 2's row of out, clicked.
    const target = await page.$$(`${PAGE_PICTURE} rect.eq-row-target[data-token="2"]`);
    await target.at(-1).click();
    assert.equal(
      await page.textContent('#step [data-part="detail"] .step-title'),
      'idx[2] = 1 (position 2 of 0–2)',
    );
    assert.equal((await readFigure(page)).token, 'token 3 of 3');
  });
});
