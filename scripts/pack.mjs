// Assembles the npm package (package/) and packs it: node scripts/pack.mjs [--site DIR] [--out DIR]
//   --site  a wasm build's site folder (default build/wasm/site): its embedlab/ is the module
//   --out   where to assemble (OUT/embedlab/) and write the tarball (default build/package)
// The element and the page modules it imports come from web/, found by following the relative
// imports from the element (static, dynamic and new URL(..., import.meta.url)), so that every
// relative path stays valid in the package; what the build made (the module, the bundled
// tokenizers and their vocabularies) comes from the site. Prints the tarball's path.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: {
  site: { type: 'string', default: path.join(repo, 'build/wasm/site') },
  out: { type: 'string', default: path.join(repo, 'build/package') },
} });
const site = path.resolve(values.site);
const out = path.resolve(values.out);
const web = path.join(repo, 'web');
const ROOTS = ['element/embedding-demo.mjs', 'element/embedding-demo.d.ts'];
// Folders the build fills, copied whole from the site.
const BUILT = ['embedlab', 'tokenizers/vendor', 'tokenizers/data', 'tokenizers/licenses'];

if (!existsSync(path.join(site, 'embedlab/embedlab-core.wasm'))) {
  throw new Error(`no WebAssembly module in ${site}/embedlab: build the wasm preset first ` +
                  '(cmake --preset wasm && cmake --build --preset wasm)');
}

// A relative specifier in an import, an export ... from, import() or new URL(..., import.meta.url).
const RELATIVE = /(?:\bfrom\s*|\bimport\s*\(?\s*|\bnew URL\(\s*)(['"])(\.\.?\/[^'"]+)\1/g;

// Package-relative paths of the roots and of everything they reach, less the BUILT folders.
function closure() {
  const found = new Set();
  const pending = [...ROOTS];
  while (pending.length) {
    const file = pending.pop();
    if (found.has(file) || BUILT.some((folder) => file.startsWith(`${folder}/`))) continue;
    found.add(file);
    if (!file.endsWith('.mjs')) continue;
    for (const [, , specifier] of readFileSync(path.join(web, file), 'utf8').matchAll(RELATIVE)) {
      pending.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)));
    }
  }
  return [...found].sort();
}

const stage = path.join(out, 'embedlab');
rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
for (const folder of BUILT) cpSync(path.join(site, folder), path.join(stage, folder), { recursive: true });
for (const file of closure()) cpSync(path.join(web, file), path.join(stage, file));
for (const file of ['package.json', 'README.md']) {
  cpSync(path.join(repo, 'package', file), path.join(stage, file));
}
const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', out],
  { cwd: stage, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
console.log(path.join(out, packed.filename));
