// Keyboard alone: Tab reaches every control in reading order with a visible focus ring, the
// weights are chosen with arrow keys, and the step-through moves token by token (arrows,
// Home/End, the previous/next buttons), showing which one-hot entry is 1 and the work done.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import {
  openSite,
  sitePerSuite,
  tableCells,
  waitForLookupRows,
  waitForVerdict,
} from './harness.mjs';

describe('keyboard only', () => {
  const env = sitePerSuite(() => openSite({ weights: true }));
  afterEach(() => env.assertClean());

  // Presses Tab until the focused element matches selector. Returns each element passed on
  // the way (its id, or its text) with its focus ring ("solid 3px"); for the hidden file
  // input, the ring of the label that stands for it.
  async function tabTo(selector, limit = 20) {
    const passed = [];
    for (let i = 0; i < limit; ++i) {
      await env.page.keyboard.press('Tab');
      const here = await env.page.evaluate((s) => {
        const focused = document.activeElement;
        const shown =
          focused.id === 'weights-file' ? document.querySelector('.file-button') : focused;
        const style = getComputedStyle(shown);
        return {
          name: focused.id || focused.textContent,
          ring: `${style.outlineStyle} ${style.outlineWidth}`,
          matches: focused.matches(s),
        };
      }, selector);
      passed.push(here);
      if (here.matches) return passed;
    }
    throw new Error(
      `Tab never reached ${selector}; passed ${passed.map((p) => p.name).join(', ')}`,
    );
  }

  const stepTitle = () => env.page.textContent('#step [data-part="detail"] .step-title');

  test('Tab order follows the page, with a visible focus ring on each control', async () => {
    const passed = await tabTo('#results [data-part="tokens"] [aria-checked="true"]');
    const names = passed.map((p) => p.name);
    // The skip link first; the header's links, if any, then the controls in reading order.
    assert.equal(names[0], 'Skip to the results');
    // The Weights disclosure's summary, its controls, the story's Try buttons, then the token
    // picker's chosen token (its previous-token button is disabled on token 1).
    assert.deepEqual(names.slice(-16), [
      'from-ids',
      'ids',
      'vocab',
      'dim',
      'Weights W: torch.manual_seed(123)',
      'source-seed',
      'seed',
      'weights-file',
      'Try 2',
      'Try 0, 0, 7',
      'Try the notebook: 2, 3, 1',
      'Try GPT-2: The cat sat',
      "Try the chapter's batch",
      'Try 40, 367, 2885, 1464',
      'Try training on a short text',
      '2',
    ]);
    for (const { name, ring } of passed)
      assert.equal(ring, 'solid 3px', `the focus ring of ${name}`);
  });

  test('typing ids and choosing the weights with arrow keys', async () => {
    const { page } = env;
    await page.focus('#ids');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('3, 2, 0, 1');
    await page.waitForFunction(
      () => document.querySelectorAll('#results [data-box="lookup"] tbody tr').length === 4,
    );
    assert.deepEqual((await tableCells(page, '#results [data-box="lookup"]'))[0].slice(1), [
      '-2.8400',
      '-0.7849',
      '-1.4096',
      '-0.4076',
      '0.7953',
    ]);
    await tabTo('#source-seed');
    await page.keyboard.press('ArrowDown');
    assert.ok(await page.isChecked('#source-tf'));
    await page.waitForFunction(
      () => document.querySelector('#results [data-box="lookup"] td')?.textContent === '0.3300',
    );
    await page.keyboard.press('ArrowUp');
    assert.ok(await page.isChecked('#source-seed'));
    await page.waitForFunction(
      () => document.querySelector('#results [data-box="lookup"] td')?.textContent === '-2.8400',
    );
  });

  test('stepping through the tokens of 2, 3, 1', async () => {
    const { page } = env;
    await page.fill('#ids', '2, 3, 1');
    await waitForLookupRows(page, [2, 3, 1]);
    await waitForVerdict(page, 'bit-identical');
    await page.focus('#weights-file');
    await tabTo('#results [data-part="tokens"] [aria-checked="true"]');
    assert.equal(await stepTitle(), 'idx[0] = 2 (position 0 of 0–2)');
    assert.equal(
      await page.textContent('#step [data-part="detail"] .step-list li:first-child code'),
      '[0, 0, 1, 0]',
    );
    assert.equal(
      await page.textContent('#step [data-part="detail"] .step-list li:first-child mark'),
      '1',
    );

    await page.keyboard.press('ArrowRight');
    assert.equal(await stepTitle(), 'idx[1] = 3 (position 1 of 0–2)');
    assert.equal(
      await page.evaluate(() => document.activeElement.getAttribute('aria-checked')),
      'true',
    );
    assert.equal(await page.evaluate(() => document.activeElement.textContent), '3');
    assert.equal(
      await page.textContent('#step [data-part="detail"] .step-list li:first-child code'),
      '[0, 0, 0, 1]',
    );
    // The chosen token is marked in every table: its W row, its one-hot row, both outputs.
    assert.equal(
      await page.getAttribute('#matrices [data-box="weight"] tr.current', 'data-index'),
      '3',
    );
    assert.equal(
      await page.getAttribute('#matrices [data-box="onehot"] tr.current', 'data-index'),
      '1',
    );
    assert.equal(
      await page.getAttribute('#results [data-box="lookup"] tr.current', 'data-index'),
      '1',
    );
    assert.equal(
      await page.getAttribute('#results [data-box="product"] tr.current', 'data-index'),
      '1',
    );
    assert.equal(await page.textContent('#matrices [data-box="linear"] thead th.current'), '3');

    await page.keyboard.press('End');
    assert.equal(await stepTitle(), 'idx[2] = 1 (position 2 of 0–2)');
    assert.ok(await page.isDisabled('#results [data-part="next"]'));
    await page.keyboard.press('ArrowRight'); // stays on the last token
    assert.equal(await stepTitle(), 'idx[2] = 1 (position 2 of 0–2)');
    await page.keyboard.press('Home');
    assert.equal(await stepTitle(), 'idx[0] = 2 (position 0 of 0–2)');
    assert.ok(await page.isDisabled('#results [data-part="prev"]'));

    // Tab leaves the group (one tab stop) for the next button; Enter and Space press it.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.part), 'next');
    await page.keyboard.press('Enter');
    assert.equal(await stepTitle(), 'idx[1] = 3 (position 1 of 0–2)');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.part), 'next');
    // At the last token the button is disabled; the focus moves to the chosen token, not away.
    await page.keyboard.press('Space');
    assert.equal(await stepTitle(), 'idx[2] = 1 (position 2 of 0–2)');
    assert.ok(await page.isDisabled('#results [data-part="next"]'));
    assert.equal(
      await page.evaluate(() => document.activeElement.getAttribute('aria-label')),
      'token 3 of 3, id 1',
    );
  });

  test('the work each route does', async () => {
    const { page } = env;
    const detail = await page.textContent('#step [data-part="detail"]');
    // For one token of V = 4, d = 5: 20 multiply-adds, 15 of them by zero, against 5 copies.
    assert.match(detail, /d = 5 copies/);
    assert.match(detail, /V·d = 20 multiply-adds, 15 of them by zero/);
    assert.match(detail, /0·W\[0\] \+ 1·W\[1\] \+ 0·W\[2\] \+ 0·W\[3\]/);
    const work = (await tableCells(page, '#step [data-part="detail"]')).map((row) =>
      row.join(' | '),
    );
    assert.deepEqual(work, [
      'operations | n·d = 15 copies | n·V·d = 60 multiply-adds',
      'multiplications by zero | 0 | n·(V−1)·d = 45 (75.0%)',
    ]);
    assert.match(
      detail,
      /Same row\? bit-identical: All 5 elements hold the same 32 bits in both results\./,
    );
  });
});
