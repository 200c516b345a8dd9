// Real checkpoints' embedding tables chosen on the page (real-models.mjs writes them: each
// checkpoint's exact name, shape and dtype, from GPT-2's 0.15 GB to Llama 3.1 405B's 4.2 GB, and
// Llama 3 8B as an index with its first shard): each is read a block at a time in the compute
// worker, the lookup shows PyTorch's values of its rows, the streamed product gives the
// bit-identical verdict, and the browser's memory stays bounded whatever the file's size. An
// index chosen without the shard that holds the table says which shard to add.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { errorText, openSite, waitForVerdict } from './harness.mjs';
import { chooseOnPage, writeRealModelFiles } from './real-models.mjs';
import { assertCellsClose } from './torch-reference.mjs';

// The rows shown, the worker's WebAssembly memory (a block of rows in float32 and the one-hot's
// panel) and one read-ahead buffer: 89 MiB measured for the 4.2 GB table. A buffer per block
// left to the collector grows with the file (590 MiB for the same table).
const GROWTH_BOUND = 256 * 2 ** 20;

const files = writeRealModelFiles();
after(() => files.remove());

describe('real models\' tables on the page', () => {
  for (const shape of files.shapes) {
    test(`${shape.model}: ${shape.vocab} × ${shape.dim} ${shape.dtype}`, async (t) => {
      const env = await openSite({ weights: true });
      try {
        const run = await chooseOnPage(env, shape);
        t.diagnostic(`rows after ${Math.round(run.rowsMs)} ms, verdict after ${Math.round(run.verdictMs)} ms, ` +
          `the browser grew by at most ${Math.round(run.growth / 2 ** 20)} MiB`);
        assert.equal(run.verdict, 'bit-identical');
        const shown = run.lookup.map((row) => row.filter((cell) => cell !== '…'));
        assertCellsClose(shown, shape.hello, `${shape.model}'s lookup`);
        assert.ok(run.growth <= GROWTH_BOUND,
          `the browser grew by up to ${run.growth} bytes reading a ${shape.vocab} × ${shape.dim} table`);
        env.assertClean();
      } finally {
        await env.close();
      }
    });
  }
});

describe('a sharded checkpoint\'s index', () => {
  let env;
  before(async () => { env = await openSite({ weights: true }); });
  after(async () => { await env?.close(); });

  test('chosen without the table\'s shard, it names the shard to choose with it', async () => {
    const { page } = env;
    const index = files.shapes.at(-1).files[0];
    await page.fill('#ids', '1');
    await waitForVerdict(page, 'bit-identical');
    await page.setInputFiles('#weights-file', [index]);
    await page.waitForFunction(() => document.getElementById('weights-error').textContent !== '');
    assert.equal(await errorText(page, 'weights-error'),
      'model.safetensors.index.json: it puts model.embed_tokens.weight in model-00001-of-00004.safetensors, ' +
      'which was not chosen: choose the index together with that shard');
    assert.equal(await page.getAttribute('#weights-file', 'aria-invalid'), 'true');
    await waitForVerdict(page, 'no result');
    env.assertClean();
  });
});
