// The npm package where tutorial authors build their pages. The tarball (scripts/pack.mjs) is
// installed offline into the smallest project of each tool, which then runs the commands that
// package/README.md shows for it (its "tested as" blocks, so the README cannot drift from what
// works), with the tool's default configuration and the tool as package-lock.json pins it.
// Each output is served on 127.0.0.1 and loaded in Chromium, where the element must show the
// notebook's rows and "bit-identical", loadEmbedlab() must print the notebook's lookup, and an
// element with text must show GPT-2's ids (its tokenizer worker started), with no console
// error and no HTTP error. Then the same from a second origin, as from a CDN, and the types
// through TypeScript's resolutions.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../e2e/harness.mjs';
import { serveDirectory } from '../e2e/static-server.mjs';
import { entriesOf, notebook, printedAfter } from '../notebooks.mjs';
import { installTarball, packTarball } from './tarball.mjs';
import { chromiumPath } from '../tools.mjs';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const fixture = (file) => readFileSync(new URL(`./consumer/${file}`, import.meta.url), 'utf8');
const README = readFileSync(path.join(repo, 'package/README.md'), 'utf8');
const nb = notebook('002');
const NOTEBOOK_LOOKUP = printedAfter(nb, 'In [8]:'); // embedding(idx), idx = [2, 3, 1]
const GPT2_HELLO_WORLD = [15496, 995];
// The build tools, linked from the repository's node_modules (npm ci pins them).
const TOOLS = [
  'vite',
  'webpack',
  'webpack-cli',
  'rollup',
  '@rollup/plugin-node-resolve',
  'esbuild',
  'typescript',
];
const BINS = ['vite', 'webpack', 'webpack-cli', 'rollup', 'esbuild', 'tsc'];
// The address the README's CDN example loads the package from.
const CDN = /https:\/\/cdn\.jsdelivr\.net\/npm\/embedlab@[\d.]+\//g;

// The block of package/README.md marked <!-- tested as: NAME -->: its language and its text.
function readmeBlock(name) {
  const found = new RegExp(
    `<!-- tested as: ${name} -->\\n\`\`\`(\\w+)\\n([\\s\\S]*?)\\n\`\`\``,
  ).exec(README);
  assert.ok(found, `package/README.md has a block marked "tested as: ${name}"`);
  return { language: found[1], text: found[2] };
}

