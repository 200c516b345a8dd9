// Node's entry of the embedlab module (package.json's "node" condition): the browser's entry,
// handed the two .wasm files' bytes, read from beside this file (Node's fetch cannot read a file
// path).
import { readFile } from 'node:fs/promises';
import { loadEmbedlab as loadInBrowser } from './embedlab.mjs';

export { EmbedlabError, embedlabWasmSources, embedlabWasmURLs } from './embedlab.mjs';

// As embedlab.mjs's loadEmbedlab(); without the bytes, those of wasmURL and deferredURL (file:
// URLs or paths; deferredURL beside wasmURL unless given) or of the files beside this one.
// Options that are no object go as they are, for embedlab.mjs to refuse.
export async function loadEmbedlab(options = {}) {
  options ??= {};
  if (
    typeof options !== 'object' ||
    options.wasmBinary !== undefined ||
    options.wasmModule ||
    options.locateFile
  )
    return loadInBrowser(options);
  const wasmURL = options.wasmURL ?? new URL('./embedlab-core.wasm', import.meta.url);
  const beside = (file) => file.replace(/\.wasm$/, '.deferred.wasm');
  const deferredURL =
    options.deferredURL ??
    (wasmURL instanceof URL ? new URL(beside(wasmURL.href)) : beside(wasmURL));
  const [wasmBinary, deferredBinary] = await Promise.all(
    [wasmURL, deferredURL].map((file) => readFile(file)),
  );
  return loadInBrowser({ ...options, wasmBinary, deferredBinary });
}
