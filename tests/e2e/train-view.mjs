// What the Train view's end-to-end tests share (train.test.mjs without a head, train-head.test.mjs
// with one): its fields and their errors, a training set as the learner sets it, Step, the rows
// lit and the timeline, the printout run in PyTorch, and the view at 1280 and 375 px.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, afterEach, before } from 'node:test';
import { openSite, pageOverflow, waitForVerdict } from './harness.mjs';
import { pythonPath } from '../tools.mjs';

export const VIEW = '#train';

// The steps the page's defaults take to bring the loss below half its first value, with room to
// spare: in the core (embedlab train, the same program) the loss halves by step 18 and is about
// a sixth of the first at step 30, the tenth epoch.
export const STEPS_TO_HALVE = 30;

// In a describe(): a page for its tests, opened before them (at url(env), when given, scrolled
// to the Train view), closed after them, its console clean after each. Returns a getter of
// { env, view } (trainView's).
export function trainPage(url = null) {
  const opened = {};
  before(async () => {
    opened.env = await openSite();
    opened.view = trainView(opened.env);
    if (url) await opened.view.openTrain(url(opened.env));
  });
  after(async () => {
    await opened.env?.close();
  });
  afterEach(() => opened.env.assertClean());
  return () => opened;
}

// env: openSite()'s.
export function trainView(env) {
  const field = (name) => `${VIEW} [name="${name}"]`;

  // The error shown under a field, with the field's aria-invalid, or null where none is shown.
  const fieldError = (name) =>
    env.page.evaluate((selector) => {
      const input = document.querySelector(selector);
      const box = document.getElementById(input.getAttribute('aria-describedby'));
      return box.hidden ? null : [box.textContent, input.getAttribute('aria-invalid')];
    }, field(name));

  // Resolves once the field is marked invalid.
  const invalid = (name) =>
    env.page.waitForFunction(
      (selector) => document.querySelector(selector).getAttribute('aria-invalid') === 'true',
      field(name),
    );

  // Resolves once the view shows step k of its inputs (not stale).
  const waitForStep = (k) =>
    env.page.waitForFunction(
      ([view, k]) => {
        const root = document.querySelector(`${view} .train-view`);
        const status = root.querySelector('[data-part="status"]');
        return (
          !root.classList.contains('stale') &&
          status.textContent !== '' &&
          status.dataset.steps === String(k)
        );
      },
      [VIEW, k],
    );

  // The page at url, scrolled to the Train view once it says what it trains.
  async function openTrain(url) {
    const { page } = env;
    await page.goto(url);
    await waitForVerdict(page, 'bit-identical');
    await page.locator(VIEW).scrollIntoViewIfNeeded();
    await page.waitForFunction(
      (view) => document.querySelector(`${view} [data-part="status"]`)?.textContent !== '',
      VIEW,
    );
  }

  // The data typed as 'ids' or as 'text', picked as the learner does, by the switch's label.
  async function dataFrom(value) {
    if (await env.page.isChecked(`${VIEW} input[name="batches-from"][value="${value}"]`)) return;
    await env.page.click(`${VIEW} .train-batches-head label[for$="-from-${value}"]`);
  }

  // The head, the optimizer with its hyperparameters as typed (by input name: lr beside it,
  // the others behind the disclosure), sparse=True and padding_idx (without a head), the ids
  // (batches, or with a head one sequence) and the loader (with a head: { maxLength, stride,
  // batchSize, shuffle, positions }); resolves at step 0 of that training.
  async function setTraining({
    head = 'none',
    optimizer,
    hyper = {},
    sparse = false,
    paddingIdx = '',
    batches = '1,2; 3,3; 0,1',
    loader = null,
  }) {
    const { page } = env;
    await dataFrom('ids');
    // sparse=True and padding_idx are shown without a head only.
    await page.selectOption(field('head'), 'none');
    await page.setChecked(field('sparse'), sparse);
    await page.fill(field('padding-idx'), paddingIdx);
    await page.fill(field('batches'), batches);
    await page.selectOption(field('head'), head);
    await page.selectOption(field('optimizer'), optimizer);
    for (const [name, text] of Object.entries(hyper)) {
      if (name !== 'lr') await openMore();
      if (typeof text === 'boolean') await page.setChecked(field(name), text);
      else await page.fill(field(name), text);
    }
    if (loader) {
      await page.fill(field('max-length'), String(loader.maxLength));
      await page.fill(field('stride'), String(loader.stride));
      await page.fill(field('batch-size'), String(loader.batchSize));
      await page.setChecked(field('shuffle'), loader.shuffle);
      await page.setChecked(field('positions'), loader.positions);
    }
    await waitForStep(0);
  }

  // The optimizer's arguments beyond lr, behind their disclosure, shown.
  async function openMore() {
    const more = `${VIEW} details.train-more`;
    if (!(await env.page.locator(more).evaluate((node) => node.open)))
      await env.page.click(`${more} summary`);
  }

  async function step(k) {
    await env.page.click(`${VIEW} [data-action="step"]`);
    await waitForStep(k);
  }

  // At 1280 and then 375 px, the view in sight and the page no wider than the screen: check(width)
  // for each; then back to 1280 px.
  async function atWidths(check) {
    const { page } = env;
    for (const [width, height] of [
      [1280, 900],
      [375, 800],
    ]) {
      await page.setViewportSize({ width, height });
      await page.locator(VIEW).scrollIntoViewIfNeeded();
      assert.equal(await pageOverflow(page), 0, `sideways overflow at ${width} px`);
      await check(width);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  // Once the part of the view (data-draw: 'weights', 'steps', 'predictions', 'points') is on
  // screen and shows the step the view is at. Without a head every part is drawn at once.
  async function drawnPart(part) {
    const selector = `${VIEW} [data-draw="${part}"]`;
    if (await env.page.locator(`${VIEW} [data-part="charts"]`).isHidden()) return;
    await env.page.locator(selector).scrollIntoViewIfNeeded();
    await env.page.waitForFunction(
      ([view, selector]) =>
        document.querySelector(selector).dataset.drawn ===
        document.querySelector(`${view} [data-part="status"]`).dataset.steps,
      [VIEW, selector],
    );
  }

  // The rows lit in W, each with the words of why.
  const litRows = async () => {
    await drawnPart('weights');
    return env.page.$$eval(`${VIEW} .train-weights tbody tr.changed`, (rows) =>
      rows.map((row) => [
        Number(row.dataset.vocab),
        row.querySelector('td.why .cause-text').textContent,
      ]),
    );
  };

  // The rows W shows.
  const shownRows = async () => {
    await drawnPart('weights');
    return env.page.$$eval(`${VIEW} .train-weights tbody tr[data-vocab]`, (rows) =>
      rows.map((row) => Number(row.dataset.vocab)),
    );
  };

  // The timeline: for each step shown, the rows marked changed.
  const timeline = async () => {
    await drawnPart('steps');
    return env.page.$$eval(`${VIEW} .train-timeline tbody tr[data-vocab]`, (rows) => {
      const steps = [];
      for (const row of rows) {
        [...row.querySelectorAll('td')].forEach((cell, k) => {
          if (cell.classList.contains('future')) return;
          steps[k] ??= [];
          if (cell.classList.contains('changed')) steps[k].push(Number(row.dataset.vocab));
        });
      }
      return steps;
    });
  };

  // The copied script, run in PyTorch, prints what the view shows under its steps.
  async function checkPrintout() {
    const { page } = env;
    await page.evaluate(() => {
      Object.defineProperty(navigator.clipboard, 'writeText', {
        value: async (text) => {
          window.copiedText = text;
        },
        configurable: true,
      });
      window.copiedText = null;
    });
    const details = `${VIEW} details.train-printout`;
    if (!(await page.locator(details).evaluate((node) => node.open)))
      await page.click(`${details} summary`);
    await page.click(`${details} .copy-script`);
    await page.waitForFunction(() => window.copiedText !== null);
    const script = await page.evaluate(() => window.copiedText);
    const printed = await page.$$eval(`${details} .printout-out`, (outs) =>
      outs.map((out) => out.textContent),
    );
    const out = execFileSync(pythonPath, ['-'], {
      input: script,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    return { script, printed, out };
  }

  return {
    field,
    fieldError,
    invalid,
    waitForStep,
    openTrain,
    dataFrom,
    setTraining,
    openMore,
    step,
    atWidths,
    drawnPart,
    litRows,
    shownRows,
    timeline,
    checkPrintout,
  };
}
