// The fixture notebook in a classic Notebook server on 127.0.0.1 (Debian's jupyter-notebook 6.4),
// driven in Chromium with every request off the server refused: all cells run as a learner runs
// them, one cell run again, then an untrusted copy (executed elsewhere, never signed by this
// server) whose scripts Jupyter strips: its outputs show the static table and the verdict.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { entriesOf } from '../notebooks.mjs';
import { assertShowsPrinted, openBrowser, readOutputs, waitForOutputs } from './browser.mjs';
import { notebookVenv, notebookWork, saveScreenshot } from './paths.mjs';

const SHOW_BIG_CELL = 7; // embedlab.show(big, idx): run again
const BIG_OUTPUT = 2; // the (50257, 256) table's output, among the five

// A port free on 127.0.0.1 now.
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

// Starts the server on root; resolves to { origin, stop } once it says it listens.
async function startNotebookServer(root) {
  const port = await freePort();
  const data = mkdtempSync(path.join(os.tmpdir(), 'embedlab-jupyter-'));
  const server = spawn(
    path.join(notebookVenv, 'bin', 'python'),
    [
      '-m',
      'notebook',
      '--no-browser',
      '--ip=127.0.0.1',
      `--port=${port}`,
      '--port-retries=0',
      '--NotebookApp.token=',
      '--NotebookApp.password=',
      '--allow-root',
      `--notebook-dir=${root}`,
    ],
    // A data folder of its own: no kernelspec of the user's hides the venv's.
    { env: { ...process.env, JUPYTER_DATA_DIR: data, JUPYTER_RUNTIME_DIR: data } },
  );
  const origin = `http://127.0.0.1:${port}`;
  let log = '';
  await new Promise((resolve, reject) => {
    const listen = (chunk) => {
      log += chunk;
      if (log.includes(`${origin}/`)) resolve();
    };
    server.stdout.on('data', listen);
    server.stderr.on('data', listen);
    server.on('exit', (code) => reject(new Error(`the Notebook server ended (${code}):\n${log}`)));
  });
  return {
    origin,
    stop: async () => {
      const ended = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await ended;
      rmSync(data, { recursive: true, force: true });
    },
  };
}

let server;
let browser;
const live = path.join(notebookWork, 'live');
before(async () => {
  rmSync(live, { recursive: true, force: true });
  mkdirSync(live, { recursive: true });
  copyFileSync(process.env.EMBEDLAB_NOTEBOOK_FIXTURE, path.join(live, 'live.ipynb'));
  copyFileSync(path.join(notebookWork, 'executed.ipynb'), path.join(live, 'untrusted.ipynb'));
  server = await startNotebookServer(live);
  browser = await openBrowser(server.origin);
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

const NAMES = [
  'nn.Embedding',
  'nn.Linear',
  'nn.Embedding(50257, 256)',
  'the numpy table',
  'a batch of 2 × 150 ids',
];

function assertOutputs(outputs) {
  assert.equal(outputs.length, NAMES.length);
  outputs.forEach((output, k) => {
    assert.equal(output.error, null, `${NAMES[k]}: no error`);
    assert.equal(output.verdict, 'bit-identical', NAMES[k]);
    assertShowsPrinted(output, NAMES[k]);
  });
}

// Records, for every <embedding-demo> put in the page, when it was put there (its cell's output
// arriving) and when it first showed a verdict: window.appeared, in the page's order.
function recordAppearance() {
  window.appeared = [];
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        const demos = node.nodeType === 1 ? [...node.querySelectorAll('embedding-demo')] : [];
        for (const demo of demos) {
          const entry = { added: performance.now(), verdict: null };
          window.appeared.push(entry);
          demo.addEventListener('render', ({ detail }) => {
            if (detail.result?.comparison && entry.verdict === null)
              entry.verdict = performance.now();
          });
        }
      }
    }
  }).observe(document.body, { childList: true, subtree: true });
}

