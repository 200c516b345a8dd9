// The npm package: packed by scripts/pack.mjs from a wasm build's site folder, installed offline
// from the tarball into a scratch folder (no registry, no network), and imported by its name
// from Node: the module computes the notebook's numbers, the element's modules all resolve, and
// the files, the .wasm and the type declarations are where package.json says.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { notebook, printedAfter } from '../notebooks.mjs';
import { siteDir as site } from '../site-dir.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const npm = process.env.EMBEDLAB_NPM || 'npm';

// Runs an ES module script with Node in `cwd` (so that bare imports resolve from its
// node_modules) and parses what it prints as JSON.
function runScript(cwd, source) {
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', source],
    { cwd, encoding: 'utf8' }));
}

describe('the npm package', () => {
  let scratch;
  let tarball;
  let app;
  let installed;

  before(() => {
    assert.ok(existsSync(path.join(site, 'embedlab', 'embedlab-core.wasm')),
      `no WebAssembly site at ${site}: build the wasm preset first`);
    scratch = mkdtempSync(path.join(os.tmpdir(), 'embedlab-package-'));
    tarball = execFileSync(process.execPath,
      [path.join(repo, 'scripts/pack.mjs'), '--site', site, '--out', path.join(scratch, 'pack')],
      { encoding: 'utf8' }).trim().split('\n').pop();
    app = path.join(scratch, 'app');
    mkdirSync(app);
    writeFileSync(path.join(app, 'package.json'), '{ "private": true, "type": "module" }\n');
    execFileSync(npm, ['install', '--offline', '--no-audit', '--no-fund',
      '--cache', path.join(scratch, 'npm-cache'), tarball], { cwd: app, stdio: 'ignore' });
    installed = path.join(app, 'node_modules', 'embedlab');
  });
  after(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  test('the tarball holds the module, the .wasm, the element and their types, and no page', () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
      .trim().split('\n').map((entry) => entry.replace(/^package\//, ''));
    for (const file of [
      'package.json', 'README.md',
      'embedlab/embedlab.mjs', 'embedlab/embedlab-core.mjs', 'embedlab/embedlab-core.wasm',
      'embedlab/embedlab.d.ts',
      'element/embedding-demo.mjs', 'element/embedding-demo.d.ts', 'element/element.css',
      'style.css', 'compute.mjs', 'matrix-views.mjs', 'step-through.mjs', 'benchmark/panel.mjs',
    ]) {
      assert.ok(files.includes(file), `${file} is packed`);
    }
    for (const file of ['index.html', 'tutorial.html', 'app.mjs', 'weights-input.mjs']) {
      assert.ok(!files.includes(file), `${file}, a part of the page only, is not packed`);
    }
  });

  test('imported by name from Node, it prints the notebook\'s lookup', () => {
    const seen = runScript(app, `
      import { loadEmbedlab } from 'embedlab';
      const lab = await loadEmbedlab();
      const W = lab.seededTable(123, 4, 5);
      const rows = lab.lookup(W, lab.parseIds('tensor([2, 3, 1])'));
      console.log(JSON.stringify({
        printed: lab.formatTensor(rows, { suffixes: ['grad_fn=<EmbeddingBackward0>'] }),
        first: Array.from(rows.data.slice(0, 5), (x) => x.toFixed(4)),
        shared: (await loadEmbedlab()) === lab,
        main: import.meta.resolve('embedlab'),
      }));`);
    assert.equal(seen.printed, printedAfter(notebook('002'), 'In [8]:'));
    assert.deepEqual(seen.first, ['0.6957', '-1.8061', '-1.1589', '0.3255', '-0.6315']);
    assert.ok(seen.shared);
    assert.equal(seen.main, pathToFileURL(path.join(installed, 'embedlab/embedlab.mjs')).href);
  });

  test('the element\'s whole static import graph resolves, and the files it fetches are there', () => {
    // Node has no DOM: just enough of one for the module to define its class.
    const seen = runScript(app, `
      const defined = [];
      globalThis.HTMLElement = class {};
      globalThis.customElements = { get: () => undefined, define: (name) => defined.push(name) };
      const element = await import('embedlab/element');
      const panel = await import('embedlab/benchmark/panel.mjs');
      console.log(JSON.stringify({
        defined, name: element.EmbeddingDemoElement.name,
        observed: element.EmbeddingDemoElement.observedAttributes,
        panel: typeof panel.mountBenchmarkPanel,
        resolved: import.meta.resolve('embedlab/element'),
      }));`);
    assert.deepEqual(seen.defined, ['embedding-demo']);
    assert.equal(seen.name, 'EmbeddingDemoElement');
    assert.deepEqual(seen.observed,
      ['ids', 'vocab', 'dim', 'seed', 'weights', 'src', 'view', 'step', 'label', 'controls', 'text',
       'tokenizer']);
    assert.equal(seen.panel, 'function');
    assert.equal(seen.resolved, pathToFileURL(path.join(installed, 'element/embedding-demo.mjs')).href);
    // Fetched at run time through new URL(..., import.meta.url).
    for (const file of ['style.css', 'element/element.css', 'benchmark/panel.css',
                        'benchmark/worker.mjs', 'embedlab/embedlab-core.wasm',
                        'embedlab/bench/embedlab-bench.mjs', 'embedlab/bench/embedlab-bench-core.wasm',
                        'text-mode.css', 'tokenizers/worker.mjs', 'tokenizers/data/manifest.json',
                        'tokenizers/vendor/gpt-tokenizer.mjs', 'tokenizers/vendor/lenml-tokenizers.mjs',
                        ...['gpt2', 'llama3', 'qwen3', 'gemma3'].map((name) => `tokenizers/data/${name}.json.gz`)]) {
      assert.ok(existsSync(path.join(installed, file)), `${file} is installed`);
    }
  });

  test('package.json points at the declarations, which put the element in HTMLElementTagNameMap', () => {
    const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8'));
    for (const entry of [manifest.types, manifest.exports['.'].types, manifest.exports['./element'].types,
                         manifest.exports['./element'].default, manifest.exports['.'].default]) {
      assert.ok(existsSync(path.join(installed, entry)), `${entry} exists`);
    }
    const types = readFileSync(path.join(installed, manifest.exports['./element'].types), 'utf8');
    assert.match(types, /interface HTMLElementTagNameMap \{\s*'embedding-demo': EmbeddingDemoElement;/);
    assert.match(types, /from '\.\.\/embedlab\/embedlab\.js'/);
    assert.ok(existsSync(path.join(installed, 'embedlab/embedlab.d.ts')));
  });
});
