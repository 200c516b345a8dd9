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
  const W = lab.seededTable(123, 4, 5);
  const rows = lab.lookup(W, lab.parseIds('tensor([2, 3, 1])'));
  let error = null;
  try {
    lab.lookup(W, [4]);
  } catch (e) {
    error = { isEmbedlabError: e instanceof EmbedlabError, message: e.message };
  }
  return {
    shared: lab === again,
    table: Array.from(W.data, (x) => x.toFixed(4)),
    firstRow: Array.from(rows.data.slice(0, 5), (x) => x.toFixed(4)),
    identical: lab.compare(rows, lab.onehotProduct(lab.oneHot([2, 3, 1], 4), W)).identical,
    error,
  };
}

const expected = {
  shared: true,
  table: ['0.3374', '-0.1778', '-0.3035', '-0.5880', '1.5810',
          '1.3010', '1.2753', '-0.2010', '-0.1606', '-0.4015',
          '0.6957', '-1.8061', '-1.1589', '0.3255', '-0.6315',
          '-2.8400', '-0.7849', '-1.4096', '-0.4076', '0.7953'],
  firstRow: ['0.6957', '-1.8061', '-1.1589', '0.3255', '-0.6315'],
  identical: true,
  error: {
    isEmbedlabError: true,
    message: 'index out of range in self: id 4 at position 1 is not below the vocabulary size ' +
             'V = 4 (valid ids are 0..3)',
  },
};

let server;
let context;
let profile;
let page;
const problems = [];

before(async () => {
  assert.ok(existsSync(path.join(siteDir, 'embedlab', 'embedlab.mjs')),
            `no module in ${siteDir}: build the wasm preset first`);
  server = await serveDirectory(siteDir);
  profile = mkdtempSync(path.join(os.tmpdir(), 'embedlab-wasm-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = context.pages()[0] ?? await context.newPage();
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
  const result = await page.evaluate(([source, url]) => new Promise((resolve, reject) => {
    const code = `const exercise = ${source};\n` +
                 `exercise(${JSON.stringify(url)}).then((r) => postMessage(r), ` +
                 '(e) => postMessage({ failed: String(e && e.stack || e) }));';
    const worker = new Worker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })),
                              { type: 'module' });
    worker.onmessage = (event) => resolve(event.data);
    worker.onerror = (event) => reject(new Error(event.message));
  }), [exercise.toString(), wrapperUrl]);
  assert.deepEqual(result, expected);
  assert.deepEqual(problems, []);
});
