// The page's state lives in its address: a link opens exactly what its author saw, typing keeps
// the address current, and a bad value from the address gets the message a typed one gets.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { errorText, openSite, sitePerSuite, tableCells, waitForVerdict } from './harness.mjs';
import { formView } from './view-form.mjs';

const param = (page, name) => new URL(page.url()).searchParams.get(name);

describe('state in the address', () => {
  const env = sitePerSuite(() => openSite({ weights: true }));
  afterEach(() => env.assertClean());

  test('a link sets the inputs, the source and the token', async () => {
    const { page } = env;
    await page.goto(`${env.url}?ids=4,%207&vocab=10&dim=3&seed=7&k=1`);
    await waitForVerdict(page, 'bit-identical');
    assert.equal(await page.inputValue('#ids'), '4, 7');
    assert.equal(await page.inputValue('#vocab'), '10');
    assert.equal(await page.inputValue('#dim'), '3');
    assert.equal(await page.inputValue('#seed'), '7');
    assert.ok(
      (await page.textContent('#matrices [data-box="weight"] caption')).includes(': 10 × 3'),
    );
    assert.equal((await tableCells(page, '#results [data-box="lookup"]')).length, 2);
    assert.equal(param(page, 'k'), '1');
    await page.goto(`${env.url}?ids=1,2&w=tf&dim=2`);
    await waitForVerdict(page, 'bit-identical');
    assert.ok(await page.isChecked('#source-tf'));
  });

  test('typing keeps the address current, and the address reproduces the page', async () => {
    const { page } = env;
    await page.goto(env.url);
    await waitForVerdict(page, 'bit-identical');
    await page.fill('#ids', '0, 5, 5');
    await page.fill('#dim', '4');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('dim') === '4');
    assert.equal(param(page, 'ids'), '0, 5, 5');
    const link = page.url();
    const cells = await tableCells(page, '#results [data-box="lookup"]');
    await page.goto('about:blank');
    await page.goto(link);
    await waitForVerdict(page, 'bit-identical');
    assert.equal(await page.inputValue('#ids'), '0, 5, 5');
    assert.deepEqual(await tableCells(page, '#results [data-box="lookup"]'), cells);
  });

  test("the backward and bag views' inputs are in the address, and a link restores them", async () => {
    const { page } = env;
    const bag = formView(() => page, 'bag');
    const backward = formView(() => page, 'backward');
    await page.goto(`${env.url}?ids=3,3,1,2`);
    await waitForVerdict(page, 'bit-identical');
    await page.fill(bag.input('offsets'), '0, 1');
    await page.selectOption(bag.input('mode'), 'sum');
    await page.fill(backward.input('grad-seed'), '7');
    await page.fill(backward.input('padding-idx'), '-1');
    await page.waitForFunction(() => new URL(location.href).searchParams.has('backward.grad-seed'));
    // Only what differs from the forms' defaults: the weights and the bag's padding_idx are not.
    assert.deepEqual(
      [...new URL(page.url()).searchParams].filter(([name]) => name.includes('.')),
      [
        ['backward.grad-seed', '7'],
        ['backward.padding-idx', '-1'],
        ['bag.offsets', '0, 1'],
        ['bag.mode', 'sum'],
      ],
    );
    await bag.waitForCommand('code', 'embedlab bag --offsets 0,1 --mode sum');
    await backward.waitForCommand('draw', 'embedlab backward --grad-seed 7 --padding-idx -1');
    const bags = await bag.cellsOf('output');
    const grad = await backward.cellsOf('grad');
    const link = page.url();
    await page.goto('about:blank');
    await page.goto(link);
    await waitForVerdict(page, 'bit-identical');
    assert.equal(await page.inputValue(bag.input('offsets')), '0, 1');
    assert.equal(await page.inputValue(bag.input('mode')), 'sum');
    assert.equal(await page.inputValue(backward.input('grad-seed')), '7');
    await bag.waitForCommand('code', 'embedlab bag --offsets 0,1 --mode sum');
    await backward.waitForCommand('draw', 'embedlab backward --grad-seed 7 --padding-idx -1');
    assert.deepEqual(await bag.cellsOf('output'), bags);
    assert.deepEqual(await backward.cellsOf('grad'), grad);
  });

  test('a bad value in the address is shown under its field, as if typed', async () => {
    const { page } = env;
    await page.goto(`${env.url}?ids=2,3,1&dim=0`);
    await page.waitForFunction(() => !document.getElementById('dim-error').hidden);
    assert.equal(
      await errorText(page, 'dim-error'),
      'the embedding dimension d must be at least 1, got 0',
    );
    assert.equal(await page.getAttribute('#dim', 'aria-invalid'), 'true');
    await page.goto(`${env.url}?ids=2,%209007199254740993`);
    await page.waitForFunction(() => !document.getElementById('ids-error').hidden);
    assert.match(await errorText(page, 'ids-error'), /^token 2 is 9007199254740993: /);
    await page.goto(`${env.url}?ids=<b>x</b>`);
    await page.waitForFunction(() => !document.getElementById('ids-error').hidden);
    assert.equal(await page.locator('#ids-error b').count(), 0);
  });

  test('view= opens the page at that section', async () => {
    const { page } = env;
    await page.goto(`${env.url}?view=bag`);
    await waitForVerdict(page, 'bit-identical');
    await page.waitForFunction(() => {
      const top = document.getElementById('bag').getBoundingClientRect().top;
      return top >= -2 && top < window.innerHeight / 2;
    });
  });
});
