// One numbering for the picture and every word about it (its labels, the step captions, the
// line below it, the question, the description a screen reader hears): a row of one_hot, out
// or G is a token's, named by its position in idx and its id together; a row of W or dW, and a
// column of one_hot, by the id it stands for. Pure: no DOM.
//   tokenRow('out', 1, 3)  "out[1] · id 3"     vocabRow('W', 3)  "W[3]"
//   tokenLabel(1, '3')     "[1] 3"             the picture's label of token row 1 (id 3)

// A token's row of `grid` ('out', 'one_hot', 'G'): position k, whose id is `id`.
export const tokenRow = (grid, k, id) => `${grid}[${k}] · id ${id}`;

// Row `id` of `grid` ('W', 'dW').
export const vocabRow = (grid, id) => `${grid}[${id}]`;

// The picture's label of token row k: its position, then what stands for its id there (the
// id, or in Text mode the token's text).
export const tokenLabel = (k, shown) => `[${k}] ${shown}`;

// The note beside row v of W (null: a skipped run of rows) for a token whose one-hot entry
// there is 1 (`one`) or 0: what the product does with that row, "0 · W[1] = 0" or "1 · W[2]";
// `level` 'compact' says it in two characters, "×0".
export function rowNote(v, one, level) {
  if (level === 'compact') return one ? '×1' : '×0';
  const row = vocabRow('W', v === null ? '…' : v);
  return one ? `1 · ${row}` : `0 · ${row} = 0`;
}