const page = (head, body = fixture('demos.html')) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>a page with embedlab</title>
<link rel="icon" href="data:,">
${head}
</head><body>
${body}
</body></html>
`;

// A fresh project with the tarball installed and the tools linked, the fixture's module at
// `source`. Returns its folder.
function project(scratch, tarball, name, source) {
  const dir = path.join(scratch, name.replace(/\W+/g, '-'));
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), '{ "private": true, "type": "module" }\n');
  installTarball(dir, { scratch, tarball });
  const modules = path.join(dir, 'node_modules');
  for (const tool of TOOLS) {
    mkdirSync(path.dirname(path.join(modules, tool)), { recursive: true });
    symlinkSync(path.join(repo, 'node_modules', tool), path.join(modules, tool));
  }
  for (const bin of BINS) {
    symlinkSync(path.join(repo, 'node_modules/.bin', bin), path.join(modules, '.bin', bin));
  }
  if (source) writeFileSync(path.join(dir, source), fixture('main.js'));
  return dir;
}

// Runs a README shell block in `dir`, a line at a time.
function run(dir, block) {
  assert.equal(block.language, 'sh');
  for (const line of block.text.split('\n').filter(Boolean)) {
    execFileSync('sh', ['-c', line], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    });
  }
}

// name -> build(scratch, tarball): the folder to serve and the page's path in it.
const BUNDLERS = {
  vite(scratch, tarball) {
    const dir = project(scratch, tarball, 'vite', 'src/main.js');
    writeFileSync(
      path.join(dir, 'index.html'),
      page('<script type="module" src="/src/main.js"></script>'),
    );
    run(dir, readmeBlock('vite'));
    return { root: path.join(dir, 'dist'), path: '' };
  },
  webpack(scratch, tarball) {
    const dir = project(scratch, tarball, 'webpack', 'src/index.js'); // webpack's default entry
    run(dir, readmeBlock('webpack'));
    writeFileSync(path.join(dir, 'dist/index.html'), page('<script src="main.js"></script>'));
    return { root: path.join(dir, 'dist'), path: '' };
  },
  esbuild(scratch, tarball) {
    const dir = project(scratch, tarball, 'esbuild', 'src/main.js');
    run(dir, readmeBlock('esbuild'));
    writeFileSync(
      path.join(dir, 'dist/index.html'),
      page('<script type="module" src="main.js"></script>'),
    );
    return { root: path.join(dir, 'dist'), path: '' };
  },
  rollup(scratch, tarball) {
    const dir = project(scratch, tarball, 'rollup', 'src/main.js');
    run(dir, readmeBlock('rollup'));
    writeFileSync(
      path.join(dir, 'dist/index.html'),
      page('<script type="module" src="main.js"></script>'),
    );
    return { root: path.join(dir, 'dist'), path: '' };
  },
  'import map'(scratch, tarball) {
    const dir = project(scratch, tarball, 'import map', 'src/main.js');
    const { language, text } = readmeBlock('import map');
    assert.equal(language, 'html');
    writeFileSync(
      path.join(dir, 'index.html'),
      page(`${text}\n<script type="module" src="/src/main.js"></script>`),
    );
    return { root: dir, path: 'index.html' };
  },
};

// Chromium with a record of console errors and warnings, page errors and HTTP errors.
async function openBrowser() {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'embedlab-consumer-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  return {
    context,
    async open(url) {
      const tab = await context.newPage();
      const problems = [];
      const requests = [];
      tab.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning')
          problems.push(`console ${m.type()}: ${m.text()}`);
      });
      tab.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      tab.on('response', (response) => {
        if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
      });
      tab.on('request', (request) => requests.push(request.url()));
      await tab.goto(url);
      return { tab, problems, requests };
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

// The three checks of one page of a consumer.
function pageChecks(opened) {
  test("the element shows the notebook's rows, bit-identical", async () => {
    const { tab } = opened();
    await tab.waitForFunction(
      () =>
        document.getElementById('notebook')?.shadowRoot?.querySelector('.verdict-word')
          ?.textContent === 'bit-identical',
      null,
      { timeout: 20_000 },
    );
    const rows = await tab.evaluate(() =>
      [
        ...document
          .getElementById('notebook')
          .shadowRoot.querySelectorAll('[data-box="lookup"] tbody tr'),
      ].map((tr) => [...tr.cells].slice(1).map((c) => c.textContent)),
    );
    assert.deepEqual(rows, entriesOf(NOTEBOOK_LOOKUP));
  });
  test("loadEmbedlab() prints the notebook's lookup", async () => {
    const { tab } = opened();
    await tab.waitForFunction(() => document.getElementById('api').textContent !== '', null, {
      timeout: 20_000,
    });
    assert.equal(await tab.textContent('#api'), NOTEBOOK_LOOKUP);
  });
  test("the element with text starts its tokenizer worker and shows GPT-2's ids", async () => {
    const { tab } = opened();
    await tab.waitForFunction(
      () =>
        /idx = \[15496, 995\]/.test(
          document.getElementById('text')?.shadowRoot?.querySelector('.demo-title')?.textContent ??
            '',
        ),
      null,
      { timeout: 30_000 },
    );
    const chips = await tab.evaluate(() =>
      [...document.getElementById('text').shadowRoot.querySelectorAll('.token-chip .token-id')].map(
        (id) => Number(id.textContent),
      ),
    );
    assert.deepEqual(chips, GPT2_HELLO_WORLD);
    assert.equal(await tab.evaluate(() => document.getElementById('text').error), null);
  });
  test('no console error, no HTTP error', () => {
    assert.deepEqual(opened().problems, []);
  });
}

describe('the npm package in each tool authors build with', () => {
  let scratch;
  let tarball;
  let browser;
  const servers = [];
  const serve = async (root, options) => {
    const server = await serveDirectory(root, options);
    servers.push(server);
    return server.url;
  };

  before(async () => {
    ({ scratch, tarball } = packTarball('consumers'));
    browser = await openBrowser();
  });
  after(async () => {
    await browser?.close();
    for (const server of servers) await server.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  for (const [name, build] of Object.entries(BUNDLERS)) {
    describe(name, () => {
      let opened;
      before(async () => {
        const { root, path: at } = build(scratch, tarball);
        opened = await browser.open(`${await serve(root)}${at}`);
      });
      pageChecks(() => opened);
    });
  }

  describe('from a CDN: the package on a second origin', () => {
    let opened;
    let cdn;
    before(async () => {
      const dir = project(scratch, tarball, 'cdn host');
      cdn = await serve(path.join(dir, 'node_modules/embedlab'), { cors: true });
      const { language, text } = readmeBlock('cdn');
      assert.equal(language, 'html');
      // The page's own script, as an author writes it against the CDN's address.
      const api = fixture('main.js')
        .replace("import 'embedlab/element';\n", '')
        .replace(
          "from 'embedlab'",
          "from 'https://cdn.jsdelivr.net/npm/embedlab@0.1.0/dist/embedlab.mjs'",
        );
      const head = `${text}\n<script type="module">\n${api}</script>`.replace(CDN, cdn);
      writeFileSync(path.join(dir, 'index.html'), page(head));
      const host = await serve(dir);
      assert.notEqual(new URL(host).origin, new URL(cdn).origin);
      opened = await browser.open(`${host}index.html`);
    });
    pageChecks(() => opened);
    test('the tokenizer worker came from the CDN', () => {
      assert.ok(
        opened.requests.includes(`${cdn}dist/tokenizer-worker.mjs`),
        opened.requests.join('\n'),
      );
    });
  });

  test('a page without Text mode loads nothing of the tokenizers', async () => {
    const dir = project(scratch, tarball, 'vite minimal', 'src/main.js');
    writeFileSync(path.join(dir, 'src/main.js'), "import 'embedlab/element';\n");
    writeFileSync(
      path.join(dir, 'index.html'),
      page(
        '<script type="module" src="/src/main.js"></script>',
        '<embedding-demo id="notebook" ids="2, 3, 1" dim="5" seed="123"></embedding-demo>',
      ),
    );
    run(dir, readmeBlock('vite'));
    const { tab, problems, requests } = await browser.open(await serve(path.join(dir, 'dist')));
    await tab.waitForFunction(
      () =>
        document.getElementById('notebook')?.shadowRoot?.querySelector('.verdict-word')
          ?.textContent === 'bit-identical',
      null,
      { timeout: 20_000 },
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(
      requests.filter((url) => /tokenizer|bench/.test(url)),
      [],
    );
  });

  test('TypeScript finds the types through exports and through typesVersions', () => {
    const dir = project(scratch, tarball, 'typescript');
    writeFileSync(
      path.join(dir, 'src/good.ts'),
      `
      import { loadEmbedlab, EmbedlabError, type Matrix, type Table } from 'embedlab';
      import type { EmbeddingDemoElement } from 'embedlab/element';
      const demo: EmbeddingDemoElement | null = document.querySelector('embedding-demo');
      loadEmbedlab({ wasmURL: '/static/embedlab-core.wasm' }).then((lab) => {
        const table: Table = lab.openSeededTable(123, 4, 5);
        const rows: Matrix = table.lookup([2, 3, 1]);
        if (demo) demo.ids = String(rows.rows);
      }, (error: unknown) => error instanceof EmbedlabError);
    `,
    );
    writeFileSync(
      path.join(dir, 'src/bad.ts'),
      `
      import { loadEmbedlab } from 'embedlab';
      loadEmbedlab().then((lab) => lab.compare('W', { rows: 1, cols: 1, data: [1] }));
    `,
    );
    const tsc = (resolution, file) => {
      try {
        execFileSync(
          'npx',
          [
            'tsc',
            '--noEmit',
            '--strict',
            '--target',
            'es2022',
            '--lib',
            'es2022,dom',
            '--module',
            resolution === 'node10' ? 'commonjs' : 'esnext',
            '--moduleResolution',
            resolution,
            file,
          ],
          { cwd: dir, encoding: 'utf8', stdio: 'pipe' },
        );
        return '';
      } catch (error) {
        return error.stdout;
      }
    };
    for (const resolution of ['bundler', 'node10']) {
      assert.equal(tsc(resolution, 'src/good.ts'), '', `moduleResolution ${resolution}`);
      // The types are real: a wrong argument is caught.
      assert.match(
        tsc(resolution, 'src/bad.ts'),
        /TS2345: Argument of type 'string' is not assignable to parameter of type 'MatrixLike'/,
      );
    }
  });
});
