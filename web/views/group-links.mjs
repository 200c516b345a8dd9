// Linking inside the Backward and Bag views: pointing at (or focusing) one row of a sum marks
// what adds into it. Backward: a row v of dW (or of onehot.T @ G, or of onehot.T) marks the
// rows of G whose token has id v, and a row of G marks its dW row. Bag: a bag's row in any of
// its tables, or the bag in the list, marks that bag everywhere with its ids (the chips and
// M's columns). Read from the DOM the views draw, so the views need no wiring.
import { setLinked } from './linking.mjs';

// root: a view's element; keyOf(node): what the node stands for, or null; nodesOf(key): the
// nodes to mark (class 'linked').
function linkWithin(root, keyOf, nodesOf) {
  let marked = [];
  const point = (event) => {
    for (const node of marked) setLinked(node, 'group', false);
    const key = event.target instanceof Element ? keyOf(event.target) : null;
    marked = key === null ? [] : nodesOf(key);
    for (const node of marked) setLinked(node, 'group', true);
  };
  root.addEventListener('pointerover', point);
  root.addEventListener('focusin', point);
}

const rowIndex = (node, boxes) => {
  const row = node.closest('tbody tr[data-index]');
  const box = row?.closest('[data-box]');
  return box && boxes.includes(box.dataset.box) ? Number(row.dataset.index) : null;
};

// G's row headers read "k: id".
const idOfGRow = (row) => Number(row.cells[0].textContent.split(': ')[1]);

export function linkBackward(root) {
  const sums = ['grad', 'product', 'onehotT'];
  linkWithin(
    root,
    (node) => {
      const v = rowIndex(node, sums);
      if (v !== null) return v;
      const row = node.closest('[data-box="upstream"] tbody tr[data-index]');
      return row ? idOfGRow(row) : null;
    },
    (v) => [
      ...root.querySelectorAll(
        sums.map((box) => `[data-box="${box}"] tbody tr[data-index="${v}"]`).join(', '),
      ),
      ...[...root.querySelectorAll('[data-box="upstream"] tbody tr[data-index]')].filter(
        (row) => idOfGRow(row) === v,
      ),
    ],
  );
}

export function linkBag(root) {
  const tables = ['output', 'product', 'multihot', 'argmax'];
  linkWithin(
    root,
    (node) => {
      const bag = node.closest('li[data-bag]');
      return bag ? Number(bag.dataset.bag) : rowIndex(node, tables);
    },
    (b) => {
      const item = root.querySelector(`li[data-bag="${b}"]`);
      const chips = item ? [...item.querySelectorAll('.bag-id')] : [];
      // An id's text is its first text node (a weight may follow in a <small>).
      const ids = new Set(chips.map((chip) => chip.firstChild.textContent));
      const columns = [
        ...root.querySelectorAll('[data-box="multihot"] thead th:not(.corner)'),
      ].filter((th) => ids.has(th.textContent));
      const rows = root.querySelectorAll(
        tables.map((box) => `[data-box="${box}"] tbody tr[data-index="${b}"]`).join(', '),
      );
      return [...rows, ...(item ? [item] : []), ...chips, ...columns];
    },
  );
}
