// What the page and the element say of a result's inputs, in one line. Pure: no DOM.
import { shownIndices } from './shown-indices.mjs';

const IDS_SHOWN = 8;

// "[2, 3, 1]", summarised like PyTorch beyond IDS_SHOWN ids: "[2, 3, 1, …, 7, 0, 5]".
export function idsText(ids) {
  return `[${shownIndices(ids.length, IDS_SHOWN)
    .map((k) => (k === null ? '…' : ids[k]))
    .join(', ')}]`;
}

// "idx = [2, 3, 1], V = 4, d = 5"
export const inputsText = ({ ids, vocab, dim }) =>
  `idx = ${idsText(ids)}, V = ${vocab}, d = ${dim}`;
