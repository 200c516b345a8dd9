// A model's .safetensors file as W: chosen on the page, its 2-D tensors listed with the embedding
// table preselected, the table read in the compute worker and converted exactly (values from
// PyTorch's own bfloat16 and float16 conversion, run for the same bit patterns), the verdict,
// the printout that loads it and runs; a file whose names point to no table, or to several, asks; corrupt files are said under the
// file field; <embedding-demo src> streams one (bits compared with PyTorch's). Checkpoints' own
// tables, up to 4.2 GB, are real-models.test.mjs's.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { demoText, openHost } from './demo.mjs';
import {
  errorText,
  openSite,
  pageOverflow,
  sitePerSuite,
  tableCells,
  waitForLookupRows,
  waitForVerdict,
} from './harness.mjs';
import { assertCellsClose, runTorch } from './torch-reference.mjs';
import { pythonPath } from '../tools.mjs';

const TESTS_DIR = fileURLToPath(new URL('..', import.meta.url));

// Writes the files (tests/safetensors_file.py: json + struct + NumPy, F16 and BF16 as bit
// patterns made by PyTorch's own rounding) and prints PyTorch's float32 for each table: its
// values and its bits.
const TORCH_FILES = `
import json, sys
import numpy as np, torch
a = json.load(sys.stdin)
sys.path.insert(0, a['tests'])
from safetensors_file import safetensors_bytes, with_header
g = torch.Generator().manual_seed(7)
wte = (torch.randn(6, 4, generator=g) * 2).to(torch.bfloat16)
wte[4, 0] = 1e-39  # a bfloat16 subnormal
wpe = torch.randn(5, 4, generator=g).to(torch.float16)
head = torch.randn(3, 4, generator=g)
bits = lambda t: t.view(torch.int16).numpy().view(np.uint16)
def write(name, data):
    open(a['dir'] + '/' + name, 'wb').write(data)
write('model.safetensors', safetensors_bytes([
    ('transformer.h.0.ln_1.bias', 'F32', np.ones(4, np.float32)),
    ('transformer.wte.weight', 'BF16', bits(wte)),
    ('transformer.wpe.weight', 'F16', bits(wpe)),
    ('lm_head.extra', 'F32', head.numpy()),
    ('step', 'I64', np.array(3, np.int64))], {'format': 'pt'}))
write('two.safetensors', safetensors_bytes([
    ('model.embed_tokens.weight', 'BF16', bits(wte)), ('shared.weight', 'F32', head.numpy())]))
write('int8.safetensors', safetensors_bytes([('wte.weight', 'I8', np.ones((2, 2), np.int8))]))
write('f64.safetensors', safetensors_bytes([('wte.weight', 'F64', np.array([[1.0, 1e300]]))]))
write('json.safetensors', with_header(b'{"wte.weight": {"dtype": "F32",, }}', bytes(4)))
write('cut.safetensors', safetensors_bytes([('wte.weight', 'F32', np.ones((3, 4), np.float32))])[:-28])
write('short.safetensors', b'\\x10\\0\\0\\0\\0')
f32 = lambda t: {'rows': t.float().tolist(), 'bits': t.float().view(torch.int32).numpy().view(np.uint32).tolist()}
print(json.dumps({'wte': f32(wte), 'wpe': f32(wpe), 'head': f32(head)}))
`;

// Hugging Face's safetensors package is not installed here: this stand-in of its load_file
// (json + struct + torch.frombuffer) lets the printout's script run as it would with it.
const LOAD_FILE_STAND_IN = `
import json, struct, torch
DTYPES = {'F32': torch.float32, 'F64': torch.float64, 'F16': torch.float16, 'BF16': torch.bfloat16,
          'I64': torch.int64}
def load_file(path):
    data = open(path, 'rb').read()
    n, = struct.unpack('<Q', data[:8])
    tensors = {}
    for name, e in json.loads(data[8:8 + n]).items():
        if name != '__metadata__':
            begin, end = e['data_offsets']
            raw = bytearray(data[8 + n + begin:8 + n + end])
            tensors[name] = torch.frombuffer(raw, dtype=DTYPES[e['dtype']]).reshape(e['shape'])
    return tensors
`;

const dir = mkdtempSync(path.join(os.tmpdir(), 'embedlab-safetensors-'));
const fileOf = (name) => path.join(dir, name);
const torch = runTorch(TORCH_FILES, { dir, tests: TESTS_DIR });
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

const pick = (rows, ids) => ids.map((id) => rows[id]);
const optionTexts = (page) =>
  page.$$eval('#tensor option', (options) =>
    options.map((o) => ({
      text: o.textContent,
      value: o.value,
      selected: o.selected,
      disabled: o.disabled,
    })),
  );
const statusText = (page) => page.textContent('#tensor-status');

