// Text mode: text in, a real tokenizer's ids out, in the page and in <embedding-demo text>.
// The ids each model's tokenizer gives "Hello world" are checked against the vocabulary files in
// tests/tokenizers/; longer texts against gpt-tokenizer's own entry point, run here in Node.
// Also: a tokenizer's files load only when it is picked, with progress; a chip pointed at marks
// its token in every view, a chip clicked picks it; empty text, a lone surrogate, 100,000 characters and more tokens than the core
// takes give clear messages while the page stays usable; no request leaves the site.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { encode as gpt2Encode } from 'gpt-tokenizer/encoding/r50k_base';
import {
  BOXES,
  computedColor,
  errorText,
  openNumbers,
  openSite,
  pageOverflow,
  sitePerSuite,
  waitForLookupRows,
  waitForVerdict,
} from './harness.mjs';
import { demoText, openHost, settle } from './demo.mjs';
import { saveScreenshot } from './screenshots.mjs';

const HELLO_WORLD = {
  gpt2: [15496, 995],
  llama3: [9906, 1917],
  qwen3: [9707, 1879],
  gemma3: [9259, 1902],
};
const VOCAB = { gpt2: 50257, llama3: 128256, qwen3: 151669, gemma3: 262145 };
const LABEL = { llama3: 'Llama 3', qwen3: 'Qwen 3', gemma3: 'Gemma 3' };
const HUNDRED_THOUSAND = 'The quick brown fox jumps over the lazy dog. Ünïcödé, 日本語 🙂\n'
  .repeat(2000)
  .slice(0, 100_000);
const count = (n) => n.toLocaleString('en-US');

const idsValue = (page) => page.inputValue('#ids');
const waitForIds = (page, ids, timeout = 30_000) =>
  page.waitForFunction(
    (expected) => document.getElementById('ids').value === expected,
    ids.join(', '),
    { timeout },
  );

// [[label, id], ...] of the chips under root (a shadow root's host selector, or the page).
function chips(page, host = null) {
  return page.evaluate((selector) => {
    const root = selector ? document.querySelector(selector).shadowRoot : document;
    return [...root.querySelectorAll('.token-chip')].map((chip) => [
      chip.querySelector('.token-text').textContent,
      chip.querySelector('.token-id').textContent,
    ]);
  }, host);
}

// Sets the text as pasted, in one input event; code is a JS expression, so that it can hold
// lone surrogates (which a string sent through DevTools could not carry).
function setText(page, code) {
  return page.evaluate((source) => {
    const text = document.getElementById('text');
    text.value = (0, eval)(source); // e.g. "'a\\uD800b'"
    text.dispatchEvent(new Event('input', { bubbles: true }));
  }, code);
}

