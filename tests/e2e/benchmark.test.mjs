// The Benchmark panel at a glance: four columns by default (lookup, one-hot product, speedup, the
// lookup's GB/s against the copy floor),
// the other timings behind a "Details" toggle, times in ns/µs/ms as fits, and a chart whose
// labels keep at least 11 px on a 375 px phone. Also the layering: the timing entry points live
// in the benchmark module only, not in the module the page and the package load. No timing is
// asserted; the run is the smallest the panel offers.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { duration } from '../../web/model/format-number.mjs';
import { siteDir } from '../site-dir.mjs';
import { openSite, pageOverflow, sitePerSuite } from './harness.mjs';
import { saveScreenshot } from './screenshots.mjs';

const NBSP = '\u00a0';
// A time as the panel writes it: 1 to 999 (at most 3 significant digits) and a unit.
const TIME = /^(\d+(?:\.\d+)?)\u00a0(ns|µs|ms|s)$/;
const SPEEDUP = /^\d[\d,]*(\.\d+)?×$/;
// The lookup's GB/s and its share of the copy floor, as the table writes them.
const BANDWIDTH = /^(\d+(?:\.\d+)?) \((\d+\.\d\d)\)$/;
const HEADERS = ['V', 'lookup', 'one-hot product', 'speedup', 'lookup GB/s (of floor)'];

test('a time is written in the largest unit that keeps it at 1 or more, to 3 digits', () => {
  const cases = [
    // [ms, text], worked out by hand
    [0.0000652, '65.2 ns'],
    [0.00099996, '1 µs'],
    [0.0652, '65.2 µs'],
    [0.01, '10 µs'],
    [0.99996, '1 ms'],
    [1.23456, '1.23 ms'],
    [530.4, '530 ms'],
    [999.96, '1 s'],
    [2500, '2.5 s'],
    [1234567, '1,235 s'],
  ];
  for (const [ms, text] of cases) assert.equal(duration(ms), text.replace(' ', NBSP), `${ms} ms`);
});

test('the timing entry points are in the benchmark module only', () => {
  const wasm = (file) => readFileSync(path.join(siteDir, 'embedlab', file)).toString('latin1');
  for (const name of ['benchLoad', 'benchRun', 'benchOutput']) {
    assert.ok(!wasm('embedlab-core.wasm').includes(name), `the page's module registers no ${name}`);
    assert.ok(
      wasm('embedlab-bench-core.wasm').includes(name),
      `the benchmark module registers ${name}`,
    );
  }
});

