// How long the pages make their reader wait, in headless Chromium: a measurement, not a test (no
// time is asserted; the `perf:page` ctest runs it and prints). After a wasm build:
//   node scripts/page-perf.mjs [--tries 3] [--pages index,tutorial,reference,host] [LABEL=SITE ...]
//     measures each site folder (default: this tree's, build/wasm/site, or EMBEDLAB_WASM_SITE as
//     ctest's perf:page sets it) in turns, try by try;
//   node scripts/page-perf.mjs --before REV [...]
//     first builds revision REV's site (git archive, its own wasm build, kept in build/perf/REV/)
//     and measures it and this tree's in turns: the before/after of docs/performance.md.
// Pages: index.html, tutorial.html, reference.html, and a host page with several
// <embedding-demo> elements (HOST_PAGE). Each try loads the page afresh, cache disabled, over an
// emulated link of 150 ms latency and 5 Mbit/s, the site served gzipped over HTTP/1.1
// (tests/e2e/static-server.mjs), then measures:
//   first verdict: navigation start to the frame that shows the first verdict word
//     'bit-identical' (the page's, or an element's), or an element's first result; the bytes that arrived before it, each with
//     what it is for (PURPOSES); the layout shifts without recent input until 2 s after it (CLS);
//   long tasks (Long Tasks API, over 50 ms) in each phase: from navigation until the page is idle
//     (no request in flight and no long task for QUIET_MS), scrolling through the whole page, and
//     on input; each attributed to the scripts the Long Animation Frames API names in it, and
//     those of the load given their main thread's CPU time from a trace;
//   elements (the document's and every shadow root's): once idle, and once scrolled through;
//   on index.html also: typing (keypress to the end of the next frame, and the Event Timing API's
//     worst) at n = 64 and n = 1024, V = 4096, d = 64; the elements at n = 64 once scrolled
//     through; and the inputs of the page's story (its seven Try buttons, then three training
//     steps).
// Prints, for each site and page, every figure for each try and their median, the long tasks
// with their attribution and the bytes before the verdict.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../tests/e2e/harness.mjs';
import { serveDirectory } from '../tests/e2e/static-server.mjs';
import { siteDir } from '../tests/site-dir.mjs';
import { chromiumPath } from '../tests/tools.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));

const NETWORK = { latencyMs: 150, downloadMbit: 5, uploadMbit: 5 };
// Idle: nothing in flight and no long task for this long.
const QUIET_MS = 2000;
const IDLE_CAP_MS = 30_000;
const TYPING = { vocab: 4096, dim: 64, keystrokes: 40, gapMs: 120, sizes: [64, 1024] };
const TARGETS = {
  firstVerdictMs: 800,
  cls: 0.05,
  longestTaskMs: 50,
  keyToPaintMedianMs: 16,
  keyToPaintWorstMs: 33,
  elementsDefaults: 1500,
  elementsN64: 2000,
};

