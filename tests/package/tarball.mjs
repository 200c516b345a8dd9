// What the package tests share: the tarball, packed by scripts/pack.mjs from a wasm build's site
// folder into a scratch folder, and installed from it offline (no registry, no network).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { siteDir } from '../site-dir.mjs';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const npm = process.env.EMBEDLAB_NPM || 'npm';

// A new scratch folder (named after `name`) and the tarball packed into it: { scratch, tarball }.
// Without a wasm build it fails, it does not skip.
export function packTarball(name) {
  assert.ok(
    existsSync(path.join(siteDir, 'embedlab', 'embedlab-core.wasm')),
    `no WebAssembly site at ${siteDir}: build the wasm preset first`,
  );
  const scratch = mkdtempSync(path.join(os.tmpdir(), `embedlab-${name}-`));
  const tarball = execFileSync(
    process.execPath,
    [path.join(repo, 'scripts/pack.mjs'), '--site', siteDir, '--out', path.join(scratch, 'pack')],
    { encoding: 'utf8' },
  )
    .trim()
    .split('\n')
    .pop();
  return { scratch, tarball };
}

// Installs the tarball into the project at `dir`, as `npm install embedlab-0.1.0.tgz` does.
export function installTarball(dir, { scratch, tarball }) {
  execFileSync(
    npm,
    [
      'install',
      '--offline',
      '--no-audit',
      '--no-fund',
      '--cache',
      path.join(scratch, 'npm-cache'),
      tarball,
    ],
    { cwd: dir, stdio: 'ignore' },
  );
}
