// The positions view: the chapter's 8 × 4 batch looked up in a token table and a position table
// drawn from one seed in the book's order, the positions by both routes with their verdict, the
// broadcast sum and the shapes; the numbers against PyTorch run for the same inputs. A row
// longer than context_length is PyTorch's IndexError under the batch; the inputs are in the
// address. Screenshots at 1280 and 375 px.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { openSite, pageOverflow } from './harness.mjs';
import { saveScreenshot } from './screenshots.mjs';
import { assertCellsClose, runTorch } from './torch-reference.mjs';
import { formView } from './view-form.mjs';
import { CHAPTER_BATCH } from '../chapter-batch.mjs';

const TORCH_POSITIONS = `
import json, sys, torch
a = json.load(sys.stdin)
torch.manual_seed(a['seed'])
tok = torch.nn.Embedding(a['V'], a['d'])
pos = torch.nn.Embedding(a['context'], a['d'])
inputs = torch.tensor(a['rows'])
t = tok(inputs)
p = pos(torch.arange(inputs.shape[1]))
h = (t + p).reshape(-1, a['d'])
print(json.dumps({'pos': p.tolist(), 'tokens': t.reshape(-1, a['d']).tolist(), 'sum': h.tolist(),
                  'shape': list((t + p).shape)}))
`;

const ROWS = CHAPTER_BATCH; // the page's default batch
const torch = runTorch(TORCH_POSITIONS, { seed: 123, V: 50257, d: 16, context: 4, rows: ROWS });
// The rows a summarised table of 32 rows shows: the first and last three.
const SHOWN = [0, 1, 2, 29, 30, 31];
const withoutGaps = (cells) => cells.filter((row) => row[0] !== '⋮');

describe('positions view', () => {
  let env;
  before(async () => {
    env = await openSite();
    await env.page.locator('#positions').scrollIntoViewIfNeeded();
    await env.page.waitForSelector('#positions .verdict[data-state="identical"]');
  });
  after(async () => {
    await env?.close();
  });
  afterEach(() => env.assertClean());

  const { view, input, cellsOf, alertText, waitForAlert } = formView(() => env.page, 'positions');

  test("the book's batch: PyTorch's positions, token rows and sum, with their shapes", async () => {
    const { page } = env;
    assertCellsClose(await cellsOf('pos'), torch.pos, 'P[:4]');
    assertCellsClose(await cellsOf('product'), torch.pos, 'one_hot(arange(4), 4) @ P');
    assertCellsClose(
      withoutGaps(await cellsOf('tokens')),
      SHOWN.map((i) => torch.tokens[i]),
      'token_embeddings',
    );
    assertCellsClose(
      withoutGaps(await cellsOf('sum')),
      SHOWN.map((i) => torch.sum[i]),
      'input_embeddings',
    );
    assert.equal(await page.textContent(`${view} .verdict-word`), 'bit-identical');
    const shapes = await page.$$eval(`${view} [data-shape]`, (items) =>
      Object.fromEntries(items.map((li) => [li.dataset.shape, li.textContent])),
    );
    assert.match(shapes.input_embeddings, new RegExp(`\\[${torch.shape.join(', ')}\\]`));
    assert.match(shapes.pos_embeddings, /torch\.Size\(\[4, 16\]\): broadcast over the 8 rows/);
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

  test('screenshots at 1280 and 375 px', async () => {
    const { page } = env;
    await page.fill(input('context-length'), '4');
    await page.fill(input('batch'), ROWS.map((row) => row.join(',')).join('; '));
    await waitForAlert(false);
    await saveScreenshot(page.locator(view), 'positions-1280.png');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForFunction(() => innerWidth === 375);
    assert.equal(await pageOverflow(page), 0);
    await saveScreenshot(page.locator(view), 'positions-375.png');
    // d = 16 columns scroll sideways on a phone: each such box says so with a shade at the edge
    // with more beyond it, and its row labels stay where they are while the values move.
    const boxes = page.locator(`${view} .table-box[data-scrolls]`);
    assert.ok((await boxes.count()) >= 3, 'the tables of 16 columns scroll');
    const box = boxes.first();
    await box.scrollIntoViewIfNeeded();
    const shades = await box.evaluate((b) => getComputedStyle(b).backgroundImage);
    assert.equal(shades.match(/radial-gradient/g)?.length, 2, shades);
    const at = () =>
      box.evaluate((b) => ({
        label: b.querySelector('.matrix-labels').getBoundingClientRect().left,
        value: b.querySelector('.matrix-values').getBoundingClientRect().left,
        box: b.getBoundingClientRect().left,
      }));
    const before = await at();
    await box.evaluate((b) => {
      b.scrollLeft = b.scrollWidth;
    });
    await page.waitForFunction((b) => b.scrollLeft > 0, await box.elementHandle());
    const after = await at();
    assert.equal(after.label, before.label, 'the row label stays');
    assert.ok(after.value < before.value - 50, 'the values scroll');
    assert.ok(Math.abs(after.label - after.box) <= 1, 'at the left edge of its box');
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
              '.verdict[data-state="identical"], .verdict[data-state="rounding"]',
            ),
        view,
      );
    }
    env.assertClean();
  } finally {
    await env.close();
  }
});
