// web/'s folders by role, checked: each folder imports only from the folders its role allows,
// so that model/ (pure) and compute/ (no DOM) never reach for what draws or what reads the page.
// Read from the sources' import statements; no browser.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const web = fileURLToPath(new URL('../../web/', import.meta.url));
// folder -> the folders its modules may import from. embedlab/ is the WebAssembly module, which
// the build puts beside web/'s folders; styles/ holds the style sheets the element carries, and
// a view's own, which it adopts where it is built (the document or the element's shadow root).
const ALLOWED = {
  model: ['model'],
  compute: ['compute', 'model', 'embedlab'],
  tokenizers: ['tokenizers', 'model', 'compute'],
  draw: ['draw', 'model'],
  inputs: ['inputs', 'model', 'compute', 'draw', 'tokenizers', 'embedlab'],
  views: ['views', 'model', 'compute', 'draw', 'benchmark', 'styles', 'embedlab'],
  benchmark: ['benchmark', 'model', 'compute', 'draw', 'embedlab'],
  element: [
    'element',
    'model',
    'compute',
    'draw',
    'inputs',
    'views',
    'tokenizers',
    'styles',
    'embedlab',
  ],
  page: ['page', 'model', 'compute', 'draw', 'inputs', 'views', 'tokenizers', 'embedlab'],
};
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)(['"])(\.\.?\/[^'"]+)\1/g;

// The modules of a folder, those of its subfolders included: a subfolder has its folder's role.
function modules(folder) {
  return readdirSync(path.join(web, folder), { recursive: true })
    .filter((name) => name.endsWith('.mjs'))
    .map((name) => `${folder}/${name}`);
}

test('every folder of web/ has a role, and every module sits in one', () => {
  const folders = readdirSync(web, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .filter((name) => modules(name).length > 0);
  assert.deepEqual(folders.sort(), Object.keys(ALLOWED).sort());
  assert.deepEqual(
    readdirSync(web).filter((name) => name.endsWith('.mjs')),
    [],
    'no module at the top of web/',
  );
});

test('each folder imports only from the folders its role allows', () => {
  const broken = [];
  for (const [folder, allowed] of Object.entries(ALLOWED)) {
    for (const file of modules(folder)) {
      for (const [, , specifier] of readFileSync(path.join(web, file), 'utf8').matchAll(IMPORT)) {
        const from = path.posix.dirname(file);
        const target = path.posix.normalize(path.posix.join(from, specifier)).split('/')[0];
        if (!allowed.includes(target)) broken.push(`${file} imports ${specifier}`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

test('model/ and compute/ touch no document', () => {
  for (const folder of ['model', 'compute']) {
    for (const file of modules(folder)) {
      assert.doesNotMatch(
        readFileSync(path.join(web, file), 'utf8'),
        /(?<![\w-])(document|window)\.(?!mjs\b)/,
        file,
      );
    }
  }
});
