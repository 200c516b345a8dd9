// Every view linked to one token, both ways: pointing at or focusing anything that stands for a
// token (data-token="k": a table's row, a step button, a chip, a row of the picture, a line of the
// printout) or for a vocabulary id (data-vocab="v": a row of W, a column of the one-hot; the first
// token with that id) marks that token in every view (the class 'linked', a light mark that
// leaves the selected token alone); a click selects it. The views only write those attributes;
// this module reads them.
//
// Each mark is drawn in its token's colour (model/token-colors.mjs): a node marked 'linked' here
// carries its token's colour as the custom property --link-color, and the root (the document's
// :root, an element's :host) carries the selected token's (the store's step) as
// --selected-token, which the style sheets give the views' marks of the selected token.
import { tokenColor } from '../model/token-colors.mjs';

// The nodes under container that stand for token k of ids: data-token="k", and data-vocab for
// its id. Views that draw after the store has changed mark their selected token with it.
export function tokenNodes(container, k, ids) {
  return [...container.querySelectorAll(`[data-token="${k}"], [data-vocab="${ids[k]}"]`)];
}

// Who marks a node 'linked' ('views': this module; 'group': views/group-links.mjs): each marks
// and unmarks on its own, and a node keeps the class while either still marks it.
const markedBy = new WeakMap(); // node -> Set of markers
export function setLinked(node, marker, on) {
  const markers = markedBy.get(node) ?? new Set();
  if (on) markers.add(marker);
  else markers.delete(marker);
  markedBy.set(node, markers);
  node.classList.toggle('linked', markers.size > 0);
}

// selectedColor(k) gives the document's :root or the element's :host token k's colour as
// --selected-token, in a sheet of their own.
function selectedTokenColor(root) {
  const scope = root.getRootNode(); // the document, or the shadow root itself
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(':root, :host {}');
  scope.adoptedStyleSheets = [...scope.adoptedStyleSheets, sheet];
  const { style } = sheet.cssRules[0];
  return (k) => {
    const color = tokenColor(k);
    if (style.getPropertyValue('--selected-token') !== color)
      style.setProperty('--selected-token', color);
  };
}

// root: the page's body or an element's shadow root; store: model/state.mjs's.
export function linkViews(root, store) {
  const selectedColor = selectedTokenColor(root);
  let marked = [];

  // The token a node stands for, or null.
  function tokenOf(node) {
    const ids = store.get().result?.ids;
    const own = ids && node instanceof Element ? node.closest('[data-token], [data-vocab]') : null;
    if (!own) return null;
    if (own.dataset.token !== undefined) return Number(own.dataset.token);
    const k = ids.indexOf(Number(own.dataset.vocab));
    return k < 0 ? null : k;
  }

  function mark({ hovered, result, step }) {
    selectedColor(step);
    for (const node of marked) {
      setLinked(node, 'views', false);
      node.style.removeProperty('--link-color');
    }
    marked = [];
    if (hovered === null || !result || hovered >= result.ids.length) return;
    marked = tokenNodes(root, hovered, result.ids);
    for (const node of marked) {
      setLinked(node, 'views', true);
      node.style.setProperty('--link-color', tokenColor(hovered));
    }
  }

  // The pointer's token wins; where it points at none, the focused one shows.
  let pointed = null;
  let focused = null;
  const update = () => store.set({ hovered: pointed ?? focused });
  mark(store.get());
  store.subscribe((state, changed) => {
    if (changed.has('hovered') || changed.has('result') || changed.has('step')) mark(state);
  });
  root.addEventListener('pointerover', (event) => {
    // A heatmap names its token cell by cell (draw/heatmap.mjs), not by element.
    if (event.target.closest?.('canvas')) return;
    pointed = tokenOf(event.target);
    update();
  });
  root.addEventListener('focusin', (event) => {
    focused = tokenOf(event.target);
    update();
  });
  root.addEventListener('focusout', () => {
    focused = null;
    update();
  });
  root.addEventListener('click', (event) => {
    // Buttons select on their own (the step picker, the picture's arrows, the chips).
    if (event.target.closest?.('button')) return;
    const k = tokenOf(event.target);
    if (k !== null) store.set({ step: k });
  });
}
