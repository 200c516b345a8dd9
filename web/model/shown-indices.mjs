// Which rows or columns of a big matrix a table shows. Like PyTorch's summarised printing: the
// first and last EDGE indices around an ellipsis, plus the indices that must stay visible (the
// looked-up rows, the hot columns), so the DOM never holds more than a few thousand cells.
const EDGE = 3;
export const ROW_CAP = 16;
export const COL_CAP = 32;

// Sorted indices in [0, size) with null wherever a run is skipped: all of them when
// size <= cap, otherwise the edges and `keep`.
export function shownIndices(size, cap, keep = []) {
  if (size <= cap) return Array.from({ length: size }, (_, i) => i);
  const picked = new Set();
  for (let i = 0; i < EDGE; ++i) {
    picked.add(i);
    picked.add(size - 1 - i);
  }
  for (const k of keep) if (k >= 0 && k < size) picked.add(k);
  const sorted = [...picked].sort((a, b) => a - b);
  const shown = [];
  sorted.forEach((index, i) => {
    if (i > 0 && index > sorted[i - 1] + 1) shown.push(null);
    shown.push(index);
  });
  return shown;
}

// How many real indices (not gaps) a shownIndices() list holds.
export function countShown(shown) {
  return shown.reduce((count, index) => count + (index === null ? 0 : 1), 0);
}
