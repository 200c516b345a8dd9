// The npm package: packed by scripts/pack.mjs from a wasm build's site folder, installed offline
// from the tarball into a scratch folder (no registry, no network), and imported by its name
// from Node: the module computes the notebook's numbers, the element's module loads, and the
// files, the .wasm, the licences and the type declarations are where package.json says.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { notebook, printedAfter } from '../notebooks.mjs';
import { installTarball, packTarball } from './tarball.mjs';

// Runs an ES module script with Node in `cwd` (so that bare imports resolve from its
// node_modules) and parses what it prints as JSON.
function runScript(cwd, source) {
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', source], {
      cwd,
      encoding: 'utf8',
    }),
  );
}

describe('the npm package', () => {
  let scratch;
  let tarball;
  let app;
  let installed;

  before(() => {
    ({ scratch, tarball } = packTarball('package'));
    app = path.join(scratch, 'app');
    mkdirSync(app);
    writeFileSync(path.join(app, 'package.json'), '{ "private": true, "type": "module" }\n');
    installTarball(app, { scratch, tarball });
    installed = path.join(app, 'node_modules', 'embedlab');
  });
  after(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  test('the tarball holds the modules, what they load, the licences and the types, and no page', () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((entry) => entry.replace(/^package\//, ''));
    for (const file of [
      'package.json',
      'README.md',
      'LICENSE',
      'bin/embedlab-assets.mjs',
      'dist/embedlab.mjs',
      'dist/embedlab.node.mjs',
      'dist/embedlab-core.wasm',
      'dist/embedlab-core.deferred.wasm',
      'dist/embedlab.d.ts',
      'dist/element.mjs',
      'dist/element.d.ts',
      'dist/compute-worker.mjs',
      'dist/tokenizer-worker.mjs',
      'dist/bench-worker.mjs',
      'dist/embedlab-bench-core.wasm',
      'dist/tokenizer-sizes.json',
      ...['gpt2', 'llama3', 'qwen3', 'gemma3'].flatMap((name) => [
        `dist/tokenizer-${name}.json.gz`,
        `dist/licenses/${name}-vocabulary.txt`,
      ]),
      'dist/licenses/llama3-NOTICE.txt',
      'dist/licenses/gemma3-NOTICE.txt',
      'dist/licenses/gpt-tokenizer.txt',
      'dist/licenses/@lenml+tokenizers.txt',
    ]) {
      assert.ok(files.includes(file), `${file} is packed`);
    }
    for (const file of files) {
      assert.doesNotMatch(
        file,
        /\.(html|css|map)$|page\.mjs$/,
        `${file}: nothing of the site's own page is packed`,
      );
    }
  });

  test('package.json names the licence and where the project lives', () => {
    const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8'));
    assert.equal(manifest.license, 'MIT');
    assert.match(readFileSync(path.join(installed, 'LICENSE'), 'utf8'), /^MIT License\n/);
    assert.match(manifest.repository.url, /^git\+https:\/\//);
    assert.match(manifest.homepage, /^https:\/\//);
  });

  test("imported by name from Node, it prints the notebook's lookup", () => {
    const seen = runScript(
      app,
      `
      import { loadEmbedlab } from 'embedlab';
      const lab = await loadEmbedlab();
      const table = lab.openSeededTable(123, 4, 5);
      const rows = table.lookup(lab.parseIds('tensor([2, 3, 1])'));
      console.log(JSON.stringify({
        printed: lab.formatTensor(rows, { suffixes: ['grad_fn=<EmbeddingBackward0>'] }),
        first: Array.from(rows.data.slice(0, 5), (x) => x.toFixed(4)),
        shared: (await loadEmbedlab()) === lab,
        main: import.meta.resolve('embedlab'),
      }));`,
    );
    assert.equal(seen.printed, printedAfter(notebook('002'), 'In [8]:'));
    assert.deepEqual(seen.first, ['0.6957', '-1.8061', '-1.1589', '0.3255', '-0.6315']);
    assert.ok(seen.shared);
    assert.equal(seen.main, pathToFileURL(path.join(installed, 'dist/embedlab.node.mjs')).href);
  });

  test("the element's module loads and defines the element, with nothing of Node in its way", () => {
    // Node has no DOM: just enough of one for the module to define its class.
    const seen = runScript(
      app,
      `
      const defined = [];
      globalThis.HTMLElement = class {};
      globalThis.customElements = { get: () => undefined, define: (name) => defined.push(name) };
      const element = await import('embedlab/element');
      console.log(JSON.stringify({
        defined, name: element.EmbeddingDemoElement.name,
        observed: element.EmbeddingDemoElement.observedAttributes,
        resolved: import.meta.resolve('embedlab/element'),
      }));`,
    );
    assert.deepEqual(seen.defined, ['embedding-demo']);
    assert.equal(seen.name, 'EmbeddingDemoElement');
    assert.deepEqual(seen.observed, [
      'ids',
      'vocab',
      'dim',
      'seed',
      'weights',
      'src',
      'table',
      'routes',
      'view',
      'step',
      'label',
      'controls',
      'text',
      'tokenizer',
      'padding_idx',
      'tokens',
    ]);
    assert.equal(seen.resolved, pathToFileURL(path.join(installed, 'dist/element.mjs')).href);
    // What a browser bundle may reach: no node: module, no top-level await in a worker.
    for (const file of [
      'embedlab.mjs',
      'element.mjs',
      'compute-worker.mjs',
      'tokenizer-worker.mjs',
      'bench-worker.mjs',
    ]) {
      const source = readFileSync(path.join(installed, 'dist', file), 'utf8');
      assert.doesNotMatch(source, /["']node:|\brequire\(/, `${file} reaches for no Node module`);
    }
  });

  test('package.json points at the declarations, which put the element in HTMLElementTagNameMap', () => {
    const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8'));
    for (const entry of [
      manifest.types,
      manifest.exports['.'].types,
      manifest.exports['./element'].types,
      manifest.exports['./element'].default,
      manifest.exports['.'].default,
      manifest.exports['.'].node,
      ...Object.values(manifest.typesVersions['*']).flat(),
    ]) {
      assert.ok(existsSync(path.join(installed, entry)), `${entry} exists`);
    }
    const types = readFileSync(path.join(installed, manifest.exports['./element'].types), 'utf8');
    assert.match(
      types,
      /interface HTMLElementTagNameMap \{\s*'embedding-demo': EmbeddingDemoElement;/,
    );
    assert.match(types, /from '\.\/embedlab\.js'/);
  });
});
