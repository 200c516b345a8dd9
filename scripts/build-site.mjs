// Builds the served site from the staged sources (wasm/copy_site.cmake stages web/, the module and
// the tokenizers' data): node scripts/build-site.mjs STAGE SITE
//   SITE/*.html, styles/, examples/, reference.mjs   the pages, as they are in web/, each page's
//                                   style sheets joined into one, styles/PAGE.css
//   SITE/embedlab/                  the module and everything it loads, in one flat folder: what
//                                   the npm package ships as its dist/ (scripts/pack.mjs), plus the
//                                   page's own bundle (page.mjs and its page-*.mjs parts) and the
//                                   notebook's (notebook.mjs: the element, its compute worker and
//                                   the WebAssembly in one file, which the Python package inlines
//                                   in its outputs)
// Each entry point is one ES module bundled by esbuild (from the npm package package-lock.json
// pins). The page and the element import the API as a separate file, ./embedlab.mjs, so that a
// page with both shares one WebAssembly instance; each worker is self-contained (no imports, no
// top-level await), since a host's bundler may rebuild it as a classic script. What a module
// loads at run time it names with a literal new URL('./file', import.meta.url): every file so
// named sits in the same folder, so the names hold whether a host serves the folder as it is,
// bundles it (Vite, webpack) or bundles beside it (esbuild, Rollup). The page's and the element's
// bundles are split where the views registry imports a view (views/registry.mjs): the views
// below a first screen load when built, as page-later-HASH.mjs and element-later-HASH.mjs, with
// the code they share with the first screen in page-chunk-HASH.mjs and element-chunk-HASH.mjs,
// which the site's pages fetch beside page.mjs or element.mjs (modulepreload), not after it.
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const [stageArg, siteArg] = process.argv.slice(2);
if (!stageArg || !siteArg) throw new Error('usage: node scripts/build-site.mjs STAGE SITE');
const { build, transform } = await import('esbuild').catch(() => {
  throw new Error('esbuild is not installed: run npm ci (scripts/install-deps.sh does) first');
});
const stage = path.resolve(stageArg);
const site = path.resolve(siteArg);
const lib = path.join(site, 'embedlab');
const staged = (file) => path.join(stage, file);

// The API module, for the page and the element: an import of it stays an import of ./embedlab.mjs.
const sharedApi = {
  name: 'shared-api',
  setup(build) {
    build.onResolve({ filter: /(^|\/)embedlab\/embedlab\.mjs$/ }, () => ({
      path: './embedlab.mjs',
      external: true,
    }));
  },
};

const common = {
  bundle: true,
  format: 'esm',
  minify: true,
  // Classes and functions keep their names: an author reads EmbeddingDemoElement in a stack trace.
  keepNames: true,
  target: 'es2022',
  // The element's style sheets travel inside its module, as text.
  loader: { '.css': 'text' },
  // Licences of the bundled npm packages (the tokenizers' libraries) stay in the output.
  outExtension: { '.js': '.mjs' },
  legalComments: 'eof',
  logLevel: 'warning',
  // The npm packages the tokenizer worker bundles.
  nodePaths: [fileURLToPath(new URL('../node_modules', import.meta.url))],
};

rmSync(site, { recursive: true, force: true });
mkdirSync(lib, { recursive: true });
// The pages, their style sheets, the reference page's script and the examples; the modules are
// bundled below.
for (const entry of readdirSync(stage, { withFileTypes: true })) {
  if (entry.isFile() && entry.name.endsWith('.html'))
    copyFileSync(staged(entry.name), path.join(site, entry.name));
}
for (const folder of ['styles', 'examples'])
  cpSync(staged(folder), path.join(site, folder), { recursive: true });
copyFileSync(staged('page/reference.mjs'), path.join(site, 'reference.mjs'));

// Each page's style sheets, in their order, as one (minified): one request instead of one a
// sheet, so that what a first screen loads fits the six connections a browser opens to a host
// over HTTP/1.1, and none of its files waits for another's to end.
const SHEET = /\n\s*<link rel="stylesheet" href="(styles\/[\w-]+\.css)">/g;
for (const page of readdirSync(site).filter((name) => name.endsWith('.html'))) {
  const html = readFileSync(path.join(site, page), 'utf8');
  const sheets = [...html.matchAll(SHEET)];
  if (sheets.length < 2) continue;
  const joined = sheets.map(([, href]) => readFileSync(path.join(site, href), 'utf8')).join('\n');
  const { code } = await transform(joined, { loader: 'css', minify: true });
  const name = `styles/${page.replace(/\.html$/, '')}.css`;
  writeFileSync(path.join(site, name), code);
  let first = true;
  const linked = html.replace(SHEET, () => {
    if (!first) return '';
    first = false;
    return `\n  <link rel="stylesheet" href="${name}">`;
  });
  writeFileSync(path.join(site, page), linked);
}

