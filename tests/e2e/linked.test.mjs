// Every view linked to one token: pointing at a token in one view marks it in the others (the
// tables, the step-through, the picture) without moving the step, and a click picks it; a
// number field and a slider jump to token k of n; the step-through shows the k-th product term
// by term; in the Backward view a row of dW marks the rows of G that add into it, in the Bag
// view a bag marks its ids; the selected token and the one pointed at are marked in their own
// colours (one per token) in every view; big matrices are heatmaps whose hover gives (row, col)
// and the value, the page still within its element budget at n = 64, V = 4096, d = 64.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import {
  BOXES,
  computedColor,
  frames,
  openNumbers,
  PAGE_ELEMENTS,
  showLargeCase,
  sitePerSuite,
  waitForVerdict,
} from './harness.mjs';
import { entriesOf, notebook, printedAfter } from '../notebooks.mjs';
import { changed, readPicture } from './picture.mjs';
import { saveScreenshot } from './screenshots.mjs';

const NOTEBOOK_W = entriesOf(printedAfter(notebook('002'), 'In [5]:'))
  .flat()
  .map(Number); // 4 x 5
const D = 5;

describe('linked views', () => {
  const env = sitePerSuite();
  afterEach(() => env.assertClean());

  const stepTitle = () => env.page.textContent('#step [data-part="detail"] .step-title');
  // The first pixel of each heatmap in `selector`, as painted: read through a copy (reading
  // the canvas itself again and again draws a console warning).
  const heatmapPixels = (selector) =>
    env.page.$$eval(`${selector} .heatmap-canvas`, (canvases) =>
      canvases.map((canvas) => {
        const copy = document
          .createElement('canvas')
          .getContext('2d', { willReadFrequently: true });
        copy.drawImage(canvas, 0, 0);
        return Array.from(copy.getImageData(0, 0, 1, 1).data);
      }),
    );
  // The screen from the top of a section, at 1280 and 375 px wide (an element's own screenshot
  // of a section below the fold can come out blank: content-visibility); dark: in dark mode
  // too, once its heatmaps are repainted in the dark palette.
  async function shoot(selector, name, { dark = false } = {}) {
    const { page } = env;
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
      await page.$eval(selector, (section) => section.scrollIntoView({ block: 'start' }));
      await frames(page);
      await saveScreenshot(page, `${name}-${width}.png`);
      if (!dark) continue;
      const light = await heatmapPixels(selector);
      await page.emulateMedia({ colorScheme: 'dark' });
      const painted = await changed(page, () => heatmapPixels(selector), light);
      await saveScreenshot(page, `${name}-${width}-dark.png`);
      await page.emulateMedia({ colorScheme: 'light' });
      await changed(page, () => heatmapPixels(selector), painted);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }
  // The views that mark a node as linked, by what they are.
  const linked = () =>
    env.page.evaluate((boxes) => {
      const all = (s) => [...document.querySelectorAll(s)];
      const indices = (box) =>
        all(`${boxes[box]} tbody tr.linked`).map((tr) => Number(tr.dataset.index));
      return {
        weight: indices('weight'),
        onehot: indices('onehot'),
        lookup: indices('lookup'),
        product: indices('product'),
        linear: all('#matrices [data-box="linear"] thead th.linked').map((th) => th.textContent),
        onehotColumns: all('#matrices [data-box="onehot"] thead th.linked').map(
          (th) => th.textContent,
        ),
        steps: all('#results [data-part="tokens"] button.linked').map((b) =>
          Number(b.dataset.token),
        ),
        // The tokens the picture's marked nodes stand for: its rows (data-token) and rows of W
        // (data-vocab, the first token with that id).
        picture: [
          ...new Set(
            all('#results .equation-figure .linked').map((node) =>
              node.dataset.token !== undefined
                ? Number(node.dataset.token)
                : [2, 3, 1].indexOf(Number(node.dataset.vocab)),
            ),
          ),
        ],
      };
    }, BOXES);
  // Token k of ids [2, 3, 1] marked in every view (its id in W and W.T).
  const everywhere = (k, id) => ({
    weight: [id],
    onehot: [k],
    lookup: [k],
    product: [k],
    linear: [String(id)],
    onehotColumns: [String(id)],
    steps: [k],
    picture: [k],
  });

  test('pointing at a token in one view marks it in all of them; a click picks it', async () => {
    const { page } = env;
    assert.equal(await stepTitle(), 'idx[0] = 2 (position 0 of 0–2)');
    // A row of the lookup's output: token 1 (id 3).
    await page.hover('#results [data-box="lookup"] tbody tr[data-index="1"] td');
    assert.deepEqual(await linked(), everywhere(1, 3));
    assert.equal(
      await stepTitle(),
      'idx[0] = 2 (position 0 of 0–2)',
      'hovering leaves the step alone',
    );
    // W's row 1 belongs to token 2; W.T's column header 2 to token 0; a step button; the picture.
    await page.hover('#matrices [data-box="weight"] tbody tr[data-index="1"] th');
    assert.deepEqual(await linked(), everywhere(2, 1));
    await page.hover('#matrices [data-box="linear"] thead th:nth-child(4)'); // the header of column 2
    assert.deepEqual(await linked(), everywhere(0, 2));
    await page.hover('#results [data-part="tokens"] button[data-token="2"]');
    assert.deepEqual(await linked(), everywhere(2, 1));
    await page.hover('#results .equation-figure text[data-token="1"]');
    assert.deepEqual(await linked(), everywhere(1, 3));
    await page.hover('#results [data-box="lookup"] tbody tr[data-index="1"] td');
    await saveScreenshot(page, 'linked-hover-1280.png');
    // Pointing elsewhere clears the marks; focusing a token marks it too.
    await page.hover('#matrices h2');
    assert.deepEqual((await linked()).lookup, []);
    await page.focus('#results [data-part="tokens"] [aria-checked="true"]');
    assert.deepEqual((await linked()).lookup, [0]);

    await page.click('#results [data-box="product"] tbody tr[data-index="2"] td');
    assert.equal(await stepTitle(), 'idx[2] = 1 (position 2 of 0–2)');
    assert.equal(
      await page.getAttribute('#matrices [data-box="weight"] tr.current', 'data-index'),
      '1',
    );
    await page.click('#results .equation-figure text[data-token="0"]');
    assert.equal(await stepTitle(), 'idx[0] = 2 (position 0 of 0–2)');
  });

  test('the product term by term: V products, the zeros dimmed, one survivor', async () => {
    const { page } = env;
    const terms = () =>
      page.evaluate(() => ({
        zeros: [...document.querySelectorAll('#step [data-part="detail"] .term.zero')].map(
          (t) => t.textContent,
        ),
        survivor: [...document.querySelectorAll('#step [data-part="detail"] .term.survivor')].map(
          (t) => t.textContent,
        ),
        gaps: document.querySelectorAll('#step [data-part="detail"] .term.gap').length,
        count: document.querySelector('#step [data-part="detail"] .terms-count').textContent,
        opacity: getComputedStyle(document.querySelector('#step [data-part="detail"] .term.zero'))
          .opacity,
      }));
    // Token 1 (id 2) of V = 4: 1·W[2, 0] and three zeros, each times its W[j, 0] (the notebook's).
    const shown = await terms();
    assert.equal(shown.survivor.length, 1);
    assert.equal(shown.zeros.length, 3);
    // "0·0.3374", "0·(-2.8400)": a negative factor in parentheses.
    const factor = (text) => Number(/^[01]·\(?(-?[\d.]+)\)?$/.exec(text)[1]);
    assert.ok(shown.zeros.includes('0·(-2.8400)'), shown.zeros.join(' '));
    assert.ok(Math.abs(factor(shown.survivor[0]) - NOTEBOOK_W[2 * D]) < 1e-4, shown.survivor[0]);
    assert.ok(shown.survivor[0].startsWith('1·'));
    [0, 1, 3].forEach((j, i) => {
      assert.ok(shown.zeros[i].startsWith('0·'));
      assert.ok(Math.abs(factor(shown.zeros[i]) - NOTEBOOK_W[j * D]) < 1e-4, shown.zeros[i]);
    });
    assert.ok(Number(shown.opacity) < 1, 'zeros are dimmed');
    assert.equal(
      shown.count,
      'V = 4 products with column 0 of W: 3 by zero (dimmed), 1 survivor, W[2, 0].',
    );

    // V = 1000, id 500: the survivor, two zeros each side, the ends, and the rest counted.
    await page.fill('#vocab', '1000');
    await page.fill('#ids', '500');
    await page.waitForFunction(
      () =>
        document.querySelector('#step [data-part="detail"] .step-title')?.textContent ===
        'idx[0] = 500 (position 0 of 0–0)',
    );
    const big = await terms();
    assert.equal(big.survivor.length, 1);
    assert.equal(big.zeros.length, 3 + 4 + 3);
    assert.equal(big.gaps, 2);
    assert.match(
      big.count,
      /^V = 1,000 products with column 0 of W: 999 by zero \(dimmed\), 1 survivor, W\[500, 0\]\.$/,
    );
    await page.fill('#vocab', '');
    await page.fill('#ids', '2, 3, 1');
    await waitForVerdict(page, 'bit-identical');
  });

  test("jump to token k of n: the picker's field, and its arrow keys", async () => {
    const { page } = env;
    const ids = Array.from({ length: 10_000 }, (_, i) => (i * 7) % 50);
    await page.fill('#vocab', '50');
    await page.fill('#ids', ids.join(', '));
    await page.waitForFunction(() =>
      document
        .querySelector('#step [data-part="detail"] .step-title')
        ?.textContent.includes('of 0–9,999'),
    );
    await page.fill('#results [data-part="index"]', '500');
    assert.equal(await stepTitle(), `idx[499] = ${ids[499]} (position 499 of 0–9,999)`);
    // The chosen token is marked in the tables and the picker, far from the ends.
    await openNumbers(page, BOXES.lookup);
    assert.equal(await page.getAttribute(`${BOXES.lookup} tr.current`, 'data-index'), '499');
    await page.click(`${BOXES.lookup} details.numbers summary`); // closed again
    assert.equal(
      await page.getAttribute('#results [data-part="tokens"] [aria-checked="true"]', 'data-token'),
      '499',
    );

    await page.focus('#results [data-part="tokens"] [aria-checked="true"]');
    await page.keyboard.press('End');
    assert.equal(await stepTitle(), `idx[9999] = ${ids[9999]} (position 9,999 of 0–9,999)`);
    assert.equal(await page.inputValue('#results [data-part="index"]'), '10000');
    await page.keyboard.press('Home');
    assert.equal(await stepTitle(), `idx[0] = ${ids[0]} (position 0 of 0–9,999)`);
    await page.keyboard.press('ArrowRight');
    assert.equal(await stepTitle(), `idx[1] = ${ids[1]} (position 1 of 0–9,999)`);
    await page.fill('#results [data-part="index"]', '500');
    await shoot('#results', 'step-jump');
    // Out of range: nothing moves.
    await page.fill('#results [data-part="index"]', '10001');
    assert.equal(await stepTitle(), `idx[499] = ${ids[499]} (position 499 of 0–9,999)`);
    await page.fill('#vocab', '');
    await page.fill('#ids', '2, 3, 1');
    await waitForVerdict(page, 'bit-identical');
  });

  test('Backward: a row of dW marks the rows of G that add into it; Bag: a bag marks its ids', async () => {
    const { page } = env;
    await page.fill('#ids', '2, 3, 1, 3');
    await waitForVerdict(page, 'bit-identical');
    const marked = (selector) =>
      page.$$eval(selector, (nodes) => nodes.map((n) => n.dataset.index ?? n.textContent));
    await page.locator('#backward').scrollIntoViewIfNeeded();
    await page.waitForSelector('#backward [data-part="verdict"][data-state]');
    // id 3 is at positions 1 and 3: dW[3] = G[1] + G[3].
    // Their matrices are printed as text: a line a row (.matrix-row), the labels beside.
    const row = (box, index) => `${box} .matrix-values .matrix-row[data-index="${index}"]`;
    const rows = (box) => `${box} .matrix-values .matrix-row.linked`;
    await page.hover('#backward [data-box="grad"] .matrix-labels [data-index="3"]');
    assert.deepEqual(await marked(rows('#backward [data-box="upstream"]')), ['1', '3']);
    assert.deepEqual(await marked(rows('#backward [data-box="product"]')), ['3']);
    await page.hover(row('#backward [data-box="upstream"]', 2));
    assert.deepEqual(await marked(rows('#backward [data-box="grad"]')), ['1']);
    assert.deepEqual(await marked(rows('#backward [data-box="upstream"]')), ['2']);

    // offsets 0, 2: bag 1 holds idx[2:4] = ids 1 and 3.
    await page.locator('#bag').scrollIntoViewIfNeeded();
    await page.waitForSelector('#bag [data-part="verdict"][data-state]');
    await page.hover(row('#bag [data-box="output"]', 1));
    assert.deepEqual(await marked('#bag .bag-id.linked'), ['1', '3']);
    assert.deepEqual(
      await marked('#bag [data-box="multihot"] .matrix-values > [data-vocab].linked'),
      ['1', '3'],
    );
    assert.deepEqual(await marked(rows('#bag [data-box="product"]')), ['1']);
    await page.hover('#bag li[data-bag="0"] .bag-label');
    assert.deepEqual(await marked('#bag .bag-id.linked'), ['2', '3']);
    assert.deepEqual(await marked(rows('#bag [data-box="output"]')), ['0']);
    await saveScreenshot(page.locator('#bag'), 'bag-linked-1280.png');
    await page.fill('#ids', '2, 3, 1');
    await waitForVerdict(page, 'bit-identical');
  });

  test('one colour per token: the selected and the pointed-at token in their own colours, everywhere', async () => {
    const { page } = env;
    await page.fill('#ids', '2, 3, 1');
    await waitForVerdict(page, 'bit-identical');
    await page.click('#printout-section details summary');
    await page.waitForSelector('#printout-section .printout-row');
    const colorOf = (css) => computedColor(page, css);
    const tint = (k, percent) =>
      colorOf(`color-mix(in oklab, var(--token-${k}) ${percent}%, transparent)`);
    const painted = (selector, property = 'backgroundColor') =>
      page.$$eval(
        selector,
        (nodes, name) => nodes.map((node) => getComputedStyle(node)[name]),
        property,
      );
    const distinct = new Set(await Promise.all([0, 1, 2].map((k) => colorOf(`var(--token-${k})`))));
    assert.equal(distinct.size, 3, 'three tokens, three colours');

    // Token 1 (id 3) picked in the lookup table: marked in its colour in every view.
    await page.click('#results [data-box="lookup"] tbody tr[data-index="1"] td');
    await page.mouse.move(0, 0); // pointed at, the row would show the pointer's mark
    const selected = await tint(1, 22);
    const rowCells = (view, box, index) =>
      `${view} [data-box="${box}"] tbody tr[data-index="${index}"].current td`;
    // A matrix printed as text: its row's line.
    const rowLine = (view, box, index) =>
      `${view} [data-box="${box}"] .matrix-values .matrix-row[data-index="${index}"].current`;
    for (const cells of [
      rowCells('#results', 'lookup', 1),
      rowCells('#results', 'product', 1),
      rowCells('#matrices', 'weight', 3),
      rowLine('#backward', 'upstream', 1),
      rowLine('#backward', 'grad', 3),
    ]) {
      await page.locator(cells).first().scrollIntoViewIfNeeded();
      assert.deepEqual(new Set(await painted(cells)), new Set([selected]), cells);
    }
    assert.deepEqual(await painted('main [data-part="tokens"] [aria-checked="true"]'), [
      await colorOf('var(--token-1)'),
    ]);
    assert.deepEqual(new Set(await painted('#bag .bag-id.current')), new Set([selected]));
    assert.deepEqual(
      new Set(await painted('#printout-section .printout-row.current')),
      new Set([await tint(1, 10)]),
    );
    assert.deepEqual(
      await page.$$eval('#printout-section .printout-row.current', (rows) =>
        rows.map((row) => row.dataset.token ?? `id ${row.dataset.vocab}`),
      ),
      ['id 3', '1', '1', '1'],
    );

    // Token 2 (id 1) pointed at in the product: the same views mark it in its own colour.
    await page.locator('#results [data-box="product"]').scrollIntoViewIfNeeded();
    await page.hover('#results [data-box="product"] tbody tr[data-index="2"] td');
    const pointed = await tint(2, 16);
    for (const cells of [
      '#results [data-box="lookup"] tr.linked > *',
      '#matrices [data-box="weight"] tr.linked > *',
      '#backward [data-box="upstream"] .matrix-values .matrix-row.linked',
    ]) {
      assert.deepEqual(new Set(await painted(cells)), new Set([pointed]), cells);
    }
    assert.deepEqual(await painted('main [data-part="tokens"] button.linked', 'outlineColor'), [
      await colorOf('var(--token-2)'),
    ]);
    assert.deepEqual(
      new Set(await painted('#printout-section .printout-row.linked')),
      new Set([await tint(2, 10)]),
    );
    // For the screenshots, token 2 marked by the focus (the pointer moves as the page scrolls).
    await page.mouse.move(0, 0);
    await page.focus('main [data-part="tokens"] button[data-token="2"]');
    await shoot('#results', 'token-colors');
    await shoot('#matrices', 'token-colors-matrices');
    await page.click('#results [data-box="lookup"] tbody tr[data-index="0"] td');
    await page.click('#printout-section details summary');
  });

  test("a heatmap pixel is its value's share of the scale, from the zero colour towards its side's end", async () => {
    const { page } = env;
    await showLargeCase(page);
    const box = '#results [data-box="lookup"]';
    const canvas = page.locator(`${box} canvas`);
    await canvas.scrollIntoViewIfNeeded();
    const rgb = async (css) =>
      (await computedColor(page, css))
        .match(/[\d.]+/g)
        .slice(0, 3)
        .map(Number);
    const zero = await rgb('var(--eq-zero)');
    const ends = { neg: await rgb('var(--eq-neg)'), pos: await rgb('var(--eq-pos)') };
    const { width, height } = await canvas.boundingBox();
    const shares = []; // [|value|, the pixel's share of the way to its end]
    for (let k = 0; k < 12; ++k) {
      await canvas.hover({
        position: {
          x: ((((k * 23) % 64) + 0.5) * width) / 64,
          y: ((((k * 37) % 64) + 0.5) * height) / 64,
        },
      });
      const readout = page.locator(`${box} .heatmap-readout`);
      const [, i, j, text] = /^embedding\(idx\)\[(\d+), (\d+)\] = (\S+)$/.exec(
        await readout.textContent(),
      );
      const pixel = await canvas.evaluate(
        (c, [x, y]) => {
          const copy = document
            .createElement('canvas')
            .getContext('2d', { willReadFrequently: true });
          copy.drawImage(c, x, y, 1, 1, 0, 0, 1, 1);
          return Array.from(copy.getImageData(0, 0, 1, 1).data.slice(0, 3));
        },
        [Number(j), Number(i)],
      );
      const value = Number(text);
      const end = ends[value < 0 ? 'neg' : 'pos'];
      // Each channel the same share of its way from zero to the end (a channel rounds by 1 at most).
      const channel = [0, 1, 2].map((c) => (pixel[c] - zero[c]) / (end[c] - zero[c]));
      const steep = [0, 1, 2].filter((c) => Math.abs(end[c] - zero[c]) >= 60);
      for (const c of steep) {
        assert.ok(
          Math.abs(channel[c] - channel[steep[0]]) <= 2 / Math.abs(end[c] - zero[c]),
          `[${i}, ${j}] = ${value}: ${pixel} is not on the way from ${zero} to ${end}`,
        );
      }
      shares.push([Math.abs(value), channel[steep[0]]]);
    }
    // The share grows with |value| in proportion: one scale (the largest |value|) for all.
    const [v0, s0] = shares.reduce((a, b) => (b[0] > a[0] ? b : a));
    for (const [v, s] of shares) {
      assert.ok(
        Math.abs(s - (s0 * v) / v0) <= 0.02,
        `|${v}| is ${s} of the way, against ${(s0 * v) / v0}`,
      );
    }
  });

  test('n = 64, V = 4096, d = 64: heatmaps with a readout, linked, the page within its element budget', async () => {
    const { page } = env;
    const ids = await showLargeCase(page);
    for (const box of Object.values(BOXES)) {
      assert.equal(await page.locator(`${box} canvas.heatmap-canvas`).count(), 1, box);
      // Its summarised table is made only once "Numbers" is opened.
      assert.equal(await page.locator(`${box} details.numbers:not([open])`).count(), 1, box);
      assert.equal(await page.locator(`${box} details.numbers table`).count(), 0, box);
    }
    // The top-left cell of W: its readout against the summarised table's W[0, 0].
    const canvas = page.locator('#matrices [data-box="weight"] canvas');
    await canvas.scrollIntoViewIfNeeded();
    await canvas.hover({ position: { x: 0, y: 0 } }); // a row is 0.07 px high
    const readout = await page.textContent('#matrices [data-box="weight"] .heatmap-readout');
    const match = /^W\[0, 0\] = (\S+)$/.exec(readout);
    assert.ok(match, readout);
    await openNumbers(page, BOXES.weight);
    const tableValue = Number(
      await page.textContent('#matrices [data-box="weight"] tbody tr[data-index="0"] td'),
    );
    assert.ok(Math.abs(Number(match[1]) - tableValue) < 1e-4, `${match[1]} against ${tableValue}`);
    await page.click(`${BOXES.weight} details.numbers summary`); // closed again
    // Near the bottom-right corner: the last rows, the last column.
    const box = await canvas.boundingBox();
    await canvas.hover({ position: { x: box.width - 3, y: box.height - 3 } });
    const [, row, col] = /^W\[(\d+), (\d+)\] = /.exec(
      await page.textContent('#matrices [data-box="weight"] .heatmap-readout'),
    );
    assert.ok(Number(row) > 4050 && Number(row) < 4096, row);
    assert.equal(col, '63');

    // Colours on the picture's scale, redrawn for dark mode: a zero of the one-hot heatmap and a
    // zero of the picture's one-hot (neither lit nor dimmed), as painted. Both canvases repaint
    // after the media change on their own schedule, so the check waits for each.
    const heatmapZero = () =>
      page.$eval('#matrices [data-box="onehot"] canvas', (c) => {
        // Read through a copy: reading the heatmap itself again and again draws a console warning.
        const copy = document
          .createElement('canvas')
          .getContext('2d', { willReadFrequently: true });
        copy.drawImage(c, c.width - 1, 0, 1, 1, 0, 0, 1, 1);
        return Array.from(copy.getImageData(0, 0, 1, 1).data.slice(0, 3));
      });
    const pictureZero = async () =>
      (await readPicture(page)).cells
        .find((c) => c.grid === 'onehot' && !c.one && !c.dimmed)
        .pixel.slice(0, 3);
    const light = { heatmap: await heatmapZero(), picture: await pictureZero() };
    assert.deepEqual(light.heatmap, light.picture);
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = {
      heatmap: await changed(page, heatmapZero, light.heatmap),
      picture: await changed(page, pictureZero, light.picture),
    };
    assert.deepEqual(dark.heatmap, dark.picture);
    await page.emulateMedia({ colorScheme: 'light' });

    // The lookup's top row is token 0: pointing at it marks token 0 in the picker; a click picks.
    const lookup = page.locator('#results [data-box="lookup"] canvas');
    await lookup.scrollIntoViewIfNeeded();
    await lookup.hover({ position: { x: 3, y: 1 } });
    assert.deepEqual(
      await page.$$eval('#results [data-part="tokens"] button.linked', (b) =>
        b.map((x) => x.dataset.token),
      ),
      ['0'],
    );
    // A token pointed at elsewhere gets a dashed band in each heatmap: token 0's row of the
    // lookup, its id's row of W.
    await page.hover('#results [data-part="tokens"] button[data-token="0"]');
    const band = (box) =>
      page.$eval(`${BOXES[box]} .heatmap-outline.linked`, (b) => (b.hidden ? null : b.style.top));
    assert.equal(await band('lookup'), 'calc(0% - 2px)');
    const weightTop = /^calc\(([\d.]+)% - 2px\)$/.exec(await band('weight'));
    assert.ok(Math.abs(Number(weightTop[1]) - (100 * ids[0]) / 4096) < 1e-3, weightTop[0]);
    await page.hover('#step-title');
    assert.equal(await band('lookup'), null);
    const lookupBox = await lookup.boundingBox();
    await lookup.click({ position: { x: 3, y: lookupBox.height - 2 } });
    assert.equal(await stepTitle(), `idx[63] = ${ids[63]} (position 63 of 0–63)`);
    await shoot('#matrices', 'heatmaps', { dark: true });

    for (const id of ['backward', 'bag']) {
      await page.locator(`#${id}`).scrollIntoViewIfNeeded();
      await page.waitForSelector(`#${id} [data-part="verdict"][data-state]`);
    }
    const elements = await page.evaluate(() => document.getElementsByTagName('*').length);
    console.log(`n = 64, V = 4096, d = 64: ${elements} elements`);
    assert.ok(elements < PAGE_ELEMENTS, `${elements} elements`);
  });
});
