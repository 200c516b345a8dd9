// The embedlab core compiled to WebAssembly, as a small JavaScript API (README.md; types in
// embedlab.d.ts). This is the browser's entry (a page or a module Web Worker): it never touches
// Node's modules, so every bundler takes it as it is. Node's entry, embedlab.node.mjs, hands this
// one the .wasm's bytes. Every function checks its arguments' types here; the core checks their
// values and its messages arrive verbatim as EmbedlabError.
import createEmbedlabCore from './embedlab-core.mjs';
import { tableApi } from './tables.mjs';
import { trainingApi } from './training.mjs';
import { positionsApi } from './positions.mjs';
import { isNumberArray, OPTIONS, optionsReader } from './options.mjs';

export class EmbedlabError extends Error {
  // argument: the input the message is about, as the core names it (one of argumentNames:
  // 'ids', 'vocab', 'padding_idx', ...), or null where no input is to blame (out of memory).
  constructor(message, argument = null) {
    super(message);
    this.name = 'EmbedlabError';
    this.argument = argument;
  }
}

// The core's argument for each parameter of this API that carries user input; type errors in
// the others (a header, an options object) have none.
const PARAMETER_ARGUMENTS = Object.freeze({
  text: 'ids',
  ids: 'ids',
  vocab: 'vocab',
  dim: 'dim',
  seed: 'seed',
  contextLength: 'vocab',
  head: 'weights',
  topK: 'ids',
  W: 'weights',
  bytes: 'weights',
  G: 'grad',
  rows: 'grad',
  cols: 'grad',
  forward: 'grad',
  'forward.output': 'grad',
  'forward.bagSize': 'grad',
  'forward.maxRows': 'grad',
  offsets: 'offsets',
  mode: 'mode',
  paddingIdx: 'padding_idx',
  perSampleWeights: 'per_sample_weights',
  weightsText: 'per_sample_weights',
  maxNorm: 'max_norm',
  normType: 'norm_type',
  expected: 'compared',
  actual: 'compared',
  pair: 'compared',
  M: 'compared',
  inFeatures: 'vocab',
  outFeatures: 'dim',
  n: 'ids',
  vocabFromIds: 'vocab',
  firstBytes: 'weights',
  headerBytes: 'weights',
  fileSize: 'weights',
  name: 'weights',
  optimizer: 'optimizer',
  'optimizer.name': 'optimizer',
  gradSeed: 'grad',
});

// The module is two files (split_module.mjs): embedlab-core.wasm, what a first screen runs
// (seeded tables, both routes and their verdicts, the backward passes), and
// embedlab-core.deferred.wasm, the rest (the file readers, training, positions and the head,
// EmbeddingBag), fetched once the first part runs. Where they are unless the host says
// otherwise: beside this file. A literal new URL('./file', import.meta.url) is what Vite, webpack
// and Parcel follow to copy the file into a build; esbuild and Rollup leave it be, and the files
// are then found beside the bundle.
const WASM_URL = new URL('./embedlab-core.wasm', import.meta.url);
const DEFERRED_URL = new URL('./embedlab-core.deferred.wasm', import.meta.url);
const WASM_FILE = 'embedlab-core.wasm';
const DEFERRED_FILE = 'embedlab-core.deferred.wasm';

let shared = null;

// One WASM instance per page (or worker, or Node process), however many callers ask. The
// promise resolves once both parts run; with { early: true }, once the first part runs, and
// lab.complete then says when the rest does (a function of the rest called before throws).
// options, used on the first call only, say where the module comes from:
//   wasmURL, deferredURL: the two files' addresses (strings or URLs), e.g. a CDN's; deferredURL
//     is beside wasmURL, named as embedlab-core.deferred.wasm is, unless given;
//   locateFile(name): Emscripten's hook, the address of each file by its name;
//   wasmBinary, deferredBinary: the two files' bytes themselves (ArrayBuffers or Uint8Arrays);
//   wasmModule, deferredModule: the two files compiled (WebAssembly.Module), as
//     embedlabWasmSources() gives them to a worker: instantiated without a fetch or a compile.
// A failed load is not cached, so a later call can retry. Options it does not know reject it.
export function loadEmbedlab(given) {
  let options;
  try {
    options = readOptions('loadEmbedlab', given, OPTIONS.load);
  } catch (error) {
    return Promise.reject(error);
  }
  if (!shared) {
    const loading = instantiate(options);
    shared = loading;
    const forget = () => {
      if (shared === loading) shared = null;
    };
    loading.then((lab) => lab.complete.catch(forget), forget);
  }
  return options.early ? shared : shared.then(async (lab) => (await lab.complete, lab));
}

