// The module where the page uses it: imported in headless Chromium (playwright-core, npm ci
// first) by a page and by a module Web Worker, served over http from the site folder.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { chromium } from 'playwright-core';

import { serveDirectory } from '../e2e/static-server.mjs';
import { siteDir } from './harness.mjs';
import { chromiumPath } from '../tools.mjs';

// Runs in the browser (page or worker): the notebook's table, a lookup, an error, sharing.
async function exercise(wrapperUrl) {
  const { loadEmbedlab, EmbedlabError } = await import(wrapperUrl);
  const [lab, again] = await Promise.all([loadEmbedlab(), loadEmbedlab()]);
  const table = lab.openSeededTable(123, 4, 5);
  const rows = table.lookup(lab.parseIds('tensor([2, 3, 1])'));
  let error = null;
  try {
    table.lookup([4]);
  } catch (e) {
    error = { isEmbedlabError: e instanceof EmbedlabError, message: e.message };
  }
  const result = {
    shared: lab === again,
    table: Array.from(table.rowsAt(0, 4).data, (x) => x.toFixed(4)),
    firstRow: Array.from(rows.data.slice(0, 5), (x) => x.toFixed(4)),
    identical: table.product([2, 3, 1]).comparison.identical,
    error,
  };
  table.delete();
  return result;
}

const expected = {
  shared: true,
  table: [
    '0.3374',
    '-0.1778',
    '-0.3035',
    '-0.5880',
    '1.5810',
    '1.3010',
    '1.2753',
    '-0.2010',
    '-0.1606',
    '-0.4015',
    '0.6957',
    '-1.8061',
    '-1.1589',
    '0.3255',
    '-0.6315',
    '-2.8400',
    '-0.7849',
    '-1.4096',
    '-0.4076',
    '0.7953',
  ],
  firstRow: ['0.6957', '-1.8061', '-1.1589', '0.3255', '-0.6315'],
  identical: true,
  error: {
    isEmbedlabError: true,
    message:
      'index out of range in self: id 4 at position 1 is not below the vocabulary size ' +
      'V = 4 (valid ids are 0..3)',
  },
};

let server;
let context;
let profile;
let page;
const problems = [];

before(async () => {
  assert.ok(
    existsSync(path.join(siteDir, 'embedlab', 'embedlab.mjs')),
    `no module in ${siteDir}: build the wasm preset first`,
  );
  server = await serveDirectory(siteDir);
  profile = mkdtempSync(path.join(os.tmpdir(), 'embedlab-wasm-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (m) => ['error', 'warning'].includes(m.type()) && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  // Any same-origin document will do as the importing page; it has no favicon to ask for.
  await page.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
  await page.goto(new URL('embedlab/embedlab.d.ts', server.url).href);
});

after(async () => {
  await context?.close();
  await server?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

test('a page imports the module and gets the notebook numbers and errors', async () => {
  const wrapperUrl = new URL('embedlab/embedlab.mjs', server.url).href;
  assert.deepEqual(await page.evaluate(exercise, wrapperUrl), expected);
  assert.deepEqual(problems, []);
});

test('a module Web Worker imports the module too', async () => {
  const wrapperUrl = new URL('embedlab/embedlab.mjs', server.url).href;
  const result = await page.evaluate(
    ([source, url]) =>
      new Promise((resolve, reject) => {
        const code =
          `const exercise = ${source};\n` +
          `exercise(${JSON.stringify(url)}).then((r) => postMessage(r), ` +
          '(e) => postMessage({ failed: String(e && e.stack || e) }));';
        const worker = new Worker(
          URL.createObjectURL(new Blob([code], { type: 'text/javascript' })),
          { type: 'module' },
        );
        worker.onmessage = (event) => resolve(event.data);
        worker.onerror = (event) => reject(new Error(event.message));
      }),
    [exercise.toString(), wrapperUrl],
  );
  assert.deepEqual(result, expected);
  assert.deepEqual(problems, []);
});

// Runs in a module worker: a File read lazily through a table handle, FileReaderSync on
// File.slice for each range, the product a block per step with progress.
async function readFileTable(wrapperUrl, file) {
  const { loadEmbedlab } = await import(wrapperUrl);
  const lab = await loadEmbedlab();
  let reads = 0;
  let bytes = 0;
  const reader = new FileReaderSync();
  const source = {
    size: file.size,
    read(offset, length) {
      reads += 1;
      bytes += length;
      return new Uint8Array(reader.readAsArrayBuffer(file.slice(offset, offset + length)));
    },
  };
  const table = lab.openSafetensorsTable(source);
  const rows = table.lookup([1, 19999]);
  const afterLookup = { reads, bytes };
  const run = table.startProduct([1, 19999], { blockRows: 4096 });
  const steps = [];
  while (!run.done) steps.push(run.step().rowsDone);
  const { comparison } = run.result();
  run.delete();
  table.delete();
  return {
    inMemory: table.inMemory,
    first: [rows.data[0], rows.data[256]],
    afterLookup,
    steps,
    identical: comparison.identical,
    bytes,
  };
}

test('a module Web Worker reads a File lazily through a table handle', async () => {
  const wrapperUrl = new URL('embedlab/embedlab.mjs', server.url).href;
  const result = await page.evaluate(
    ([source, url]) =>
      new Promise((resolve, reject) => {
        // 20000 x 256 float32 (20 MB, over what a table holds in memory): row i is all i.
        const [rows, cols] = [20000, 256];
        let json = JSON.stringify({
          'wte.weight': { dtype: 'F32', shape: [rows, cols], data_offsets: [0, rows * cols * 4] },
        });
        json += ' '.repeat((8 - (json.length % 8)) % 8);
        const head = new Uint8Array(8 + json.length);
        new DataView(head.buffer).setBigUint64(0, BigInt(json.length), true);
        head.set(new TextEncoder().encode(json), 8);
        const values = new Float32Array(rows * cols).map((_, k) => Math.floor(k / cols));
        const file = new File([head, values], 'model.safetensors');
        const code =
          `const readFileTable = ${source};\n` +
          'onmessage = (event) => readFileTable(event.data.url, event.data.file)' +
          '.then((r) => postMessage(r), (e) => postMessage({ failed: String(e && e.stack || e) }));';
        const worker = new Worker(
          URL.createObjectURL(new Blob([code], { type: 'text/javascript' })),
          { type: 'module' },
        );
        worker.onmessage = (event) => resolve(event.data);
        worker.onerror = (event) => reject(new Error(event.message));
        worker.postMessage({ url, file });
      }),
    [readFileTable.toString(), wrapperUrl],
  );
  assert.deepEqual(result, {
    inMemory: false,
    first: [1, 19999],
    // The header (its length, then itself) and the two rows, nothing else.
    afterLookup: { reads: 4, bytes: result.afterLookup.bytes },
    steps: [4096, 8192, 12288, 16384, 20000],
    identical: true,
    bytes: result.afterLookup.bytes + 2 * 1024 + 20000 * 1024,
  });
  assert.ok(
    result.afterLookup.bytes < 8 + 200 + 2 * 1024,
    `the lookup read ${result.afterLookup.bytes} bytes`,
  );
  assert.deepEqual(problems, []);
});