// A host page as an author writes one: text, and several elements, most below the first screen.
const HOST_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><title>A host page</title>
<script type="module" src="embedlab/element.mjs"></script>
<style>body { max-width: 44rem; margin: 2rem auto; font: 1rem/1.5 sans-serif; padding: 0 1rem }
p.text { min-height: 12rem }</style></head><body>
<h1>Embeddings, in a tutorial</h1>
<p class="text">An embedding layer is a row lookup.</p>
<embedding-demo view="equation" ids="2, 3, 1"></embedding-demo>
<p class="text">The same rows, from a one-hot product, with the inputs to try.</p>
<embedding-demo view="compare" controls></embedding-demo>
<p class="text">What the matrices hold.</p>
<embedding-demo view="matrices" ids="4, 9, 1" dim="8"></embedding-demo>
<p class="text">The gradient.</p>
<embedding-demo view="backward"></embedding-demo>
<p class="text">Training.</p>
<embedding-demo view="train" vocab="6" dim="3"></embedding-demo>
<p class="text">Positions.</p>
<embedding-demo view="positions"></embedding-demo>
<p class="text">The tied head.</p>
<embedding-demo view="head"></embedding-demo>
<p class="text">As PyTorch prints it.</p>
<embedding-demo view="printout"></embedding-demo>
</body></html>`;

const PAGES = {
  index: 'index.html',
  tutorial: 'tutorial.html',
  reference: 'reference.html',
  host: 'host.html',
};

// What each file the pages load is for, by its name (the first pattern that matches).
const PURPOSES = [
  [/\.html$/, 'the page'],
  [/\.css$/, 'a style sheet'],
  [/^page\.mjs$/, "the page's bundle: its first screen"],
  [/^page-chunk-/, "the page's bundle: code its first screen shares with the sections below"],
  [/^page-later-/, "the page's bundle: the views of the sections below"],
  [/^element\.mjs$/, 'the <embedding-demo> element'],
  [/^element-chunk-/, 'the element: code its first views share with the others'],
  [/^element-later-/, 'the element: the views that load when built (train, positions, ...)'],
  [/^embedlab\.mjs$/, "the module's API and Emscripten's glue"],
  [/^embedlab-core\.wasm$/, "WebAssembly: the first screen's part"],
  [/^embedlab-core\.deferred\.wasm$/, 'WebAssembly: the rest (readers, training, positions)'],
  [/^compute-worker\.mjs$/, 'the compute worker'],
  [/^tokenizer-worker\.mjs$/, 'the tokenizer worker'],
  [/^tokenizer-.*\.json(\.gz)?$/, "a tokenizer's vocabulary"],
  [/^reference\.mjs$/, "the reference page's script"],
  [/\.npy$/, 'an example table'],
];
const purposeOf = (name) => PURPOSES.find(([pattern]) => pattern.test(name))?.[1] ?? '';

const median = (xs) => {
  const sorted = xs.filter((x) => x !== null && x !== undefined).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : null;
};
const round = (x) => (x === null || x === undefined ? null : Math.round(x * 10) / 10);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function parseArgs(argv) {
  const args = { tries: 3, pages: Object.keys(PAGES), sites: [], before: null };
  for (let i = 0; i < argv.length; ++i) {
    const arg = argv[i];
    if (arg === '--tries') args.tries = Number(argv[++i]);
    else if (arg === '--pages') args.pages = argv[++i].split(',');
    else if (arg === '--before') args.before = argv[++i];
    else if (/^[\w.-]+=/.test(arg)) {
      const [label, dir] = arg.split(/=(.*)/s);
      args.sites.push({ label, dir: path.resolve(dir) });
    } else throw new Error(`page-perf: unknown argument ${arg}\n${usage()}`);
  }
  if (!(args.tries > 0))
    throw new Error(`page-perf: --tries must be a positive number\n${usage()}`);
  for (const page of args.pages)
    if (!PAGES[page]) throw new Error(`page-perf: no page ${page} (${Object.keys(PAGES)})`);
  return args;
}

function usage() {
  return (
    'usage: node scripts/page-perf.mjs [--tries N] [--pages index,tutorial,reference,host] ' +
    '[--before REV] [LABEL=SITE_DIR ...]'
  );
}

// Revision rev's site, built once into build/perf/REV/ from `git archive` (its sources as
// committed), with this tree's node_modules.
function siteOf(rev) {
  const commit = execFileSync('git', ['-C', repo, 'rev-parse', '--short', rev], {
    encoding: 'utf8',
  }).trim();
  const root = path.join(repo, 'build', 'perf', commit);
  const site = path.join(root, 'build', 'wasm', 'site');
  if (existsSync(path.join(site, 'embedlab', 'embedlab.mjs'))) return { label: commit, dir: site };
  console.log(`== building ${commit}'s site in ${root} (its own wasm build: minutes)`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  execFileSync('bash', ['-c', `git -C "${repo}" archive ${commit} | tar -x -C "${root}"`], {
    stdio: 'inherit',
  });
  symlinkSync(path.join(repo, 'node_modules'), path.join(root, 'node_modules'));
  const run = (...cmd) => execFileSync('cmake', cmd, { cwd: root, stdio: 'inherit' });
  run('--preset', 'wasm');
  run('--build', '--preset', 'wasm', '-j', String(Math.min(2, os.cpus().length)));
  return { label: commit, dir: site };
}

