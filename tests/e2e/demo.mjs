// What the <embedding-demo> tests share: host pages served beside the site, waiting for every
// element to show its attributes, and reading an element's shadow root.
import { boxCells } from './harness.mjs';

// A page with the element's one script tag; served from the site's origin by a route, so that
// its relative module paths resolve as an author's page beside the site's files would.
export async function openHost(env, name, body, head = '') {
  const url = `${env.url}${name}.html`;
  await env.page.route(url, (route) =>
    route.fulfill({
      contentType: 'text/html; charset=utf-8',
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8">
      <link rel="icon" href="data:,"><title>${name}</title>
      <script type="module" src="embedlab/element.mjs"></script>${head}</head>
      <body>${body}</body></html>`,
    }),
  );
  await env.page.goto(url);
  await settle(env.page);
}

// A host page with one <embedding-demo id="e" view="equation" ids="…"> in an article column
// `column` px wide, centred: where a tutorial's text puts it.
export function openInColumn(env, name, column, ids) {
  return openHost(
    env,
    name,
    `<article style="max-width: ${column}px; margin: 0 auto">` +
      `<embedding-demo id="e" view="equation" ids="${ids}"></embedding-demo></article>`,
  );
}

// Resolves once every <embedding-demo> on the page shows its current attributes.
export function settle(page) {
  return page.evaluate(async () => {
    await customElements.whenDefined('embedding-demo');
    await Promise.all(
      [...document.querySelectorAll('embedding-demo')].map((e) => e.updateComplete),
    );
  });
}

// The cell texts of a table that the element `demo` (a selector) shows in its box (lookup,
// product, weight, onehot): [[row label, cell, ...], ...].
export async function demoCells(page, demo, box) {
  // Playwright's CSS selectors reach into the element's (open) shadow root.
  const node = await page.$(`${demo} [data-box="${box}"]`);
  return node ? node.evaluate(boxCells) : [];
}

// The text of the first node in the shadow root of `demo` (a selector) that matches selector.
export function demoText(page, demo, selector) {
  return page.evaluate(
    ([demo, selector]) =>
      document.querySelector(demo).shadowRoot.querySelector(selector)?.textContent ?? '',
    [demo, selector],
  );
}

export const cellsOnly = (rows) => rows.map((row) => row.slice(1));
