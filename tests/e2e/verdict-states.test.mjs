// The four grades of the verdict on the page, each from an input that produces it: the
// notebook's table (bit-identical), a table holding −0.0 (equal in value), a weighted bag
// (equal up to rounding) and a table holding Inf (differs, NaN in the product). Each grade has
// its own colour and one sentence that does not repeat the headline; the cells that differ are
// outlined in both tables; max |diff| is printed one way; the two terms are defined where they
// appear. The .npy files are written from the format's description (npy-bytes.mjs).
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { openSite, sitePerSuite, waitForLookupRows, waitForVerdict } from './harness.mjs';
import { npyFloat32 } from './npy-bytes.mjs';
import { saveScreenshot } from './screenshots.mjs';

// The verdict in box (a selector): its grade, headline, sentence, statistics by term, the
// colour of its headline and its definitions.
function verdictOf(page, box) {
  return page.$eval(box, (node) => ({
    state: node.dataset.state,
    headline: node.querySelector('.verdict-word').textContent,
    sentence: node.querySelector('.verdict-sentence').textContent,
    stats: Object.fromEntries(
      [...node.querySelectorAll('.verdict-stats > div')].map((row) => [
        row.querySelector('dt').textContent,
        row.querySelector('dd').textContent,
      ]),
    ),
    colour: getComputedStyle(node.querySelector('.verdict-word')).color,
    terms: node.querySelector('.verdict-terms')?.textContent ?? '',
    titles: [...node.querySelectorAll('dfn')].map((dfn) => dfn.title),
  }));
}

// [row, column] of each outlined cell of the matrix in box (a selector): in its tbody, or printed.
function outlined(page, box) {
  return page.$eval(box, (node) => {
    const printed = node.querySelector('.matrix-text');
    if (!printed) {
      return [...node.querySelectorAll('tbody tr')].flatMap((row, r) =>
        [...row.cells]
          .slice(1)
          .flatMap((cell, c) => (cell.classList.contains('differs') ? [[r, c]] : [])),
      );
    }
    // A matrix printed as text: a line a row, a marked value an element; its column is the
    // count of values before it on its line.
    return [...printed.querySelectorAll('.matrix-values .matrix-row')].flatMap((line, r) =>
      [...line.querySelectorAll('.differs')].map((cell) => {
        const before = document.createRange();
        before.setStart(line, 0);
        before.setEndBefore(cell);
        return [r, before.toString().split(/\s+/).filter(Boolean).length];
      }),
    );
  });
}

