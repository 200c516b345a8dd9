// A GGUF file as W: chosen on the page, token_embd.weight preselected in the list of its 2-D
// tensors, the table read in the compute worker over its stored blocks (Q4_K, Q6_K, Q8_0, F16)
// and dequantized as ggml does (values from tests/gguf_dequantize.py, NumPy written from ggml's
// reference C code), the verdict with the blocks each route decoded (counted here from the
// shape), the tokens labelled from the file's own vocabulary; corrupt files are said under the
// file field. <embedding-demo src="….gguf"> reads one the same way.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { demoCells, demoText, openHost } from './demo.mjs';
import {
  errorText,
  openSite,
  sitePerSuite,
  tableCells,
  waitForLookupRows,
  waitForVerdict,
} from './harness.mjs';
import { saveScreenshot } from './screenshots.mjs';
import { assertCellsClose, runTorch } from './torch-reference.mjs';

const TESTS_DIR = fileURLToPath(new URL('..', import.meta.url));

// Writes the files (tests/gguf_file.py) and prints each table's float32 values as
// gguf_dequantize.py computes them.
const WRITE_FILES = `
import json, struct, sys
import numpy as np
a = json.load(sys.stdin)
sys.path.insert(0, a['tests'])
from gguf_file import gguf_bytes, random_blocks
from gguf_dequantize import dequantize
rng = np.random.default_rng(34)
def write(name, data):
    open(a['dir'] + '/' + name, 'wb').write(data)
values, verdicts = {}, {}
for kind, cols in (('Q4_K', 512), ('Q6_K', 256), ('Q8_0', 64), ('F16', 6)):
    raw = random_blocks(kind, 12, cols, rng)
    write(kind + '.gguf', gguf_bytes([
        ('token_embd.weight', kind, [cols, 12], raw),
        ('output_norm.weight', 'F32', [cols], np.ones(cols, '<f4').tobytes())],
        [('general.architecture', 'STRING', 'llama'),
         ('tokenizer.ggml.tokens', 'ARRAY', ('STRING', ['t%d' % i for i in range(12)]))]))
    w = dequantize(kind, raw, 12, cols)
    values[kind] = w.tolist()
    # A block with a negative scale holds -0.0 where its quant is zero: the lookup copies it, the
    # product adds it onto +0.0.
    used = w[a['ids']]
    verdicts[kind] = 'equal in value' if np.any((used == 0) & np.signbit(used)) else 'bit-identical'
good = gguf_bytes([('token_embd.weight', 'Q8_0', [32, 2], bytes(68))])
write('cut.gguf', good[:-1])
write('magic.gguf', b'GGML' + good[4:])
write('q5k.gguf', gguf_bytes([('token_embd.weight', 'Q5_K', [256, 2], bytes(352))]))
write('rows.gguf', gguf_bytes([('token_embd.weight', 'F32', [4, 2], bytes(32))])[:40])
print(json.dumps({'values': values, 'verdicts': verdicts}))
`;

const dir = mkdtempSync(path.join(os.tmpdir(), 'embedlab-gguf-'));
const fileOf = (name) => path.join(dir, name);
const IDS = [11, 0, 5];
const { values, verdicts } = runTorch(WRITE_FILES, { dir, tests: TESTS_DIR, ids: IDS });
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

// The rows the page shows: a wide one as its first and last three values around '…'.
const pick = (rows, ids, cells) =>
  ids.map((id, i) =>
    cells[i].includes('…') ? [...rows[id].slice(0, 3), ...rows[id].slice(-3)] : rows[id],
  );
const shownCells = (cells) => cells.map((row) => row.filter((cell) => cell !== '…'));

// ggml's blocks: weights per block and bytes per block (1 value per "block" for F16).
const BLOCKS = { Q4_K: [256, 144], Q6_K: [256, 210], Q8_0: [32, 34], F16: [1, 2] };

// What the cost line says for n distinct ids into a V × d table of `kind`, counted by hand: the
// lookup decodes the n rows' blocks, the product every one of the V rows'.
function blocksSentence(kind, n, vocab, dim) {
  const [values, bytes] = BLOCKS[kind];
  const perRow = dim / values;
  const what =
    values === 1
      ? `values converted (${kind})`
      : `blocks decoded (${kind}, ${values} weights in ${bytes} bytes each)`;
  return (
    `${what}: the lookup ${n * perRow} (${n} rows x ${perRow}), ` +
    `the product ${vocab * perRow} (all ${vocab} rows x ${perRow}), ${vocab / n} times as many`
  );
}

// The verdict's cost lines for n ids into a V × d table of `kind`, counted by hand: the work of
// each route (as every table's verdict says it), then the blocks each decoded.
const grouped = (x) => x.toLocaleString('en-US');
const costLines = (kind, n, vocab, dim) => [
  `The lookup copied n·d = ${grouped(n * dim)} floats; the one-hot product did n·V·d = ` +
    `${grouped(n * vocab * dim)} multiply-adds, ${grouped(n * (vocab - 1) * dim)} of them by zero.`,
  blocksSentence(kind, n, vocab, dim),
];

