// The positions view: the chapter's 8 × 4 batch looked up in a token table and a position table
// drawn from one seed in the book's order, the positions by both routes with their verdict and
// the shapes; a picture of one row b of the batch, token rows + position rows = input rows (read
// from what its canvas recorded it drew), against PyTorch run for the same inputs; each tensor
// printed as PyTorch prints it, character for character; the section a few dozen elements, not a
// table per value. A row longer than context_length is PyTorch's IndexError under the batch; the
// inputs are in the address. Screenshots at 1280 and 375 px.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { openSite, pageOverflow, sitePerSuite } from './harness.mjs';
import { saveScreenshot } from './screenshots.mjs';
import { runTorch } from './torch-reference.mjs';
import { formView } from './view-form.mjs';
import { CHAPTER_BATCH } from '../chapter-batch.mjs';

const TORCH_POSITIONS = `
import json, sys, torch
import torch.nn.functional as F
a = json.load(sys.stdin)
torch.manual_seed(a['seed'])
token_embedding_layer = torch.nn.Embedding(a['V'], a['d'])
pos_embedding_layer = torch.nn.Embedding(a['context'], a['d'])
inputs = torch.tensor(a['rows'])
T = inputs.shape[1]
token_embeddings = token_embedding_layer(inputs)
pos_embeddings = pos_embedding_layer(torch.arange(T))
input_embeddings = token_embeddings + pos_embeddings
product = F.one_hot(torch.arange(T), a['context']).float() @ pos_embedding_layer.weight
printed = {b: [repr(pos_embeddings), repr(product), repr(token_embeddings[b]),
               repr(input_embeddings[b])] for b in a['printed']}
print(json.dumps({'pos': pos_embeddings.tolist(), 'tokens': token_embeddings.tolist(),
                  'sum': input_embeddings.tolist(), 'shape': list(input_embeddings.shape),
                  'printed': printed}))
`;

const ROWS = CHAPTER_BATCH; // the page's default batch
const torch = runTorch(TORCH_POSITIONS, {
  seed: 123,
  V: 50257,
  d: 16,
  context: 4,
  rows: ROWS,
  printed: [0, 7],
});