// Where the first load found the two files: a worker loads an instance of its own from them.
let loadedFrom = { wasmURL: WASM_URL.href, deferredURL: DEFERRED_URL.href };
export function embedlabWasmURLs() {
  return { ...loadedFrom };
}

// The same, with the files as the first load compiled them (those it has compiled so far): what
// a page posts to its worker, which then neither fetches nor compiles them again.
let compiled = {};
export function embedlabWasmSources() {
  return { ...loadedFrom, ...compiled };
}

function sources({ wasmURL, deferredURL, locateFile }) {
  if (locateFile) {
    return { wasmURL: locateFile(WASM_FILE, ''), deferredURL: locateFile(DEFERRED_FILE, '') };
  }
  const base = globalThis.location?.href;
  const primary = wasmURL === undefined ? WASM_URL : new URL(wasmURL, base);
  const beside =
    wasmURL === undefined
      ? DEFERRED_URL
      : new URL(primary.pathname.replace(/\.wasm$/, '.deferred.wasm'), primary);
  return { wasmURL: primary.href, deferredURL: new URL(deferredURL ?? beside, base).href };
}

// The module at `url`, compiled as it downloads where the server says application/wasm. A file
// that is not there is an error that says where it was looked for and what to do.
async function compileFrom(url, file) {
  const cannot = (why) =>
    new Error(
      `embedlab's WebAssembly file could not be loaded from ${url} ` +
        `(${why}): serve ${file} beside embedlab.mjs (a bundler that does not copy it, such ` +
        "as esbuild or Rollup, needs the package's dist/ files copied beside the bundle), or pass " +
        'its address as loadEmbedlab({ wasmURL, deferredURL })',
    );
  let response;
  try {
    response = await fetch(url, { credentials: 'same-origin' });
  } catch (error) {
    throw cannot(error.message);
  }
  if (!response.ok) throw cannot(`HTTP ${response.status}`);
  if (response.headers.get('Content-Type')?.startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

// A function of the deferred part called before it runs lands here (Emscripten's placeholder).
function notYetLoaded() {
  throw new EmbedlabError(
    `this function is in ${DEFERRED_FILE}, which has not loaded yet: await lab.complete ` +
      '(or loadEmbedlab() without { early: true }) before calling it',
  );
}

// One of the two files compiled: given compiled (module), as bytes (binary), or fetched from url;
// kept for embedlabWasmSources().
function compiledFile(module, binary, url, file) {
  const compiling = module
    ? Promise.resolve(module)
    : binary !== undefined
      ? WebAssembly.compile(binary)
      : compileFrom(url, file);
  return compiling.then((done) => {
    compiled = { ...compiled, [file === WASM_FILE ? 'wasmModule' : 'deferredModule']: done };
    return done;
  });
}

async function instantiate(options) {
  const { wasmBinary, deferredBinary } = options;
  if (wasmBinary === undefined || deferredBinary === undefined) loadedFrom = sources(options);
  // Emscripten's own loader only logs a failed download and never settles: load it here.
  let failed;
  const failure = new Promise((resolve, reject) => {
    failed = reject;
  });
  const primary = compiledFile(options.wasmModule, wasmBinary, loadedFrom.wasmURL, WASM_FILE);
  const core = await Promise.race([
    createEmbedlabCore({
      instantiateWasm(imports, receive) {
        primary
          .then((module) => WebAssembly.instantiate(module, imports).then((i) => [i, module]))
          .then(([instance, module]) => receive(instance, module), failed);
        return {};
      },
      loadSplitModule: notYetLoaded,
    }),
    failure,
  ]);
  const deferred = compiledFile(
    options.deferredModule,
    deferredBinary,
    loadedFrom.deferredURL,
    DEFERRED_FILE,
  );
  // Instantiating the deferred part fills the function table's placeholders with its functions.
  const complete = deferred.then(async (module) => {
    await WebAssembly.instantiate(module, { primary: core.asm });
  });
  return makeApi(core, complete);
}

function describe(value) {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an Array';
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function fail(where, what, expected, value) {
  throw new EmbedlabError(
    `${where}: ${what} must be ${expected}, got ${describe(value)}`,
    PARAMETER_ARGUMENTS[what] ?? null,
  );
}

function string(where, what, value) {
  if (typeof value !== 'string') fail(where, what, 'a string', value);
  return value;
}

function number(where, what, value) {
  if (typeof value !== 'number') fail(where, what, 'a number', value);
  return value;
}

function boolean(where, what, value) {
  if (typeof value !== 'boolean') fail(where, what, 'true or false', value);
  return value;
}

function numbers(where, what, value) {
  if (!isNumberArray(value)) fail(where, what, 'an array of numbers', value);
  return value;
}

function matrix(where, what, value) {
  if (
    value === null ||
    typeof value !== 'object' ||
    typeof value.rows !== 'number' ||
    typeof value.cols !== 'number' ||
    !isNumberArray(value.data)
  ) {
    fail(where, what, 'a matrix { rows, cols, data: Float32Array }', value);
  }
  return value;
}

// A matrix, or cells { rows, cols, at(i, j) } of a matrix not held whole.
function matrixOrCells(where, what, value) {
  if (
    value !== null &&
    typeof value === 'object' &&
    value.data === undefined &&
    Number.isSafeInteger(value.rows) &&
    value.rows >= 0 &&
    Number.isSafeInteger(value.cols) &&
    value.cols >= 0 &&
    typeof value.at === 'function'
  ) {
    return value;
  }
  return matrix(where, what, value);
}

function bytes(where, what, value) {
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) {
    return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  }
  return fail(where, what, 'a Uint8Array or ArrayBuffer', value);
}

// The caller's { size, read(offset, length) }, whose answers (or errors) come back as
// Uint8Arrays of the length asked for, or as { readError }.
function byteSource(where, value) {
  const size = value?.size;
  if (
    value === null ||
    typeof value !== 'object' ||
    typeof value.read !== 'function' ||
    !Number.isSafeInteger(size) ||
    size < 0
  ) {
    throw new EmbedlabError(
      `${where}: source must be an object { size, read(offset, length) } ` +
        `with size a number of bytes, got ${describe(value)}`,
      'weights',
    );
  }
  return {
    size,
    read(offset, length) {
      let answer;
      try {
        answer = value.read(offset, length);
      } catch (error) {
        return { readError: String(error?.message ?? error) };
      }
      if (!(answer instanceof Uint8Array)) {
        return {
          readError: `read(${offset}, ${length}) returned ${describe(answer)}, not a Uint8Array`,
        };
      }
      if (answer.length !== length) {
        return {
          readError: `read(${offset}, ${length}) returned ${answer.length} bytes, not ${length}`,
        };
      }
      return answer;
    },
  };
}

// What the bindings return on failure: { embedlabError: message, argument }.
function unwrap(result) {
  if (result !== null && typeof result === 'object' && 'embedlabError' in result) {
    throw new EmbedlabError(result.embedlabError, result.argument);
  }
  return result;
}

// readOptions(where, value, shape, label): an options object read by its shape (options.mjs's
// OPTIONS), every key checked and defaulted; an unknown key is an error.
const readOptions = optionsReader(
  { EmbedlabError, fail, describe },
  (key) => PARAMETER_ARGUMENTS[key] ?? null,
);

// The argument checks the table, training and positions APIs (tables.mjs, training.mjs,
// positions.mjs) share with this file's functions, so that every function words its errors alike.
const checks = Object.freeze({
  EmbedlabError,
  unwrap,
  fail,
  describe,
  number,
  numbers,
  matrix,
  bytes,
  string,
  boolean,
  options: readOptions,
  OPTIONS,
  byteSource,
});

function makeApi(core, complete) {
  const api = {
    complete,
    parseIds: (text) => unwrap(core.parseIds(string('parseIds', 'text', text))),
    defaultVocab: (ids) => unwrap(core.defaultVocab(numbers('defaultVocab', 'ids', ids))),
    checkIds: (ids, vocab) => {
      unwrap(core.checkIds(numbers('checkIds', 'ids', ids), number('checkIds', 'vocab', vocab)));
    },
    randn: (seed, rows, cols) =>
      unwrap(
        core.randn(
          number('randn', 'seed', seed),
          number('randn', 'rows', rows),
          number('randn', 'cols', cols),
        ),
      ),
    linearInit: (seed, inFeatures, outFeatures, bias = true) =>
      unwrap(
        core.linearInit(
          number('linearInit', 'seed', seed),
          number('linearInit', 'inFeatures', inFeatures),
          number('linearInit', 'outFeatures', outFeatures),
          boolean('linearInit', 'bias', bias),
        ),
      ),
    compare: (expected, actual, pair = 'lookup') =>
      unwrap(
        core.compare(
          matrix('compare', 'expected', expected),
          matrix('compare', 'actual', actual),
          string('compare', 'pair', pair),
        ),
      ),
    formatElements: (shown, values = shown, style = undefined) => {
      const { integer } = readOptions('formatElements', style, OPTIONS.formatElements);
      return unwrap(
        core.formatElements(
          numbers('formatElements', 'shown', shown),
          numbers('formatElements', 'values', values),
          integer,
        ),
      );
    },
    formatTensor: (M, style) => {
      const { header, suffixes, integer } = readOptions(
        'formatTensor',
        style,
        OPTIONS.formatTensor,
      );
      return unwrap(
        core.formatTensor(matrixOrCells('formatTensor', 'M', M), header, suffixes, integer),
      );
    },
    parseSampleWeights: (weightsText) =>
      unwrap(core.parseSampleWeights(string('parseSampleWeights', 'weightsText', weightsText))),
    checkSizes: (n, vocab, dim, vocabFromIds = false, held = true) => {
      unwrap(
        core.checkSizes(
          number('checkSizes', 'n', n),
          number('checkSizes', 'vocab', vocab),
          number('checkSizes', 'dim', dim),
          boolean('checkSizes', 'vocabFromIds', vocabFromIds),
          boolean('checkSizes', 'held', held),
        ),
      );
    },
    checkIdCount: (n) => {
      unwrap(core.checkIdCount(number('checkIdCount', 'n', n)));
    },
    checkPaddingIdx: (paddingIdx, vocab) => {
      unwrap(
        core.checkPaddingIdx(
          paddingIdx === null ? null : number('checkPaddingIdx', 'paddingIdx', paddingIdx),
          number('checkPaddingIdx', 'vocab', vocab),
        ),
      );
    },
    hasNpyMagic: (firstBytes) => core.hasNpyMagic(bytes('hasNpyMagic', 'firstBytes', firstBytes)),
    hasGgufMagic: (firstBytes) =>
      core.hasGgufMagic(bytes('hasGgufMagic', 'firstBytes', firstBytes)),
    ggufHeader: (firstBytes, fileSize, name = '') =>
      unwrap(
        core.ggufHeader(
          bytes('ggufHeader', 'firstBytes', firstBytes),
          number('ggufHeader', 'fileSize', fileSize),
          string('ggufHeader', 'name', name),
        ),
      ),
    safetensorsHeaderSize: (firstBytes, fileSize) =>
      unwrap(
        core.safetensorsHeaderSize(
          bytes('safetensorsHeaderSize', 'firstBytes', firstBytes),
          number('safetensorsHeaderSize', 'fileSize', fileSize),
        ),
      ),
    safetensorsHeader: (headerBytes, fileSize, name = '') =>
      unwrap(
        core.safetensorsHeader(
          bytes('safetensorsHeader', 'headerBytes', headerBytes),
          number('safetensorsHeader', 'fileSize', fileSize),
          string('safetensorsHeader', 'name', name),
        ),
      ),
    ...tableApi(core, checks),
    ...positionsApi(core, checks),
    limits: Object.freeze(core.limits()),
    verdictDefinitions: Object.freeze(core.verdictDefinitions()),
    argumentNames: Object.freeze(core.argumentNames()),
  };
  // Taken as descriptors, not spread: the training constants are getters, read when first used.
  return Object.freeze(
    Object.defineProperties(api, Object.getOwnPropertyDescriptors(trainingApi(core, checks))),
  );
}
