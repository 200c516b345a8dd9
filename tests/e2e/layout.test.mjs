// The page at desktop (1280 x 800) and phone (375 x 812) width, light and dark: nothing
// overflows the page sideways (wide tables scroll inside their box), every control has a name,
// every table a caption and headers. Screenshots go to EMBEDLAB_SCREENSHOT_DIR (the build tree);
// with EMBEDLAB_UPDATE_SCREENSHOTS=1 they are also copied to docs/screenshots/.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import {
  BOXES,
  frames,
  pageOverflow,
  sitePerSuite,
  waitForShape,
  waitForVerdict,
} from './harness.mjs';
import { saveScreenshot } from './screenshots.mjs';

// The ones the README shows; the others are for looking at.
const PUBLISHED = ['desktop.png', 'phone.png', 'desktop-dark.png'];

describe('layout', () => {
  const env = sitePerSuite();
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

  // Every table box of the matrices' section at d = 24, where the learner sees it (a section off
  // screen is not laid out): { scrolls (its content is wider), marked (data-scrolls), shades
  // (its background's gradients), label: the row label's left edge against the box's once
  // scrolled to the far side, or null }.
  const boxesAfterScroll = (page) =>
    page.$$eval('#matrices .table-box', (boxes) =>
      boxes.map((b) => {
        const scrolls = b.scrollWidth > b.clientWidth;
        const shades = getComputedStyle(b).backgroundImage.match(/radial-gradient/g)?.length ?? 0;
        let label = null;
        const th = b.querySelector('tbody th');
        if (scrolls && th) {
          b.scrollLeft = b.scrollWidth;
          label = th.getBoundingClientRect().left - b.getBoundingClientRect().left;
          b.scrollLeft = 0;
        }
        return { scrolls, marked: 'scrolls' in b.dataset, shades, label };
      }),
    );

  test('1280, 720, 480 and 375 px: a table that scrolls says so and keeps its row labels; the shape note stays whole', async () => {
    const { page } = env;
    await page.fill('#dim', '24');
    await waitForShape(page, BOXES.weight, '4 × 24');
    const scrolled = [];
    for (const width of [1280, 720, 480, 375]) {
      await page.setViewportSize({ width, height: 812 });
      await page.waitForFunction((w) => innerWidth === w, width);
      await frames(page); // the picture fits the new width in its ResizeObserver
      assert.equal(await pageOverflow(page), 0, `${width} px: nothing wider than the page`);
      await page.locator('#matrices').scrollIntoViewIfNeeded();
      // The marks follow the layout (a ResizeObserver): wait until every box agrees.
      await page.waitForFunction(() =>
        [...document.querySelectorAll('#matrices .table-box')].every(
          (b) => b.scrollWidth > b.clientWidth === 'scrolls' in b.dataset,
        ),
      );
      for (const [i, box] of (await boxesAfterScroll(page)).entries()) {
        const where = `${width} px, box ${i}`;
        assert.equal(box.shades, box.scrolls ? 2 : 0, `${where}: shades only where it scrolls`);
        if (box.label !== null)
          assert.ok(Math.abs(box.label) <= 1, `${where}: the row label stays at the left edge`);
        if (box.scrolls) scrolled.push(width);
      }
    }
    assert.ok(scrolled.includes(375), 'at 375 px the 24 columns scroll');
    await page.fill('#dim', '5');
    await waitForShape(page, BOXES.weight, '4 × 5');

    // The note under the inputs when the ids change V: whole, inside the page, its button
    // within reach, at every width.
    await page.evaluate(() => scrollTo(0, 0));
    for (const width of [1280, 720, 480, 375]) {
      await page.setViewportSize({ width, height: 812 });
      await page.fill('#ids', '2');
      await page.waitForFunction(() => !document.getElementById('shape-note').hidden);
      const note = await page.$eval('#shape-note', (box) => {
        const r = box.getBoundingClientRect();
        const button = box.querySelector('.hold-vocab').getBoundingClientRect();
        return {
          left: r.left,
          right: r.right,
          clipped: box.scrollWidth > box.clientWidth,
          button: button.right <= innerWidth && button.width > 0,
        };
      });
      assert.ok(note.left >= 0 && note.right <= width, `${width} px: the note within the page`);
      assert.equal(note.clipped, false, `${width} px: the note's text whole`);
      assert.ok(note.button, `${width} px: its button within reach`);
      await page.fill('#ids', '2, 3, 1');
      await page.waitForFunction(() => document.getElementById('shape-note').hidden);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
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
