// The module's surface is spelled three times, as the languages force: the Embind registrations
// (wasm/*bindings.cpp), the wrapper's API object
// (wasm/embedlab.mjs) and the TypeScript declarations (wasm/embedlab.d.ts). A function added to
// one and not the others fails here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { importEmbedlab } from './harness.mjs';

const source = (file) => readFileSync(new URL(`../../wasm/${file}`, import.meta.url), 'utf8');
const sorted = (names) => [...new Set(names)].sort();

const BINDING_FILES = [
  'bindings.cpp',
  'safetensors_bindings.cpp',
  'gguf_bindings.cpp',
  'table_bindings.cpp',
  'training_bindings.cpp',
  'positions_bindings.cpp',
];

function bound() {
  return sorted(
    BINDING_FILES.flatMap((file) =>
      [...source(file).matchAll(/emscripten::function\("(\w+)"/g)].map((m) => m[1]),
    ),
  );
}

// The members of `export interface Embedlab { ... }`.
function declared() {
  const body = source('embedlab.d.ts').match(/export interface Embedlab \{([\s\S]*?)\n\}/)[1];
  return sorted([...body.matchAll(/^ {2}(?:readonly )?(\w+)[(:]/gm)].map((m) => m[1]));
}

test('the bindings, the wrapper and the declarations name the same functions', async () => {
  const { loadEmbedlab } = await importEmbedlab();
  const wrapped = sorted(Object.keys(await loadEmbedlab()));
  assert.ok(bound().length >= 20, `found only ${bound().length} bindings`);
  assert.deepEqual(wrapped, bound(), 'wrapper (embedlab.mjs) vs bindings (*bindings.cpp)');
  assert.deepEqual(declared(), bound(), 'declarations (embedlab.d.ts) vs bindings (*bindings.cpp)');
});

test("the declared argument names are the core's", async () => {
  const { loadEmbedlab } = await importEmbedlab();
  const lab = await loadEmbedlab();
  const union = source('embedlab.d.ts').match(/export type EmbedlabArgument =([^;]*);/)[1];
  assert.deepEqual(
    sorted([...union.matchAll(/'(\w+)'/g)].map((m) => m[1])),
    sorted(lab.argumentNames),
  );
});