await build({ ...common, entryPoints: { embedlab: staged('embedlab/embedlab.mjs') }, outdir: lib });
const besideApi = { ...common, outdir: lib, plugins: [sharedApi], splitting: true };
// The page's own bundle, which no author calls, drops the names: keeping them costs a call at
// every closure the drawing code makes, about 0.2 ms of each keystroke.
const bundles = [
  { name: 'element', entry: 'element/embedding-demo.mjs', options: {} },
  { name: 'page', entry: 'page/app.mjs', options: { keepNames: false } },
];
const statics = {}; // bundle name -> the files it imports (import statements), for modulepreload
for (const { name, entry, options } of bundles) {
  const { metafile } = await build({
    ...besideApi,
    ...options,
    entryPoints: { [name]: staged(entry) },
    chunkNames: `${name}-[name]-[hash]`,
    metafile: true,
  });
  const [, output] = Object.entries(metafile.outputs).find(([, o]) =>
    o.entryPoint?.endsWith(entry),
  );
  statics[name] = output.imports
    .filter((imported) => imported.kind === 'import-statement' && !imported.external)
    .map((imported) => path.basename(imported.path));
}
// A page's script tag of one of these bundles is followed by a modulepreload of each file the
// bundle imports, so that they come beside it, not once it has been read.
const SCRIPT = /<script type="module" src="embedlab\/(page|element)\.mjs"><\/script>/;
for (const page of readdirSync(site).filter((name) => name.endsWith('.html'))) {
  const html = readFileSync(path.join(site, page), 'utf8');
  const tag = SCRIPT.exec(html);
  if (!tag) continue;
  const links = statics[tag[1]].map(
    (file) => `\n  <link rel="modulepreload" href="embedlab/${file}">`,
  );
  writeFileSync(path.join(site, page), html.replace(tag[0], `${tag[0]}${links.join('')}`));
}
await build({
  ...common,
  entryPoints: {
    'compute-worker': staged('compute/compute-worker.mjs'),
    'tokenizer-worker': staged('tokenizers/tokenizer-worker.mjs'),
    'bench-worker': staged('benchmark/bench-worker.mjs'),
  },
  outdir: lib,
});

// The notebook's bundle: the compute worker's code inline (start-inline-worker.mjs starts it
// from a Blob), the WebAssembly gzipped inline. Workers not inline (the tokenizers', the
// benchmark's) are refused there, as a host refusing workers would refuse them.
const inlineWorkers = {
  name: 'inline-workers',
  setup(build) {
    build.onResolve({ filter: /(^|\/)start-worker\.mjs$/ }, () => ({
      path: staged('compute/start-inline-worker.mjs'),
    }));
    build.onResolve({ filter: /^inline:workers$/ }, () => ({
      path: 'workers',
      namespace: 'inline',
    }));
    build.onLoad({ filter: /.*/, namespace: 'inline' }, () => ({
      loader: 'json',
      contents: JSON.stringify({
        './compute-worker.mjs': readFileSync(path.join(lib, 'compute-worker.mjs'), 'utf8'),
      }),
    }));
  },
};
for (const file of ['embedlab-core.wasm', 'embedlab-core.deferred.wasm']) {
  writeFileSync(
    staged(`embedlab/${file}.gz`),
    gzipSync(readFileSync(staged(`embedlab/${file}`)), { level: 9 }),
  );
}
await build({
  ...common,
  entryPoints: { notebook: staged('element/notebook.mjs') },
  outdir: lib,
  loader: { ...common.loader, '.gz': 'binary' },
  // Licences stay in the bundle: it is the one file a notebook gets.
  legalComments: 'inline',
  plugins: [inlineWorkers],
});

for (const file of [
  'embedlab.node.mjs',
  'embedlab.d.ts',
  'embedlab-core.wasm',
  'embedlab-core.deferred.wasm',
  'bench/embedlab-bench-core.wasm',
]) {
  copyFileSync(staged(`embedlab/${file}`), path.join(lib, path.basename(file)));
}
// The element's declarations beside the module's, which they import.
writeFileSync(
  path.join(lib, 'element.d.ts'),
  readFileSync(staged('element/embedding-demo.d.ts'), 'utf8').replaceAll(
    "'../embedlab/embedlab.js'",
    "'./embedlab.js'",
  ),
);
// The tokenizers' vocabularies, their sizes and the licences (scripts/build-tokenizers.mjs).
cpSync(staged('tokenizers/data'), lib, { recursive: true });
cpSync(staged('tokenizers/licenses'), path.join(lib, 'licenses'), { recursive: true });
