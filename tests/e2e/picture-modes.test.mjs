// The picture's three modes on one canvas, by its toggle: Product (one_hot(idx) × W = out),
// Lookup (an arrow from idx straight to row idx[k] of W and into out, labelled with the
// verdict of both routes, whatever its grade) and Backward (G = torch.randn(n, d) after
// torch.manual_seed(0), the Backward view's default, flowing back into dW: for ids 2, 3, 2 row
// 2 of dW is G[0] + G[2], checked against PyTorch; off, with a reason, where G is too big to
// draw here). Screenshots of Lookup and Backward at 1280 and 375 px.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import {
  BOXES,
  sitePerSuite,
  waitForLookupRows,
  waitForShape,
  waitForVerdict,
} from './harness.mjs';
import { entriesOf, notebook, printedAfter } from '../notebooks.mjs';
import { npyFloat32 } from './npy-bytes.mjs';
import {
  PAGE_PICTURE,
  misPainted,
  readFigure,
  readPicture,
  setMode,
  torchBackward,
} from './picture.mjs';
import { saveScreenshot } from './screenshots.mjs';
import { openInColumn } from './demo.mjs';

const NOTEBOOK_LOOKUP = entriesOf(printedAfter(notebook('002'), 'In [8]:')); // embedding(idx), idx = [2, 3, 1]

