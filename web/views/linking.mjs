// Every view linked to one token, both ways: pointing at or focusing anything that stands for a
// token (data-token="k": a table's row, a step button, a chip, a row of the picture) or for a
// vocabulary id (data-vocab="v": a row of W, a column of the one-hot; the first token with that
// id) marks that token in every view (the class 'linked', a light mark that leaves the selected
// token alone); a click selects it. The views only write those attributes; this module reads them.
// root: the page's body or an element's shadow root; store: model/state.mjs's.
export function linkViews(root, store) {
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

  function mark({ hovered, result }) {
    for (const node of marked) node.classList.remove('linked');
    marked = [];
    if (hovered === null || !result || hovered >= result.ids.length) return;
    marked = [...root.querySelectorAll(`[data-token="${hovered}"], [data-vocab="${result.ids[hovered]}"]`)];
    for (const node of marked) node.classList.add('linked');
  }

  // The pointer's token wins; where it points at none, the focused one shows.
  let pointed = null;
  let focused = null;
  const update = () => store.set({ hovered: pointed ?? focused });
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