describe('the Benchmark panel', () => {
  const env = sitePerSuite(async () => {
    const opened = await openSite();
    const { page } = opened;
    const panel = page.locator('#benchmark');
    await panel.locator('.bench-run').waitFor();
    // The smallest run: V up to 1000, d = 5, n = 3.
    await panel.locator('#bench-vocab').evaluate((range) => {
      range.value = '4';
      range.dispatchEvent(new Event('input', { bubbles: true }));
    });
    assert.equal(await panel.locator('#bench-vocab-value').textContent(), 'V = 1,000');
    await panel.locator('#bench-dim').selectOption('5');
    await panel.locator('#bench-n').selectOption('3');
    await panel.locator('.bench-run').click();
    await page.waitForFunction(
      () => document.querySelector('#bench-status').textContent.startsWith('Done'),
      null,
      { timeout: 120_000 },
    );
    return opened;
  });
  afterEach(() => env.assertClean());

  // The texts of the visible header cells and of each row's visible cells.
  const visibleTable = () =>
    env.page.$eval('#benchmark .bench-table', (table) => {
      const shown = (cell) => cell.checkVisibility();
      return {
        headers: [...table.tHead.rows[0].cells].filter(shown).map((c) => c.textContent.trim()),
        rows: [...table.tBodies[0].rows].map((r) =>
          [...r.cells].filter(shown).map((c) => c.textContent),
        ),
      };
    });

  test('by default: V, lookup, one-hot product, speedup and GB/s, every time with its unit', async () => {
    const { headers, rows } = await visibleTable();
    assert.deepEqual(headers, HEADERS);
    assert.deepEqual(
      rows.map((r) => r[0]),
      ['4', '16', '64', '256', '1,000'],
    );
    for (const [, lookup, product, speedup, bandwidth] of rows) {
      assert.match(bandwidth, BANDWIDTH);
      for (const time of [lookup, product]) {
        const [, number] = time.match(TIME) ?? assert.fail(`"${time}" is a number and a unit`);
        assert.ok(
          Number(number) >= 1 && Number(number) < 1000,
          `"${time}" is in the unit that fits`,
        );
      }
      assert.match(speedup, SPEEDUP);
    }
    const summary = await env.page.locator('#benchmark .bench-summary').textContent();
    assert.match(
      summary,
      /^At V = 1,000: lookup \d[\d.]*\u00a0(ns|µs|ms) per call, \d[\d.]* GB\/s \(\d\.\d\d of the copy floor\)/,
    );
  });

  test('"Details" shows every timing, in the table and on the chart, and hides them again', async () => {
    const { page } = env;
    const toggle = page.locator('#benchmark .bench-details-toggle');
    const legend = () =>
      page.$$eval(
        '#benchmark .bench-legend li',
        (items) => items.filter((li) => li.checkVisibility()).length,
      );
    const lines = () => page.locator('#benchmark .bench-chart polyline').count();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(await toggle.getAttribute('aria-controls'), 'bench-table');
    assert.equal(await legend(), 2);
    assert.equal(await lines(), 2);

    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    const { headers, rows } = await visibleTable();
    assert.deepEqual(headers.slice(0, 5), HEADERS);
    assert.equal(headers.length, 5 + 4); // memcpy floor, lookup(), plain JS, building the one-hot
    const ms = (time) => {
      const [, number, unit] = time.match(TIME);
      return Number(number) * { ns: 1e-6, µs: 1e-3, ms: 1, s: 1e3 }[unit];
    };
    for (const row of rows) {
      assert.equal(row.length, headers.length);
      for (const time of [...row.slice(1, 3), ...row.slice(5)]) assert.match(time, TIME);
      // n·d·4 = 3·5·4 bytes per lookup, and the floor's time over the lookup's, from the shown
      // times (3 digits each, so within 1%).
      const [, gbps, ofFloor] = row[4].match(BANDWIDTH).map(Number);
      const [lookup, floor] = [ms(row[1]), ms(row[5])];
      assert.ok(Math.abs(gbps / (60 / (lookup * 1e6)) - 1) < 0.01, `${row[4]} for ${row[1]}`);
      assert.ok(
        Math.abs(ofFloor - floor / lookup) < 0.006 + 0.01 * ofFloor,
        `${row[4]}, ${row[5]}`,
      );
    }
    assert.equal(await legend(), 5);
    assert.equal(await lines(), 5);
    await saveScreenshot(page.locator('#benchmark'), 'benchmark-details.png', { publish: false });

    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.equal((await visibleTable()).headers.length, HEADERS.length);
    assert.equal(await lines(), 2);
  });

  // Each chart label's size on screen: its font size times the SVG's scale (rotation aside).
  const labelPixels = () =>
    env.page.$$eval('#benchmark .bench-chart text', (texts) =>
      texts.map((t) => {
        const { a, b } = t.getScreenCTM();
        return {
          text: t.textContent,
          px: parseFloat(getComputedStyle(t).fontSize) * Math.hypot(a, b),
        };
      }),
    );

  test("desktop, 1280 px: the chart's labels are 12 px", async () => {
    const { page } = env;
    await page.setViewportSize({ width: 1280, height: 800 });
    const labels = await labelPixels();
    assert.ok(
      labels.some((l) => l.text === '1k'),
      'the V axis is labelled',
    );
    for (const { text, px } of labels) assert.ok(px >= 11, `"${text}" is ${px} px`);
    await saveScreenshot(page.locator('#benchmark'), 'benchmark-1280.png');
  });

  test('phone, 375 px: labels stay >= 11 px, the speedup column is on screen, nothing overflows', async () => {
    const { page } = env;
    await page.setViewportSize({ width: 375, height: 812 });
    // The chart is drawn again for its new width.
    await page.waitForFunction(
      () => Number(document.querySelector('#benchmark .bench-chart').getAttribute('width')) <= 375,
    );
    const labels = await labelPixels();
    assert.ok(labels.length >= 6);
    for (const { text, px } of labels) assert.ok(px >= 11, `"${text}" is ${px} px at 375 px`);
    const speedupRight = await page.$eval(
      '#benchmark .bench-table thead th:nth-child(4)',
      (th) => th.getBoundingClientRect().right,
    );
    assert.ok(speedupRight <= 375, `the speedup column ends at ${speedupRight} px`);
    assert.equal(await pageOverflow(page), 0);
    await saveScreenshot(page.locator('#benchmark'), 'benchmark-375.png');
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