describe('a .safetensors file on the page', () => {
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

  test('its 2-D tensors are listed, the table is picked and read exactly, and the routes agree', async () => {
    const { page } = env;
    const ids = [5, 0, 3, 4];
    await page.fill('#ids', ids.join(', '));
    await choose('model.safetensors', '6 × 4');
    assert.deepEqual(await optionTexts(page), [
      {
        text: 'transformer.wte.weight: BF16, 6 × 4',
        value: 'transformer.wte.weight',
        selected: true,
        disabled: false,
      },
      {
        text: 'transformer.wpe.weight: F16, 5 × 4',
        value: 'transformer.wpe.weight',
        selected: false,
        disabled: false,
      },
      {
        text: 'lm_head.extra: F32, 3 × 4',
        value: 'lm_head.extra',
        selected: false,
        disabled: false,
      },
    ]);
    assert.equal(
      await statusText(page),
      'transformer.wte.weight (6 × 4): BF16 (bfloat16), converted to float32 exactly',
    );
    assert.ok(await page.isChecked('#source-file'));
    assert.deepEqual([await page.inputValue('#vocab'), await page.inputValue('#dim')], ['6', '4']);
    await waitForLookupRows(page, ids);
    await waitForVerdict(page, 'bit-identical');
    assertCellsClose(await tableCells(page, '#matrices [data-box="weight"]'), torch.wte.rows, 'W');
    assertCellsClose(
      await tableCells(page, '#results [data-box="lookup"]'),
      pick(torch.wte.rows, ids),
      'lookup',
    );
    assertCellsClose(
      await tableCells(page, '#results [data-box="product"]'),
      pick(torch.wte.rows, ids),
      'product',
    );
    assert.equal(await errorText(page, 'weights-error'), '');
    // On a phone the list keeps to the form's width.
    await page.setViewportSize({ width: 375, height: 800 });
    assert.equal(await pageOverflow(page), 0);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test('another tensor picked from the list: F16, its own shape', async () => {
    const { page } = env;
    await page.fill('#ids', '4, 1');
    await page.selectOption('#tensor', 'transformer.wpe.weight');
    await page.waitForFunction(
      () => document.getElementById('file-name').textContent === 'model.safetensors: 5 × 4',
    );
    assert.equal(
      await statusText(page),
      'transformer.wpe.weight (5 × 4): F16 (float16), converted to float32 exactly',
    );
    await waitForLookupRows(page, [4, 1]);
    await waitForVerdict(page, 'bit-identical');
    assertCellsClose(
      await tableCells(page, '#results [data-box="lookup"]'),
      pick(torch.wpe.rows, [4, 1]),
      'lookup',
    );
  });

  test('the printout loads the tensor with load_file, and runs to the text the page shows', async () => {
    const { page } = env;
    await page.fill('#ids', '4, 1');
    await page.selectOption('#tensor', 'transformer.wte.weight');
    await page.waitForFunction(
      () => document.getElementById('file-name').textContent === 'model.safetensors: 6 × 4',
    );
    await waitForLookupRows(page, [4, 1]);
    await page.click('#printout-section details summary');
    await page.waitForFunction(() =>
      document
        .querySelector('#printout-section .printout .printout-in')
        ?.textContent.includes('load_file'),
    );
    // What the Copy button copies: the steps' code, a line each (printout.mjs).
    const code = await page.$$eval('#printout-section .printout .printout-in', (pres) =>
      pres.map((pre) => pre.textContent),
    );
    const printed = await page.$$eval('#printout-section .printout .printout-out', (pres) =>
      pres.map((pre) => pre.textContent),
    );
    const script = `${code.join('\n')}\n`;
    assert.match(script, /\nfrom safetensors\.torch import load_file\n/);
    assert.match(
      script,
      /embedding\.weight\.copy_\(load_file\('model\.safetensors'\)\['transformer\.wte\.weight'\]\.float\(\)\)/,
    );
    const standIn = path.join(dir, 'python', 'safetensors');
    mkdirSync(standIn, { recursive: true });
    writeFileSync(path.join(standIn, '__init__.py'), '');
    writeFileSync(path.join(standIn, 'torch.py'), LOAD_FILE_STAND_IN);
    const output = execFileSync(pythonPath, ['-'], {
      input: script,
      cwd: dir,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, PYTHONPATH: path.join(dir, 'python') },
    });
    assert.equal(output, `${printed.join('\n')}\n`);
    await page.click('#printout-section details summary');
  });

  test('names that point to several tables: the learner is asked, and the pick is read', async () => {
    const { page } = env;
    await page.fill('#ids', '1, 2');
    await choose('two.safetensors');
    await page.waitForFunction(() => !document.getElementById('weights-error').hidden);
    assert.equal(
      await errorText(page, 'weights-error'),
      'two.safetensors: 2 tensors look like the ' +
        "embedding table: 'model.embed_tokens.weight' (BF16 [6, 4]), 'shared.weight' (F32 [3, 4]); name the one to load",
    );
    assert.deepEqual(
      (await optionTexts(page)).map((o) => [o.value, o.selected, o.disabled]),
      [
        ['', true, true],
        ['model.embed_tokens.weight', false, false],
        ['shared.weight', false, false],
      ],
    );
    await waitForVerdict(page, 'no result');
    await page.selectOption('#tensor', 'shared.weight');
    await page.waitForFunction(
      () => document.getElementById('file-name').textContent === 'two.safetensors: 3 × 4',
    );
    await waitForVerdict(page, 'bit-identical');
    assert.equal(await errorText(page, 'weights-error'), '');
    assertCellsClose(
      await tableCells(page, '#results [data-box="lookup"]'),
      pick(torch.head.rows, [1, 2]),
      'lookup',
    );
  });

  test('corrupt files: each says what is wrong under the file field', async () => {
    const { page } = env;
    const cases = [
      [
        'short.safetensors',
        'short.safetensors: not a .safetensors file: it is 5 bytes long, and a ' +
          ".safetensors file starts with 8 bytes that give its header's length",
      ],
      [
        'json.safetensors',
        /^json\.safetensors: invalid JSON in the \.safetensors header \(at byte offset 39 in the file\): .*unexpected ','/,
      ],
      [
        'cut.safetensors',
        /^cut\.safetensors: corrupt or truncated \.safetensors file: the data_offsets \[0, 48\] of tensor 'wte\.weight' run past the end of the data section, which holds 20 bytes/,
      ],
      [
        'int8.safetensors',
        "int8.safetensors: tensor 'wte.weight' is I8 (int8), which cannot be read as a " +
          'table: the supported dtypes are F32, F64, F16 and BF16',
      ],
      // Found only when its rows are converted, in the worker, as the product reads them.
      [
        'f64.safetensors',
        "f64.safetensors: tensor 'wte.weight': value 1e+300 at row 0, column 1 does not " +
          'fit in float32 (the largest float32 is about 3.4e38)',
      ],
    ];
    await page.fill('#ids', '0'); // an id every table here has, so that f64's rows are read
    for (const [name, message] of cases) {
      await choose(name);
      await page.waitForFunction(
        (prefix) => document.getElementById('weights-error').textContent.startsWith(prefix),
        `${name}: `,
      );
      const shown = await errorText(page, 'weights-error');
      if (typeof message === 'string') assert.equal(shown, message);
      else assert.match(shown, message);
      assert.equal(await page.getAttribute('#weights-file', 'aria-invalid'), 'true');
      await waitForVerdict(page, 'no result');
    }
    await choose('model.safetensors', '6 × 4');
    await waitForVerdict(page, 'bit-identical');
    assert.equal(await errorText(page, 'weights-error'), '');
  });
});

describe('<embedding-demo src="….safetensors">', () => {
  const env = sitePerSuite(() => openSite({ weights: true }));
  afterEach(() => env.assertClean());

  const weightBits = (page, id) =>
    page.evaluate((demo) => {
      const { weight } = document.getElementById(demo).result;
      return [
        weight.rows,
        weight.cols,
        Array.from(new Uint32Array(Float32Array.from(weight.data).buffer)),
      ];
    }, id);

  test("the table is streamed from src, to PyTorch's bits; #name picks another tensor", async () => {
    const { page } = env;
    const body = await readFile(fileOf('model.safetensors'));
    await page.route(`${env.url}model.safetensors`, (route) =>
      route.fulfill({
        contentType: 'application/octet-stream',
        body,
      }),
    );
    await openHost(
      env,
      'safetensors',
      `
      <embedding-demo id="wte" src="model.safetensors" ids="5, 0" view="lookup"></embedding-demo>
      <embedding-demo id="wpe" src="model.safetensors#transformer.wpe.weight" ids="1" view="lookup"></embedding-demo>`,
    );
    assert.deepEqual(await weightBits(page, 'wte'), [6, 4, torch.wte.bits.flat()]);
    assert.deepEqual(await weightBits(page, 'wpe'), [5, 4, torch.wpe.bits.flat()]);
    assert.ok(
      (await demoText(page, '#wte', '.demo-title')).endsWith(
        'V = 6, d = 4, W from model.safetensors',
      ),
    );
    assert.equal(await page.evaluate(() => document.getElementById('wte').error), null);
  });

  test('the printout loads the tensor src names, whatever the address around it', async () => {
    const { page } = env;
    const body = await readFile(fileOf('model.safetensors'));
    // An absolute address, with a scheme and a port: its colons are no part of the tensor's name.
    await page.route(`${env.url}models/model.safetensors`, (route) =>
      route.fulfill({
        contentType: 'application/octet-stream',
        body,
      }),
    );
    await openHost(
      env,
      'safetensors-printout',
      `
      <embedding-demo id="p" src="${env.url}models/model.safetensors#transformer.wpe.weight" ids="1"
                      view="printout"></embedding-demo>`,
    );
    const code = await demoText(page, '#p', '.printout-in');
    assert.match(
      code,
      /load_file\('model\.safetensors'\)\['transformer\.wpe\.weight'\]\.float\(\)/,
    );
  });
});
