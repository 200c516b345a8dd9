// What keeps the page's main thread free, checked where it does not depend on the machine's speed
// (scripts/page-perf.mjs measures the times): the elements the page holds once every section is
// built, at the defaults and at n = 64, V = 4096, d = 64; the positions and head views' tables
// (GPT-2's V) drawn in the compute worker, not on the page.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  PAGE_ELEMENTS,
  PAGE_ELEMENTS_AT_DEFAULTS,
  recordWorkerAnswers,
  showLargeCase,
  sitePerSuite,
  waitForVerdict,
} from './harness.mjs';

// Every section scrolled to, one after another, each drawn; then the count of elements.
async function elementsOnceBuilt(page) {
  for (const id of ['matrices', 'backward', 'train', 'bag', 'positions', 'head', 'benchmark']) {
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    await page.waitForSelector(`#${id}[data-built]:not([aria-busy])`, { state: 'attached' });
  }
  await page.waitForSelector('#head .order-check[data-state]');
  return page.evaluate(() => document.getElementsByTagName('*').length);
}

describe('the main thread', () => {
  const env = sitePerSuite();

  test('the page holds at most its element budget, at the defaults and at n = 64', async () => {
    const { page } = env;
    const defaults = await elementsOnceBuilt(page);
    assert.ok(defaults <= PAGE_ELEMENTS_AT_DEFAULTS, `${defaults} elements at the defaults`);
    await page.evaluate(() => scrollTo(0, 0));
    await showLargeCase(page);
    const large = await elementsOnceBuilt(page);
    assert.ok(large <= PAGE_ELEMENTS, `${large} elements at n = 64`);
    env.assertClean();
  });

  test("the positions and head views' tables are drawn in the compute worker", async () => {
    const { page } = env;
    await page.addInitScript(recordWorkerAnswers);
    await page.goto(env.url);
    await waitForVerdict(page, 'bit-identical');
    await page.locator('#positions').scrollIntoViewIfNeeded();
    await page.waitForSelector('#positions .verdict[data-state="identical"]');
    await page.locator('#head').scrollIntoViewIfNeeded();
    await page.waitForSelector('#head .order-check[data-state]');
    const answers = await page.evaluate(() => window.recorded.map((r) => r.worker));
    // At the defaults nothing else asks the worker: the page's ids and the backward and bag
    // views compute on the page, within a frame.
    assert.equal(answers.filter((kind) => kind === 'computed').length, 2, answers.join(', '));
    env.assertClean();
  });
});
