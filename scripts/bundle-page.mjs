// The page's modules as one file, at site assembly (wasm/copy_site.cmake): node
// scripts/bundle-page.mjs SITE replaces SITE/app.mjs by itself with every module it imports
// inlined and minified (esbuild, from the npm package that package-lock.json pins), so the page
// fetches its code in one round trip instead of an import chain four modules deep (issue 11:
// 1.8 s to the first verdict at 150 ms latency). The modules stay in the site as they are too,
// for the workers, the tutorial and the element.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const site = process.argv[2];
if (!site) throw new Error('usage: node scripts/bundle-page.mjs SITE');
const { build } = await import('esbuild').catch(() => {
  throw new Error('esbuild is not installed: run npm ci (scripts/install-deps.sh does) first');
});
const root = path.resolve(site);
const entry = path.join(root, 'app.mjs');

// A module that finds files beside itself (the WebAssembly module its .wasm, a panel its worker
// and style sheet) gets, for import.meta.url, the address it has as a file of the site.
const ownAddress = {
  name: 'own-address',
  setup(build) {
    build.onLoad({ filter: /\.mjs$/ }, (args) => {
      const own = path.relative(root, args.path).split(path.sep).join('/');
      const source = readFileSync(args.path, 'utf8')
        .replaceAll('import.meta.url', `new URL(${JSON.stringify(own)}, import.meta.url).href`);
      return { contents: source, loader: 'js' };
    });
  },
};

await build({
  entryPoints: [entry],
  outfile: entry,
  allowOverwrite: true,
  bundle: true,
  format: 'esm',
  minify: true,
  sourcemap: 'linked',
  target: 'es2022',
  plugins: [ownAddress],
  // Imported only where the module runs in Node.
  external: ['node:*'],
  logLevel: 'warning',
});