test('all cells run in the classic Notebook: each output shows what PyTorch printed', async () => {
  const { page, pageErrors } = browser;
  await page.goto(`${server.origin}/notebooks/live.ipynb`);
  await page.waitForFunction(() => window.Jupyter?.notebook?.kernel?.is_connected?.(), null, {
    timeout: 60_000,
  });
  await page.evaluate(recordAppearance);
  await page.evaluate(() => window.Jupyter.notebook.execute_all_cells());
  await waitForOutputs(page, NAMES.length, 120_000);
  assertOutputs(await readOutputs(page));
  const appeared = await page.evaluate(() => window.appeared);
  const big = appeared[BIG_OUTPUT];
  console.log(
    `the (50257, 256) output: its verdict ${Math.round(big.verdict - big.added)} ms after the ` +
      'output arrived',
  );
  assert.deepEqual(pageErrors, []);
  // The large table's cell and output, scrolled into view.
  await page
    .locator('embedding-demo')
    .nth(BIG_OUTPUT)
    .evaluate((demo) => {
      demo.closest('.cell').scrollIntoView();
    });
  await saveScreenshot(page, 'notebook-classic-1280.png');
});

test('a cell run again shows its output anew, the element defined once', async () => {
  const { page, pageErrors } = browser;
  await page.evaluate((k) => {
    document.querySelectorAll('embedding-demo')[k].dataset.before = 'yes';
    window.appeared = [];
  }, BIG_OUTPUT);
  await page.evaluate((cell) => window.Jupyter.notebook.execute_cells([cell]), SHOW_BIG_CELL);
  await page.waitForFunction(() => !document.querySelector('embedding-demo[data-before]'));
  await waitForOutputs(page, NAMES.length);
  assertOutputs(await readOutputs(page));
  const [again] = await page.evaluate(() => window.appeared);
  console.log(
    'the (50257, 256) output run again alone: its verdict ' +
      `${Math.round(again.verdict - again.added)} ms after the output arrived`,
  );
  assert.equal(
    await page.evaluate(() => customElements.get('embedding-demo').name),
    'EmbeddingDemoElement',
  );
  assert.deepEqual(pageErrors, []);
});

test('an untrusted notebook shows the static table and the verdict, no script run', async () => {
  const { page, pageErrors } = browser;
  await page.goto(`${server.origin}/notebooks/untrusted.ipynb`);
  await page.waitForFunction(() => window.Jupyter?.notebook?._fully_loaded, null, {
    timeout: 60_000,
  });
  const seen = await page.evaluate(() => ({
    trusted: window.Jupyter.notebook.trusted,
    defined: customElements.get('embedding-demo') !== undefined,
    printed: [...document.querySelectorAll('pre')]
      .map((pre) => pre.textContent)
      .filter((text) => text.trimStart().startsWith('tensor([[')),
    tables: [...document.querySelectorAll('.output_html table')].map((table) => ({
      visible: table.getBoundingClientRect().height > 0,
      rows: [...table.querySelectorAll('tbody tr')].map((tr) =>
        [...tr.children].slice(1).map((cell) => cell.textContent),
      ),
      verdict: table.nextElementSibling?.textContent ?? '',
    })),
  }));
  assert.equal(seen.trusted, false);
  assert.equal(seen.defined, false, 'no script of an untrusted output ran');
  assert.equal(seen.tables.length, NAMES.length);
  // The printed tensors in order: embedding(idx), linear(onehot), big(idx), the numpy rows; the
  // first two outputs follow the second print, the others their own.
  const printedFor = [1, 1, 2, 3, 4].map((k) => entriesOf(seen.printed[k]));
  seen.tables.forEach((table, k) => {
    assert.ok(table.visible, `${NAMES[k]}: the static table is visible`);
    assert.match(table.verdict, /bit-identical/, NAMES[k]);
    // Both cut a long tensor to its first and last 3 rows (the table with a '⋮' row).
    const rows = table.rows.filter((row) => row.length > 0);
    assert.equal(rows.length, printedFor[k].length, `${NAMES[k]}: rows shown against printed`);
    rows.forEach((row, i) => {
      const printed = printedFor[k][i];
      assert.deepEqual(
        row.slice(0, 3),
        printed.slice(0, 3),
        `${NAMES[k]}: row ${i}'s first entries`,
      );
      assert.deepEqual(row.slice(-3), printed.slice(-3), `${NAMES[k]}: row ${i}'s last entries`);
    });
  });
  assert.deepEqual(pageErrors, []);
  await saveScreenshot(page, 'notebook-untrusted-1280.png');
});
