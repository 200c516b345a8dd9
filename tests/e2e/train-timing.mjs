// How long the Train view's defaults take to learn, and what Play costs the page, in headless
// Chromium (a measurement, not a test: `node tests/e2e/train-timing.mjs [runs]` after a wasm
// preset build). For each run, a fresh page: the seconds from Play to the step counter's
// STEPS_TO_HALVE (train-view.mjs), with the first loss and the loss then, as the page shows
// them; then, Play still playing, how long a key typed into the page's ids field takes to reach
// the screen; and, from a trace of all of it, the page's longest main-thread task (wall time, and
// the thread's own CPU time in it: a shared machine stretches the wall) and the most CPU any one
// task took. Prints each run and the medians, with the load average.
import { loadavg } from 'node:os';
import { openSite } from './harness.mjs';
import { STEPS_TO_HALVE, VIEW } from './train-view.mjs';

const runs = Number(process.argv[2] ?? 3);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

// In the page: types `value` into the page's ids field and resolves to the ms from the input
// event to the frame after the one that paints it.
function typeAndPaint(value) {
  return new Promise((resolve) => {
    const input = document.getElementById('ids');
    const start = performance.now();
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - start)));
  });
}

async function run() {
  const env = await openSite();
  const { page } = env;
  await page.locator(VIEW).scrollIntoViewIfNeeded();
  await page.waitForFunction((view) => {
    const status = document.querySelector(`${view} [data-part="status"]`);
    return status.dataset.steps === '0' && status.textContent !== '';
  }, VIEW);
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  const traced = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', {
    categories: 'toplevel,devtools.timeline',
    transferMode: 'ReportEvents',
  });
  const start = Date.now();
  await page.click(`${VIEW} [data-action="play"]`);
  await page.waitForFunction(
    ([view, steps]) =>
      Number(document.querySelector(`${view} [data-part="status"]`).dataset.steps) >= steps,
    [VIEW, STEPS_TO_HALVE],
    { timeout: 600_000, polling: 'raf' },
  );
  const seconds = (Date.now() - start) / 1000;
  const { steps, loss, first } = await page.$eval(`${VIEW} [data-part="status"]`, (node) => ({
    steps: Number(node.dataset.steps),
    loss: Number(node.dataset.loss),
    first: Number(node.dataset.firstLoss),
  }));
  // Keys typed into the page's own field while it plays on.
  const keys = [];
  for (const value of ['2, 3, 1, 0', '2, 3, 1, 0, 1', '2, 3, 1']) {
    await page.waitForTimeout(500);
    keys.push(await page.evaluate(typeAndPaint, value));
  }
  await cdp.send('Tracing.end');
  await traced;
  await page.click(`${VIEW} [data-action="play"]`);
  await env.close();
  // The renderer's main thread: the one that styles the page.
  const counts = new Map();
  for (const e of events) {
    if (e.name === 'UpdateLayoutTree') counts.set(e.tid, (counts.get(e.tid) ?? 0) + 1);
  }
  const main = [...counts].sort((a, b) => b[1] - a[1])[0][0];
  const tasks = events.filter(
    (e) => e.tid === main && e.name === 'ThreadControllerImpl::RunTask' && e.dur,
  );
  const longest = tasks.reduce((a, b) => (b.dur > a.dur ? b : a));
  const mostCpu = Math.max(...tasks.map((e) => e.tdur ?? 0));
  return {
    seconds,
    steps,
    loss,
    first,
    longestWall: longest.dur / 1000,
    longestItsCpu: (longest.tdur ?? 0) / 1000,
    longestCpu: mostCpu / 1000,
    key: Math.max(...keys),
  };
}

const results = [];
for (let k = 0; k < runs; ++k) {
  const r = await run();
  results.push(r);
  console.log(
    `run ${k + 1}: ${round(r.seconds)} s from Play to step ${r.steps} (the counter's ` +
      `${STEPS_TO_HALVE}); loss ${round(r.loss, 4)}, the first ${round(r.first, 4)} ` +
      `(${round((100 * r.loss) / r.first)}% of it); the longest main-thread task ` +
      `${round(r.longestWall)} ms wall (${round(r.longestItsCpu)} ms of the thread's CPU), the ` +
      `most CPU in one task ${round(r.longestCpu)} ms; a key typed into the ids field painted ` +
      `within ${round(r.key)} ms`,
  );
}
const m = (key) => round(median(results.map((r) => r[key])));
console.log(
  `median of ${runs}: ${m('seconds')} s to step ${STEPS_TO_HALVE}; the longest task ` +
    `${m('longestWall')} ms wall, ${m('longestCpu')} ms CPU; a key to paint ${m('key')} ms; ` +
    `load average ${loadavg()
      .map((x) => round(x))
      .join(', ')}`,
);
