// The conformance list (tests/fixtures/bad-inputs.json) through the WebAssembly API, as a page or
// a worker calls it: every case not marked not_in wasm must throw an EmbedlabError with exactly
// the case's message and argument. Typed ids go through lab.parseIds, the others as arrays; a
// [V, d] table is lab.openSeededTable(0, V, d), a file is opened from its bytes by its kind; then
// both routes (table.product), the gradient with padding_idx (table.backward), or a training step,
// which holds its batch's one-hot whole (lab.seededTraining).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { importEmbedlab } from '../wasm/harness.mjs';

const { loadEmbedlab, EmbedlabError } = await importEmbedlab();
const lab = await loadEmbedlab();
const { cases } = JSON.parse(
  readFileSync(new URL('../fixtures/bad-inputs.json', import.meta.url), 'utf8'),
);

function idsOf(spec) {
  if (typeof spec === 'string') return lab.parseIds(spec);
  return Array.isArray(spec) ? spec : new Array(spec.count).fill(spec.fill);
}

// A file's table, from its bytes: the module reads .npy bytes whole, the others through a source.
function openFile({ name, hex }) {
  const bytes = new Uint8Array(Buffer.from(hex, 'hex'));
  if (/\.np[yz]$/.test(name)) return lab.openNpyTable(bytes);
  const source = {
    size: bytes.length,
    read: (offset, length) => bytes.slice(offset, offset + length),
  };
  return name.endsWith('.gguf') ? lab.openGgufTable(source) : lab.openSafetensorsTable(source);
}

function ask(c) {
  const ids = idsOf(c.ids);
  if (c.onehot) {
    const [vocab, dim] = c.table;
    lab.seededTraining(0, vocab, dim, { optimizer: { name: 'sgd' } }).step(Array.from(ids));
    return;
  }
  const table = c.file ? openFile(c.file) : lab.openSeededTable(0, ...c.table);
  if ('padding_idx' in c) {
    const G = {
      rows: ids.length,
      cols: table.cols,
      data: new Float32Array(ids.length * table.cols),
    };
    table.backward(ids, G, { paddingIdx: c.padding_idx });
  } else {
    table.product(ids);
  }
}

test('the conformance list has cases for this front end', () => {
  assert.ok(cases.filter((c) => !c.not_in?.wasm).length >= 20);
});

for (const c of cases.filter((c) => !c.not_in?.wasm)) {
  test(c.name, () => {
    assert.throws(
      () => ask(c),
      (error) => {
        assert.ok(error instanceof EmbedlabError, `${error} is not an EmbedlabError`);
        assert.deepEqual(
          { argument: error.argument, message: error.message },
          { argument: c.argument, message: c.message },
        );
        return true;
      },
    );
  });
}
