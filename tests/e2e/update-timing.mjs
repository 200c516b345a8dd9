// How long the page's main thread is busy per update, in headless Chromium (a measurement, not
// a test: `node tests/e2e/update-timing.mjs [runs]` after a wasm preset build). Prints medians:
//   small: n = 64, V = 4096, d = 64: the last id changed per update, as when typing (W cached),
//     all 64 ids changed per update (W cached), and a new seed per update (a new W); each from
//     the input event to the end of style and layout, split into the module's work alone and
//     the rest (rendering the tables and the views).
//   gpt2: V = 50257, d = 768, n = 64 and a new seed: the wall time until the verdict shows, and
//     the longest main-thread task while the worker computes and after its result arrives.
import { openSite, waitForVerdict } from './harness.mjs';

const runs = Number(process.argv[2] ?? 15);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x) => Math.round(x * 10) / 10;

// In the page: sets field's value, fires its input event, and resolves to the ms from the frame
// that runs the page's update to the end of the style and layout it causes.
function timeUpdate([field, value]) {
  return new Promise((resolve) => {
    let start;
    requestAnimationFrame(() => {
      start = performance.now();
    });
    const input = document.getElementById(field);
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    requestAnimationFrame(() => {
      document.body.getBoundingClientRect();
      resolve(performance.now() - start);
    });
  });
}

// In the page: the median ms of the module's work alone (both routes, one call, the table opened
// once) for the page's inputs.
async function timeRun(count) {
  const { loadEmbedlab } = await import('./embedlab/embedlab.mjs');
  const lab = await loadEmbedlab();
  const value = (id) => document.getElementById(id).value;
  const ids = lab.parseIds(value('ids'));
  const table = lab.openSeededTable(
    Number(value('seed')),
    Number(value('vocab')),
    Number(value('dim')),
  );
  table.product(ids);
  const times = [];
  for (let i = 0; i < count; ++i) {
    const start = performance.now();
    table.product(ids);
    times.push(performance.now() - start);
  }
  table.delete();
  return times.sort((a, b) => a - b)[Math.floor(count / 2)];
}

const env = await openSite();
const { page } = env;
const smallIds = (shift) =>
  Array.from({ length: 64 }, (_, i) => (i * 61 + shift) % 4096).join(', ');
const lastIdTyped = (id) => `${smallIds(0).replace(/, \d+$/, '')}, ${id}`;
await page.fill('#dim', '64');
await page.fill('#vocab', '4096');
await page.fill('#ids', smallIds(0));
await waitForVerdict(page, 'bit-identical');
const typedUpdates = [];
const idUpdates = [];
const seedUpdates = [];
for (let r = 1; r <= runs; ++r)
  typedUpdates.push(await page.evaluate(timeUpdate, ['ids', lastIdTyped(r)]));
for (let r = 1; r <= runs; ++r)
  idUpdates.push(await page.evaluate(timeUpdate, ['ids', smallIds(r)]));
for (let r = 1; r <= runs; ++r)
  seedUpdates.push(await page.evaluate(timeUpdate, ['seed', String(1000 + r)]));
const runOnly = await page.evaluate(timeRun, runs);

// GPT-2: long tasks (over 50 ms) are recorded by the browser.
await page.fill(
  '#ids',
  Array.from({ length: 64 }, (_, i) => (i * 7919 + 50256) % 50257).join(', '),
);
await page.fill('#dim', '768');
await page.fill('#vocab', '50257');
await waitForVerdict(page, 'bit-identical', 300_000);
const gpt2 = [];
for (let r = 1; r <= Math.min(runs, 5); ++r) {
  gpt2.push(
    await page.evaluate(
      (seed) =>
        new Promise((resolve) => {
          const tasks = [];
          const observer = new PerformanceObserver((list) => tasks.push(...list.getEntries()));
          observer.observe({ type: 'longtask' });
          const start = performance.now();
          let shown = null;
          const verdict = document.querySelector('#results .verdict');
          const watch = new MutationObserver(() => {
            if (
              shown === null &&
              verdict.querySelector('.verdict-word')?.textContent === 'bit-identical'
            ) {
              shown = performance.now();
            }
          });
          watch.observe(verdict, { childList: true, subtree: true });
          const input = document.getElementById('seed');
          input.value = seed;
          input.dispatchEvent(new Event('input', { bubbles: true }));
          const poll = () => {
            if (shown === null) {
              setTimeout(poll, 100);
              return;
            }
            // Let the tasks after the result (rendering, the views) finish and be reported.
            setTimeout(() => {
              observer.disconnect();
              watch.disconnect();
              const during = tasks.filter((t) => t.startTime + t.duration < shown - 1);
              const longest = (list) => Math.max(0, ...list.map((t) => t.duration));
              resolve({ wall: shown - start, during: longest(during), after: longest(tasks) });
            }, 1000);
          };
          poll();
        }),
      String(2000 + r),
    ),
  );
}

console.log(
  JSON.stringify(
    {
      runs,
      small: {
        lastIdUpdateMs: round(median(typedUpdates)),
        idUpdateMs: round(median(idUpdates)),
        newSeedUpdateMs: round(median(seedUpdates)),
        computeRunMs: round(runOnly),
      },
      gpt2: {
        resultWallMs: round(median(gpt2.map((g) => g.wall))),
        longestTaskWhileComputingMs: round(median(gpt2.map((g) => g.during))),
        longestTaskIncludingResultMs: round(median(gpt2.map((g) => g.after))),
      },
    },
    null,
    2,
  ),
);
env.assertClean();
await env.close();
