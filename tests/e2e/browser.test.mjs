// The Chromium that the e2e tests, the package's consumer tests and page-perf drive: Playwright's
// own switches kept under CHROMIUM_ARGS's --disable-features, and no omnibox popup loaded in a
// renderer beside the page each new window opens.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chromium } from 'playwright-core';
import { chromiumPath } from '../tools.mjs';
import { CHROMIUM_ARGS, OMNIBOX_WEBUI_FEATURES, PLAYWRIGHT_DISABLED_FEATURES } from './harness.mjs';

const DISABLE = '--disable-features=';

// Launches Chromium with `args`.
const launch = (args) => chromium.launch({ executablePath: chromiumPath, args });

// The browser UI's own pages (WebUI) open once a new window shows a page.
async function browserUiBesidePage(browser) {
  const session = await browser.newBrowserCDPSession();
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('data:text/html,<p>A page');
  const { targetInfos } = await session.send('Target.getTargets');
  return targetInfos.filter((t) => t.type === 'browser_ui').map((t) => t.url);
}

test("Playwright's own --disable-features are repeated in the last one, which Chromium reads", async () => {
  // Chromium tells its command line to a client that it was started for (--enable-automation).
  const browser = await launch([...CHROMIUM_ARGS, '--enable-automation']);
  let command;
  try {
    const session = await browser.newBrowserCDPSession();
    ({ arguments: command } = await session.send('Browser.getBrowserCommandLine'));
  } finally {
    await browser.close();
  }
  const lists = command
    .filter((arg) => arg.startsWith(DISABLE))
    .map((arg) => arg.slice(DISABLE.length).split(','));
  assert.equal(lists.length, 2, `two --disable-features in: ${command.join(' ')}`);
  const [playwrights, ours] = lists;
  assert.deepEqual(
    [...playwrights].sort(),
    [...PLAYWRIGHT_DISABLED_FEATURES].sort(),
    "harness.mjs's PLAYWRIGHT_DISABLED_FEATURES are the ones this playwright-core passes",
  );
  assert.deepEqual(ours, [...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_WEBUI_FEATURES]);
});

test('a new window opens no omnibox popup beside its page', async () => {
  // Without the features, the same check sees it: it can fail.
  const plain = await launch(CHROMIUM_ARGS.filter((arg) => !arg.startsWith(DISABLE)));
  const before = await browserUiBesidePage(plain).finally(() => plain.close());
  assert.ok(
    before.some((url) => url.startsWith('chrome://omnibox-popup')),
    `Chromium's defaults open the omnibox popup (browser UI: ${before.join(', ') || 'none'})`,
  );

  const ours = await launch(CHROMIUM_ARGS);
  const after = await browserUiBesidePage(ours).finally(() => ours.close());
  assert.deepEqual(after, []);
});
