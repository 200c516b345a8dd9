// What the notebook tests share in Chromium: a browser whose every request off one origin is
// refused (blob: and data: stay, being the page's own), a record of page errors, and reading what
// the notebook's page shows: each embedlab output beside the tensor PyTorch printed before it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../e2e/harness.mjs';
import { entriesOf } from '../notebooks.mjs';
import { chromiumPath } from '../tools.mjs';

// origin: the one origin served (http://127.0.0.1:PORT). Returns { context, page, refused,
// pageErrors, close }: refused lists every request refused, pageErrors every uncaught error.
export async function openBrowser(origin, { width = 1280, height = 900 } = {}) {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'embedlab-notebook-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width, height },
  });
  const refused = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`) || /^(blob|data):/.test(url)) return route.continue();
    refused.push(url);
    return route.abort();
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return {
    context,
    page,
    refused,
    pageErrors,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

// Waits until the page shows `count` embedlab outputs, each with a verdict (not a pending word)
// or an error.
export function waitForOutputs(page, count, timeout = 60_000) {
  return page.waitForFunction(
    (count) => {
      const demos = [...document.querySelectorAll('embedding-demo')];
      return (
        demos.length === count &&
        demos.every((demo) => {
          const root = demo.shadowRoot;
          const word = root?.querySelector('.verdict-word')?.textContent ?? '';
          return /identical|differ|equal/.test(word) || root?.querySelector('#error:not([hidden])');
        })
      );
    },
    count,
    { timeout },
  );
}

// Each output in the page's order: { printed: the text of the last tensor printed before it,
// verdict, error, title, lookup: its lookup table's rows ([[label, cell, ...], ...]), padding:
// where its backward view's padding_idx starts (the element's padding_idx, or null) }.
// An output that opens on the picture has its tables behind a disclosure, and a lookup drawn as
// a heatmap its table behind "Numbers": each is opened first, as a learner who reads its rows
// opens it, and drawn before the rows are read.
export function readOutputs(page) {
  return page.evaluate(async () => {
    const frame = () =>
      new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const demos = [...document.querySelectorAll('embedding-demo')];
    for (const demo of demos) {
      const tables = demo.shadowRoot.querySelector('details.on-demand');
      if (tables) tables.open = true;
    }
    // The tables are built when their disclosure opens.
    const built = (demo) =>
      !demo.shadowRoot.querySelector('details.on-demand') ||
      demo.shadowRoot.querySelector('[data-box="lookup"]');
    for (let frames = 0; frames < 300 && !demos.every(built); ++frames) await frame();
    for (const demo of demos) {
      const numbers = demo.shadowRoot.querySelector('[data-box="lookup"] details.numbers');
      if (numbers) numbers.open = true;
    }
    await frame();
    let printed = null;
    const outputs = [];
    for (const node of document.querySelectorAll('pre, embedding-demo')) {
      if (node.localName === 'pre') {
        if (node.textContent.trimStart().startsWith('tensor([[')) printed = node.textContent;
        continue;
      }
      const root = node.shadowRoot;
      const rows = root.querySelectorAll('[data-box="lookup"] tbody tr');
      outputs.push({
        printed,
        verdict: root.querySelector('.verdict-word')?.textContent ?? null,
        error: root.querySelector('#error:not([hidden])')?.textContent ?? null,
        title: root.querySelector('.demo-title')?.textContent ?? null,
        lookup: [...rows].map((row) => [...row.children].map((cell) => cell.textContent)),
        padding: node.padding_idx,
      });
    }
    return outputs;
  });
}

const isCut = (cell) => /^(\.\.\.|⋯|…)$/.test(cell.trim());

// A row as its first and last entries: where it is cut (PyTorch's '...', the element's '⋯'),
// those before and after the cut, else the whole row both ways.
function ends(row) {
  const cut = row.findIndex(isCut);
  return cut < 0 ? { head: row, tail: row } : { head: row.slice(0, cut), tail: row.slice(cut + 1) };
}

// Asserts that an output shows the rows PyTorch printed, entry for entry: where either side cut
// the columns, as many first and last entries as both show (at least 3 of each); where either cut
// the rows (PyTorch's '...,' line, the element's '⋮' row), the first and last 3 rows.
export function assertShowsPrinted(output, what) {
  assert.ok(output.printed, `${what}: no tensor printed before it`);
  const printed = entriesOf(output.printed);
  const shown = output.lookup.filter((row) => row[0].trim() !== '⋮').map((row) => row.slice(1));
  const rowsCut = /\n\s*\.\.\.,\n/.test(output.printed) || shown.length !== output.lookup.length;
  const pairs = rowsCut
    ? [0, 1, 2, -3, -2, -1].map((i) => [shown.at(i), printed.at(i), i])
    : shown.map((row, i) => [row, printed[i], i]);
  if (!rowsCut)
    assert.equal(shown.length, printed.length, `${what}: rows shown against rows printed`);
  for (const [a, b, i] of pairs) {
    const x = ends(a);
    const y = ends(b);
    const head = Math.min(x.head.length, y.head.length);
    const tail = Math.min(x.tail.length, y.tail.length);
    assert.ok(head >= 3 && tail >= 3, `${what}: row ${i} shows too few entries to compare`);
    assert.deepEqual(
      x.head.slice(0, head),
      y.head.slice(0, head),
      `${what}: row ${i}'s first entries`,
    );
    assert.deepEqual(x.tail.slice(-tail), y.tail.slice(-tail), `${what}: row ${i}'s last entries`);
  }
}
