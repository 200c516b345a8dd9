// The shadow roots' stylesheets, fetched and parsed once per page and adopted by every
// <embedding-demo>: the page's style.css (tables, verdict, step-through, printout),
// text-mode.css (the token chips) and element.css (the element's palette and layout), in that
// order.
const URLS = [new URL('../style.css', import.meta.url), new URL('../text-mode.css', import.meta.url),
              new URL('./element.css', import.meta.url)];

let shared = null;

async function sheetFrom(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.pathname} could not be loaded (HTTP ${response.status})`);
  const sheet = new CSSStyleSheet();
  await sheet.replace(await response.text());
  return sheet;
}

// Promise<CSSStyleSheet[]>; a failed load is retried on the next call.
export function sharedStyleSheets() {
  if (!shared) {
    shared = Promise.all(URLS.map(sheetFrom)).catch((error) => {
      shared = null;
      throw error;
    });
  }
  return shared;
}