describe('Text mode', () => {
  const requests = [];
  const env = sitePerSuite(async () => {
    const opened = await openSite();
    opened.page.on('request', (request) => requests.push(request.url()));
    return opened;
  });
  afterEach(() => env.assertClean());

  test('"Hello world" through GPT-2: its ids feed the ids field, V and d, and both routes', async () => {
    const { page } = env;
    assert.deepEqual(
      requests.filter((url) => /\/tokenizer-/.test(url)),
      [],
      'nothing of a tokenizer loads before Text mode',
    );
    await page.click('label[for="from-text"]');
    await waitForIds(page, HELLO_WORLD.gpt2);
    assert.ok(await page.$eval('#ids', (ids) => ids.readOnly));
    assert.equal(await page.inputValue('#vocab'), String(VOCAB.gpt2));
    assert.equal(await page.inputValue('#dim'), '8');
    assert.deepEqual(await chips(page), [
      ['Hello', '15496'],
      ['·world', '995'],
    ]);
    await waitForLookupRows(page, HELLO_WORLD.gpt2);
    await waitForVerdict(page, 'bit-identical');
    assert.match(
      await page.textContent('#text-status'),
      /^2 tokens; GPT-2 has 50,257 in its vocabulary\./,
    );
    assert.deepEqual(
      requests.filter((url) => url.includes('/tokenizer-')).map((url) => new URL(url).pathname),
      [
        '/embedlab/tokenizer-worker.mjs',
        '/embedlab/tokenizer-sizes.json',
        '/embedlab/tokenizer-gpt2.json.gz',
      ],
    );
  });

  test('each tokenizer loads when picked, showing its progress, and gives its known ids', async () => {
    const { page } = env;
    await page.evaluate(() => {
      window.statusSeen = [];
      const status = document.getElementById('text-status');
      new MutationObserver(() => window.statusSeen.push(status.textContent)).observe(status, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
    for (const name of ['llama3', 'qwen3', 'gemma3']) {
      assert.ok(
        !requests.some((url) => url.endsWith(`/tokenizer-${name}.json.gz`)),
        `${name} is not loaded before it is picked`,
      );
      await page.selectOption('#tokenizer', name);
      await waitForIds(page, HELLO_WORLD[name]);
      assert.equal(await page.inputValue('#vocab'), String(VOCAB[name]));
      assert.deepEqual(await chips(page), [
        ['Hello', String(HELLO_WORLD[name][0])],
        ['·world', String(HELLO_WORLD[name][1])],
      ]);
      const seen = await page.evaluate(() => window.statusSeen);
      const loading = new RegExp(`^Loading the ${LABEL[name]} tokenizer: [\\d.]+ of [\\d.]+ MB…$`);
      assert.ok(
        seen.some((text) => loading.test(text)),
        `progress of ${name}: ${seen.join(' / ')}`,
      );
      await waitForLookupRows(page, HELLO_WORLD[name], 30_000);
    }
    assert.equal(requests.filter((url) => url.endsWith('/tokenizer-gemma3.json.gz')).length, 1);
  });

  test('pointing at a chip marks its token in every view; a click or the arrow keys pick it', async () => {
    const { page } = env;
    await page.selectOption('#tokenizer', 'gpt2');
    await waitForIds(page, HELLO_WORLD.gpt2);
    await waitForLookupRows(page, HELLO_WORLD.gpt2);
    assert.equal(
      await page.textContent('#step [data-part="detail"] .step-title'),
      'idx[0] = 15496 (position 0 of 0–1)',
    );
    // " world" is one token: its leading space is drawn as "·", and the chips say so.
    assert.equal(await page.textContent('.token-chip[data-token="1"] .token-text'), '·world');
    assert.equal(
      await page.textContent('#token-chips .token-legend'),
      'In the chips, · is a space: it belongs to the token.',
    );
    await openNumbers(page, BOXES.weight); // W, GPT-2's 50,257 rows, as a heatmap and its numbers
    // Pointing: the light highlight of linked-views.mjs, the step left alone.
    await page.hover('.token-chip[data-token="1"]');
    await page.waitForSelector('#results [data-box="lookup"] tr.linked[data-index="1"]');
    assert.equal(
      await page.getAttribute('#matrices [data-box="weight"] tr.linked', 'data-index'),
      '995',
    );
    assert.equal(
      await page.textContent('#step [data-part="detail"] .step-title'),
      'idx[0] = 15496 (position 0 of 0–1)',
    );
    // A click picks it.
    await page.click('.token-chip[data-token="1"]');
    await page.waitForSelector('.token-chip[data-token="1"][aria-checked="true"]');
    assert.equal(
      await page.textContent('#step [data-part="detail"] .step-title'),
      'idx[1] = 995 (position 1 of 0–1)',
    );
    assert.equal(
      await page.getAttribute('#results [data-box="lookup"] tr.current', 'data-index'),
      '1',
    );
    assert.equal(
      await page.getAttribute('#matrices [data-box="weight"] tr.current', 'data-index'),
      '995',
    );
    // The arrow keys move along the chips and pick as they go; one tab stop.
    await page.mouse.move(0, 0);
    await page.keyboard.press('ArrowLeft');
    await page.waitForSelector('.token-chip[data-token="0"][aria-checked="true"]');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.token), '0');
    assert.equal(
      await page.textContent('#step [data-part="detail"] .step-title'),
      'idx[0] = 15496 (position 0 of 0–1)',
    );
    assert.equal(
      await page.getAttribute('#matrices [data-box="weight"] tr.current', 'data-index'),
      '15496',
    );
    assert.deepEqual(
      await page.$$eval('.token-chip', (all) => all.map((chip) => chip.tabIndex)),
      [0, -1],
    );
  });

  test('a token that cuts a character shows its bytes; a whole emoji shows as itself', async () => {
    const { page } = env;
    // 🙂 (U+1F642) is a token of both vocabularies; 🦩 (U+1F9A9, F0 9F A6 A9 in UTF-8) of neither:
    // GPT-2 spells it in byte tokens, Gemma 3 falls back to one token per byte, <0xF0> = 478.
    const text = 'Hi 🙂 🦩\nthere';
    const shown = 'Hi·🙂·<0xF0><0x9F><0xA6><0xA9>↵there';
    await page.fill('#text', text);
    await waitForIds(page, gpt2Encode(text));
    assert.equal((await chips(page)).map(([label]) => label).join(''), shown);
    await page.selectOption('#tokenizer', 'gemma3');
    await page.waitForFunction(
      (gpt2) => document.getElementById('ids').value !== gpt2,
      gpt2Encode(text).join(', '),
      { timeout: 30_000 },
    );
    assert.equal((await chips(page)).map(([label]) => label).join(''), shown);
    assert.ok((await chips(page)).some(([label, id]) => label === '<0xF0>' && id === '478'));
    await page.selectOption('#tokenizer', 'gpt2');
    await page.waitForFunction(() => document.getElementById('vocab').value === '50257');
  });

  test("a token of a zero-width joiner alone shows as <ZWJ>; the chip picked wears its token's colour", async () => {
    const { page } = env;
    try {
      // Gemma 3 reads a family emoji as its three people and the two joiners between them, each
      // joiner a token of its own (237243): invisible as it is, it is named.
      await page.selectOption('#tokenizer', 'gemma3');
      await page.fill('#text', 'Family: 👨\u200d👩\u200d👧');
      await page.waitForFunction(
        () =>
          document.querySelectorAll('.token-chip').length > 0 &&
          document.getElementById('ids').value.includes('237243'),
        null,
        { timeout: 30_000 },
      );
      const shown = await chips(page);
      assert.deepEqual(
        shown.filter(([, id]) => id === '237243'),
        [
          ['<ZWJ>', '237243'],
          ['<ZWJ>', '237243'],
        ],
      );
      assert.deepEqual(
        shown.slice(-5).map(([label]) => label),
        ['👨', '<ZWJ>', '👩', '<ZWJ>', '👧'],
      );
      const zwj = page.locator('.token-chip', { hasText: '<ZWJ>' }).first();
      assert.ok(
        (await zwj.locator('.token-text').boundingBox()).width > 20,
        "the joiner's chip shows its name",
      );
      // Picked, the joiner's chip takes its token's colour, as every view's mark of it does.
      await zwj.click();
      const k = Number(await zwj.getAttribute('data-token'));
      await page.waitForSelector(`.token-chip[data-token="${k}"][aria-checked="true"]`);
      assert.equal(
        await zwj.evaluate((chip) => getComputedStyle(chip).backgroundColor),
        await computedColor(page, `var(--token-${k % 8})`),
      );
      await waitForVerdict(page, 'bit-identical', 30_000);
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
        await page.mouse.move(0, 0);
        await page.$eval('#inputs', (form) => form.scrollIntoView({ block: 'start' }));
        await saveScreenshot(page.locator('#inputs'), `zwj-chip-${width}.png`);
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.selectOption('#tokenizer', 'gpt2');
      await page.fill('#text', 'Hello world');
      await waitForIds(page, HELLO_WORLD.gpt2);
    }
  });

  test('empty text and a lone surrogate are said under the text; the last tokens stay', async () => {
    const { page } = env;
    await page.fill('#text', 'Hello world');
    await waitForIds(page, HELLO_WORLD.gpt2);
    await page.fill('#text', '');
    await page.waitForSelector('#text-error:not([hidden])');
    assert.equal(
      await errorText(page, 'text-error'),
      'The text is empty: type a word or a sentence to see its tokens.',
    );
    assert.equal(await page.getAttribute('#text', 'aria-invalid'), 'true');
    assert.deepEqual(await idsValue(page), '15496, 995');
    assert.ok(await page.$eval('#token-chips', (box) => box.classList.contains('stale')));

    await setText(page, "'a\\uD800b'");
    await page.waitForFunction(() =>
      document.getElementById('text-error').textContent.startsWith('Character 2'),
    );
    assert.equal(
      await errorText(page, 'text-error'),
      'Character 2 is a lone surrogate (U+D800): half of a ' +
        'UTF-16 pair, with no UTF-8 bytes for a tokenizer to read. Delete it, or paste the whole character.',
    );

    await page.fill('#text', 'Hello world');
    await page.waitForSelector('#text-error', { state: 'hidden' });
    assert.equal(await page.getAttribute('#text', 'aria-invalid'), null);
    assert.ok(!(await page.$eval('#token-chips', (box) => box.classList.contains('stale'))));
  });

  test('100,000 characters: every token, 1,000 chips, and both routes', async () => {
    const { page } = env;
    const ids = gpt2Encode(HUNDRED_THOUSAND);
    await setText(page, JSON.stringify(HUNDRED_THOUSAND));
    await page.waitForFunction(
      (n) => document.getElementById('ids').value.split(',').length === n,
      ids.length,
      { timeout: 60_000 },
    );
    assert.equal(await idsValue(page), ids.join(', '));
    assert.equal(await page.locator('.token-chip').count(), 1000);
    assert.equal(
      await page.textContent('.token-more'),
      `… and ${count(ids.length - 1000)} more tokens (${count(ids.length)} in all)`,
    );
    assert.equal(
      await page.textContent('#text-status'),
      `${count(ids.length)} tokens; GPT-2 has 50,257 in its ` +
        'vocabulary. Point at a token to follow it below.',
    );
    // n × V one-hot entries beyond what any matrix held may have (2^26 floats): the product
    // streams W and never holds them.
    assert.ok(ids.length * VOCAB.gpt2 > 2 ** 26);
    await waitForVerdict(page, 'bit-identical', 120_000);
    assert.equal(await errorText(page, 'ids-error'), '');
  });

  test('more tokens than the core takes at once is said; a newer text wins over a slow one', async () => {
    const { page } = env;
    // " a" is one GPT-2 token: 70,000 of them.
    await setText(page, "' a'.repeat(70000)");
    await page.waitForFunction(
      () => document.getElementById('text-error').textContent.startsWith('too many token ids'),
      null,
      { timeout: 60_000 },
    );
    // The core's words, as for too many ids typed.
    assert.equal(
      await errorText(page, 'text-error'),
      'too many token ids: 70,000 given, at most 65,536 are accepted at once',
    );
    // One 100,000-letter word is the slowest text for byte-pair merging; typing on replaces it.
    await setText(page, "'a'.repeat(100000)");
    await page.fill('#text', 'Hello world again');
    await waitForIds(page, gpt2Encode('Hello world again'), 60_000);
    await page.waitForSelector('#text-error', { state: 'hidden' });
    await waitForLookupRows(page, gpt2Encode('Hello world again'));
    await waitForVerdict(page, 'bit-identical');
  });

  test('back to Token IDs gives the typed ids, V and d back', async () => {
    const { page } = env;
    await page.click('label[for="from-ids"]');
    await waitForIds(page, [2, 3, 1]);
    assert.ok(!(await page.$eval('#ids', (ids) => ids.readOnly)));
    assert.equal(await page.inputValue('#vocab'), '');
    assert.equal(await page.inputValue('#dim'), '5');
    assert.ok(await page.isHidden('#text-mode'));
    await waitForLookupRows(page, [2, 3, 1]);
  });

  test('<embedding-demo text tokenizer>: live attributes, chips that set the step, errors inside', async () => {
    const { page } = env;
    await openHost(
      env,
      'text',
      '<embedding-demo id="t" text="Hello world" view="lookup"></embedding-demo>',
    );
    assert.match(
      await demoText(page, '#t', '.demo-title'),
      /: idx = \[15496, 995\], V = 50257, d = 8, W from torch\.manual_seed\(123\)$/,
    );
    assert.deepEqual(await chips(page, '#t'), [
      ['Hello', '15496'],
      ['·world', '995'],
    ]);

    await page.evaluate(() => document.getElementById('t').setAttribute('tokenizer', 'gemma3'));
    await settle(page);
    assert.match(
      await demoText(page, '#t', '.demo-title'),
      /: idx = \[9259, 1902\], V = 262145, d = 8,/,
    );

    await page.evaluate(() => {
      document.getElementById('t').text = '🙂';
      document.getElementById('t').tokenizer = 'gpt2';
    });
    await settle(page);
    assert.equal(
      (await chips(page, '#t')).map(([label]) => label).join(''),
      '<0xF0><0x9F><0x99><0x82>',
    );
    assert.match(
      await demoText(page, '#t', '.demo-title'),
      new RegExp(`: idx = \\[${gpt2Encode('🙂').join(', ')}\\],`),
    );

    await page.evaluate(() => {
      document.getElementById('t').text = 'Hello world';
    });
    await settle(page);
    await page.hover('#t .token-chip[data-token="1"]');
    await page.waitForFunction(() => document.getElementById('t').getAttribute('step') === '1');
    await settle(page);
    assert.equal(
      await page.evaluate(
        () =>
          document.getElementById('t').shadowRoot.querySelector('.token-chip[aria-checked="true"]')
            .dataset.token,
      ),
      '1',
    );

    const errorOf = async (attribute, value) => {
      await page.evaluate(
        ([name, code]) => document.getElementById('t').setAttribute(name, (0, eval)(code)),
        [attribute, value],
      );
      await settle(page);
      return page.$eval('#t', (demo) => demo.error);
    };
    assert.equal(
      await errorOf('text', "''"),
      'The text is empty: type a word or a sentence to see its tokens.',
    );
    assert.match(
      await errorOf('text', "'x\\uDC00'"),
      /^Character 2 is a lone surrogate \(U\+DC00\)/,
    );
    assert.equal(await errorOf('text', "'Hello world'"), null);
    assert.equal(
      await errorOf('tokenizer', "'gpt3'"),
      'tokenizer="gpt3" is not one of: gpt2, llama3, qwen3, gemma3 (did you mean gpt2?)',
    );
    assert.equal(await errorOf('tokenizer', "'qwen3'"), null);
    assert.match(
      await demoText(page, '#t', '.demo-title'),
      /: idx = \[9707, 1879\], V = 151669, d = 8,/,
    );
  });

  test("no request leaves the site, and the tokenizers' files were among those seen", async () => {
    const elsewhere = requests.filter(
      (url) => !url.startsWith(env.url) && !url.startsWith('data:'),
    );
    assert.deepEqual(elsewhere, []);
    for (const name of ['gpt2', 'llama3', 'qwen3', 'gemma3']) {
      assert.ok(
        requests.includes(`${env.url}embedlab/tokenizer-${name}.json.gz`),
        `${name}'s vocabulary was seen`,
      );
    }
  });

  test('screenshots at 1280 and 375 px; nothing overflows a phone', async () => {
    const { page } = env;
    await page.emulateMedia({ reducedMotion: 'reduce' }); // the picture settled, not mid-move
    await page.goto(env.url);
    await waitForVerdict(page, 'bit-identical');
    await page.click('label[for="from-text"]');
    await page.fill('#text', 'Embeddings turn token ids into rows 🙂');
    await waitForIds(page, gpt2Encode('Embeddings turn token ids into rows 🙂'));
    await waitForVerdict(page, 'bit-identical');
    await page.click('.token-chip[data-token="1"]');
    await page.waitForSelector('.token-chip[data-token="1"][aria-checked="true"]');
    await saveScreenshot(page, 'text-mode-1280.png');
    await page.mouse.move(0, 0);
    await page.setViewportSize({ width: 375, height: 812 });
    await page.waitForFunction(() => document.documentElement.clientWidth === 375);
    assert.equal(await pageOverflow(page), 0);
    await page.locator('.field-ids').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'text-mode-375.png');
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
