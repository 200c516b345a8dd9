// Real checkpoints' embedding tables chosen on the page (real-models.mjs writes them: each
// checkpoint's exact name, shape and dtype, from GPT-2's 0.15 GB to Llama 3.1 405B's 4.2 GB, and
// Llama 3 8B as an index with its first shard): each is read a block at a time in the compute
// worker, the lookup shows PyTorch's values of its rows, the streamed product gives the
// bit-identical verdict, and the browser's memory stays bounded whatever the file's size. A view
// that streams the table too (the Bag's M @ W) waits for the product, and newer ids come first.
// An index chosen without the shard that holds the table says which shard to add.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { sampleMemory } from './browser-memory.mjs';
import {
  BOXES,
  errorText,
  openSite,
  recordWorkerAnswers,
  sitePerSuite,
  tableCells,
  waitForShape,
  waitForVerdict,
} from './harness.mjs';
import { chooseOnPage, HELLO_WORLD, writeRealModelFiles } from './real-models.mjs';
import { assertCellsClose } from './torch-reference.mjs';

// The rows shown, the worker's WebAssembly memory (a block of rows in float32 and the one-hot's
// panel) and one read-ahead buffer: 89 MiB measured for the 4.2 GB table. A buffer per block
// left to the collector grows with the file (590 MiB for the same table).
const GROWTH_BOUND = 256 * 2 ** 20;

const files = writeRealModelFiles();
after(() => files.remove());

describe("real models' tables on the page", () => {
  for (const shape of files.shapes) {
    test(`${shape.model}: ${shape.vocab} × ${shape.dim} ${shape.dtype}`, async (t) => {
      const env = await openSite({ weights: true });
      try {
        const run = await chooseOnPage(env, shape);
        t.diagnostic(
          `rows after ${Math.round(run.rowsMs)} ms, verdict after ${Math.round(run.verdictMs)} ms, ` +
            `the browser grew by at most ${Math.round(run.growth / 2 ** 20)} MiB`,
        );
        assert.equal(run.verdict, 'bit-identical');
        const shown = run.lookup.map((row) => row.filter((cell) => cell !== '…'));
        assertCellsClose(shown, shape.hello, `${shape.model}'s lookup`);
        assert.ok(
          run.growth <= GROWTH_BOUND,
          `the browser grew by up to ${run.growth} bytes reading a ${shape.vocab} × ${shape.dim} table`,
        );
        env.assertClean();
      } finally {
        await env.close();
      }
    });
  }
});

// Records, in the page, each new word of the product's verdict and of the Bag's, in order:
// window.verdicts, [[which, word], ...].
function recordVerdicts(page) {
  return page.evaluate(() => {
    window.verdicts = [];
    for (const [which, selector] of [
      ['product', '#results .verdict'],
      ['bag', '#bag [data-part="verdict"]'],
    ]) {
      const box = document.querySelector(selector);
      let last = null;
      new MutationObserver(() => {
        const word = box.querySelector('.verdict-word')?.textContent ?? '';
        if (word !== last) window.verdicts.push([which, word]);
        last = word;
      }).observe(box, { childList: true, subtree: true, characterData: true });
    }
  });
}

// From the record's entry `from` on: where the product's verdict came (-1: not yet) and where the
// Bag's first result or error (-1: none yet).
async function verdictOrder(page, from) {
  const verdicts = (await page.evaluate(() => window.verdicts)).slice(from);
  const verdict = verdicts.findIndex(
    ([which, word]) => which === 'product' && word === 'bit-identical',
  );
  const done = verdicts.findIndex(([which, word]) => which === 'bag' && word !== 'computing');
  return { verdicts, verdict, done };
}

