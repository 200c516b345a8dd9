// Every view of the page linked to one token: pointing at or focusing a token's row, its id's
// column header, a step button or the picture's row marks that token in all of them (the class
// 'linked', a light highlight that leaves the step alone); a click picks it (onPick(k)).
// The views only carry their indices (data-index, data-step, data-token); this module reads them.
const TOKEN_BOXES = ['onehot-box', 'lookup-box', 'product-box'];
const VOCAB_HEADERS = ['onehot-box', 'linear-box'];  // whose column headers are vocabulary ids

// root: the page (document.body); selection: selection.mjs's; onPick(k) on a click.
// Returns { refresh(result) }, called after each redraw (which resets the tables' classes).
export function linkViews(root, selection, onPick) {
  let ids = null;
  let marked = [];

  const firstToken = (id) => {
    const k = ids.indexOf(id);
    return k < 0 ? null : k;
  };

  // The vocabulary id a column header (or a cell under it) of the one-hot or W.T table names.
  function columnId(cell, box) {
    if (!VOCAB_HEADERS.includes(box.id) || !cell || cell.cellIndex < 1) return null;
    const header = cell.closest('table').tHead.rows[0].cells[cell.cellIndex];
    const id = Number(header?.textContent);
    return header && /^\d+$/.test(header.textContent) ? id : null;
  }

  // The token a node of the page stands for, or null.
  function tokenOf(node) {
    if (!ids || !(node instanceof Element)) return null;
    const own = node.closest('[data-token], button[data-step]');
    if (own) return Number(own.dataset.token ?? own.dataset.step);
    const box = node.closest('.table-box');
    if (!box) return null;
    const cell = node.closest('th, td');
    const row = node.closest('tbody tr[data-index]');
    if (box.id === 'onehot-box' && cell?.closest('thead')) return firstToken(columnId(cell, box));
    if (TOKEN_BOXES.includes(box.id)) return row ? Number(row.dataset.index) : null;
    if (box.id === 'weight-box') return row ? firstToken(Number(row.dataset.index)) : null;
    if (box.id === 'linear-box') return firstToken(columnId(cell, box));
    return null;
  }

  function mark(k) {
    for (const node of marked) node.classList.remove('linked');
    marked = [];
    if (k === null || !ids || k >= ids.length) return;
    const id = String(ids[k]);
    const rows = TOKEN_BOXES.map((box) => `#${box} tbody tr[data-index="${k}"]`);
    marked = [...root.querySelectorAll([
      ...rows, `#weight-box tbody tr[data-index="${id}"]`,
      `#step-tokens button[data-step="${k}"]`, `#equation [data-token="${k}"]`,
    ].join(', '))];
    for (const box of VOCAB_HEADERS) {
      const headers = root.querySelectorAll(`#${box} thead th:not(.corner)`);
      marked.push(...[...headers].filter((th) => th.textContent === id));
    }
    for (const node of marked) node.classList.add('linked');
  }

  // The pointer's token wins; where it points at none, the focused one shows.
  let pointed = null;
  let focused = null;
  const update = () => selection.hover(pointed ?? focused);
  selection.subscribe(mark);
  root.addEventListener('pointerover', (event) => {
    // A heatmap names its token cell by cell (heatmap.mjs), not by element.
    const onHeatmap = Boolean(event.target.closest?.('canvas'));
    pointed = onHeatmap ? null : tokenOf(event.target);
    if (!onHeatmap) update();
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
    // Buttons pick on their own (views/step.mjs, views/equation.mjs).
    if (event.target.closest?.('button')) return;
    const k = tokenOf(event.target);
    if (k !== null) onPick(k);
  });

  return {
    refresh(result) {
      ids = result?.ids ?? null;
      mark(selection.hovered);
    },
  };
}