// ---- In the page (init script, before the page's own scripts, on every load) ----

const CLOCK_MARK = 'page-perf-clock';

function recordPerf(clockMark) {
  performance.mark(clockMark); // where a trace's clock meets the page's
  const perf = { tasks: [], frames: [], shifts: [], verdictAt: null, lastEnd: 0 };
  // On a host page the first element's result is its first screen, verdict or not (a lookup
  // view has none): the frame after its first render event with a result.
  document.addEventListener(
    'render',
    ({ detail }) => {
      if (detail?.result && perf.verdictAt === null)
        requestAnimationFrame(() => {
          perf.verdictAt ??= performance.now();
        });
    },
    { capture: true },
  );
  window.__perf = perf;
  const observe = (type, push) =>
    new PerformanceObserver((list) => list.getEntries().forEach(push)).observe({
      type,
      buffered: true,
    });
  observe('longtask', (e) => {
    perf.tasks.push({ start: e.startTime, duration: e.duration });
    perf.lastEnd = Math.max(perf.lastEnd, e.startTime + e.duration);
  });
  observe('layout-shift', (e) => {
    if (!e.hadRecentInput) perf.shifts.push({ at: e.startTime, value: e.value });
  });
  observe('long-animation-frame', (e) =>
    perf.frames.push({
      start: e.startTime,
      duration: e.duration,
      renderStart: e.renderStart,
      scripts: e.scripts.map((s) => ({
        start: s.startTime,
        duration: s.duration,
        url: s.sourceURL,
        fn: s.sourceFunctionName,
        invoker: s.invoker,
        type: s.invokerType,
      })),
    }),
  );
  // The first verdict: polled once a frame, so the time is that of the frame that shows it.
  const shows = (root) =>
    [...root.querySelectorAll('.verdict .verdict-word')].some(
      (word) => word.textContent === 'bit-identical',
    );
  const poll = () => {
    const roots = [
      document,
      ...[...document.querySelectorAll('embedding-demo')].map((e) => e.shadowRoot),
    ];
    if (roots.some((root) => root && shows(root))) perf.verdictAt ??= performance.now();
    else if (perf.verdictAt === null) requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
}

// The elements of the document and of every shadow root in it.
function countElements() {
  const count = (root) => {
    let n = 0;
    for (const node of root.querySelectorAll('*')) {
      n += 1;
      if (node.shadowRoot) n += count(node.shadowRoot);
    }
    return n;
  };
  return count(document);
}

// ---- From Node ----

// Requests in flight in a browser context (the page's and its workers').
function trackRequests(context) {
  const state = { inFlight: 0, lastChange: Date.now() };
  const change = (delta) => () => {
    state.inFlight += delta;
    state.lastChange = Date.now();
  };
  context.on('request', change(+1));
  context.on('requestfinished', change(-1));
  context.on('requestfailed', change(-1));
  return state;
}

// Resolves once nothing is in flight and no long task has ended for QUIET_MS (at most cap ms).
async function idle(page, requests, cap = IDLE_CAP_MS) {
  const end = Date.now() + cap;
  while (Date.now() < end) {
    await sleep(250);
    const sinceTask = await page.evaluate(() => performance.now() - window.__perf.lastEnd);
    if (
      requests.inFlight <= 0 &&
      Date.now() - requests.lastChange >= QUIET_MS &&
      sinceTask >= QUIET_MS
    )
      return true;
  }
  return false;
}

// The long tasks since `since` (performance.now() in the page), each with the scripts that the
// long animation frames name in it: [{ start, duration, by: [{ what, ms, ours }] }].
async function longTasksSince(page, since) {
  const { tasks, frames, origin } = await page.evaluate(() => ({
    ...window.__perf,
    origin: location.origin,
  }));
  return tasks
    .filter((t) => t.start >= since)
    .map((task) => {
      const end = task.start + task.duration;
      const scripts = frames
        .filter((f) => f.start <= end && task.start <= f.start + f.duration)
        .flatMap((f) => f.scripts)
        .filter((s) => s.start < end && task.start < s.start + s.duration && s.duration >= 5)
        .sort((a, b) => b.duration - a.duration);
      const by = scripts.map((s) => {
        const file = s.url ? s.url.replace(origin, '').replace(/^\//, '') : '(no source)';
        const fn = s.fn ? ` ${s.fn}` : '';
        return {
          what: `${file}${fn} [${s.type}: ${s.invoker}]`,
          ms: round(s.duration),
          ours: s.url.startsWith(origin),
        };
      });
      return { start: round(task.start), duration: round(task.duration), by };
    });
}

const longest = (tasks) => round(Math.max(0, ...tasks.map((t) => t.duration)));

// The main thread's CPU time in each of `tasks` (performance.now() times), from a trace of the
// browser's task events ('toplevel') and the page's clock mark ('blink.user_timing'): the Long
// Tasks API gives a task's wall time, which on a busy machine includes the time the thread
// waited (for a core, for the browser process's replies, such as its font lookups).
function withCpuTimes(tasks, trace) {
  const events = JSON.parse(trace).traceEvents;
  const mark = events.findLast((e) => e.name === CLOCK_MARK); // the page's, not about:blank's
  if (!mark) return tasks;
  const main = `${mark.pid}:${mark.tid}`;
  const traced = events.filter(
    (e) =>
      e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && `${e.pid}:${e.tid}` === main,
  );
  const markStart = mark.args?.data?.startTime ?? 0;
  return tasks.map((task) => {
    const at = mark.ts + (task.start - markStart) * 1000; // µs, the trace's clock
    const match = traced
      .filter((e) => Math.abs(e.ts - at) < 2000)
      .sort(
        (a, b) => Math.abs(a.dur / 1000 - task.duration) - Math.abs(b.dur / 1000 - task.duration),
      )[0];
    return match ? { ...task, cpuMs: round(match.tdur / 1000) } : task;
  });
}

// The bytes that arrived before `before` (ms after navigation start): [{ file, purpose, gz, raw }].
async function bytesBefore(page, before) {
  const entries = await page.evaluate(() =>
    [
      ...performance.getEntriesByType('navigation'),
      ...performance.getEntriesByType('resource'),
    ].map((e) => ({
      name: e.name,
      end: e.responseEnd,
      transfer: e.transferSize,
      encoded: e.encodedBodySize,
      decoded: e.decodedBodySize,
    })),
  );
  return entries
    .filter((e) => e.end <= before && !e.name.startsWith('data:'))
    .map((e) => {
      const file = new URL(e.name).pathname.replace(/^\//, '') || 'index.html';
      return {
        file,
        purpose: purposeOf(path.basename(file)),
        gz: e.transfer || e.encoded,
        raw: e.decoded,
        end: round(e.end),
      };
    });
}

async function throttle(cdp, on) {
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: on ? NETWORK.latencyMs : 0,
    downloadThroughput: on ? (NETWORK.downloadMbit * 1e6) / 8 : -1,
    uploadThroughput: on ? (NETWORK.uploadMbit * 1e6) / 8 : -1,
  });
}

// Scrolls down a viewport at a time to the end of the page, waiting for each screen to settle;
// then back to the top.
async function scrollThrough(page, requests) {
  for (let guard = 0; guard < 200; ++guard) {
    const atEnd = await page.evaluate(() => {
      const before = scrollY;
      scrollBy(0, innerHeight * 0.8);
      return scrollY === before;
    });
    await idle(page, requests, 15_000);
    if (atEnd) break;
  }
  await page.evaluate(() => scrollTo(0, 0));
  await idle(page, requests, 15_000);
}

// ---- Typing on index.html (as the page's ids field is typed into) ----

// In the page: from each keydown to the end of the next frame (a message posted from that
// frame's animation callback runs after its rendering), and the Event Timing entries.
function startKeyWatch() {
  const watch = { keyToPaint: [], events: [] };
  window.__keys = watch;
  if (!window.__keyListener) {
    window.__keyListener = true;
    document.addEventListener(
      'keydown',
      (event) => {
        const current = window.__keys;
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () =>
            current.keyToPaint.push(performance.now() - event.timeStamp);
          channel.port2.postMessage(null);
        });
      },
      { capture: true },
    );
  }
  watch.observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.interactionId) watch.events.push(e.duration);
  });
  watch.observer.observe({ type: 'event', durationThreshold: 16 });
}

