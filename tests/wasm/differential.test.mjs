// The WASM module against the native core: every case in cases.mjs must give the same bits,
// the same printed text and the same error messages on both sides.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { differentialCases } from './cases.mjs';
import { importEmbedlab, runNative, runWasm } from './harness.mjs';

const { loadEmbedlab, EmbedlabError } = await importEmbedlab();
const lab = await loadEmbedlab();
const cases = differentialCases();
const native = runNative(cases.map(([, call]) => call));

cases.forEach(([name, call], i) => {
  test(name, () => {
    assert.deepEqual(runWasm(lab, EmbedlabError, call), native[i]);
  });
});

// formatTensor and formatElements cannot fail on well-formed input, nor hasNpyMagic and
// hasGgufMagic on bytes.
test('every function is covered, with successes and with errors', () => {
  const covered = (wanted) =>
    new Set(cases.filter((_, i) => wanted(native[i])).map(([, [op]]) => op));
  const succeeded = covered((result) => !('error' in result));
  const failed = covered((result) => 'error' in result);
  for (const f of Object.keys(lab).filter((key) => typeof lab[key] === 'function')) {
    assert.ok(succeeded.has(f), `${f} never succeeds`);
    if (!['formatTensor', 'formatElements', 'hasNpyMagic', 'hasGgufMagic'].includes(f)) {
      assert.ok(failed.has(f), `${f} never fails`);
    }
  }
});