describe("a view streaming a file's table", () => {
  test("waits for the product, and newer ids' product comes before it", async () => {
    const shape = files.shapes.find(({ model }) => model === 'Llama-3-8B');
    const env = await openSite({ weights: true });
    try {
      const { page } = env;
      await page.addInitScript(recordWorkerAnswers);
      await page.reload();
      await page.fill('#ids', HELLO_WORLD.join(', '));
      await waitForVerdict(page, 'bit-identical');
      await recordVerdicts(page);
      const memory = sampleMemory(env.profile);

      // The Bag, in view, asks for M @ W as soon as the file's rows are shown: it streams W after
      // the product, so it is still computing when the product's verdict comes.
      await page.locator('#bag').scrollIntoViewIfNeeded();
      await page.setInputFiles('#weights-file', shape.files);
      await waitForShape(page, BOXES.lookup, `2 × ${shape.dim}`, 120_000);
      await page.waitForFunction(
        () => document.querySelector('#bag .verdict-word')?.textContent === 'computing',
        null,
        { timeout: 120_000 },
      );
      await page.waitForFunction(
        () => document.querySelector('#results .verdict-word').textContent === 'bit-identical',
        null,
        { timeout: 120_000 },
      );
      const first = await verdictOrder(page, 0);
      assert.ok(
        first.verdict >= 0 && (first.done < 0 || first.done > first.verdict),
        `the Bag's product came before the one-hot product's verdict: ${JSON.stringify(first.verdicts)}`,
      );

      // Newer ids while the Bag streams W: its run for the older ones stops, their product comes
      // first, then the Bag's, for them.
      const from = await page.evaluate(() => window.verdicts.length);
      const answered = await page.evaluate(() => window.recorded.length);
      const ids = [HELLO_WORLD[1], HELLO_WORLD[1], HELLO_WORLD[0]];
      await page.fill('#ids', ids.join(', '));
      await waitForShape(page, BOXES.lookup, `3 × ${shape.dim}`, 120_000);
      await waitForVerdict(page, 'bit-identical', 120_000);
      await page.waitForFunction(
        () => document.querySelector('#bag .verdict-word')?.textContent === 'bit-identical',
        null,
        { timeout: 120_000 },
      );
      const { bound } = memory.stop();
      const second = await verdictOrder(page, from);
      assert.ok(
        second.verdict >= 0 && second.done > second.verdict,
        `the Bag's product came before the newer ids' one-hot product: ${JSON.stringify(second.verdicts)}`,
      );
      // The worker's answers: the views' runs for the older ids (the Bag's, and the Backward's
      // beside it) stopped, once the newer ids were typed, and no view answered the older ids
      // (the positions and head views, which the ids do not move, answered before).
      const answers = await page.evaluate(() => window.recorded.map(({ worker }) => worker));
      const stops = answers.flatMap((kind, i) => (kind === 'stopped' ? [i >= answered] : []));
      assert.ok(
        stops.length > 0 &&
          stops.every(Boolean) &&
          answers.indexOf('computed', answered) > answers.indexOf('stopped'),
        `the older ids' views stopped once the newer were typed: ${answers.join(' ')}`,
      );
      // offsets 0, 2 and mode mean: bag 0 is row 995 twice, bag 1 row 15496.
      const bags = (await tableCells(page, '#bag [data-box="output"]')).map((row) =>
        row.filter((cell) => cell !== '…'),
      );
      assertCellsClose(bags, [shape.hello[1], shape.hello[0]], 'the bags of the newer ids');
      assert.ok(bound <= GROWTH_BOUND, `the browser grew by up to ${bound} bytes`);
      env.assertClean();
    } finally {
      await env.close();
    }
  });
});

describe("a sharded checkpoint's index", () => {
  const env = sitePerSuite(() => openSite({ weights: true }));

  test("chosen without the table's shard, it names the shard to choose with it", async () => {
    const { page } = env;
    const index = files.shapes
      .flatMap((shape) => shape.files)
      .find((file) => file.endsWith('model.safetensors.index.json'));
    await page.fill('#ids', '1');
    await waitForVerdict(page, 'bit-identical');
    await page.setInputFiles('#weights-file', [index]);
    await page.waitForFunction(() => document.getElementById('weights-error').textContent !== '');
    assert.equal(
      await errorText(page, 'weights-error'),
      'model.safetensors.index.json: it puts model.embed_tokens.weight in model-00001-of-00004.safetensors, ' +
        'which was not chosen: choose the index together with that shard',
    );
    assert.equal(await page.getAttribute('#weights-file', 'aria-invalid'), 'true');
    await waitForVerdict(page, 'no result');
    env.assertClean();
  });
});
