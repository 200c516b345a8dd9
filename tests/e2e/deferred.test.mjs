// The page's first screen needs only the module's first file: with embedlab-core.deferred.wasm
// held back by the test, the verdict, the picture's steps, its Backward mode and the errors
// under the ids all work, with a clean console (a function of the deferred file called early
// would throw and warn); once the file is let through, the sections below are built. And a
// deferred file that cannot be loaded leaves the first screen working, with the status line
// saying so.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errorText, sitePerSuite } from './harness.mjs';
import { entriesOf, notebook, printedAfter } from '../notebooks.mjs';
import { PAGE_PICTURE, readFigure, readPicture, setMode } from './picture.mjs';

const NOTEBOOK_LOOKUP = entriesOf(printedAfter(notebook('002'), 'In [8]:')); // idx = [2, 3, 1]
const DEFERRED = '**/embedlab-core.deferred.wasm';

// The verdict alone: the sections below stay busy while the deferred file is held back.
const verdictShown = (page) =>
  page.waitForFunction(
    () =>
      document.querySelector('#results .verdict .verdict-word')?.textContent === 'bit-identical',
  );

describe("the first screen before the module's deferred file", () => {
  const env = sitePerSuite();

  test('held back: the first screen works; let through: the sections below are built', async () => {
    const { page } = env;
    let release;
    const released = new Promise((resolve) => {
      release = resolve;
    });
    let asked;
    const asking = new Promise((resolve) => {
      asked = resolve;
    });
    await page.route(DEFERRED, async (route) => {
      asked();
      await released;
      await route.continue();
    });
    await page.goto(env.url);
    await verdictShown(page);
    assert.equal(await page.getAttribute('#train', 'aria-busy'), 'true', 'the sections wait');
    await asking;
    assert.equal(await page.textContent('#status'), 'Ready.');

    assert.equal(await page.inputValue('#ids'), '2, 3, 1', "the notebook's ids");
    for (let step = 0; step < 5; ++step) await page.click(`${PAGE_PICTURE} .picture-next`);
    const end = await readFigure(page);
    assert.equal(end.equation, 'out[0] = W[2]');
    assert.equal(end.detail, `idx[0] = 2 → W[2] → out[0] = [${NOTEBOOK_LOOKUP[0].join(', ')}]`);

    await setMode(page, 'backward');
    const backward = await readPicture(page);
    assert.ok(
      backward.cells.some((c) => c.grid === 'grad'),
      'the Backward picture draws dW',
    );
    await setMode(page, 'product');

    await page.fill('#ids', '2, 3, 9');
    await page.locator('#ids').blur();
    await page.fill('#vocab', '4');
    await page.locator('#vocab').blur();
    await page.waitForFunction(() => document.getElementById('ids-error')?.textContent);
    assert.match(await errorText(page, 'ids-error'), /\b9\b/);

    assert.equal(await page.$('#train[data-built]'), null, 'the Train section waits');
    env.assertClean();

    release();
    await page.waitForSelector('#train[data-built]', { state: 'attached' });
    await page.waitForSelector('#positions[data-built]', { state: 'attached' });
    await page.unroute(DEFERRED);
    env.assertClean();
  });

  test('not found: the first screen works and the status line says what is missing', async () => {
    const { page } = env;
    await page.route(DEFERRED, (route) => route.fulfill({ status: 404 }));
    await page.goto(env.url);
    await verdictShown(page);
    await page.waitForFunction(() =>
      document.getElementById('status').classList.contains('failed'),
    );
    assert.match(
      await page.textContent('#status'),
      /^The rest of the WebAssembly module could not be loaded: .*embedlab-core\.deferred\.wasm \(HTTP 404\)/,
    );
    assert.equal(await page.$('main [aria-busy="true"]'), null, 'no section says it is loading');
    await page.unroute(DEFERRED);
  });
});
