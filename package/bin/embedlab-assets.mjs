#!/usr/bin/env node
// npx embedlab-assets DIR: copies the files embedlab loads at run time (its two .wasm files, its workers,
// the tokenizers' vocabularies and their licences) into DIR, beside a bundle that esbuild or
// Rollup made: they keep new URL('./file', import.meta.url) as it is, so the files it names
// must sit beside the bundle. Vite and webpack copy them by themselves.
import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The modules a host imports (and their types): bundled into the host's own code.
const IMPORTED = new Set(['embedlab.mjs', 'embedlab.node.mjs', 'element.mjs']);

const target = process.argv[2];
if (!target) {
  console.error('usage: npx embedlab-assets DIR   (DIR: the folder your bundle is written to)');
  process.exit(2);
}
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
mkdirSync(target, { recursive: true });
const copied = readdirSync(dist).filter((name) => !IMPORTED.has(name) && !name.endsWith('.d.ts'));
for (const name of copied)
  cpSync(path.join(dist, name), path.join(target, name), { recursive: true });
console.log(`embedlab: copied ${copied.length} files into ${target}`);
