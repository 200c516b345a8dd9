// Every bad input shows its message next to its field (role="alert", the core's words), the
// page stays usable, the last good result stays visible and marked stale, and fixing the input
// brings a fresh result back. Nothing typed is ever parsed as HTML.
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, test } from 'node:test';
import { siteDir } from '../site-dir.mjs';
import {
  BOXES,
  errorText,
  openSite,
  sitePerSuite,
  tableCells,
  waitForShape,
  waitForVerdict,
} from './harness.mjs';
import { npyFloat32 } from './npy-bytes.mjs';

const DEFAULT_ROWS = ['2', '3', '1'];

// A valid intermediate input becomes the last good result: wait until W has this shape.
const waitForWeightShape = (page, shape) => waitForShape(page, BOXES.weight, shape);

describe('bad input', () => {
  const env = sitePerSuite(() => openSite({ weights: true }));
  afterEach(() => env.assertClean());

  // From now on, window.verdictTexts lists every text the verdict box shows, however briefly.
  const recordVerdictTexts = (page) =>
    page.evaluate(() => {
      window.verdictTexts = [];
      new MutationObserver(() =>
        window.verdictTexts.push(document.querySelector('#results .verdict').textContent),
      ).observe(document.querySelector('#results .verdict'), {
        childList: true,
        subtree: true,
        characterData: true,
      });
    });

  async function expectError(errorId, expected, lastValid = 'idx = [2, 3, 1], V = 4, d = 5') {
    const { page } = env;
    // Waits for this message, not only for the box: a second error in the same box (a file
    // read in the worker) replaces the first when its read ends. A wrong message, or none,
    // still fails the assertion below, which shows both texts.
    await page
      .waitForFunction(
        ([id, text]) => {
          const box = document.getElementById(id);
          return !box.hidden && box.textContent === text;
        },
        [errorId, expected],
        { timeout: 5000 },
      )
      .catch(() => {});
    assert.equal(await page.getAttribute(`#${errorId}`, 'role'), 'alert');
    assert.equal(await errorText(page, errorId), expected);
    await waitForVerdict(page, 'no result');
    assert.ok(await page.locator('#results').evaluate((node) => node.classList.contains('stale')));
    // The last good result is still there, and said to be so.
    assert.deepEqual(
      (await tableCells(page, '#results [data-box="lookup"]')).map((row) => row[0]),
      DEFAULT_ROWS,
    );
    assert.ok(
      (await page.textContent('#results .verdict .verdict-sentence')).endsWith(
        `showing the last valid ids, ${lastValid}.`,
      ),
    );
  }

  // Back to the default input (2, 3, 1; V = max id + 1 = 4; d = 5): the W of that input shown,
  // not a valid state passed through while several fields were restored.
  async function expectRecovered(errorId) {
    const { page } = env;
    await waitForWeightShape(page, '4 × 5');
    await waitForVerdict(page, 'bit-identical');
    assert.equal(await errorText(page, errorId), '');
    assert.ok(
      !(await page.locator('#results').evaluate((node) => node.classList.contains('stale'))),
    );
    assert.deepEqual(
      (await tableCells(page, '#results [data-box="lookup"]')).map((row) => row[0]),
      DEFAULT_ROWS,
    );
  }

  const cases = [
    [
      'an id that is not an integer',
      '#ids',
      '2, x, 1',
      'ids-error',
      'token 2 is "x", which is not an integer: write token ids in plain digits, e.g. 2, 3, 1',
    ],
    [
      'a negative id',
      '#ids',
      '2, -1',
      'ids-error',
      'token 2 is "-1": token ids must be >= 0 (each id picks a row of W, counting from 0)',
    ],
    ['no ids at all', '#ids', '  ', 'ids-error', 'no token ids: type at least one, e.g. 2, 3, 1'],
    [
      'an empty entry',
      '#ids',
      '2,,3',
      'ids-error',
      'empty entry: the comma at character 3 has no id before it',
    ],
    [
      'V that is not a number',
      '#vocab',
      'four',
      'vocab-error',
      'the vocabulary size V must be a whole number, got "four"',
    ],
    ['V = 0', '#vocab', '0', 'vocab-error', 'the vocabulary size V must be at least 1, got 0'],
    [
      'V over the limit',
      '#vocab',
      '5000000',
      'vocab-error',
      'the vocabulary size V = 5,000,000 is over the limit of 4,194,304',
    ],
    ['d = 0', '#dim', '0', 'dim-error', 'the embedding dimension d must be at least 1, got 0'],
    [
      'd that is not a whole number',
      '#dim',
      '2.5',
      'dim-error',
      'the embedding dimension d must be a whole number, got "2.5"',
    ],
    [
      'd over the limit',
      '#dim',
      '70000',
      'dim-error',
      'the embedding dimension d = 70,000 is over the limit of 65,536',
    ],
    [
      'a seed that is not a number',
      '#seed',
      '12a',
      'seed-error',
      'the seed must be a whole number, got "12a"',
    ],
  ];
  for (const [name, field, text, errorId, message] of cases) {
    test(name, async () => {
      const { page } = env;
      const before = await page.inputValue(field);
      await page.fill(field, text);
      await expectError(errorId, message);
      assert.equal(await page.getAttribute(field, 'aria-invalid'), 'true');
      await page.fill(field, before);
      await expectRecovered(errorId);
      assert.equal(await page.getAttribute(field, 'aria-invalid'), null);
    });
  }

  test('an id not below V', async () => {
    const { page } = env;
    await page.fill('#vocab', '4');
    await page.fill('#ids', '2, 3, 9');
    await expectError(
      'ids-error',
      'index out of range in self: id 9 at position 3 is not below the vocabulary size V = 4 (valid ids are 0..3)',
    );
    await page.fill('#ids', '2, 3, 1');
    await page.fill('#vocab', '');
    await expectRecovered('ids-error');
  });

  test('a table over the memory limit', async () => {
    const { page } = env;
    await page.fill('#dim', '8000');
    await waitForWeightShape(page, '4 × 8000');
    await page.fill('#vocab', '1000000');
    await expectError(
      'vocab-error',
      'the embedding table (V x d) would be 1,000,000 x 8,000 floats, over the limit of 67,108,864 floats (256 MiB) that keeps memory bounded',
      'idx = [2, 3, 1], V = 4, d = 8000',
    );
    await page.fill('#vocab', '');
    await page.fill('#dim', '5');
    await expectRecovered('vocab-error');
  });

  test('too many ids', async () => {
    const { page } = env;
    await page.fill('#ids', Array(65537).fill('1').join(' '));
    await expectError(
      'ids-error',
      'too many token ids: 65,537 given, at most 65,536 are accepted at once',
    );
    await page.fill('#ids', '2, 3, 1');
    await expectRecovered('ids-error');
  });

  test('a one-hot matrix larger than memory holds is no error: the product streams W', async () => {
    const { page } = env;
    await page.fill('#vocab', '2000');
    await waitForWeightShape(page, '2000 × 5');
    // 40000 x 2000 = 8·10^7 one-hot entries, over the 67108864 floats any matrix held may have.
    await page.fill('#ids', Array(40000).fill('1').join(' '));
    await waitForVerdict(page, 'bit-identical', 60_000);
    assert.equal(await errorText(page, 'ids-error'), '');
    await page.fill('#ids', '2, 3, 1');
    await page.fill('#vocab', '');
    await waitForVerdict(page, 'bit-identical');
  });

  test('a list typed while the product streams leaves the views without a verdict, not broken', async () => {
    const { page } = env;
    // n·V·d = 10,000 · 50,257 · 64: the product streams W for many seconds.
    await page.fill('#dim', '64');
    await page.fill('#vocab', '50257');
    await waitForWeightShape(page, '50257 × 64');
    await page.fill('#ids', Array(10000).fill('1').join(' '));
    // The lookup's rows are shown and the product streams W: the result has no comparison yet.
    await page.waitForSelector('.stop-product:not([hidden])', { timeout: 60_000 });
    // The stop button is drawn as the page's other buttons are, not as the browser's default.
    const stop = await page.$eval('.stop-product', (button) => {
      const style = getComputedStyle(button);
      return { radius: style.borderTopLeftRadius, font: style.fontFamily };
    });
    const bodyFont = await page.$eval('body', (body) => getComputedStyle(body).fontFamily);
    assert.deepEqual(stop, { radius: '999px', font: bodyFont });
    await recordVerdictTexts(page);
    await page.focus('#ids');
    await page.keyboard.press('End');
    await page.keyboard.type(' [');
    // After the pause, the list's error; while it was typed, the product was cut short and the
    // verdict said so.
    await waitForVerdict(page, 'no result');
    const texts = await page.evaluate(() => window.verdictTexts);
    assert.ok(
      texts.some((text) => /input changed before the one-hot product ended/.test(text)),
      texts.join(' | '),
    );
    await page.fill('#ids', '2, 3, 1');
    await page.fill('#vocab', '');
    await page.fill('#dim', '5');
    await waitForVerdict(page, 'bit-identical');
  });

  test('an id that makes the default V too large is an error of the ids, not of V or d', async () => {
    const { page } = env;
    await page.fill('#ids', '2, 99999999');
    await expectError(
      'ids-error',
      'token 2 is 99999999: the vocabulary size max(ids) + 1 = ' +
        '100,000,000 would be over the limit of 4,194,304 rows; use a smaller id',
    );
    assert.equal(await page.getAttribute('#vocab', 'aria-invalid'), null);
    assert.equal(await page.getAttribute('#dim', 'aria-invalid'), null);
    assert.equal(await errorText(page, 'vocab-error'), '');
    await page.fill('#ids', '2, 3, 1');
    await expectRecovered('ids-error');
    // Within V's limit, a default V can still make the table too large: the ids' doing too.
    await page.fill('#dim', '768');
    await waitForWeightShape(page, '4 × 768');
    await page.fill('#ids', '2, 99999');
    await expectError(
      'ids-error',
      'the embedding table (V x d) would be 100,000 x 768 floats, over ' +
        'the limit of 67,108,864 floats (256 MiB) that keeps memory bounded',
      'idx = [2, 3, 1], V = 4, d = 768',
    );
    assert.equal(await page.getAttribute('#dim', 'aria-invalid'), null);
    await page.fill('#dim', '5');
    await page.fill('#ids', '2, 3, 1');
    await expectRecovered('ids-error');
  });

  test('an id beyond 2^53 is reported exactly', async () => {
    const { page } = env;
    await page.fill('#ids', '1, 9007199254740993');
    await expectError(
      'ids-error',
      'token 2 is 9007199254740993: ids above 2^53 = 9007199254740992 ' +
        'cannot be passed on exactly as JavaScript numbers (no vocabulary is that large)',
    );
    await page.fill('#ids', '2, 3, 1');
    await expectRecovered('ids-error');
  });

  test('size limits are checked before anything says computing', async () => {
    const { page } = env;
    await recordVerdictTexts(page);
    await page.fill('#dim', '8192');
    await waitForWeightShape(page, '4 × 8192');
    await page.fill('#vocab', '1048576');
    await page.waitForFunction(
      () =>
        !document.getElementById('dim-error').hidden ||
        !document.getElementById('vocab-error').hidden,
    );
    await waitForVerdict(page, 'no result');
    const shown = `${await errorText(page, 'vocab-error')}${await errorText(page, 'dim-error')}`;
    assert.equal(
      shown,
      'the embedding table (V x d) would be 1,048,576 x 8,192 floats, over the ' +
        'limit of 67,108,864 floats (256 MiB) that keeps memory bounded',
    );
    const texts = await page.evaluate(() => window.verdictTexts);
    assert.ok(!texts.some((text) => /computing/i.test(text)), texts.join(' | '));
    await page.fill('#vocab', '');
    await page.fill('#dim', '5');
    await expectRecovered('vocab-error');
  });

  test('the hints under V and d state the limits', async () => {
    const { page } = env;
    assert.match(await page.textContent('#vocab-hint'), /At most 4,194,304\./);
    assert.match(await page.textContent('#dim-hint'), /At most 65,536\./);
  });

  test('a list being typed turns red only after a pause or on leaving the field', async () => {
    const { page } = env;
    await page.fill('#ids', '');
    await page.keyboard.type('[4, 7');
    // Right after the keystrokes: no alert yet (it waits for a pause in typing).
    assert.equal(await page.isHidden('#ids-error'), true);
    await page.waitForFunction(() => !document.getElementById('ids-error').hidden);
    assert.equal(
      await errorText(page, 'ids-error'),
      'unbalanced brackets: the "[" at character 1 is never closed with "]"',
    );
    await page.fill('#ids', '2, 3, 1');
    await expectRecovered('ids-error');
    await page.focus('#ids');
    await page.keyboard.press('End');
    await page.keyboard.type(', [');
    await page.locator('#dim').focus(); // leaving the field shows it at once
    await page.waitForFunction(() => !document.getElementById('ids-error').hidden);
    await page.fill('#ids', '2, 3, 1');
    await expectRecovered('ids-error');
  });

  test('a wrong id typed brings back the last valid input, not a part of what was typed', async () => {
    const { page } = env;
    await page.fill('#ids', '2, 3, 1');
    await expectRecovered('ids-error');
    await page.focus('#ids');
    await page.keyboard.press('End');
    // On the way: "2, 3, 15", "2, 3, 150", ... each a valid list of its own V; then a letter.
    await page.keyboard.type('50000x');
    await page.waitForFunction(() => !document.getElementById('ids-error').hidden);
    assert.match(await errorText(page, 'ids-error'), /"150000x", which is not an integer/);
    await page.waitForFunction(() =>
      /showing the last valid ids, idx = \[2, 3, 1\], V = 4, d = 5\./.test(
        document.querySelector('#results .verdict').textContent,
      ),
    );
    // The ids typed went past V = 4 on the way ("2, 3, 15"): V was held at 4 rather than grown.
    assert.equal(await page.inputValue('#vocab'), '4');
    await page.fill('#ids', '2, 3, 1');
    await expectRecovered('ids-error');
  });

  test('every argument the core can raise has a place on the page', async () => {
    const fields = await import('../../web/model/error-fields.mjs');
    const { loadEmbedlab } = await import(
      pathToFileURL(path.join(siteDir, 'embedlab/embedlab.node.mjs')).href
    );
    const names = [...(await loadEmbedlab()).argumentNames];
    const placed = [
      ...Object.keys(fields.PAGE_FIELDS),
      ...Object.keys(fields.BACKWARD_FIELDS),
      ...Object.keys(fields.BAG_FIELDS),
      ...Object.keys(fields.TRAIN_FIELDS),
      ...fields.UNPLACED_ARGUMENTS,
    ];
    assert.ok(names.length >= 14);
    for (const name of names) assert.ok(placed.includes(name), `no place on the page for ${name}`);
    for (const name of placed)
      assert.ok(names.includes(name), `${name} is not an argument of the core`);
  });

  test('the file source without a file asks for one', async () => {
    const { page } = env;
    await page.check('#source-file');
    await expectError(
      'weights-error',
      'choose or drop a .npy, .safetensors or .gguf file holding W (V × d)',
    );
    assert.ok(await page.isDisabled('#vocab'));
    await page.check('#source-seed');
    await expectRecovered('weights-error');
  });

  test('a file named .npy that is not one, and a file of neither kind', async () => {
    const { page } = env;
    await page.setInputFiles('#weights-file', {
      name: 'notes.npy',
      mimeType: 'text/plain',
      buffer: Buffer.from('hello'),
    });
    await expectError(
      'weights-error',
      'notes.npy: not a .npy file: it should start with "\\x93NUMPY" (what np.save writes), but starts with "hello"',
    );
    // Any other file is read as .safetensors, as the CLI reads it.
    await page.setInputFiles('#weights-file', {
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('hello'),
    });
    await expectError(
      'weights-error',
      'notes.txt: not a .safetensors file: it is 5 bytes long, ' +
        "and a .safetensors file starts with 8 bytes that give its header's length",
    );
    await page.check('#source-seed');
    await expectRecovered('weights-error');
  });

  test('a .npy file of the wrong rank', async () => {
    const { page } = env;
    const bytes = npyFloat32(2, 2, [1, 2, 3, 4]);
    bytes.write('(4,),   ', bytes.indexOf('(2, 2)'), 'latin1');
    await page.setInputFiles('#weights-file', {
      name: 'v.npy',
      mimeType: 'application/octet-stream',
      buffer: bytes,
    });
    await expectError(
      'weights-error',
      'v.npy: expected a 2-D array (V, d), found shape (4,) (1-D)',
    );
    await page.check('#source-seed');
    await expectRecovered('weights-error');
  });

  test('markup is shown as text, never run', async () => {
    const { page } = env;
    const attacks = [
      [
        '#ids',
        '<img src=x onerror=window.__pwned=1>',
        'ids-error',
        'token 1 is "<img": "<" does not belong in a list of ids; separate ids with commas or spaces, e.g. 2, 3, 1',
      ],
      [
        '#vocab',
        '<b>V</b>',
        'vocab-error',
        'the vocabulary size V must be a whole number, got "<b>V</b>"',
      ],
      [
        '#seed',
        '<script>window.__pwned=2</script>',
        'seed-error',
        'the seed must be a whole number, got "<script>window.__pwned=2</script>"',
      ],
    ];
    for (const [field, text, errorId, message] of attacks) {
      const before = await page.inputValue(field);
      await page.fill(field, text);
      await expectError(errorId, message);
      await page.fill(field, before);
      await expectRecovered(errorId);
    }
    const name = '<img src=y onerror=window.__pwned=3>.npy';
    await page.setInputFiles('#weights-file', {
      name,
      mimeType: 'application/octet-stream',
      buffer: Buffer.from('x'),
    });
    await waitForVerdict(page, 'no result');
    assert.match(
      await errorText(page, 'weights-error'),
      /^<img src=y onerror=window.__pwned=3>\.npy: /,
    );
    assert.equal(await page.textContent('#file-name'), name);
    assert.equal(await page.$$eval('main img, main script, main b', (nodes) => nodes.length), 0);
    await page.check('#source-seed');
    await expectRecovered('weights-error');
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
  });
});