describe('the four grades of the verdict', () => {
  const colours = new Map(); // grade -> headline colour
  const env = sitePerSuite(() => openSite({ weights: true }));
  afterEach(() => env.assertClean());

  async function loadTable(name, rows, cols, values, ids) {
    await env.page.fill('#ids', ids.join(', '));
    await env.page.setInputFiles('#weights-file', {
      name,
      mimeType: 'application/octet-stream',
      buffer: npyFloat32(rows, cols, values),
    });
    await waitForLookupRows(env.page, ids);
  }

  function checkCommon(verdict) {
    assert.ok(
      !verdict.sentence.includes(verdict.headline),
      'the sentence does not repeat the headline',
    );
    assert.match(verdict.terms, /^Bit-identical: the same 32 bits/);
    assert.match(verdict.terms, /Equal in value: equal as float32 numbers, so −0\.0 equals \+0\.0/);
    assert.equal(verdict.titles.length, 2, 'both terms defined where they appear');
    assert.ok(
      ![...colours.values()].includes(verdict.colour),
      `${verdict.state} has its own colour`,
    );
    colours.set(verdict.state, verdict.colour);
  }

  test("bit-identical: the notebook's table", async () => {
    const verdict = await verdictOf(env.page, '#results .verdict');
    assert.equal(verdict.state, 'identical');
    assert.equal(verdict.headline, 'bit-identical');
    assert.equal(verdict.sentence, 'All 15 elements hold the same 32 bits in both results.');
    assert.deepEqual(verdict.stats, {
      'max |diff|': '0',
      'bit-identical': '15 of 15',
      'equal in value': '15 of 15',
    });
    checkCommon(verdict);
    assert.deepEqual(await outlined(env.page, '#results [data-box="lookup"]'), []);
    assert.deepEqual(await outlined(env.page, '#results [data-box="product"]'), []);
  });

  test("the terms' definitions: a press away, by keyboard as by touch, not only a tooltip", async () => {
    const { page } = env;
    const terms = '#results .verdict .verdict-terms';
    const term = '#results .verdict .verdict-term';
    assert.equal(await page.isVisible(terms), false, 'closed at first');
    assert.deepEqual(
      await page.$$eval(term, (buttons) => buttons.map((b) => b.getAttribute('aria-label'))),
      ['bit-identical, in Two routes, one result', 'equal in value, in Two routes, one result'],
    );
    // The keyboard: the term is a button in the tab order; Enter opens its definitions.
    await page.focus(term);
    await page.keyboard.press('Enter');
    assert.equal(await page.isVisible(terms), true);
    assert.match(await page.textContent(terms), /^Bit-identical: the same 32 bits/);
    assert.equal(await page.getAttribute(term, 'aria-expanded'), 'true');
    assert.equal(
      await page.getAttribute(term, 'aria-controls'),
      await page.getAttribute(terms, 'id'),
    );
    // A tap (a click, as a touch screen sends one) closes them.
    await page.click(term);
    assert.equal(await page.isVisible(terms), false);
  });

  test('equal in value: a −0.0 in W is copied by the lookup, added to +0.0 by the product', async () => {
    // W = [[-0, 1], [2, 3]], idx = [0, 1]: lookup row 0 = [-0, 1]; the product's is
    // 1·(-0) + 0·2 = +0 and 1·1 + 0·3 = 1.
    await loadTable('negative-zero.npy', 2, 2, [-0, 1, 2, 3], [0, 1]);
    await waitForVerdict(env.page, 'equal in value');
    const verdict = await verdictOf(env.page, '#results .verdict');
    assert.equal(verdict.state, 'value');
    assert.match(
      verdict.sentence,
      /^1 of 4 elements differ only in the sign of zero: .*−0\.0 \+ 0\.0 = \+0\.0\.$/,
    );
    assert.deepEqual(verdict.stats, {
      'max |diff|': '0',
      'bit-identical': '3 of 4',
      'equal in value': '4 of 4',
    });
    checkCommon(verdict);
    assert.deepEqual(await outlined(env.page, '#results [data-box="lookup"]'), [[0, 0]]);
    assert.deepEqual(await outlined(env.page, '#results [data-box="product"]'), [[0, 0]]);
  });

  test('differs: an Inf in W makes NaN in the product (0·Inf = NaN)', async () => {
    // W = [[Inf, 1], [2, 3]], idx = [1, 0]: the product's row 0 is 0·Inf + 1·2 = NaN in column 0.
    await loadTable('inf.npy', 2, 2, [Infinity, 1, 2, 3], [1, 0]);
    await waitForVerdict(env.page, 'differs');
    const verdict = await verdictOf(env.page, '#results .verdict');
    assert.equal(verdict.state, 'differs');
    assert.match(
      verdict.sentence,
      /^1 of 4 elements are NaN in one result only: W holds an Inf or NaN, .*0·Inf = NaN/,
    );
    assert.deepEqual(verdict.stats, {
      'max |diff|': 'nan',
      'bit-identical': '3 of 4',
      'equal in value': '3 of 4',
    });
    checkCommon(verdict);
    assert.deepEqual(await outlined(env.page, '#results [data-box="lookup"]'), [[0, 0]]);
    assert.deepEqual(await outlined(env.page, '#results [data-box="product"]'), [[0, 0]]);
    await saveScreenshot(env.page.locator('#results'), 'verdict-differs.png');
    await env.page.check('#source-seed');
  });

  test('equal up to rounding: a bag weighted by per_sample_weights against M @ W', async () => {
    const { page } = env;
    await page.fill('#ids', '2, 3, 1');
    await waitForLookupRows(page, [2, 3, 1]);
    await waitForVerdict(page, 'bit-identical');
    // One bag of ids 2, 3, 1 weighted 0.1, 0.2, 0.3: the bag adds in that order, M @ W by id.
    await page.locator('#bag').scrollIntoViewIfNeeded();
    await page.fill('#bag [name="offsets"]', '0');
    await page.selectOption('#bag [name="mode"]', 'sum');
    await page.fill('#bag [name="weights"]', '0.1, 0.2, 0.3');
    await page.waitForFunction(
      () => document.querySelector('#bag [data-part="verdict"]').dataset.state === 'rounding',
    );
    const verdict = await verdictOf(page, '#bag [data-part="verdict"]');
    assert.equal(verdict.headline, 'equal up to rounding');
    const differing = 5 - Number(verdict.stats['bit-identical'].split(' of ')[0]);
    assert.ok(differing > 0);
    // The sentence gives the largest difference in ulps and as |diff|, as the statistics print
    // them, and says why.
    assert.equal(
      verdict.sentence,
      `${differing} of 5 elements differ in the last bits (the largest ` +
        `difference is ${verdict.stats['max ulps']} ${verdict.stats['max ulps'] === '1' ? 'ulp' : 'ulps'}, ` +
        `|diff| = ${verdict.stats['max |diff|']}): a bag adds its rows in position order, M @ W in ` +
        'vocabulary order, and float32 rounds every weighted term and every partial sum.',
    );
    assert.match(verdict.stats['max |diff|'], /^\d\.\d{4}e-0[5-9]$/);
    checkCommon(verdict);
    const cells = await outlined(page, '#bag [data-box="output"]');
    assert.equal(cells.length, differing);
    assert.deepEqual(await outlined(page, '#bag [data-box="product"]'), cells);
    await saveScreenshot(page.locator('#bag'), 'verdict-rounding.png');
    await page.fill('#bag [name="weights"]', '');
    await page.fill('#bag [name="offsets"]', '0, 2');
    await page.selectOption('#bag [name="mode"]', 'mean');
  });
});
