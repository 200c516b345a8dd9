// What every end-to-end test needs: the built site served on 127.0.0.1, headless Chromium
// through playwright-core (flags for a container, as root, without a GPU), and a record of
// console errors, warnings and page errors, which must stay empty.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';
import { siteDir } from '../site-dir.mjs';
import { serveDirectory } from './static-server.mjs';
import { chromiumPath } from '../tools.mjs';

// Playwright's own --disable-features (playwright-core's chromiumSwitches, at the version
// package-lock.json pins). Chromium reads the last --disable-features only, so CHROMIUM_ARGS's
// repeats them; e2e:browser fails where they differ from the ones Playwright passes.
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];
// Chrome's omnibox popup, a WebUI page that each new window (each browser context) loads in a
// renderer of its own: 0.3 to 0.6 s of work on this machine's two cores while the page under
// test loads beside it. A reader's window loaded it long before they opened our page.
export const OMNIBOX_WEBUI_FEATURES = [
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
  'WebUIOmniboxFullPopup',
];

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_WEBUI_FEATURES].join(',')}`,
];

// Opens the page at its default viewport (1280 x 800). Returns { page, url, profile, problems,
// assertClean, close }: problems lists every console error/warning and page error seen so far;
// profile is the browser's user data folder, which its processes' command lines name.
// weights: the Weights disclosure open at every load, as a learner who changes W opens it.
export async function openSite({ weights = false } = {}) {
  assert.ok(
    existsSync(path.join(siteDir, 'embedlab', 'embedlab.mjs')),
    `no WebAssembly site at ${siteDir}: build the wasm preset first ` +
      '(cmake --preset wasm && cmake --build --preset wasm)',
  );
  const server = await serveDirectory(siteDir);
  const profile = mkdtempSync(path.join(os.tmpdir(), 'embedlab-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  if (weights) {
    await page.addInitScript(() =>
      addEventListener('DOMContentLoaded', () => {
        document.getElementById('weights-disclosure')?.setAttribute('open', '');
      }),
    );
  }
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      problems.push(`console ${message.type()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.goto(server.url);
  await waitForVerdict(page, 'bit-identical');
  return {
    page,
    url: server.url,
    profile,
    problems,
    assertClean: () => assert.deepEqual(problems, [], 'the console must stay clean'),
    close: async () => {
      await context.close();
      await server.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

// The suite's site: opened before its first test, closed after its last. The object returned
// takes open()'s fields (page, url, assertClean, close, …) once the suite's before() has run.
export function sitePerSuite(open = () => openSite()) {
  const env = {};
  before(async () => Object.assign(env, await open()));
  after(async () => env.close?.());
  return env;
}

// An init script (page.addInitScript, then a reload): a log, window.recorded, of what the
// page's workers answer ({ worker: kind }), in the order the page receives it.
export function recordWorkerAnswers() {
  window.recorded = [];
  const PageWorker = window.Worker;
  window.Worker = class extends PageWorker {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', ({ data }) => {
        const kind = ['first', 'progress', 'last', 'stopped', 'computed', 'error', 'ready'].find(
          (key) => data[key] !== undefined,
        );
        window.recorded.push({ worker: kind ?? 'other' });
      });
    }
  };
}

// The words of the verdict while there is no new result to check.
const PENDING_WORDS = ['computing', 'tokenizing', 'no result'];
// A section below the first screen that has not caught up yet (web/page/deferred-redraw.mjs).
const BUSY_SECTION = 'main [aria-busy="true"]';

// Waits until the verdict says `word`. For a result, also until the sections below the first
// screen have caught up with it (web/page/deferred-redraw.mjs marks them aria-busy until then).
export function waitForVerdict(page, word, timeout = 10_000) {
  return page.waitForFunction(
    ([expected, pending, busy]) =>
      document.querySelector('#results .verdict .verdict-word')?.textContent === expected &&
      (pending.includes(expected) || !document.querySelector(busy)),
    [word, PENDING_WORDS, BUSY_SECTION],
    { timeout },
  );
}

// Waits until the lookup table shows a fresh result for these ids (its row labels, and its
// caption's n), so that no check reads the result of an earlier input that also matched, and
// the sections below have caught up with it. A table of more ids than it shows keeps the first
// and last three. A lookup drawn as a heatmap has its table behind "Numbers", which is opened,
// as a learner who reads its rows opens it.
export function waitForLookupRows(page, ids, timeout = 10_000) {
  return page.waitForFunction(
    ([expected, busy]) => {
      if (document.querySelector(busy)) return false;
      const numbers = document.querySelector('#results [data-box="lookup"] details.numbers');
      if (numbers && !numbers.open) numbers.open = true;
      const caption =
        document.querySelector('#results [data-box="lookup"] caption')?.textContent ?? '';
      if (!caption.includes(`: ${expected.length} × `)) return false;
      const labels = [...document.querySelectorAll('#results [data-box="lookup"] tbody th')]
        .map((th) => th.textContent)
        .filter((label) => label !== '⋮');
      if (labels.length === expected.length) return labels.join(',') === expected.join(',');
      const ends = (list) => [...list.slice(0, 3), ...list.slice(-3)].join(',');
      return ends(labels) === ends(expected);
    },
    [ids.map(String), BUSY_SECTION],
    { timeout },
  );
}

