// <embedding-demo> for a notebook's outputs (embedlab.show() in python/): one self-contained ES
// module, built by scripts/build-site.mjs into site/embedlab/notebook.mjs, that an output inlines
// in a <script type="module">. It needs nothing from a server: the WebAssembly module's two files
// travel inside it (gzipped, in base64) and so does the compute worker, started from a Blob. Every
// output of a notebook carries it and one document may hold many outputs, each run anew when a
// cell is: only the first defines the element, the others stop here. No require.js globals, no
// element ids, no document.currentScript (null in module scripts): the output's element reads
// its own attributes.
import { loadEmbedlab } from '../embedlab/embedlab.mjs';
import wasmGzip from '../embedlab/embedlab-core.wasm.gz';
import deferredGzip from '../embedlab/embedlab-core.deferred.wasm.gz';

async function gunzip(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).arrayBuffer();
}

if (!customElements.get('embedding-demo')) {
  // Blob URLs, not the bytes: the compute worker loads its own instance from the same addresses.
  const [wasmURL, deferredURL] = await Promise.all(
    [wasmGzip, deferredGzip].map(async (gzip) =>
      URL.createObjectURL(new Blob([await gunzip(gzip)], { type: 'application/wasm' })),
    ),
  );
  loadEmbedlab({ wasmURL, deferredURL });
  await import('./embedding-demo.mjs');
}
