// Small DOM builders the page's renderers share; text is always set as text, never as HTML.

// <tag class="className">text</tag>: an empty className or an undefined text is left unset.
export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// A fragment of constant markup (never a value: those are set as text afterwards).
export function fragment(markup) {
  const template = document.createElement('template');
  template.innerHTML = markup;
  return template.content;
}

// The elements under root that carry a data-KEY attribute, by its value.
export function byData(root, key) {
  return Object.fromEntries(
    [...root.querySelectorAll(`[data-${key}]`)].map((node) => [node.dataset[key], node]),
  );
}

// The option a radio group's key moves to (ARIA's pattern): the arrows step from `current`,
// Home and End go to the ends, clamped to the `count` options; null for any other key.
export function radioKeyTarget(key, current, count) {
  const moves = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
  let k;
  if (key in moves) k = current + moves[key];
  else if (key === 'Home') k = 0;
  else if (key === 'End') k = count - 1;
  else return null;
  return Math.max(0, Math.min(count - 1, k));
}

// Writes only what changed: an attribute or inline style set again, even to its old value,
// has Chromium style and lay the element out again (an SVG's viewBox: the whole picture).
export function writeAttribute(node, name, value) {
  if (node.getAttribute(name) !== String(value)) node.setAttribute(name, value);
}
// A property (textContent, hidden, disabled, value) likewise: set again to its old value, it
// still rewrites the element's attribute or text.
export function writeProperty(node, name, value) {
  if (node[name] !== value) node[name] = value;
}
// A style reads back in its own spelling (a path's commas dropped): compare with what was written.
const written = new WeakMap(); // node -> { property: value written }
export function writeStyle(node, name, value) {
  const styles = written.get(node) ?? {};
  if (styles[name] === value) return;
  styles[name] = value;
  written.set(node, styles);
  node.style[name] = value;
}
