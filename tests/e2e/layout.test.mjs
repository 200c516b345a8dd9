// The page at desktop (1280 x 800) and phone (375 x 812) width, light and dark: nothing
// overflows the page sideways (wide tables scroll inside their box), every control has a name,
// every table a caption and headers. Screenshots go to EMBEDLAB_SCREENSHOT_DIR (the build tree);
// with EMBEDLAB_UPDATE_SCREENSHOTS=1 they are also copied to docs/screenshots/.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { BOXES, openSite, pageOverflow, waitForShape, waitForVerdict } from './harness.mjs';
import { saveScreenshot } from './screenshots.mjs';

// The ones the README shows; the others are for looking at.
const PUBLISHED = ['desktop.png', 'phone.png', 'desktop-dark.png'];

describe('layout', () => {
  let env;
  before(async () => {
    env = await openSite();
  });
  after(async () => {
    await env?.close();
  });
  afterEach(() => env.assertClean());

  const shoot = (name, fullPage = false) =>
    saveScreenshot(env.page, name, { fullPage, publish: PUBLISHED.includes(name) });

  test('every control has a name, every table a caption and column headers', async () => {
    const { page } = env;
    const unnamed = await page.$$eval('input, button, select, textarea', (controls) =>
      controls
        .filter((c) => !(c.labels?.length || c.getAttribute('aria-label') || c.textContent.trim()))
        .map((c) => c.outerHTML),
    );
    assert.deepEqual(unnamed, []);
    const tables = await page.$$eval('main table', (all) =>
      all.map((t) => ({
        caption: t.caption?.textContent ?? '',
        scopes: [...t.querySelectorAll('thead th')].every((th) => th.scope === 'col'),
      })),
    );
    assert.ok(tables.length >= 6);
    for (const t of tables) {
      assert.ok(t.caption.length > 0);
      assert.ok(t.scopes, `column headers of "${t.caption}"`);
    }
  });

  test('desktop, 1280 x 800', async () => {
    await env.page.setViewportSize({ width: 1280, height: 800 });
    await waitForVerdict(env.page, 'bit-identical');
    assert.equal(await pageOverflow(env.page), 0);
    await shoot('desktop.png');
    await shoot('desktop-full.png', true);
  });

  test('desktop, dark', async () => {
    await env.page.emulateMedia({ colorScheme: 'dark' });
    assert.equal(
      await env.page.evaluate(() => getComputedStyle(document.body).backgroundColor),
      'rgb(20, 22, 25)',
    );
    await shoot('desktop-dark.png');
    await env.page.emulateMedia({ colorScheme: 'light' });
  });

  test('phone, 375 x 812: wide tables scroll inside their box', async () => {
    const { page } = env;
    await page.setViewportSize({ width: 375, height: 812 });
    assert.equal(await pageOverflow(env.page), 0);
    await shoot('phone.png');
    await shoot('phone-full.png', true);

    await page.fill('#dim', '24');
    await waitForShape(page, BOXES.weight, '4 × 24');
    assert.equal(await pageOverflow(env.page), 0);
    // Measured where the learner sees it: a section off screen is not laid out
    // (content-visibility: auto), and its boxes measure 0.
    await page.locator('#matrices [data-box="weight"]').scrollIntoViewIfNeeded();
    const box = await page.$eval('#matrices [data-box="weight"]', (b) => ({
      scroll: b.scrollWidth,
      client: b.clientWidth,
    }));
    assert.ok(box.scroll > box.client, 'the 24-column table scrolls inside its box');
    await page.fill('#dim', '5');
    await waitForShape(page, BOXES.weight, '4 × 5');
  });

  // The placeholder's text against the room inside the field, in the field's own font.
  const placeholderRoom = (page) =>
    page.$eval('#vocab', (input) => {
      const style = getComputedStyle(input);
      const context = document.createElement('canvas').getContext('2d');
      context.font = style.font;
      const room =
        input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return { text: input.placeholder, width: context.measureText(input.placeholder).width, room };
    });

  test("V's placeholder, up to the largest V, is never cut off", async () => {
    const { page } = env;
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 812 });
      // The largest V a table may have: 4,194,304 rows (of d = 1, to stay small).
      await page.fill('#dim', '1');
      await page.fill('#ids', '2, 4194303');
      await waitForShape(page, BOXES.weight, '4194304 × 1', 60_000);
      const shown = await placeholderRoom(page);
      assert.equal(shown.text, 'auto: 4,194,304');
      assert.ok(shown.width <= shown.room, `${width} px: ${JSON.stringify(shown)}`);
      await page.fill('#ids', '2, 3, 1');
      await page.fill('#dim', '5');
      await waitForShape(page, BOXES.weight, '4 × 5');
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
