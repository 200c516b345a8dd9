// The module's surface, stated here once, whole: what needs no table, the openers of table
// handles (every computation on a table is a method of its handle, none a function of the module
// taking W), training and positions. It is spelled three times more, as the languages force: the
// Embind registrations (wasm/*bindings.cpp), the wrapper's API object (wasm/embedlab.mjs) and the
// TypeScript declarations (wasm/embedlab.d.ts). A function added to one and not the others, or
// not here, fails.
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

const SURFACE = {
  // When the module's deferred file runs (loadEmbedlab({ early: true })): the loader's, no binding.
  loading: ['complete'],
  // Ids and weights as typed, the checks a front end runs first, the generator, printing, grades.
  noTable: [
    'parseIds',
    'defaultVocab',
    'checkIds',
    'checkIdCount',
    'checkPaddingIdx',
    'checkSizes',
    'parseSampleWeights',
    'randn',
    'linearInit',
    'compare',
    'formatTensor',
    'formatElements',
    'limits',
    'verdictDefinitions',
    'argumentNames',
  ],
  // A file's header, before its table is opened.
  files: [
    'hasNpyMagic',
    'hasGgufMagic',
    'ggufHeader',
    'safetensorsHeaderSize',
    'safetensorsHeader',
    'safetensorsIndex',
  ],
  tables: [
    'openSeededTable',
    'openTfTable',
    'openNpyTable',
    'openSafetensorsTable',
    'openCheckpointPositions',
    'openGgufTable',
  ],
  training: [
    'optimizers',
    'rowCauses',
    'optimizerCode',
    'parseBatches',
    'checkTraining',
    'seededTraining',
    'tableTraining',
    'seededNextTokenTraining',
    'batchRoles',
    'checkLoader',
    'windowTraining',
  ],
  positions: ['openSeededPositions', 'openPositionTables'],
};

// A table handle's methods: the lookup, the one-hot product, the gradients, the bags, max_norm.
const TABLE_METHODS = [
  'lookup',
  'rowsAt',
  'startProduct',
  'product',
  'startHeatmap',
  'heatmap',
  'embeddingBag',
  'bagMatrix',
  'startBagProduct',
  'bagProduct',
  'startBackward',
  'backward',
  'bagBackward',
  'renorm',
  'blocksDecoded',
  'blocksDecodedNote',
  'delete',
];

// The members of `export interface NAME { ... }` in embedlab.d.ts.
function members(name) {
  const body = source('embedlab.d.ts').match(
    new RegExp(`export interface ${name} \\{([\\s\\S]*?)\\n\\}`),
  )[1];
  return sorted([...body.matchAll(/^ {2}(?:readonly )?(\w+)[(:]/gm)].map((m) => m[1]));
}

test('the module is what SURFACE states: no function of it computes on a table', async () => {
  const { loadEmbedlab } = await importEmbedlab();
  assert.deepEqual(
    sorted(Object.keys(await loadEmbedlab())),
    sorted(Object.values(SURFACE).flat()),
  );
});

test("a table handle's methods are the wrapper's and the declarations'", async () => {
  const { loadEmbedlab } = await importEmbedlab();
  const table = (await loadEmbedlab()).openTfTable(2, 2);
  const methods = Object.keys(table).filter((key) => typeof table[key] === 'function');
  table.delete();
  assert.deepEqual(sorted(methods), sorted(TABLE_METHODS));
  const declared = members('Table').filter((name) => !(name in table) || methods.includes(name));
  assert.deepEqual(declared, sorted(TABLE_METHODS), 'declarations (interface Table)');
});

test('the bindings, the wrapper and the declarations name the same functions', async () => {
  const { loadEmbedlab } = await importEmbedlab();
  const loader = new Set(SURFACE.loading);
  const wrapped = sorted(Object.keys(await loadEmbedlab()).filter((name) => !loader.has(name)));
  assert.ok(bound().length >= 20, `found only ${bound().length} bindings`);
  assert.deepEqual(wrapped, bound(), 'wrapper (embedlab.mjs) vs bindings (*bindings.cpp)');
  assert.deepEqual(
    members('Embedlab').filter((name) => !loader.has(name)),
    bound(),
    'declarations (embedlab.d.ts) vs bindings (*bindings.cpp)',
  );
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
