// Assembles the npm package and packs it: node scripts/pack.mjs [--site DIR] [--out DIR]
//   --site  a wasm build's site folder (default build/wasm/site)
//   --out   where to assemble (OUT/embedlab/) and write the tarball (default build/package)
// The package is package/ (package.json, README, bin/), the project's LICENSE, and dist/: the
// site's embedlab/ folder (scripts/build-site.mjs) less the page's own bundle. Prints the
// tarball's path.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    site: { type: 'string', default: path.join(repo, 'build/wasm/site') },
    out: { type: 'string', default: path.join(repo, 'build/package') },
  },
});
const lib = path.join(path.resolve(values.site), 'embedlab');
const out = path.resolve(values.out);
// The site's own files, which no page of an author's loads, and the notebook's bundle, which the
// Python package ships.
const SITE_ONLY = /^(page(-[\w-]+)?|notebook)\.mjs(\.map)?$/;

if (!existsSync(path.join(lib, 'embedlab-core.wasm'))) {
  throw new Error(
    `no WebAssembly module in ${lib}: build the wasm preset first ` +
      '(cmake --preset wasm && cmake --build --preset wasm)',
  );
}

const stage = path.join(out, 'embedlab');
rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
cpSync(lib, path.join(stage, 'dist'), {
  recursive: true,
  filter: (from) => !SITE_ONLY.test(path.basename(from)),
});
for (const file of ['package/package.json', 'package/README.md', 'package/bin', 'LICENSE']) {
  cpSync(path.join(repo, file), path.join(stage, path.basename(file)), { recursive: true });
}
const [packed] = JSON.parse(
  execFileSync('npm', ['pack', '--json', '--pack-destination', out], {
    cwd: stage,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }),
);
console.log(path.join(out, packed.filename));
