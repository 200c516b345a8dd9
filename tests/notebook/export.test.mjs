// The fixture notebook as nbconvert exported it (execute.py wrote export.html): static, no
// kernel, opened in Chromium with every request off its server refused. Each output shows the
// rows PyTorch printed in the same notebook and the bit-identical verdict, with no page error.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { serveDirectory } from '../e2e/static-server.mjs';
import { assertShowsPrinted, openBrowser, readOutputs, waitForOutputs } from './browser.mjs';
import { notebookWork, saveScreenshot } from './paths.mjs';

let server;
let browser;
before(async () => {
  server = await serveDirectory(notebookWork);
  browser = await openBrowser(new URL(server.url).origin);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const NAMES = [
  'nn.Embedding',
  'nn.Linear',
  'nn.Embedding(50257, 256)',
  'the numpy table',
  'a batch of 2 × 150 ids',
];

// Every output shows the rows printed before it and the bit-identical verdict.
async function assertOutputs(page) {
  await waitForOutputs(page, NAMES.length);
  const outputs = await readOutputs(page);
  outputs.forEach((output, k) => {
    assert.equal(output.error, null, `${NAMES[k]}: no error`);
    assert.equal(output.verdict, 'bit-identical', NAMES[k]);
    assertShowsPrinted(output, NAMES[k]);
  });
  // The numpy table's cell gives padding_idx=0; the others none.
  assert.deepEqual(
    outputs.map((output) => output.padding),
    [null, null, null, '0', null],
  );
  return outputs;
}

// An init script: window.workers counts the Workers started; with refuse, each is refused as a
// host that allows no Blob worker (some VS Code webviews) refuses it.
function countWorkers(refuse) {
  window.workers = 0;
  const PageWorker = window.Worker;
  window.Worker = class extends PageWorker {
    constructor(...args) {
      window.workers += 1;
      if (refuse) throw new DOMException('Blob workers are refused here', 'SecurityError');
      super(...args);
    }
  };
}

test('every output of the export shows what PyTorch printed, bit-identical', async () => {
  const { page, pageErrors } = browser;
  await page.addInitScript(countWorkers, false);
  await page.goto(`${server.url}export.html`);
  const outputs = await assertOutputs(page);
  assert.match(outputs[2].title, /V = 50257, d = 256/);
  assert.match(outputs[4].title, /2 × 150 tokens/);
  // The batch's product (300 · 4096 · 32 multiply-adds) went to a compute worker.
  assert.ok((await page.evaluate(() => window.workers)) >= 1, 'a worker started');
  assert.deepEqual(pageErrors, []);
  // Only outside requests were refused (nbconvert's template asks a CDN for require.js and
  // MathJax); the outputs asked for nothing.
  for (const url of browser.refused) assert.doesNotMatch(url, /127\.0\.0\.1/);
  const demo = page.locator('embedding-demo').first();
  await demo.scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'notebook-export-1280.png');
});

test('where no worker may start, the outputs are computed on the page', async () => {
  const { context, pageErrors } = browser;
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.addInitScript(countWorkers, true);
  await page.goto(`${server.url}export.html`);
  await assertOutputs(page);
  assert.ok((await page.evaluate(() => window.workers)) >= 1, 'a worker was asked for, refused');
  assert.deepEqual(pageErrors, []);
  await page.close();
});
test('a page holding every output defines the element once, in its own script', async () => {
  const { page } = browser;
  const defined = await page.evaluate(() => customElements.get('embedding-demo')?.name);
  assert.equal(defined, 'EmbeddingDemoElement');
  const html = await page.content();
  assert.doesNotMatch(html, /<embedding-demo[^>]* id=/, 'no element ids');
  assert.ok(path.isAbsolute(notebookWork));
});
