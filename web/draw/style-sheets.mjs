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

// Adds the sheet of `css` to root's (a document's or a shadow root's), once.
export function adoptStyleSheet(root, css) {
  const sheet = styleSheet(css);
  if (!root.adoptedStyleSheets.includes(sheet))
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}