function stopKeyWatch() {
  const { keyToPaint, events, observer } = window.__keys;
  observer.disconnect();
  return { keyToPaint, events };
}

// n ids (V = TYPING.vocab, d = TYPING.dim) typed, then keystrokes that change the last id
// (1 -> 1k -> 1 ...). Returns { keyToPaint, events, tasks }.
async function typing(page, requests, n) {
  const ids = Array.from({ length: n }, (_, i) => (i * 61) % TYPING.vocab);
  ids[n - 1] = 1;
  await page.fill('#dim', String(TYPING.dim));
  await page.fill('#vocab', String(TYPING.vocab));
  await page.fill('#ids', ids.join(', '));
  await page.waitForFunction(
    (count) =>
      document.querySelector('#results .verdict .verdict-word')?.textContent === 'bit-identical' &&
      document.querySelector('#results [data-box="lookup"]')?.textContent.includes(`${count} × `),
    n,
    { timeout: 60_000 },
  );
  await idle(page, requests, 15_000);
  await page.focus('#ids');
  await page.keyboard.press('End');
  const since = await page.evaluate(() => performance.now());
  await page.evaluate(startKeyWatch);
  for (let k = 0; k < TYPING.keystrokes; ++k) {
    await page.keyboard.press(k % 2 === 0 ? String(1 + ((k / 2) % 9)) : 'Backspace');
    await sleep(TYPING.gapMs);
  }
  await sleep(1000);
  const watched = await page.evaluate(stopKeyWatch);
  if (watched.keyToPaint.length !== TYPING.keystrokes)
    throw new Error(
      `${watched.keyToPaint.length} key-to-paint times for ${TYPING.keystrokes} keys`,
    );
  const value = await page.inputValue('#ids');
  if (!value.endsWith(', 1')) throw new Error(`the ids end "${value.slice(-12)}", not ", 1"`);
  await page.evaluate(() => document.activeElement.blur());
  return { ...watched, tasks: await longTasksSince(page, since) };
}

