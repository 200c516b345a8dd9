// The tied-head view: W used twice, the lookup's n rows and the output product's n·V·d
// multiply-adds; the logits of h = the input embeddings and each position's top k, against
// PyTorch's out_head(h) run for the same inputs (graded: its BLAS sums in another order); a
// GPT-2-shaped checkpoint (wte, wpe, no lm_head) chosen as W is said to tie, one with an
// lm_head.weight not to; an untrained table says its top tokens are noise. Screenshots at 1280 and
// 375 px.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, test } from 'node:test';
import { openSite, pageOverflow, sitePerSuite } from './harness.mjs';
import { saveScreenshot } from './screenshots.mjs';
import { assertCellsClose, runTorch } from './torch-reference.mjs';
import { formView } from './view-form.mjs';
import { TRAIN_TEXT_BATCH } from '../../web/model/train-inputs.mjs';
import { decode } from 'gpt-tokenizer/encoding/r50k_base';

const TESTS_DIR = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(path.join(os.tmpdir(), 'embedlab-head-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

// The view's default batch and tables (the Train view's text in windows of 4, seed 123,
// V = 50257, d = 5, context_length = 4) through out_head, and two GPT-2-shaped checkpoints
// written with tests/safetensors_file.py.
const TORCH_HEAD = `
import json, os, sys
import numpy as np, torch
a = json.load(sys.stdin)
sys.path.insert(0, a['tests'])
from safetensors_file import safetensors_bytes
torch.manual_seed(123)
tok = torch.nn.Embedding(50257, 5)
pos = torch.nn.Embedding(4, 5)
h = tok(torch.tensor(a['rows'])) + pos(torch.arange(4))
out_head = torch.nn.Linear(5, 50257, bias=False)
out_head.weight = tok.weight
logits = out_head(h).reshape(-1, 50257)
top = torch.topk(logits, 5)
rng = np.random.default_rng(1)
wte = rng.standard_normal((64, 8)).astype(np.float32)
wpe = rng.standard_normal((6, 8)).astype(np.float32)
gpt2 = [('h.0.attn.c_attn.weight', 'F32', rng.standard_normal((8, 24))),
        ('wpe.weight', 'F32', wpe), ('wte.weight', 'F32', wte)]
for name, tensors in [('gpt2-tied.safetensors', gpt2),
                      ('untied.safetensors', gpt2 + [('lm_head.weight', 'F32', wte)])]:
    with open(os.path.join(a['dir'], name), 'wb') as f:
        f.write(safetensors_bytes(tensors))
print(json.dumps({'columns': logits[:, a['columns']].tolist(),
                  'ids': top.indices.tolist(), 'values': top.values.tolist()}))
`;

// The view's default batch: the Train view's text, as GPT-2 tokenizes it, in windows of 4.
const ROWS = TRAIN_TEXT_BATCH.split(';').map((row) => row.split(',').map(Number));
// The columns and rows PyTorch's print of (28, 50257) logits shows.
const COLUMNS = [0, 1, 2, 50254, 50255, 50256];
const SHOWN = [0, 1, 2, 25, 26, 27];
const torch = runTorch(TORCH_HEAD, { rows: ROWS, columns: COLUMNS, tests: TESTS_DIR, dir });

describe('head view', () => {
  const env = sitePerSuite(async () => {
    const opened = await openSite({ weights: true });
    await opened.page.locator('#head').scrollIntoViewIfNeeded();
    await opened.page.waitForSelector('#head .order-check[data-state]');
    return opened;
  });
  afterEach(() => env.assertClean());

  const { view, input, cellsOf } = formView(() => env.page, 'head');

  test("W read twice: the lookup's n rows and the product's n·V·d multiply-adds", async () => {
    const { page } = env;
    // The core's sentences, as `embedlab head` prints them: 32 positions of d = 16.
    assert.equal(
      await page.textContent(`${view} [data-part="lookup"]`),
      'The input lookup read a row for each of the n = 28 ids, 25 distinct of the 50,257 rows of W, copying n·d = 140 floats.',
    );
    assert.match(
      await page.textContent(`${view} [data-part="product"]`),
      /^The output layer read all 50,257 rows of W: n·V·d = 7,035,980 multiply-adds, none wasted/,
    );
    // Nothing has trained this table: its top tokens are noise, and the view says so.
    assert.match(
      await page.textContent(`${view} [data-part="trained"]`),
      /^This table is untrained: torch\.manual_seed\(123\) drew it and nothing has trained it, so its top tokens are noise/,
    );
    assert.match(
      await page.textContent(`${view} [data-part="tying"]`),
      /one Parameter, not a copy/,
    );
  });

  test("the logits and each position's top 5 are PyTorch's out_head(h), up to rounding", async () => {
    const { page } = env;
    const cells = (await cellsOf('logits')).filter((row) => row[0] !== '⋮');
    assertCellsClose(
      cells.map((row) => row.filter((cell) => cell !== '…')),
      SHOWN.map((i) => torch.columns[i]),
      'logits',
    );
    // The GEMM against the same sums one product at a time: not the lookup-vs-product verdict,
    // so in a look and words of its own (no grade's badge), graded by the core.
    const check = await page.$eval(`${view} .order-check`, (node) => ({
      state: node.dataset.state,
      title: node.querySelector('.order-check-title').textContent,
      sentence: node.querySelector('.order-check-sentence').textContent,
      badge: node.querySelectorAll('.verdict-word').length,
    }));
    assert.match(check.state, /^(identical|rounding)$/);
    assert.equal(check.title, 'Summation order: the GEMM vs one product at a time');
    assert.match(
      check.sentence,
      /^(All [\d,]+ printed logits hold the same 32 bits in both orders\.|[\d,]+ of [\d,]+ printed logits hold the same 32 bits in both orders; the others differ by at most .+ \(equal up to rounding\)\.)$/,
    );
    assert.equal(check.badge, 0);
    assert.equal(await page.locator(`${view} .verdict`).count(), 0, 'no verdict box in the head');
    const shown = await page.$$eval(`${view} [data-part="top"] li[data-position]`, (items) =>
      items.map((li) => ({
        position: Number(li.dataset.position),
        ids: [...li.querySelectorAll('[data-id]')].map((chip) => Number(chip.dataset.id)),
      })),
    );
    assert.deepEqual(
      shown.map((s) => s.position),
      [0, 1, 2, 25, 26, 27],
    );
    for (const { position, ids } of shown) {
      const values = torch.values[position];
      // Where PyTorch's neighbouring logits lie further apart than rounding moves them.
      const apart = values.every((v, j) => j === 0 || values[j - 1] - v > 1e-3);
      if (apart) assert.deepEqual(ids, torch.ids[position], `top 5 of position ${position}`);
    }
  });

  test('a GPT-2-shaped checkpoint with wte, wpe and no lm_head ties; one with lm_head does not', async () => {
    const { page } = env;
    const tying = `${view} [data-part="tying"]`;
    const batch = await page.inputValue(input('batch'));
    await page.fill(input('batch'), '63,1,2; 5,4,3'); // ids of the checkpoints' 64 rows
    await page.setInputFiles('#weights-file', path.join(dir, 'gpt2-tied.safetensors'));
    await page.waitForFunction(
      (selector) =>
        document.querySelector(selector).dataset.tied === 'true' &&
        document.querySelector(selector).textContent.startsWith('This model ties'),
      tying,
    );
    assert.match(await page.textContent(tying), /stores no lm_head\.weight or output\.weight/);
    assert.match(await page.textContent(`${view} [data-part="w-shape"]`), /64 × 8/);
    await page.setInputFiles('#weights-file', path.join(dir, 'untied.safetensors'));
    await page.waitForFunction(
      (selector) => document.querySelector(selector).dataset.tied === 'false',
      tying,
    );
    assert.match(await page.textContent(tying), /'lm_head\.weight'/);
    await page.check('input[name="source"][value="seed"]');
    await page.fill(input('batch'), batch);
    await page.waitForFunction(
      (selector) => document.querySelector(selector).textContent.includes('one Parameter'),
      tying,
    );
  });

  test("the ids are GPT-2's tokens, as the gpt-tokenizer package decodes them, once the list is seen", async () => {
    const { page } = env;
    const note = `${view} [data-part="top-tokens"]`;
    await page.locator(`${view} [data-part="top"]`).scrollIntoViewIfNeeded();
    await page.waitForFunction(
      (selector) => document.querySelector(selector).textContent.startsWith('Each token as GPT-2'),
      note,
    );
    assert.match(await page.textContent(note), /· is a space/);
    const spelled = await page.$$eval(`${view} [data-token-of]`, (texts) =>
      texts.map((text) => [Number(text.dataset.tokenOf), text.textContent]),
    );
    assert.ok(spelled.length >= 6 * 6, `${spelled.length} token texts`);
    // Plain printable ASCII tokens: the chip shows the text with a space as '·'.
    const plain = spelled.filter(([id]) => /^[\x20-\x7e]+$/.test(decode([id])));
    assert.ok(plain.length >= 20, `${plain.length} plain tokens`);
    for (const [id, text] of plain)
      assert.equal(text, decode([id]).replaceAll(' ', '·'), `id ${id}`);
    // The inputs of positions 0 and 1: 2025 is "An", 11525 " embed".
    const inputs = await page.$$eval(`${view} .bag-label [data-token-of]`, (texts) =>
      texts.slice(0, 2).map((text) => text.textContent),
    );
    assert.deepEqual(inputs, ['An', '·embed']);
  });

  test("a config.json chosen with the checkpoint decides, as Hugging Face's tie_word_embeddings does", async () => {
    const { page } = env;
    const file = (name, text) => ({
      name,
      mimeType: 'application/json',
      buffer: Buffer.from(text),
    });
    const checkpoint = {
      name: 'gpt2-tied.safetensors',
      mimeType: 'application/octet-stream',
      buffer: readFileSync(path.join(dir, 'gpt2-tied.safetensors')),
    };
    const tying = `${view} [data-part="tying"]`;
    const batch = await page.inputValue(input('batch'));
    await page.fill(input('batch'), '63,1,2; 5,4,3');
    await page.setInputFiles('#weights-file', [
      checkpoint,
      file('config.json', '{"tie_word_embeddings": false}'),
    ]);
    await page.waitForFunction(
      (selector) => document.querySelector(selector).dataset.tied === 'false',
      tying,
    );
    assert.match(await page.textContent(tying), /config\.json says "tie_word_embeddings": false/);
    await page.setInputFiles('#weights-file', [checkpoint, file('config.json', '[1]')]);
    await page.waitForFunction(() =>
      document.querySelector('#head [role="alert"]:not([hidden])')?.textContent.includes('[1]'),
    );
    assert.match(
      await page.textContent('#head [role="alert"]:not([hidden])'),
      /config\.json holds the array \[1\], not an object of settings/,
    );
    await page.setInputFiles('#weights-file', file('config.json', '{}'));
    await page.waitForFunction(() => !document.querySelector('#weights-error').hidden);
    assert.match(
      await page.textContent('#weights-error'),
      /config\.json holds a model's settings, not its table: choose it together with/,
    );
    await page.check('input[name="source"][value="seed"]');
    await page.fill(input('batch'), batch);
    await page.waitForFunction(
      (selector) => document.querySelector(selector).textContent.includes('one Parameter'),
      tying,
    );
  });

  test('screenshots at 1280 and 375 px', async () => {
    const { page } = env;
    await saveScreenshot(page.locator(view), 'head-1280.png');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForFunction(() => innerWidth === 375);
    assert.equal(await pageOverflow(page), 0);
    await saveScreenshot(page.locator(view), 'head-375.png');
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
