// The page never freezes: a request too large for one frame (GPT-2's table, V = 50257 and
// d = 768, with 64 tokens) runs in a Web Worker while the inputs keep taking keystrokes and
// animation frames keep coming; the newest input wins (the worker stops the older request), an
// older result never shows after a
// newer one, and the worker's errors arrive in the core's words. The backward and bag views
// compute there too, beside its W: after a GPT-2 result, no main-thread task comes near the
// 0.8 s they once took there. Small requests (n = 64,
// V = 4096, d = 64) are answered on the main thread, not by the worker; without a worker at all,
// large ones are too.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { demoText, openHost } from './demo.mjs';
import {
  BOXES,
  errorText,
  openSite,
  recordWorkerAnswers,
  sitePerSuite,
  waitForLookupRows,
  waitForShape,
  waitForVerdict,
} from './harness.mjs';

const GPT2_VOCAB = 50257;
const GPT2_DIM = 768;
// 63 ids: one more typed makes GPT-2's 64, all of them rows of the lookup table.
const GPT2_IDS = Array.from({ length: 63 }, (_, i) => (i * 7919 + 50256) % GPT2_VOCAB);

// In the page: log each input event on #ids ({ input: value }), each new lookup table
// ({ rows: 'id,id,...' }) and each verdict word ({ verdict }); count animation frames.
function recordPage() {
  const log = window.recorded;
  document
    .getElementById('ids')
    .addEventListener('input', (event) => log.push({ input: event.target.value }));
  const rows = () =>
    [...document.querySelectorAll('#results [data-box="lookup"] tbody th')]
      .map((th) => th.textContent)
      .join(',');
  new MutationObserver(() => log.push({ rows: rows() })).observe(
    document.querySelector('#results [data-box="lookup"]'),
    { childList: true, subtree: true },
  ); // redrawn in place
  const word = () => document.querySelector('#results .verdict .verdict-word')?.textContent;
  new MutationObserver(() => log.push({ verdict: word() })).observe(
    document.querySelector('#results .verdict'),
    { childList: true },
  );
  window.animationFrames = 0;
  const tick = () => {
    window.animationFrames += 1;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

describe('responsiveness', () => {
  const env = sitePerSuite(async () => {
    const opened = await openSite({ weights: true });
    await opened.page.addInitScript(recordWorkerAnswers);
    await opened.page.reload();
    await waitForVerdict(opened.page, 'bit-identical');
    await opened.page.evaluate(recordPage);
    return opened;
  });
  afterEach(() => env.assertClean());

  const log = () => env.page.evaluate(() => window.recorded.slice());
  const clearLog = () =>
    env.page.evaluate(() => {
      window.recorded.length = 0;
    });
  const workerAnswers = async (kind) =>
    (await log()).filter((entry) => entry.worker === kind).length;

  test('n = 64, V = 4096, d = 64: every keystroke answered on the main thread', async () => {
    const { page } = env;
    await page.fill('#dim', '64');
    await page.fill('#vocab', '4096');
    const ids = Array.from({ length: 63 }, (_, i) => (i * 61) % 4096);
    await page.fill('#ids', ids.join(', '));
    await waitForLookupRows(page, ids);
    await clearLog();
    await page.focus('#ids');
    await page.keyboard.press('End');
    for (const key of [',', ' ', '9']) await page.keyboard.press(key);
    await waitForLookupRows(page, [...ids, 9]);
    await waitForVerdict(page, 'bit-identical');
    const entries = await log();
    assert.ok(!entries.some((entry) => entry.verdict === 'computing'), 'no request waits');
    // The compute worker (which draws the positions and head views' tables) computes no route.
    assert.deepEqual(
      entries.filter((entry) => ['first', 'progress', 'last'].includes(entry.worker)),
      [],
      'no route is computed in the worker',
    );
  });

  test('GPT-2 size: the ids field takes keystrokes while W and the product are computed', async () => {
    const { page } = env;
    const ids = GPT2_IDS;
    await page.fill('#dim', String(GPT2_DIM));
    await page.fill('#vocab', String(GPT2_VOCAB));
    await page.fill('#ids', ids.join(', '));
    await waitForLookupRows(page, ids, 120_000);
    await waitForVerdict(page, 'bit-identical');

    // One request: a new W of GPT-2 size (seconds of work), then the product. The keystrokes
    // come as soon as the page says it is computing.
    await clearLog();
    const framesBefore = await page.evaluate(() => window.animationFrames);
    await page.fill('#seed', '5');
    await waitForVerdict(page, 'computing');
    await page.focus('#ids');
    await page.keyboard.press('End');
    await page.keyboard.type(', 7');
    // Each keystroke reached the field, and its input event ran, before any result came.
    assert.ok((await page.inputValue('#ids')).endsWith(', 7'));
    const typed = await log();
    assert.equal(
      typed.filter((entry) => entry.input !== undefined).at(-1).input,
      `${ids.join(', ')}, 7`,
    );
    assert.ok(
      !typed.some((entry) => entry.worker === 'last' || entry.verdict === 'bit-identical'),
      'the keystrokes were handled while the request ran',
    );

    await waitForLookupRows(page, [...ids, 7], 120_000);
    await waitForVerdict(page, 'bit-identical');
    assert.equal(
      await page.textContent('#results .verdict .verdict-sentence'),
      `All ${(64 * GPT2_DIM).toLocaleString('en-US')} elements hold the same 32 bits in both results.`,
    );
    const entries = await log();
    // The request the keystrokes superseded never finished: its lookup's rows may have come
    // first (they come in milliseconds), its product did not; animation frames kept coming.
    assert.equal(
      entries.filter((entry) => entry.worker === 'last').length,
      1,
      'one product answered',
    );
    assert.ok((await page.evaluate(() => window.animationFrames)) - framesBefore >= 5);
  });

  // No duration is asserted (the machines are shared): the structure is, that the work ran in the
  // worker while the page kept painting. tests/e2e/update-timing.mjs measures the times.
  test('GPT-2 size: the backward and bag views compute in the worker while the page paints', async () => {
    const { page } = env;
    const viewsDone = () =>
      page.waitForFunction(
        () =>
          ['backward', 'bag'].every((id) => {
            const word = document.querySelector(`#${id} .verdict-word`)?.textContent;
            return (
              word &&
              word !== 'computing' &&
              !document.querySelector(`#${id} .view-output`).classList.contains('stale')
            );
          }),
        null,
        { timeout: 120_000 },
      );
    // The previous test left GPT-2's shape, its views perhaps still computing. From here on, the
    // views' verdicts, each with the number of frames painted so far.
    await viewsDone();
    await page.evaluate(() => {
      window.framesPainted = 0;
      const tick = () => {
        window.framesPainted += 1;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      for (const id of ['backward', 'bag']) {
        const verdict = document.querySelector(`#${id} [data-part="verdict"]`);
        new MutationObserver(() =>
          window.recorded.push({
            view: id,
            frames: window.framesPainted,
            verdict: verdict.querySelector('.verdict-word')?.textContent,
          }),
        ).observe(verdict, { childList: true });
      }
      const draw = document.querySelector('#backward [data-part="draw"]');
      new MutationObserver(() =>
        window.recorded.push({ draw: draw.querySelector('code').textContent }),
      ).observe(draw, { childList: true });
    });
    await clearLog();
    await page.fill('#seed', '7');
    await waitForVerdict(page, 'computing');
    await waitForVerdict(page, 'bit-identical', 120_000);
    // Off screen, the views start redrawing once the page is idle.
    await page.waitForFunction(
      () => ['backward', 'bag'].every((id) => window.recorded.some((entry) => entry.view === id)),
      null,
      { timeout: 10_000 },
    );
    await viewsDone();
    assert.equal(await page.textContent('#backward .verdict-word'), 'bit-identical');
    const entries = await log();
    for (const id of ['backward', 'bag']) {
      const states = entries.filter((entry) => entry.view === id);
      assert.deepEqual(
        states.map((entry) => entry.verdict).slice(0, 1),
        ['computing'],
        `the ${id} view says 'computing' first`,
      );
      // Frames were painted between 'computing' and the answer: the main thread was free.
      assert.ok(
        states.at(-1).frames > states[0].frames + 1,
        `the page painted while the ${id} view computed (${states[0].frames} -> ${states.at(-1).frames} frames)`,
      );
    }
    assert.ok((await workerAnswers('computed')) >= 2, 'both views were answered by the worker');

    // A new seed of G while the backward view computes: only the newest one shows.
    await clearLog();
    await page.fill('#backward [name="grad-seed"]', '3');
    await page.waitForFunction(
      () => document.querySelector('#backward .verdict-word')?.textContent === 'computing',
    );
    await page.fill('#backward [name="grad-seed"]', '4');
    // Both requests are answered: seed 3's stopped (or computed, where it ended before the stop
    // came), then seed 4's computed, which the view asks for once seed 3's answer is in.
    const drawn = 'torch.manual_seed(4); G = torch.randn(64, 768)';
    await page.waitForFunction(
      (text) => {
        const section = document.getElementById('backward');
        return (
          section.querySelector('[data-part="draw"] code')?.textContent === text &&
          !section.querySelector('.view-output').classList.contains('stale')
        );
      },
      drawn,
      { timeout: 120_000 },
    );
    const answers = (await log()).filter((entry) => ['stopped', 'computed'].includes(entry.worker));
    assert.equal(answers.length, 2, `both requests are answered: ${JSON.stringify(answers)}`);
    assert.equal(answers[1].worker, 'computed');
    const draws = (await log()).filter((entry) => entry.draw !== undefined);
    assert.deepEqual(
      draws.at(-1),
      { draw: drawn },
      'an older seed of G never shows after the newest',
    );
    assert.equal(await page.textContent('#backward .verdict-word'), 'bit-identical');
  });

  test("GPT-2 size: an error from the worker marks the view's field, as on a small input", async () => {
    const { page } = env;
    await page.fill('#backward [name="padding-idx"]', '60000'); // past V = 50257
    const input = '#backward [name="padding-idx"]';
    await page.waitForFunction(
      (selector) => document.querySelector(selector).getAttribute('aria-invalid') === 'true',
      input,
      { timeout: 120_000 },
    );
    assert.match(await page.textContent('#backward .error[role="alert"]'), /padding_idx/);
    await page.fill(input, '');
    await page.waitForFunction(
      (selector) => !document.querySelector(selector).hasAttribute('aria-invalid'),
      input,
      { timeout: 120_000 },
    );
  });

  test('a newer small input wins over a large one still running', async () => {
    const { page } = env;
    await page.fill('#seed', '6'); // a new W of GPT-2 size: a long request
    await waitForVerdict(page, 'computing');
    await clearLog();
    await page.fill('#dim', '5');
    await page.fill('#vocab', '');
    await page.fill('#ids', '2, 3, 1');
    await waitForLookupRows(page, [2, 3, 1]);
    await waitForVerdict(page, 'bit-identical');
    // The worker stops the request at its next block of W, and never answers it.
    await page.waitForFunction(
      () => window.recorded.some((entry) => entry.worker === 'stopped'),
      null,
      { timeout: 120_000 },
    );
    assert.equal(await workerAnswers('last'), 0);
    const tables = (await log()).filter((entry) => entry.rows !== undefined);
    assert.deepEqual(tables.at(-1), { rows: '2,3,1' }, 'nothing was shown after the newest input');
    assert.ok(
      (await page.textContent('#matrices [data-box="weight"] caption')).includes(': 4 × 5'),
    );
    assert.equal(await page.textContent('#results .verdict .verdict-word'), 'bit-identical');
  });

  test('an element of GPT-2 size computes in its own worker while the host page paints', async () => {
    const { page } = env;
    const ids = [...GPT2_IDS, 7];
    await openHost(
      env,
      'gpt2-element',
      `<embedding-demo id="big" vocab="${GPT2_VOCAB}" dim="${GPT2_DIM}" ids="${ids.join(', ')}"></embedding-demo>`,
      `<script>
        window.framesPainted = 0;
        const tick = () => { window.framesPainted += 1; requestAnimationFrame(tick); };
        requestAnimationFrame(tick);
      </script>`,
    );
    assert.equal(await demoText(page, '#big', '.verdict-word'), 'bit-identical');
    assert.equal(await workerAnswers('last'), 1, "the element's worker computed its result");
    // Frames came while it computed (seconds of work): the host's main thread stayed free.
    assert.ok((await page.evaluate(() => window.framesPainted)) >= 5);
    await page.goto(env.url);
    await waitForVerdict(page, 'bit-identical');
    await page.evaluate(recordPage);
  });

  test("a request over the limits is refused in the core's words before the worker is asked", async () => {
    const { page } = env;
    const errorsBefore = await workerAnswers('error');
    await page.fill('#dim', '8192');
    await page.fill('#vocab', String(GPT2_VOCAB));
    await page.waitForFunction(() => !document.getElementById('vocab-error').hidden);
    assert.equal(
      await errorText(page, 'vocab-error'),
      `the embedding table (V x d) would be 50,257 x 8,192 floats, over the limit of ` +
        '67,108,864 floats (256 MiB) that keeps memory bounded',
    );
    await waitForVerdict(page, 'no result');
    assert.equal(await workerAnswers('error'), errorsBefore);
    await page.fill('#dim', '5');
    await page.fill('#vocab', '');
    await waitForVerdict(page, 'bit-identical');
    assert.equal(await errorText(page, 'vocab-error'), '');
  });
});

// Where no module worker starts (Firefox before 114), large requests still run, on the main
// thread after the 'computing' state has shown.
function noWorkers() {
  window.Worker = class {
    constructor() {
      throw new TypeError('module workers are not supported');
    }
  };
}

function brokenWorkers() {
  const PageWorker = window.Worker;
  window.Worker = class extends PageWorker {
    constructor(url, options) {
      super(
        URL.createObjectURL(new Blob(['this is not JavaScript'], { type: 'text/javascript' })),
        options,
      );
    }
  };
}

describe('without a worker', () => {
  for (const [name, script] of [
    ['no Worker constructor', noWorkers],
    ['a worker that fails to load', brokenWorkers],
  ]) {
    test(`${name}: a large request runs on the main thread`, async () => {
      const env = await openSite({ weights: true });
      const { page } = env;
      try {
        await page.addInitScript(script);
        await page.reload();
        await waitForVerdict(page, 'bit-identical');
        await page.fill('#dim', '64');
        await page.fill('#vocab', '8192'); // a new W of 2^19 floats, beyond the main thread's budget
        await waitForVerdict(page, 'computing');
        await waitForVerdict(page, 'bit-identical');
        await waitForShape(page, BOXES.weight, '8192 × 64');
        await page.fill('#vocab', '50257'); // and an error, in the core's words
        await page.fill('#dim', '8192');
        await page.waitForFunction(() => !document.getElementById('vocab-error').hidden);
        assert.equal(
          await errorText(page, 'vocab-error'),
          `the embedding table (V x d) would be 50,257 x 8,192 floats, over the limit of ` +
            '67,108,864 floats (256 MiB) that keeps memory bounded',
        );
        env.assertClean();
      } finally {
        await env.close();
      }
    });
  }
});