// The story's Try buttons: the training one first, then three steps of the Train view (at the
// page's first ids: later Try buttons make V GPT-2's, more than the Train view steps), then the
// others in order.
async function storyInputs(page, requests) {
  const since = await page.evaluate(() => performance.now());
  await page.click('#story button[data-try-train]');
  await idle(page, requests, 30_000);
  const step = page.locator('#train button[data-action="step"]');
  for (let k = 0; k < 3; ++k) {
    await step.click();
    await idle(page, requests, 15_000);
  }
  for (const button of await page.$$('#story button.try:not([data-try-train])')) {
    await button.click();
    await idle(page, requests, 30_000);
  }
  return longTasksSince(page, since);
}

// One try of one page of one site: every figure.
async function measure(browser, site, name) {
  const server = await serveDirectory(site.dir, { pages: { '/host.html': HOST_PAGE } });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const requests = trackRequests(context);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await page.addInitScript(recordPerf, CLOCK_MARK);
    await throttle(cdp, true);
    await browser.startTracing(undefined, { categories: ['toplevel', 'blink.user_timing'] });
    await page.goto(`${server.url}${PAGES[name]}`);
    await page.waitForFunction(() => window.__perf.verdictAt !== null, null, { timeout: 60_000 });
    await idle(page, requests);
    const trace = String(await browser.stopTracing());
    await throttle(cdp, false);
    const verdictAt = await page.evaluate(() => window.__perf.verdictAt);
    const figures = {
      firstVerdictMs: round(verdictAt),
      cls: await page.evaluate(
        (until) =>
          window.__perf.shifts
            .filter((shift) => shift.at <= until)
            .reduce((sum, shift) => sum + shift.value, 0),
        verdictAt + 2000,
      ),
      bytes: await bytesBefore(page, verdictAt),
      loadTasks: withCpuTimes(await longTasksSince(page, 0), trace),
      elementsAtLoad: await page.evaluate(countElements),
    };
    let since = await page.evaluate(() => performance.now());
    await scrollThrough(page, requests);
    figures.scrollTasks = await longTasksSince(page, since);
    figures.elementsDefaults = await page.evaluate(countElements);
    if (name === 'index') {
      for (const n of TYPING.sizes) {
        const typed = await typing(page, requests, n);
        figures[`typing${n}`] = {
          medianMs: round(median(typed.keyToPaint)),
          worstMs: round(Math.max(...typed.keyToPaint)),
          eventWorstMs: Math.max(0, ...typed.events),
          tasks: typed.tasks,
        };
        if (n === 64) {
          since = await page.evaluate(() => performance.now());
          await scrollThrough(page, requests);
          figures.scrollTasks.push(...(await longTasksSince(page, since)));
          figures.elementsN64 = await page.evaluate(countElements);
        }
      }
      figures.inputTasks = await storyInputs(page, requests);
    }
    figures.problems = problems;
    return figures;
  } finally {
    await context.close();
    await server.close();
  }
}

