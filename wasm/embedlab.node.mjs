// Node's entry of the embedlab module (package.json's "node" condition): the browser's entry,
// handed the .wasm's bytes, read from beside this file (Node's fetch cannot read a file path).
import { readFile } from 'node:fs/promises';
import { loadEmbedlab as loadInBrowser } from './embedlab.mjs';

export { EmbedlabError, embedlabWasmURL } from './embedlab.mjs';

// As embedlab.mjs's loadEmbedlab(); without wasmBinary, the bytes of wasmURL (a file: URL or
// path) or of the .wasm beside this file.
export async function loadEmbedlab(options = {}) {
  if (options.wasmBinary !== undefined || options.locateFile) return loadInBrowser(options);
  const file = options.wasmURL ?? new URL('./embedlab-core.wasm', import.meta.url);
  return loadInBrowser({ wasmBinary: await readFile(file) });
}
