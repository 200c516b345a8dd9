// Small DOM builders the page's renderers share; text is always set as text, never as HTML.

// <tag class="className">text</tag>: an empty className or an undefined text is left unset.
export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// The elements under root that carry a data-KEY attribute, by its value.
export function byData(root, key) {
  return Object.fromEntries([...root.querySelectorAll(`[data-${key}]`)]
    .map((node) => [node.dataset[key], node]));
}