// ---- Report ----

const ROWS = [
  ['first verdict, 150 ms / 5 Mbit/s (ms)', (f) => f.firstVerdictMs, TARGETS.firstVerdictMs],
  ['CLS, until 2 s after it', (f) => Math.round(f.cls * 1000) / 1000, TARGETS.cls],
  ['bytes before it (KB sent, gzip)', (f) => round(f.bytes.reduce((s, b) => s + b.gz, 0) / 1000)],
  ['longest task, load to idle (ms)', (f) => longest(f.loadTasks), TARGETS.longestTaskMs],
  ['tasks over 50 ms, load to idle', (f) => f.loadTasks.length],
  ['longest task, scrolling through (ms)', (f) => longest(f.scrollTasks), TARGETS.longestTaskMs],
  [
    'longest task, on input (ms)',
    (f) =>
      f.inputTasks &&
      longest([...f.inputTasks, ...TYPING.sizes.flatMap((n) => f[`typing${n}`].tasks)]),
    TARGETS.longestTaskMs,
  ],
  ['elements once idle', (f) => f.elementsAtLoad],
  // The element budgets are the index page's (a host page holds what its author writes).
  [
    'elements, every section shown (defaults)',
    (f) => f.elementsDefaults,
    TARGETS.elementsDefaults,
    ['index'],
  ],
  ['elements, every section shown, n = 64', (f) => f.elementsN64, TARGETS.elementsN64, ['index']],
  ...TYPING.sizes.flatMap((n) => [
    [
      `keypress → paint, median, n = ${n} (ms)`,
      (f) => f[`typing${n}`]?.medianMs,
      n === 64 ? TARGETS.keyToPaintMedianMs : undefined,
    ],
    [
      `keypress → paint, worst, n = ${n} (ms)`,
      (f) => f[`typing${n}`]?.worstMs,
      n === 64 ? TARGETS.keyToPaintWorstMs : undefined,
    ],
    [`Event Timing worst, n = ${n} (ms)`, (f) => f[`typing${n}`]?.eventWorstMs],
  ]),
];

const cell = (value) => (value === null || value === undefined ? '–' : String(value));