// Waits until the box `selector` shows a matrix of `shape` ("4 × 8000"): said by its table's
// caption, or by the heatmap's name where the matrix is drawn as one (its table is behind
// "Numbers"). A wait that runs out says what the page showed instead: the box, the status line
// and the verdict.
export async function waitForShape(page, selector, shape, timeout = 30_000) {
  try {
    await page.waitForFunction(
      ([root, wanted]) => {
        const box = document.querySelector(root);
        const names = [
          box?.querySelector(':scope > table caption')?.textContent,
          box?.querySelector('canvas.heatmap-canvas')?.getAttribute('aria-label'),
        ];
        const exact = new RegExp(`[:,] ${wanted}( |$)`);
        return names.some((name) => name && exact.test(name));
      },
      [selector, shape],
      { timeout },
    );
  } catch (error) {
    const shown = await page.evaluate(
      (root) =>
        [root, '#status', '#results .verdict-word']
          .map((s) => document.querySelector(s)?.textContent?.trim().slice(0, 200))
          .join(' | '),
      selector,
    );
    throw new Error(
      `${error.message}\nwaiting for ${shape} in ${selector}, the page showed: ${shown}`,
      { cause: error },
    );
  }
}

// The most elements the whole page may hold at n = 64, V = 4096, d = 64: what grows with n is
// drawn summarised, and the matrices below the first screen are printed as text (an element per
// row, none per value).
export const PAGE_ELEMENTS = 2000;
// And at its defaults (the notebook's ids), every section built.
export const PAGE_ELEMENTS_AT_DEFAULTS = 1500;

// The page's table boxes, by the name of the matrix each shows.
export const BOXES = Object.freeze({
  lookup: '#results [data-box="lookup"]',
  product: '#results [data-box="product"]',
  weight: '#matrices [data-box="weight"]',
  onehot: '#matrices [data-box="onehot"]',
  linear: '#matrices [data-box="linear"]',
});

// Opens every "Numbers" under `selector` (the summarised table of a matrix drawn as a heatmap,
// which is drawn only once opened) and waits until each shows its table.
export async function openNumbers(page, selector) {
  await page.$$eval(`${selector} details.numbers`, (all) =>
    all.forEach((details) => {
      details.open = true;
    }),
  );
  await page.waitForFunction(
    (root) =>
      [...document.querySelectorAll(`${root} details.numbers`)].every((details) =>
        details.querySelector('table'),
      ),
    selector,
  );
}

// The cell texts of the table in the box `selector` names: [[row label, cell, cell, ...], ...]
// (tbody rows), its "Numbers" opened if it has one.
export async function tableCells(page, selector) {
  await openNumbers(page, selector);
  const box = await page.$(selector);
  return box ? box.evaluate(boxCells) : [];
}

// In the page: the cells of the matrix in `box`, [[row label, cell, ...], ...], from its table's
// body rows, or from the lines of a matrix printed as text (web/draw/render-matrix.mjs's
// matrixText), whose values no element holds one by one.
export function boxCells(box) {
  const printed = box.querySelector('.matrix-text');
  if (!printed) {
    return [...box.querySelectorAll('tbody tr')].map((row) =>
      Array.from(row.children, (cell) => cell.textContent),
    );
  }
  // A line a row, after the header's.
  const lines = (pre) => printed.querySelector(pre).textContent.split('\n').slice(1);
  const labels = lines('.matrix-labels');
  return lines('.matrix-values').map((line, r) => [labels[r].trim(), ...line.trim().split(/\s+/)]);
}

// How far the page reaches past the viewport sideways, in CSS pixels: 0 when nothing overflows.
// The size the page's DOM bound is stated for: n = 64 distinct ids, V = 4096, d = 64, shown.
// Returns the ids.
export async function showLargeCase(page) {
  const ids = Array.from({ length: 64 }, (_, i) => (i * 97 + 5) % 4096);
  await page.fill('#vocab', '4096');
  await page.fill('#dim', '64');
  await page.fill('#ids', ids.join(', '));
  await page.waitForFunction(
    () =>
      document.querySelector('#results [data-box="lookup"] canvas')?.getAttribute('aria-label') ===
      'embedding(idx) as a heatmap, 64 × 64',
  );
  await waitForVerdict(page, 'bit-identical');
  return ids;
}

// A CSS colour (a custom property, a color-mix()) as the page computes it, to compare with the
// colour a node is painted in.
export function computedColor(page, css) {
  return page.evaluate((value) => {
    const probe = document.createElement('span');
    probe.style.backgroundColor = value;
    document.body.append(probe);
    const color = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return color;
  }, css);
}

// Resolves two animation frames later: what a resize or a redraw set off (the picture's
// ResizeObserver, the next paint) has run.
export function frames(page) {
  return page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
  );
}

// How far the page is wider than the viewport, measured two frames on (frames()): the picture
// refits its canvas to a new width in the frame that reports the width (its ResizeObserver).
export async function pageOverflow(page) {
  await frames(page);
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

export async function errorText(page, id) {
  const box = page.locator(`#${id}`);
  return (await box.isVisible()) ? box.textContent() : '';
}
