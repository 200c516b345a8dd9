// What only the JS API of .safetensors files has (differential.test.mjs compares its results and
// messages with the native core): a file on disk read as a caller reads it, its header and then
// its table through a handle, to values worked out by hand; a table's WASM memory given back;
// the arguments' types.
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { safetensors } from './cases.mjs';
import { assertThrowsEmbedlab, importEmbedlab, memorySource } from './harness.mjs';

const { loadEmbedlab, EmbedlabError } = await importEmbedlab();
const lab = await loadEmbedlab();

const throwsEmbedlab = (f, pattern, argument) =>
  assertThrowsEmbedlab(EmbedlabError, f, pattern, argument);

const u2 = (values) => new Uint8Array(Uint16Array.from(values).buffer);
const f4 = (values) => new Uint8Array(Float32Array.from(values).buffer);

// BF16 keeps the top 16 bits of a float32: 0x3f80 is 1, 0xc000 -2, 0x4049 3.140625,
// 0x0001 2^-133 (subnormal), 0x8000 -0, 0xff80 -Inf. F16: 0x3c00 is 1, 0x3555 is
// 1365/4096 = 0.333251953125, 0x0001 2^-24 (subnormal), 0x7bff 65504, 0x8000 -0, 0x7c00 Inf.
const BF16_BITS = [0x3f80, 0xc000, 0x4049, 0x0001, 0x8000, 0xff80];
const BF16_VALUES = [1, -2, 3.140625, 2 ** -133, -0, -Infinity];
const F16_BITS = [0x3c00, 0x3555, 0x0001, 0x7bff, 0x8000, 0x7c00];
const F16_VALUES = [1, 0.333251953125, 2 ** -24, 65504, -0, Infinity];

function sameValues(actual, expected) {
  assert.equal(actual.length, expected.length);
  expected.forEach((x, i) =>
    assert.ok(Object.is(actual[i], x), `[${i}]: ${actual[i]} is not ${x}`),
  );
}

// The file's bytes [begin, end), read from disk as a page reads them with File.slice.
function readRange(fd, begin, end) {
  const bytes = new Uint8Array(end - begin);
  assert.equal(readSync(fd, bytes, 0, bytes.length, begin), bytes.length);
  return bytes;
}

// Header in two steps, then the table through a handle that reads the file where it lies: what
// the page does, on a file on disk. { header, table: its description, weight: its rows }.
function readTable(file, size, name) {
  const fd = openSync(file, 'r');
  try {
    const headerBytes = readRange(fd, 0, lab.safetensorsHeaderSize(readRange(fd, 0, 8), size));
    const header = lab.safetensorsHeader(headerBytes, size, name);
    const table = lab.openSafetensorsTable(
      { size, read: (offset, length) => readRange(fd, offset, offset + length) },
      name,
    );
    const weight = table.rowsAt(0, table.rows);
    const described = {
      name: table.name,
      rows: table.rows,
      cols: table.cols,
      dtype: table.dtype,
      conversion: table.conversion,
    };
    table.delete();
    return { header, table: described, weight };
  } finally {
    closeSync(fd);
  }
}

test('a file on disk is read a header and then its table, to the values worked out by hand', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'embedlab-safetensors-'));
  try {
    const file = path.join(dir, 'model.safetensors');
    const bytes = safetensors(
      [
        ['model.norm.weight', 'F32', [2], f4([1, 2])],
        ['model.embed_tokens.weight', 'BF16', [3, 2], u2(BF16_BITS)],
        ['lm_head.weight', 'F16', [2, 3], u2(F16_BITS)],
      ],
      { format: 'pt' },
    );
    writeFileSync(file, bytes);
    const { header, table, weight } = readTable(file, bytes.length, '');
    assert.equal(header.table, 'model.embed_tokens.weight');
    assert.deepEqual(
      header.tensors.map((t) => [t.name, t.dtype, t.shape, t.candidate]),
      [
        ['model.norm.weight', 'F32', [2], false],
        ['model.embed_tokens.weight', 'BF16', [3, 2], true],
        ['lm_head.weight', 'F16', [2, 3], false],
      ],
    );
    assert.deepEqual(header.metadata, [['format', 'pt']]);
    assert.deepEqual(table, {
      name: 'model.embed_tokens.weight',
      rows: 3,
      cols: 2,
      dtype: 'BF16',
      conversion: 'BF16 (bfloat16), converted to float32 exactly',
    });
    sameValues(weight.data, BF16_VALUES);
    const f16 = readTable(file, bytes.length, 'lm_head.weight');
    assert.equal(f16.header.table, 'lm_head.weight');
    assert.equal(f16.table.conversion, 'F16 (float16), converted to float32 exactly');
    sameValues(f16.weight.data, F16_VALUES);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("delete() gives a table's WASM memory back", () => {
  // 9 tables of 8192 x 8192 float32 (256 MiB each) would be more than the module's 2 GiB if
  // one of them stayed.
  for (let i = 0; i < 9; ++i) lab.openTfTable(8192, 8192).delete();
});

test('arguments of the wrong type are refused, about the weights', () => {
  const file = safetensors([['wte.weight', 'F32', [1, 2], f4([1, 2])]]);
  throwsEmbedlab(
    () => lab.safetensorsHeaderSize('abcdefgh', 8),
    /^safetensorsHeaderSize: firstBytes must be a Uint8Array or ArrayBuffer, got the string/,
    'weights',
  );
  throwsEmbedlab(
    () => lab.safetensorsHeader(file, '100'),
    /^safetensorsHeader: fileSize must be a number, got the string "100"$/,
    'weights',
  );
  throwsEmbedlab(
    () => lab.safetensorsHeader(file, -1),
    /^the file size must be a number of bytes, 0 or more, got -1$/,
    'weights',
  );
  throwsEmbedlab(
    () => lab.safetensorsHeader(file, 1.5),
    /^the file size must be a whole number, got 1\.5$/,
    'weights',
  );
  throwsEmbedlab(
    () => lab.openSafetensorsTable(memorySource(file), 7),
    /^openSafetensorsTable: name must be a string, got number 7$/,
    'weights',
  );
  throwsEmbedlab(
    () => lab.hasNpyMagic(null),
    /^hasNpyMagic: firstBytes must be a Uint8Array/,
    'weights',
  );
  assert.equal(lab.hasNpyMagic(new Uint8Array([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0])), true);
});
