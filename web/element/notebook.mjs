// <embedding-demo> for a notebook's outputs (embedlab.show() in python/): one self-contained ES
// module, built by scripts/build-site.mjs into site/embedlab/notebook.mjs, that an output inlines
// in a <script type="module">. It needs nothing from a server: the WebAssembly module travels
// inside it (gzipped, in base64) and so does the compute worker, started from a Blob. Every
// output of a notebook carries it and one document may hold many outputs, each run anew when a
// cell is: only the first defines the element, the others stop here. No require.js globals, no
// element ids, no document.currentScript (null in module scripts): the output's element reads
// its own attributes.
import { loadEmbedlab } from '../embedlab/embedlab.mjs';
import wasmGzip from '../embedlab/embedlab-core.wasm.gz';

async function gunzip(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).arrayBuffer();
}

if (!customElements.get('embedding-demo')) {
  // A Blob URL, not the bytes: the compute worker loads its own instance from the same address.
  const wasm = new Blob([await gunzip(wasmGzip)], { type: 'application/wasm' });
  loadEmbedlab({ wasmURL: URL.createObjectURL(wasm) });
  await import('./embedding-demo.mjs');
}
