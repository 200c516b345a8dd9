// The module's two files: with { early: true } the first one alone runs the first screen's work
// (a seeded table, both routes, their verdict), a function of the deferred file says it is not
// loaded yet, and everything works once it is. The deferred file is served over HTTP and held
// back until the test lets it go, so every step waits for an event, never for a duration.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { notebook, printedAfter } from '../notebooks.mjs';
import { siteDir } from './harness.mjs';

const folder = path.join(siteDir, 'embedlab');
const { loadEmbedlab, EmbedlabError } = await import(
  pathToFileURL(path.join(folder, 'embedlab.mjs')).href
);

let release;
const released = new Promise((resolve) => {
  release = resolve;
});
let deferredAsked;
const asking = new Promise((resolve) => {
  deferredAsked = resolve;
});
const asked = [];
const server = createServer(async (request, response) => {
  const name = path.basename(request.url);
  asked.push(name);
  if (name === 'embedlab-core.deferred.wasm') {
    deferredAsked();
    await released;
  }
  response.writeHead(200, { 'content-type': 'application/wasm' });
  response.end(readFileSync(path.join(folder, name)));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
server.unref();
const base = `http://127.0.0.1:${server.address().port}/`;

// A .safetensors file's first 8 bytes: its header is N = 16 bytes long, so 8 + 16 bytes hold it.
const headerOf16 = new Uint8Array([16, 0, 0, 0, 0, 0, 0, 0]);

test('the first file runs the first screen; the deferred one is fetched beside it', async () => {
  const lab = await loadEmbedlab({ wasmURL: `${base}embedlab-core.wasm`, early: true });
  let whole = false;
  const waitingForWhole = loadEmbedlab().then(() => {
    whole = true;
  });

  // Notebook 002: torch.manual_seed(123); nn.Embedding(4, 5); idx = [2, 3, 1].
  const table = lab.openSeededTable(123, 4, 5);
  const { lookup, comparison } = table.product([2, 3, 1]);
  table.delete();
  assert.equal(
    lab.formatTensor(lookup, { suffixes: ['grad_fn=<EmbeddingBackward0>'] }),
    printedAfter(notebook('002'), 'In [8]:'),
  );
  assert.equal(comparison.grade.headline, 'bit-identical');

  assert.throws(
    () => lab.safetensorsHeaderSize(headerOf16, 100),
    (error) =>
      error instanceof EmbedlabError &&
      /embedlab-core\.deferred\.wasm, which has not loaded yet: await lab\.complete/.test(
        error.message,
      ),
  );
  await asking; // fetched without being asked for
  assert.deepEqual(asked, ['embedlab-core.wasm', 'embedlab-core.deferred.wasm']);
  assert.equal(whole, false, 'loadEmbedlab() without early waits for the deferred file');

  release();
  await lab.complete;
  await waitingForWhole;
  assert.equal(lab.safetensorsHeaderSize(headerOf16, 100), 24);
});
