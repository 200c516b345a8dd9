// The printout is a script that runs: the Copy button gives Python code that, run in the
// installed PyTorch (tests/tools.mjs's pythonPath), prints exactly the text the page shows under
// its steps, for a seeded table, another seed and shape, a table big enough for PyTorch to summarise, the
// TensorFlow notebook's table and a .npy file. Its last line is the page's claim,
// torch.equal(embedding(idx), linear(onehot.float())): True, and False for a W holding NaN or Inf.
// Each token's printed rows stand for it, the selected token's marked.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { openSite, waitForLookupRows } from './harness.mjs';
import { npyFloat32 } from './npy-bytes.mjs';
import { pythonPath } from '../tools.mjs';

describe('the printout runs in PyTorch', () => {
  let env;
  let dir;
  before(async () => {
    env = await openSite({ weights: true });
    // What the Copy button hands the clipboard, kept in the page: the system clipboard of a
    // headless browser is not the page's to read.
    await env.page.evaluate(() => {
      Object.defineProperty(navigator.clipboard, 'writeText', {
        value: async (text) => {
          window.copiedText = text;
        },
      });
    });
    dir = mkdtempSync(path.join(os.tmpdir(), 'embedlab-printout-'));
  });
  after(async () => {
    await env?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => env.assertClean());

  // The copied script, and the texts the page shows as printed, once it shows ids and their
  // product (a file's table streams it after the lookup's rows).
  async function copied(ids) {
    const { page } = env;
    await waitForLookupRows(page, ids);
    if (!(await page.locator('#printout-section details').evaluate((node) => node.open)))
      await page.click('#printout-section details summary');
    // torch.equal's step comes with the product, the last thing the printout shows.
    await page.waitForFunction((expected) => {
      const script = document.querySelector('#printout-section .printout')?.textContent ?? '';
      return (
        script.includes(`idx = torch.tensor([${expected}])`) &&
        script.includes('print(torch.equal(')
      );
    }, ids.join(', '));
    await page.evaluate(() => {
      window.copiedText = null;
    });
    await page.click('#printout-section .printout .copy-script');
    // The script handed to the clipboard is the event; the button's 'Copied' lasts only a while.
    await page.waitForFunction(() => window.copiedText !== null);
    const script = await page.evaluate(() => window.copiedText);
    const printed = await page.$$eval('#printout-section .printout .printout-out', (outs) =>
      outs.map((out) => out.textContent),
    );
    return { script, printed };
  }

  // Runs the script in PyTorch, in dir (where a .npy file it loads lies); returns its stdout.
  const runPython = (script) =>
    execFileSync(pythonPath, ['-'], {
      input: script,
      cwd: dir,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'inherit'],
    });

  // equal: what torch.equal(embedding(idx), linear(onehot.float())) prints.
  async function check(ids, equal = 'True') {
    const { script, printed } = await copied(ids);
    assert.match(script, /^import torch\n/);
    assert.match(
      script,
      /linear = nn\.Linear\(\d+, \d+, bias=False\)\nlinear\.weight = nn\.Parameter\(embedding\.weight\.T\)/,
    );
    assert.match(
      script,
      /\nprint\(torch\.equal\(embedding\(idx\), linear\(onehot\.float\(\)\)\)\)\n$/,
    );
    assert.equal(printed.length, 6);
    assert.equal(printed.at(-1), equal);
    assert.equal(runPython(script), `${printed.join('\n')}\n`);
    return script;
  }

  test('the notebook: seed 123, idx = [2, 3, 1], d = 5', async () => {
    const script = await check([2, 3, 1]);
    assert.match(
      script,
      /torch\.manual_seed\(123\)\nembedding = nn\.Embedding\(4, 5\)\nidx = torch\.tensor\(\[2, 3, 1\]\)/,
    );
  });

  test("each token's printed rows stand for it; the selected token's are marked", async () => {
    const { page } = env;
    const { script } = await copied([2, 3, 1]);
    // Every row PyTorch printed ("[...]", a wrapped row whole), in order: W's 4, embedding(idx)'s
    // 3, the one-hot's 3, linear.weight's 5 (rows of d, which stand for no token), the product's 3.
    const pythonRows = [...runPython(script).matchAll(/\[[^[\]]*\]/g)].map(([row]) => row);
    assert.equal(pythonRows.length, 4 + 3 + 3 + 5 + 3);
    pythonRows.splice(10, 5);
    const rows = await page.$$eval('#printout-section .printout-row', (all) =>
      all.map((row) => [row.dataset.token ?? `id ${row.dataset.vocab}`, row.textContent]),
    );
    assert.deepEqual(
      rows.map(([stands]) => stands),
      ['id 0', 'id 1', 'id 2', 'id 3', '0', '1', '2', '0', '1', '2', '0', '1', '2'],
    );
    assert.deepEqual(
      rows.map(([, text]) => text),
      pythonRows,
    );
    // The selected token (0, id 2): its rows of embedding(idx), the one-hot and the product, and
    // W's row 2; a token picked elsewhere moves the marks.
    const marked = () =>
      page.$$eval('#printout-section .printout-row.current', (all) =>
        all.map((row) => row.dataset.token ?? `id ${row.dataset.vocab}`),
      );
    assert.deepEqual(await marked(), ['id 2', '0', '0', '0']);
    await page.click('#results [data-box="lookup"] tbody tr[data-index="1"] td');
    assert.deepEqual(await marked(), ['id 3', '1', '1', '1']);
    // Pointing at a printed row marks its token in the other views.
    await page.hover('#printout-section figure:nth-child(6) .printout-row[data-token="2"]');
    assert.deepEqual(
      await page.$$eval('#results [data-box="lookup"] tr.linked', (all) =>
        all.map((row) => row.dataset.index),
      ),
      ['2'],
    );
    await page.click('#results [data-box="lookup"] tbody tr[data-index="0"] td');
  });

  test('another seed and shape: seed 7, V = 6, d = 3, a repeated id', async () => {
    const { page } = env;
    await page.fill('#seed', '7');
    await page.fill('#vocab', '6');
    await page.fill('#dim', '3');
    await page.fill('#ids', '3, 0, 3, 5');
    await check([3, 0, 3, 5]);
  });

  test('a table PyTorch prints summarised: V = 300, d = 8', async () => {
    const { page } = env;
    await page.fill('#vocab', '300');
    await page.fill('#dim', '8');
    await page.fill('#ids', '299, 0, 150');
    const script = await check([299, 0, 150]);
    assert.match(runPython(script), /\.\.\./, 'PyTorch summarised the 2,400 entries of W');
    // W's rows past PyTorch's "...," stand for the last rows of W: the selected token's id, 299.
    assert.deepEqual(
      await page.$$eval('#printout-section figure:nth-child(2) .printout-row', (rows) =>
        rows.map((row) => row.dataset.vocab),
      ),
      ['0', '1', '2', '297', '298', '299'],
    );
    assert.equal(
      await page.getAttribute(
        '#printout-section figure:nth-child(2) .printout-row.current',
        'data-vocab',
      ),
      '299',
    );
  });

  test("the TensorFlow notebook's table", async () => {
    const { page } = env;
    await page.check('#source-tf');
    await page.fill('#ids', '2, 3, 1');
    await page.fill('#vocab', '');
    await page.fill('#dim', '5');
    const script = await check([2, 3, 1]);
    assert.doesNotMatch(script, /manual_seed/);
  });

  test('a W holding NaN or Inf: torch.equal prints False, as PyTorch does', async () => {
    const { page } = env;
    // Row 1 holds NaN (token 1 looks it up); then an Inf in row 3, which the product multiplies
    // by 0 for every other token: 0·Inf = NaN.
    for (const [bad, ids] of [
      [
        [2, Number.NaN],
        [3, 1],
      ],
      [
        [6, Number.POSITIVE_INFINITY],
        [0, 1],
      ],
    ]) {
      const values = [0.5, -1.25, 3, 1e-3, -0, 7.75, 2.5, -3];
      values[bad[0]] = bad[1];
      const bytes = npyFloat32(4, 2, values);
      writeFileSync(path.join(dir, 'W.npy'), bytes);
      await page.setInputFiles('#weights-file', {
        name: 'W.npy',
        mimeType: 'application/octet-stream',
        buffer: bytes,
      });
      await page.fill('#ids', ids.join(', '));
      await check(ids, 'False');
    }
    await page.check('#source-seed');
  });

  test('a .npy file, loaded as W.npy', async () => {
    const { page } = env;
    const values = [0.5, -1.25, 3, 1e-3, -0, 7.75, 2.5, -3];
    const bytes = npyFloat32(4, 2, values);
    writeFileSync(path.join(dir, 'W.npy'), bytes);
    await page.setInputFiles('#weights-file', {
      name: 'W.npy',
      mimeType: 'application/octet-stream',
      buffer: bytes,
    });
    // The file is read in the worker: ids typed before it is W would show the table before.
    await page.waitForFunction(
      () => document.getElementById('file-name').textContent === 'W.npy: 4 × 2',
    );
    await page.fill('#ids', '3, 1');
    const script = await check([3, 1]);
    assert.match(script, /np\.load\('W\.npy'\)/);
    await page.check('#source-seed');
    await page.fill('#seed', '123');
  });
});