describe("the picture's modes", () => {
  const env = sitePerSuite();
  afterEach(() => env.assertClean());

  async function show(ids, width = 1280) {
    const { page } = env;
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.goto(env.url);
    await waitForVerdict(page, 'bit-identical');
    await page.fill('#ids', ids.join(', '));
    await waitForLookupRows(page, ids);
  }
  const grid = (cells, name) => cells.filter((c) => c.grid === name);
  const texts = (picture, kind) => picture.texts.filter((t) => t.kind === kind).map((t) => t.text);

  test('the toggle: Product, then Lookup, then Product again, each with its own grids', async () => {
    const { page } = env;
    await show([2, 3, 1]);
    let figure = await readFigure(page);
    assert.equal(figure.mode, 'product');
    assert.equal(figure.name, 'Picture: one_hot(idx) × W = out');
    assert.equal(figure.verdict.shown, false, 'no verdict label on the product');
    assert.equal(figure.heads, 0);

    await setMode(page, 'lookup');
    const lookup = await readPicture(page);
    figure = await readFigure(page);
    assert.equal(figure.name, 'Picture: idx → W[idx] = out');
    assert.equal(grid(lookup.cells, 'onehot').length, 0, 'the lookup needs no one-hot');
    assert.deepEqual(
      grid(lookup.cells, 'idx').map((c) => c.text),
      ['2', '3', '1'],
    );
    assert.deepEqual(
      grid(lookup.cells, 'idx').map((c) => c.lit),
      [true, false, false],
    );
    assert.deepEqual(texts(lookup, 'name'), ['idx', 'W', 'out']);
    assert.deepEqual(texts(lookup, 'operator'), ['=']);
    // out is embedding(idx), the notebook's numbers.
    const rows = grid(lookup.cells, 'out').map((c) => c.text);
    assert.deepEqual(
      [0, 1, 2].map((k) => rows.slice(5 * k, 5 * k + 5)),
      NOTEBOOK_LOOKUP,
    );
    assert.deepEqual(misPainted(lookup.cells), []);
    // The arrow: its two arrowheads, and the verdict of both routes as its label (its headline
    // alone where the room over the arrow is short, as here beside W's notes' room).
    assert.equal(figure.heads, 2);
    assert.deepEqual(figure.verdict, {
      text: 'bit-identical',
      state: 'identical',
      shown: true,
      colour: await page.$eval('#results .verdict-word', (word) => getComputedStyle(word).color),
    });
    assert.equal(figure.detail, `idx[0] = 2 → W[2] → out[0] = [${NOTEBOOK_LOOKUP[0].join(', ')}]`);
    assert.match(figure.counts, /copies n·d = 15/);

    await setMode(page, 'product');
    const product = await readPicture(page);
    assert.equal(grid(product.cells, 'onehot').length, 12);
    assert.deepEqual(texts(product, 'operator'), ['×', '=']);
    assert.equal((await readFigure(page)).verdict.shown, false);
  });

  test("the lookup's label is the verdict, whatever its grade: a table holding Inf differs", async () => {
    const { page } = env;
    await show([2, 3, 1]);
    await setMode(page, 'lookup');
    // W[0, 0] = Inf: the lookup copies rows 2, 3 and 1, while the product's 0 · Inf is NaN.
    const values = Array.from({ length: 20 }, (_, i) => i / 10);
    values[0] = Infinity;
    await page.setInputFiles('#weights-file', {
      name: 'inf.npy',
      mimeType: 'application/octet-stream',
      buffer: npyFloat32(4, 5, values),
    });
    await waitForVerdict(page, 'differs');
    const figure = await readFigure(page);
    assert.equal(figure.verdict.text, 'differs');
    assert.equal(figure.verdict.state, 'differs');
    assert.equal(
      figure.verdict.colour,
      await page.$eval('#results .verdict-word', (word) => getComputedStyle(word).color),
    );
  });

  test('Backward: G (seed 0) flows back; ids 2, 3, 2 make row 2 of dW G[0] + G[2], as in PyTorch', async () => {
    const { page } = env;
    const ids = [2, 3, 2];
    const torch = torchBackward(ids, 4, 5);
    for (const width of [1280, 375]) {
      await show(ids, width);
      await setMode(page, 'backward');
      const picture = await readPicture(page);
      const figure = await readFigure(page);
      // The columns drawn: all 5, each cell with its number; on a phone G stands over one_hotᵀ
      // and dW.
      const dims = await page.$eval(`${PAGE_PICTURE} .equation-canvas`, (c) => c.scene.shownDims);
      assert.deepEqual(dims, [0, 1, 2, 3, 4]);
      const values = (name) => {
        const cells = grid(picture.cells, name);
        const n = dims.length;
        return Array.from({ length: cells.length / n }, (_, r) =>
          cells.slice(n * r, n * r + n).map((c) => c.value),
        );
      };
      const columns = (rows) => rows.map((row) => dims.map((j) => row[j]));
      assert.deepEqual(
        values('upstream'),
        columns(torch.G),
        "G in W's place: torch.randn(3, 5) after torch.manual_seed(0)",
      );
      assert.deepEqual(
        values('grad'),
        columns(torch.grad),
        "dW in out's place: the scatter-add, bit for bit",
      );
      // Row 2 of dW adds two rows of G: its values are G[0] + G[2] in float32, not either row.
      assert.notDeepEqual(torch.grad[2], torch.G[0]);
      assert.notDeepEqual(torch.grad[2], torch.G[2]);
      // Rows no id names get no gradient: dimmed zeros.
      assert.ok(
        grid(picture.cells, 'grad')
          .filter((c) => c.v < 2)
          .every((c) => c.dimmed && c.value === 0),
      );
      if (width === 1280) {
        assert.deepEqual(texts(picture, 'name'), ['one_hot(idx)ᵀ', 'G = dL/dout', 'dW']);
        assert.deepEqual(texts(picture, 'shape'), ['4 × 3', '3 × 5, seed 0', '4 × 5']);
        assert.deepEqual(texts(picture, 'operator'), ['@', '=']);
      } else {
        assert.deepEqual(texts(picture, 'name'), ['G', 'one_hot(idx)ᵀ', 'dW']);
        assert.deepEqual(texts(picture, 'shape'), ['3 × 5', '4 × 3', '4 × 5']);
      }
      // An arrow from each row of G to its row of dW: two of them end on row 2.
      assert.deepEqual(figure.backArrows, [0, 1, 2]);
      assert.match(figure.detail, /^G\[0\] · id 2 → dW\[2\]: dW\[2\] = G\[0\] \+ G\[2\] = \[/);
      // The section, the picture's equation and the verdict are the gradient's: dW is V × d.
      assert.equal(await page.textContent('#results-title'), 'Backward: two routes, one gradient');
      assert.equal(
        await page.textContent(`${PAGE_PICTURE} .picture-formula`),
        'dW = one_hot(idx)ᵀ @ G',
      );
      await waitForVerdict(page, 'bit-identical');
      assert.match(await page.textContent('#results .verdict'), /All 20 elements/);
      assert.match(figure.description, /drawn with seed 0/);
      assert.match(figure.counts, /additions \(scatter-add\) n·d = 15/);
      assert.deepEqual(misPainted(picture.cells), []);
      await saveScreenshot(
        page.locator('#results .equation-figure'),
        `picture-backward-${width}.png`,
      );
    }
    // Back to the product: the forward pass's heading and verdict, over n × d elements.
    await setMode(page, 'product');
    assert.equal(await page.textContent('#results-title'), 'Two routes, one result');
    assert.match(await page.textContent('#results .verdict'), /All 15 elements/);
  });

  test("Backward in a 720 and a 480 px article column: the element's picture and verdict are dW's", async () => {
    const { page } = env;
    const torch = torchBackward([2, 3, 2], 4, 5);
    await page.setViewportSize({ width: 1000, height: 900 });
    for (const column of [720, 480]) {
      await openInColumn(env, `backward-column-${column}`, column, '2, 3, 2');
      await setMode(page, 'backward', '#e');
      const inShadow = (selector) =>
        page.evaluate(
          (s) => document.getElementById('e').shadowRoot.querySelector(s).textContent,
          selector,
        );
      await page.waitForFunction(() =>
        /All 20 elements/.test(
          document.getElementById('e').shadowRoot.querySelector('.verdict').textContent,
        ),
      );
      assert.equal(await inShadow('.verdict-word'), 'bit-identical');
      assert.equal(await inShadow('.picture-formula'), 'dW = one_hot(idx)ᵀ @ G');
      assert.match(
        await inShadow('.demo-title'),
        /^Backward: two routes, one gradient: idx = \[2, 3, 2\], V = 4, d = 5/,
      );
      // dW's row 2 in the columns drawn, with their numbers: G[0] + G[2], as PyTorch adds them.
      const picture = await readPicture(page, '#e');
      const dims = await page.evaluate(
        () =>
          document.getElementById('e').shadowRoot.querySelector('.equation-canvas').scene.shownDims,
      );
      const row2 = picture.cells.filter((c) => c.grid === 'grad' && c.v === 2);
      assert.deepEqual(
        row2.map((c) => c.value),
        dims.map((j) => torch.grad[2][j]),
        `${column} px`,
      );
      assert.ok(
        row2.every((c) => typeof c.text === 'string' && c.text.length > 0),
        'each cell of dW has its number',
      );
      await saveScreenshot(page.locator('#e'), `picture-backward-column-${column}.png`, {
        publish: false,
      });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test('a G too big to draw here (n·d over 2^20): Backward is off, and says where to look', async () => {
    const { page } = env;
    const ids = Array.from({ length: 2049 }, (_, k) => k % 2);
    await show([2, 3, 1]);
    await page.fill('#dim', '512');
    await page.fill('#ids', ids.join(', '));
    await waitForShape(page, BOXES.lookup, '2049 × 512');
    const backward = page.locator(`#results .picture-mode:has(input[value="backward"])`);
    assert.ok(await backward.locator('input').isDisabled());
    assert.equal(
      await backward.getAttribute('title'),
      'G would hold n·d = 1,049,088 values: see the Backward view',
    );
    await page.fill('#dim', '5');
    await page.fill('#ids', '2, 3, 1');
    await waitForLookupRows(page, [2, 3, 1]);
    assert.ok(await backward.locator('input').isEnabled());
  });

  test('screenshots: Lookup at 1280 and 375 px', async () => {
    const { page } = env;
    for (const width of [1280, 375]) {
      await show([2, 3, 1], width);
      await setMode(page, 'lookup');
      const figure = await readFigure(page);
      assert.ok(figure.verdict.shown);
      // The room over the arrow leaves room for the headline alone.
      assert.equal(figure.verdict.text, 'bit-identical');
      await saveScreenshot(
        page.locator('#results .equation-figure'),
        `picture-lookup-${width}.png`,
      );
    }
  });
});
