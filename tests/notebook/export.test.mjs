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

test('every output of the export shows what PyTorch printed, bit-identical', async () => {
  const { page, pageErrors } = browser;
  await page.goto(`${server.url}export.html`);
  await waitForOutputs(page, 4);
  const outputs = await readOutputs(page);
  const names = ['nn.Embedding', 'nn.Linear', 'nn.Embedding(50257, 256)', 'the numpy table'];
  outputs.forEach((output, k) => {
    assert.equal(output.error, null, `${names[k]}: no error`);
    assert.equal(output.verdict, 'bit-identical', names[k]);
    assertShowsPrinted(output, names[k]);
  });
  assert.match(outputs[2].title, /V = 50257, d = 256/);
  assert.deepEqual(pageErrors, []);
  // Only outside requests were refused (nbconvert's template asks a CDN for require.js and
  // MathJax); the outputs asked for nothing.
  for (const url of browser.refused) assert.doesNotMatch(url, /127\.0\.0\.1/);
  const demo = page.locator('embedding-demo').first();
  await demo.scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'notebook-export-1280.png');
});

test('a page holding every output defines the element once, in its own script', async () => {
  const { page } = browser;
  const defined = await page.evaluate(() => customElements.get('embedding-demo')?.name);
  assert.equal(defined, 'EmbeddingDemoElement');
  const html = await page.content();
  assert.doesNotMatch(html, /<embedding-demo[^>]* id=/, 'no element ids');
  assert.ok(path.isAbsolute(notebookWork));
});