// The token picker's buttons in the page, or in the shadow root of the element `demo` (a
// selector): each token's text in the file's vocabulary, then its id.
const pickerTokens = (page, demo = null) =>
  page.evaluate((demo) => {
    const root = demo ? document.querySelector(demo).shadowRoot : document;
    return [...root.querySelectorAll('[data-part="tokens"] [data-token]')].map(
      (b) => b.textContent,
    );
  }, demo);

describe('a GGUF file on the page', () => {
  const env = sitePerSuite(() => openSite({ weights: true }));
  afterEach(() => env.assertClean());

  async function choose(name, shape) {
    await env.page.setInputFiles('#weights-file', fileOf(name));
    if (shape) {
      await env.page.waitForFunction(
        (text) => document.getElementById('file-name').textContent === text,
        `${name}: ${shape}`,
      );
    }
  }

  for (const [kind, cols] of [
    ['Q4_K', 512],
    ['Q6_K', 256],
    ['Q8_0', 64],
    ['F16', 6],
  ]) {
    test(`${kind}: token_embd.weight is picked, dequantized as ggml does, and the routes agree`, async () => {
      const { page } = env;
      const ids = IDS;
      await page.fill('#ids', ids.join(', '));
      await choose(`${kind}.gguf`, `12 × ${cols}`);
      const options = await page.$$eval('#tensor option', (o) => o.map((x) => x.textContent));
      assert.deepEqual(options, [`token_embd.weight: ${kind}, 12 × ${cols}`]);
      const status = await page.textContent('#tensor-status');
      assert.ok(status.startsWith(`token_embd.weight (12 × ${cols}): ${kind}`), status);
      await waitForLookupRows(page, ids);
      await waitForVerdict(page, verdicts[kind]);
      for (const box of ['lookup', 'product']) {
        const cells = await tableCells(page, `#results [data-box="${box}"]`);
        assertCellsClose(shownCells(cells), pick(values[kind], ids, cells), box);
      }
      assert.equal(await errorText(page, 'weights-error'), '');
      const cost = await page.$$eval('#results .verdict-cost', (lines) =>
        lines.map((line) => line.textContent),
      );
      assert.deepEqual(cost, costLines(kind, ids.length, 12, cols));
      assert.deepEqual(
        await pickerTokens(page),
        ids.map((id) => `t${id} ${id}`),
      );
      if (kind === 'Q4_K') {
        await saveScreenshot(page, 'gguf-1280.png');
        await page.locator('#results .verdict').first().scrollIntoViewIfNeeded();
        await saveScreenshot(page, 'gguf-verdict-1280.png');
      }
    });
  }

  test('corrupt files: each says what is wrong under the file field', async () => {
    const { page } = env;
    const cases = [
      ['cut.gguf', /^cut\.gguf: tensor 0 'token_embd\.weight' \(68 bytes\)|runs past the end/],
      ['magic.gguf', /^magic\.gguf: .*not a GGUF file: it starts with "GGML"/],
      [
        'q5k.gguf',
        /^q5k\.gguf: tensor 'token_embd\.weight' \(Q5_K, ne \[256, 2\]\): Q5_K tables are not read; the types read are F32, F16, BF16, Q8_0, Q4_0, Q4_K and Q6_K$/,
      ],
      ['rows.gguf', /^rows\.gguf: the tensor count, 1, is more than the 16 bytes left in the file/],
    ];
    await page.fill('#ids', '0');
    for (const [name, message] of cases) {
      await choose(name);
      await page.waitForFunction(
        (prefix) => document.getElementById('weights-error').textContent.startsWith(prefix),
        `${name}: `,
      );
      assert.match(await errorText(page, 'weights-error'), message);
    }
  });
});

describe('<embedding-demo src="….gguf">', () => {
  const env = sitePerSuite();
  afterEach(() => env.assertClean());

  test('reads the file as the page does: its rows, the verdict, the blocks, its tokens', async () => {
    const { page } = env;
    await page.route(`${env.url}F16.gguf`, (route) =>
      route.fulfill({
        contentType: 'application/octet-stream',
        body: readFileSync(fileOf('F16.gguf')),
      }),
    );
    await openHost(
      env,
      'gguf',
      `<embedding-demo id="file" src="F16.gguf" ids="${IDS.join(', ')}"></embedding-demo>
      <embedding-demo id="tokens" src="F16.gguf" ids="${IDS.join(', ')}" view="equation"></embedding-demo>`,
    );
    const cells = await demoCells(page, '#file', 'lookup');
    assertCellsClose(shownCells(cells), pick(values.F16, IDS, cells), 'lookup');
    assert.equal(await demoText(page, '#file', '.verdict-word'), verdicts.F16);
    assert.deepEqual(
      await page.evaluate(() =>
        [...document.querySelector('#file').shadowRoot.querySelectorAll('.verdict-cost')].map(
          (line) => line.textContent,
        ),
      ),
      costLines('F16', IDS.length, 12, 6),
    );
    assert.deepEqual(
      await pickerTokens(page, '#tokens'),
      IDS.map((id) => `t${id} ${id}`),
    );
  });
});
