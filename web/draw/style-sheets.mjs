// Style sheets that travel inside the JavaScript, as text (scripts/build-site.mjs bundles each
// imported .css file as a string): parsed once per page, adopted by the document or by a shadow
// root, and never fetched from a path, which a host's bundler would not know to copy.
const parsed = new Map(); // CSS text -> its CSSStyleSheet

export function styleSheet(css) {
  if (!parsed.has(css)) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    parsed.set(css, sheet);
  }
  return parsed.get(css);
}

// The sheets measure in rem, the page's root font size. In a shadow root that is the host page's,
// whatever it is (the classic Notebook's is 10px): there each rem becomes the 16px of the
// browsers' default, so the element looks the same in any page.
const REM = /(\d*\.?\d+)rem\b/g;
const HOST_REM_PX = 16;
const inShadow = new Map(); // CSS text -> its sheet in a shadow root's units

// The sheet of `css` for a shadow root: parsed once per page, like styleSheet()'s.
export function shadowStyleSheet(css) {
  if (!inShadow.has(css)) {
    inShadow.set(css, styleSheet(css.replace(REM, (_, n) => `${Number(n) * HOST_REM_PX}px`)));
  }
  return inShadow.get(css);
}

// Adds the sheet of `css` to root's (a document's or a shadow root's), once.
export function adoptStyleSheet(root, css) {
  const sheet = root instanceof ShadowRoot ? shadowStyleSheet(css) : styleSheet(css);
  if (!root.adoptedStyleSheets.includes(sheet))
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}
