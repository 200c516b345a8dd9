// Prepended to embedlab-core.mjs. Emscripten 3.1.6's Node code path calls CommonJS's require()
// and reads __dirname at start-up; an ES module has neither, so define both, in Node only.
let require, __dirname;
if (typeof process === 'object' && typeof process.versions === 'object' &&
    typeof process.versions.node === 'string') {
  const { createRequire } = await import('node:module');
  require = createRequire(import.meta.url);
  __dirname = require('node:path').dirname(require('node:url').fileURLToPath(import.meta.url));
}