function report(site, name, tries, load) {
  const lines = [
    '',
    `### ${site.label}: ${PAGES[name]}`,
    '',
    `load average ${load.map((l) => l.map((x) => x.toFixed(1)).join(', ')).join(' → ')}`,
    '',
    `| | ${tries.map((_, i) => `try ${i + 1}`).join(' | ')} | median | target |`,
    `|---|${tries.map(() => '---:').join('|')}|---:|---|`,
  ];
  for (const [what, get, anyTarget, targetPages] of ROWS) {
    const values = tries.map(get);
    if (values.every((v) => v === null || v === undefined)) continue;
    const target = !targetPages || targetPages.includes(name) ? anyTarget : undefined;
    const mid = median(values);
    const verdict =
      target === undefined || mid === null ? '' : `≤ ${target} ${mid <= target ? '✓' : '✗'}`;
    lines.push(`| ${what} | ${values.map(cell).join(' | ')} | ${cell(mid)} | ${verdict} |`);
  }
  const tasks = tries.flatMap((f, i) =>
    [
      ['load', f.loadTasks],
      ['scroll', f.scrollTasks],
      ...TYPING.sizes.map((n) => [`typing n = ${n}`, f[`typing${n}`]?.tasks ?? []]),
      ['story inputs', f.inputTasks ?? []],
    ].flatMap(([phase, list]) => list.map((t) => ({ ...t, phase, try: i + 1 }))),
  );
  lines.push('', `Long tasks (all tries): ${tasks.length}`);
  for (const t of tasks) {
    const by = t.by.length ? t.by.map((b) => `${b.what} ${b.ms} ms`).join('; ') : 'no script named';
    const cpu = t.cpuMs === undefined ? '' : ` (the main thread's CPU ${t.cpuMs} ms)`;
    lines.push(`- try ${t.try}, ${t.phase}, at ${t.start} ms: ${t.duration} ms${cpu} — ${by}`);
  }
  const first = tries[0];
  lines.push('', `Bytes before the first verdict (try 1, at ${first.firstVerdictMs} ms):`, '');
  lines.push('| file | for | sent (gzip) | raw | arrived (ms) |', '|---|---|---:|---:|---:|');
  for (const b of first.bytes) {
    lines.push(`| ${b.file} | ${b.purpose} | ${b.gz} | ${b.raw} | ${b.end} |`);
  }
  const problems = tries.flatMap((f) => f.problems);
  if (problems.length) lines.push('', `Page errors: ${problems.join('; ')}`);
  return lines.join('\n');
}

// With several sites: every figure's median, site beside site, page by page.
function sideBySide(sites, pages, results) {
  const lines = [
    '',
    `### Medians of ${results.get(`${sites[0].label}\0${pages[0]}`).tries.length} tries, side by side`,
    '',
    `| page | | ${sites.map((site) => site.label).join(' | ')} | target |`,
    `|---|---|${sites.map(() => '---:').join('|')}|---|`,
  ];
  for (const name of pages) {
    for (const [what, get, anyTarget, targetPages] of ROWS) {
      const target = !targetPages || targetPages.includes(name) ? anyTarget : undefined;
      const values = sites.map((site) =>
        median(results.get(`${site.label}\0${name}`).tries.map(get)),
      );
      if (values.every((v) => v === null)) continue;
      lines.push(
        `| ${PAGES[name]} | ${what} | ${values.map(cell).join(' | ')} | ${target === undefined ? '' : `≤ ${target}`} |`,
      );
    }
  }
  return lines.join('\n');
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const sites = [...args.sites];
  if (args.before) sites.push(siteOf(args.before));
  if (!sites.length || args.before) sites.push({ label: 'this tree', dir: siteDir });
  for (const site of sites) {
    if (!existsSync(path.join(site.dir, 'embedlab', 'embedlab.mjs')))
      throw new Error(`no site at ${site.dir}: build the wasm preset first`);
  }
  const browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
  const cpus = os.cpus();
  console.log(
    `# page-perf: ${cpus.length} × ${cpus[0]?.model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ` +
      `Chromium ${browser.version()}, ${args.tries} tries, sites: ${sites.map((s) => `${s.label} (${s.dir})`).join(', ')}`,
  );
  const results = new Map(); // `${site}\0${page}` -> { tries, load }
  // Try by try, site by site: the machine's changing load falls on every site alike.
  for (let t = 0; t < args.tries; ++t) {
    for (const name of args.pages) {
      for (const site of sites) {
        const key = `${site.label}\0${name}`;
        if (!results.has(key)) results.set(key, { tries: [], load: [os.loadavg()] });
        const entry = results.get(key);
        const started = Date.now();
        entry.tries.push(await measure(browser, site, name));
        entry.load.push(os.loadavg());
        console.log(
          `# try ${t + 1}, ${site.label}, ${PAGES[name]}: ${((Date.now() - started) / 1000).toFixed(0)} s, load ${os.loadavg()[0].toFixed(1)}`,
        );
      }
    }
  }
  await browser.close();
  for (const site of sites) {
    for (const name of args.pages) {
      const { tries, load } = results.get(`${site.label}\0${name}`);
      console.log(report(site, name, tries, [load[0], load.at(-1)]));
    }
  }
  if (sites.length > 1) console.log(sideBySide(sites, args.pages, results));
}

await main();