describe('positions view', () => {
  const env = sitePerSuite(async () => {
    const opened = await openSite();
    await opened.page.locator('#positions').scrollIntoViewIfNeeded();
    await opened.page.waitForSelector('#positions .verdict[data-state="identical"]');
    return opened;
  });
  afterEach(() => env.assertClean());

  const { view, input, alertText, waitForAlert } = formView(() => env.page, 'positions');

  // What the picture drew, once it has (it draws when its frame is laid out): each cell's grid,
  // row t, column j and value, the grids' names and row labels, and whether its numbers are
  // drawn.
  const picture = async () => {
    await env.page.waitForFunction(
      (selector) => document.querySelector(selector).scene,
      `${view} .positions-canvas`,
    );
    return env.page.$eval(`${view} .positions-canvas`, (canvas) => ({
      cells: canvas.scene.cells.map(({ grid, t, column, value, number }) => ({
        grid,
        t,
        column,
        value,
        number,
      })),
      names: canvas.scene.texts.filter((x) => x.kind === 'name').map((x) => x.text),
      labels: canvas.scene.texts
        .filter((x) => x.kind === 'label' && x.align === 'right')
        .map((x) => x.text),
      numbers: canvas.scene.numbers,
      width: canvas.getBoundingClientRect().width,
      room: canvas.parentElement.clientWidth,
    }));
  };

  // The picture's values of row b against PyTorch's, grid by grid, bit for bit (float32 both).
  async function assertRow(b) {
    // The picture of row b once it is drawn: the worker's tables for new inputs come after them.
    const labels = ROWS[b].map((id, t) => `[${b}, ${t}] ${id}`);
    await env.page.waitForFunction(
      ([selector, want]) => {
        const texts = document.querySelector(selector).scene?.texts ?? [];
        const shown = texts.filter((x) => x.kind === 'label' && x.align === 'right');
        return want.every((label, t) => shown[t]?.text === label);
      },
      [`${view} .positions-canvas`, labels],
    );
    const drawn = await picture();
    const expected = {
      tokens: torch.tokens[b],
      pos: torch.pos,
      sum: torch.sum[b],
    };
    for (const [grid, rows] of Object.entries(expected)) {
      const cells = drawn.cells.filter((c) => c.grid === grid);
      assert.ok(cells.length >= 4 * 3, `${grid}: drawn`);
      for (const c of cells) {
        assert.equal(Math.fround(rows[c.t][c.column]), c.value, `${grid}[${c.t}, ${c.column}]`);
      }
    }
    assert.deepEqual(drawn.names, [
      `token_embeddings[${b}]`,
      'pos_embeddings',
      `input_embeddings[${b}]`,
    ]);
    // Each token row by its place in the batch and its id.
    assert.deepEqual(drawn.labels.slice(0, 4), labels);
    return drawn;
  }

  test("the book's batch: token rows + position rows = input rows, PyTorch's, with their shapes", async () => {
    const { page } = env;
    const drawn = await assertRow(0);
    assert.ok(drawn.numbers, 'numbers drawn at 1280 px');
    assert.ok(drawn.width <= drawn.room, 'the picture inside its frame');
    assert.equal(await page.textContent(`${view} .verdict-word`), 'bit-identical');
    const shapes = await page.$$eval(`${view} [data-shape]`, (items) =>
      Object.fromEntries(items.map((li) => [li.dataset.shape, li.textContent])),
    );
    assert.match(shapes.input_embeddings, new RegExp(`\\[${torch.shape.join(', ')}\\]`));
    assert.match(shapes.pos_embeddings, /torch\.Size\(\[4, 16\]\): broadcast over the 8 rows/);
    // Another row of the batch, picked with the slider.
    await page.locator(`${view} .positions-slider`).fill('7');
    await assertRow(7);
    assert.equal(
      await page.textContent(`${view} .positions-row-ids`),
      ` = 7: ids ${ROWS[7].join(', ')}`,
    );
    // Not a wall of tables: the whole section holds a few dozen elements.
    const elements = await page.$eval(view, (node) => node.querySelectorAll('*').length);
    assert.ok(elements < 150, `${elements} elements`);
  });

  test('each tensor printed as PyTorch prints it, on demand', async () => {
    const { page } = env;
    for (const b of [7, 0]) {
      await page.locator(`${view} .positions-slider`).fill(String(b));
      const details = page.locator(`${view} details.printouts`);
      if (!(await details.evaluate((node) => node.open))) await details.locator('summary').click();
      // Printed once open, for the row picked.
      await page.waitForFunction(
        ([selector, row]) =>
          document.querySelector(`${selector} .printouts-body p:nth-of-type(3)`)?.textContent ===
          `print(token_embeddings[${row}])`,
        [view, b],
      );
      const printed = await page.$$eval(`${view} .positions-printout`, (pres) =>
        pres.map((pre) => pre.textContent),
      );
      assert.deepEqual(printed, torch.printed[b], `row ${b}`);
      const titles = await page.$$eval(`${view} .printouts-body p`, (ps) =>
        ps.map((p) => p.textContent),
      );
      assert.deepEqual(titles, [
        'print(pos_embeddings)',
        'print(F.one_hot(torch.arange(T), context_length).float() @ pos_embedding_layer.weight)',
        `print(token_embeddings[${b}])`,
        `print(input_embeddings[${b}])`,
      ]);
    }
  });

  test("a row longer than context_length: PyTorch's IndexError under the batch, and why", async () => {
    const { page } = env;
    await page.fill(input('batch'), '1,2,3,4,5');
    await waitForAlert(true);
    const message = await alertText();
    assert.match(message, /IndexError: index out of range in self/);
    assert.match(message, /positions 0\.\.3 only/);
    assert.equal(await page.getAttribute(input('batch'), 'aria-invalid'), 'true');
    await page.fill(input('context-length'), '5');
    await waitForAlert(false);
    assert.equal(await page.textContent(`${view} .verdict-word`), 'bit-identical');
    // The address follows once typing pauses.
    await page.waitForFunction(() => location.search.includes('positions.context-length=5'));
    assert.match(page.url(), /positions\.batch=1%2C2%2C3%2C4%2C5/);
  });

  test('screenshots at 1280 and 375 px: the picture stacked on a phone, inside the page', async () => {
    const { page } = env;
    await page.fill(input('context-length'), '4');
    await page.fill(input('batch'), ROWS.map((row) => row.join(',')).join('; '));
    await waitForAlert(false);
    await page.locator(`${view} .positions-slider`).fill('0');
    await assertRow(0);
    await saveScreenshot(page.locator(view), 'positions-1280.png');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForFunction(() => innerWidth === 375);
    await page.waitForFunction(
      (selector) => document.querySelector(selector).scene.stacked,
      `${view} .positions-canvas`,
    );
    assert.equal(await pageOverflow(page), 0);
    const drawn = await assertRow(0);
    assert.ok(drawn.numbers, 'numbers drawn on a phone');
    assert.ok(drawn.width <= drawn.room, `the picture (${drawn.width} px) inside its frame`);
    await saveScreenshot(page.locator(view), 'positions-375.png');
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});

test('<embedding-demo view="positions"> and view="head" draw in any page', async () => {
  const env = await openSite();
  try {
    const { page } = env;
    await page.goto(`${env.url}reference.html`);
    for (const view of ['positions', 'head']) {
      await page.locator(`embedding-demo[view="${view}"]`).scrollIntoViewIfNeeded();
      await page.waitForFunction(
        (name) =>
          document
            .querySelector(`embedding-demo[view="${name}"]`)
            .shadowRoot?.querySelector(
              '.verdict[data-state="identical"], .order-check[data-state]',
            ),
        view,
      );
    }
    env.assertClean();
  } finally {
    await env.close();
  }
});
