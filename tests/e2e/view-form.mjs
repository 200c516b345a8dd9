// What the tests of the page's views with inputs of their own share (#backward, #bag; see
// web/views/view-form.mjs): the page opened on the test's ids, readers of one view's inputs, tables,
// verdict and alert, and the check that a bad input is shown inline, as text.
import assert from 'node:assert/strict';
import { openSite, tableCells, waitForLookupRows } from './harness.mjs';

// The page with ids typed in, once its lookup table shows them: openSite()'s env.
export async function openSiteWithIds(ids) {
  const env = await openSite({ weights: true });
  await env.page.fill('#ids', ids.join(', '));
  await waitForLookupRows(env.page, ids);
  return env;
}

// getPage(): the page, opened in before(); id: the view's element id, e.g. 'backward'.
export function formView(getPage, id) {
  const view = `#${id}`;
  const alertSelector = `${view} .error[role="alert"]`;
  const input = (name) => `${view} [name="${name}"]`;
  const cellsOf = (box) => tableCells(getPage(), `#${id} [data-box="${box}"]`);
  // Resolves once the alert is shown (shown = true) or hidden (false).
  const waitForAlert = (shown) =>
    getPage().waitForFunction(
      ([selector, visible]) => document.querySelector(selector).hidden !== visible,
      [alertSelector, shown],
    );
  async function alertText() {
    const alert = getPage().locator(alertSelector);
    return (await alert.isVisible()) ? alert.textContent() : '';
  }

  return {
    view,
    input,
    cellsOf,
    alertText,
    waitForAlert,
    verdictWord: () => getPage().textContent(`${view} .verdict-word`),

    // Resolves once a code element in the view's part (data-part) reads command, and the view is
    // not stale: the view shows the inputs that command names.
    waitForCommand: (part, command) =>
      getPage().waitForFunction(
        ([selector, text]) => {
          const code = [...document.querySelectorAll(`${selector} code`)].map(
            (node) => node.textContent,
          );
          return (
            code.includes(text) &&
            !document.querySelector(selector).closest('.view-output').classList.contains('stale')
          );
        },
        [`${view} [data-part="${part}"]`, command],
      ),

    // Types text into input `name`: the alert shows message, as text, with aria-invalid on that
    // input, and the output is marked stale while its box `box` keeps the last good table's
    // `rows` rows (kept: what that means). Typing the input's old text back clears it all.
    async checkBadInput(name, text, message, { box, rows, kept }) {
      const page = getPage();
      const before = await page.inputValue(input(name));
      await page.fill(input(name), text);
      await waitForAlert(true);
      assert.equal(await alertText(), message);
      assert.equal(await page.getAttribute(input(name), 'aria-invalid'), 'true');
      assert.equal(await page.locator(`${view} .error *`).count(), 0, 'typed text is never HTML');
      assert.ok(
        await page
          .locator(`${view} .view-output`)
          .evaluate((node) => node.classList.contains('stale')),
      );
      assert.equal((await cellsOf(box)).length, rows, kept);
      await page.fill(input(name), before);
      await waitForAlert(false);
      assert.equal(await page.getAttribute(input(name), 'aria-invalid'), null);
    },
  };
}
