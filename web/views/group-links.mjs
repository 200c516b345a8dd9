// Linking inside the Backward and Bag views: pointing at (or focusing) one row of a sum marks
// what adds into it. Backward: a row v of dW (or of onehot.T @ G, or of onehot.T) marks the
// rows of G whose token has id v, and a row of G marks its dW row. Bag: a bag's row in any of
// its tables, or the bag in the list, marks that bag everywhere with its ids (the chips and
// M's columns). Read from the DOM the views draw, so the views need no wiring: a row is a table's
// row or a printed matrix's line (draw/render-matrix.mjs), by its data-index.
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

const ROW = 'tbody tr[data-index], .matrix-row[data-index]';
const rowsOf = (root, box, index = null) =>
  root.querySelectorAll(
    ROW.split(', ')
      .map((row) => `[data-box="${box}"] ${index === null ? row : `${row}[data-index="${index}"]`}`)
      .join(', '),
  );

const rowIndex = (node, boxes) => {
  const row = node.closest(ROW);
  const box = row?.closest('[data-box]');
  return box && boxes.includes(box.dataset.box) ? Number(row.dataset.index) : null;
};

// G's row labels read "k: id": a table row's header, or a printed line's label.
function idOfGRow(row) {
  const label = row.cells
    ? row.cells[0]
    : row
        .closest('.matrix-text')
        .querySelector(`.matrix-labels [data-index="${row.dataset.index}"]`);
  return Number(label.textContent.split(': ')[1]);
}

export function linkBackward(root) {
  const sums = ['grad', 'product', 'onehotT'];
  linkWithin(
    root,
    (node) => {
      const v = rowIndex(node, sums);
      if (v !== null) return v;
      const row = rowIndex(node, ['upstream']) === null ? null : node.closest(ROW);
      return row ? idOfGRow(row) : null;
    },
    (v) => [
      ...sums.flatMap((box) => [...rowsOf(root, box, v)]),
      ...[...rowsOf(root, 'upstream')].filter((row) => idOfGRow(row) === v),
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
        ...root.querySelectorAll(
          '[data-box="multihot"] thead th:not(.corner), [data-box="multihot"] [data-vocab]',
        ),
      ].filter((label) => ids.has(label.textContent));
      const rows = tables.flatMap((box) => [...rowsOf(root, box, b)]);
      return [...rows, ...(item ? [item] : []), ...chips, ...columns];
    },
  );
}
