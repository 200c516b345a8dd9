// The tutorial and the reference pages, made of <embedding-demo> elements: reached from the
// page, the notebook's numbers in the tutorial's demos, one WebAssembly fetch for all of them,
// nothing requested off the page's server, demos that do not disturb each other, no sideways
// overflow at 1280 and 375 px, and each reference example showing its own markup. Screenshots go
// to EMBEDLAB_SCREENSHOT_DIR; with EMBEDLAB_UPDATE_SCREENSHOTS=1 also to docs/screenshots/.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { pageOverflow, sitePerSuite } from './harness.mjs';
import { cellsOnly, demoCells, demoText, settle } from './demo.mjs';
import { entriesOf, notebook, printedAfter } from '../notebooks.mjs';
import { saveScreenshot } from './screenshots.mjs';

const nb = notebook('002');
const printed = (cell) => entriesOf(printedAfter(nb, cell));

// Every demo's shadow-root text, in page order: what "unchanged" means for the other demos.
const allDemoTexts = (page) =>
  page.$$eval('embedding-demo', (all) =>
    all.map((demo) => demo.shadowRoot.querySelector('.demo').textContent),
  );

describe('the tutorial and the reference', () => {
  const env = sitePerSuite();
  afterEach(() => env.assertClean());

  test('the page links to both; the tutorial links to the reference', async () => {
    const { page } = env;
    await page.goto(env.url);
    await page.getByRole('link', { name: 'Tutorial: the notebook, live' }).click();
    await page.waitForURL(`${env.url}tutorial.html`);
    await settle(page);
    await page.getByRole('navigation').getByRole('link', { name: 'Element reference' }).click();
    await page.waitForURL(`${env.url}reference.html`);
    await settle(page);
    await page.goto(env.url);
    await page.getByRole('link', { name: 'Embed it in your page: <embedding-demo>' }).click();
    await page.waitForURL(`${env.url}reference.html`);
    await settle(page);
  });

  test('the tutorial retells notebook 002 with its printed numbers, from one WebAssembly fetch', async () => {
    const { page } = env;
    const requests = [];
    const record = (request) => requests.push(request.url());
    page.on('request', record);
    await page.goto(`${env.url}tutorial.html`);
    await settle(page);
    page.off('request', record);
    assert.equal(requests.filter((url) => url.endsWith('/embedlab-core.wasm')).length, 1);
    assert.deepEqual(
      requests.filter((url) => !url.startsWith(env.url) && !url.startsWith('data:')),
      [],
    );
    assert.deepEqual(
      await page.$$eval('embedding-demo', (all) => all.map((d) => d.error)),
      Array(await page.locator('embedding-demo').count()).fill(null),
    );

    const oneId = 'embedding-demo[label="embedding(torch.tensor([1]))"]';
    assert.deepEqual(cellsOnly(await demoCells(page, oneId, 'weight')), printed('In [5]:'));
    assert.deepEqual(cellsOnly(await demoCells(page, oneId, 'lookup')), printed('In [6]:'));
    const allIds = 'embedding-demo[label="embedding(idx)"]';
    assert.deepEqual(cellsOnly(await demoCells(page, allIds, 'lookup')), printed('In [8]:'));
    const onehot = 'embedding-demo[view="onehot"]';
    assert.deepEqual(cellsOnly(await demoCells(page, onehot, 'onehot')), printed('In [12]:'));
    assert.deepEqual(cellsOnly(await demoCells(page, onehot, 'product')), printed('In [18]:'));
    assert.equal(await demoText(page, onehot, '.verdict-word'), 'bit-identical');
    assert.equal(
      await demoText(page, 'embedding-demo[view="step"]', '.step-title'),
      'idx[0] = 2 (position 0 of 0–2)',
    );
    assert.equal(
      await demoText(page, 'embedding-demo[view="printout"]', '.printout-out'),
      printedAfter(nb, 'In [5]:'),
    );
    assert.deepEqual(
      cellsOnly(await demoCells(page, 'embedding-demo[weights="tf"]', 'lookup')),
      [2, 3, 1].map((i) => Array(5).fill((0.11 * i).toFixed(4))),
    );
  });

  test('trying other ids in one demo leaves every other demo as it was', async () => {
    const { page } = env;
    await page.goto(`${env.url}tutorial.html`);
    await settle(page);
    const before = await allDemoTexts(page);
    const tryIt = page.locator('embedding-demo[label="Try it"]');
    await tryIt.getByRole('textbox', { name: 'idx' }).fill('3, 0');
    await settle(page);
    assert.deepEqual(cellsOnly(await demoCells(page, 'embedding-demo[label="Try it"]', 'lookup')), [
      printed('In [5]:')[3],
      printed('In [5]:')[0],
    ]);
    const after = await allDemoTexts(page);
    const index = await page.$$eval('embedding-demo', (all) =>
      all.findIndex((demo) => demo.getAttribute('label') === 'Try it'),
    );
    assert.notEqual(after[index], before[index]);
    after.splice(index, 1);
    before.splice(index, 1);
    assert.deepEqual(after, before);
  });

  for (const [width, height] of [
    [1280, 800],
    [375, 812],
  ]) {
    test(`the tutorial at ${width} px: nothing overflows sideways`, async () => {
      const { page } = env;
      await page.setViewportSize({ width, height });
      await page.goto(`${env.url}tutorial.html`);
      await settle(page);
      assert.equal(await pageOverflow(page), 0);
      const widest = await page.$$eval('embedding-demo', (all) =>
        Math.max(...all.map((demo) => demo.getBoundingClientRect().right)),
      );
      assert.ok(widest <= width, `a demo reaches x = ${widest}`);
      await saveScreenshot(page, `tutorial-${width}.png`, { fullPage: true });
      await page.setViewportSize({ width: 1280, height: 800 });
    });
  }

  test('the reference: each example shows its own markup, and only the error examples fail', async () => {
    const { page } = env;
    await page.goto(`${env.url}reference.html`);
    await settle(page);
    const examples = await page.$$eval('.example', (all) =>
      all.map((example) => {
        const demo = example.querySelector('embedding-demo');
        const markup = new DOMParser().parseFromString(
          example.querySelector('pre code').textContent,
          'text/html',
        ).body.firstElementChild;
        const attributes = (node) =>
          Object.fromEntries([...node.attributes].map((a) => [a.name, a.value]));
        return {
          shown: attributes(markup),
          live: attributes(demo),
          error: demo.error,
          inErrors:
            example.compareDocumentPosition(document.getElementById('errors')) ===
              Node.DOCUMENT_POSITION_PRECEDING &&
            example.compareDocumentPosition(document.getElementById('theming')) ===
              Node.DOCUMENT_POSITION_FOLLOWING,
        };
      }),
    );
    assert.ok(examples.length >= 20, `${examples.length} examples`);
    for (const { shown, live, error, inErrors } of examples) {
      assert.deepEqual(shown, live);
      if (inErrors) assert.ok(error, `${JSON.stringify(live)} shows an error`);
      else assert.equal(error, null, `${JSON.stringify(live)}: ${error}`);
    }
    assert.equal(examples.filter((e) => e.inErrors).length, 2);
    // The .npy example: W[i, j] = i + j / 10, rows 3 and 0.
    assert.deepEqual(cellsOnly(await demoCells(page, 'embedding-demo[src]', 'lookup')), [
      ['3.0000', '3.1000', '3.2000'],
      ['0.0000', '0.1000', '0.2000'],
    ]);
  });
});
