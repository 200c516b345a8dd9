// Where the picture (views/picture/picture.mjs) puts things: which rows and columns of each
// grid it draws, and their offsets in px for a given width. Pure: no DOM.
//   one_hot (n × V): rows = tokens, columns = vocabulary;  W (V × d): rows = vocabulary,
//   columns = dims;  out (n × d): rows = tokens, columns = dims.
// In a row: [token labels][one_hot] · [vocabulary labels][W] = [out].
// Transposed (the backward pass, dW = one_hot(idx)ᵀ @ G): one_hotᵀ (V × n) has the vocabulary's
// rows and a column per token, G (n × d) stands in W's place with the tokens' rows, dW (V × d)
// in out's with the vocabulary's: [vocabulary labels][one_hotᵀ] @ [token labels][G] = [dW].
const TOKEN_CAP = 7; // tokens drawn in full up to this many, else 0, k − 1, k, k + 1, n − 1
const VOCAB_CAP = 8; // vocabulary rows drawn in full up to this many, else 0, V − 1 and the ids shown
const DIM_CAP = 6; // columns drawn in full up to this many, else the first 3 and the last 2
const MAX_CELL = 56; // px
const MIN_CELL = 9;
export const NUMBER_CELL = 50; // px: wide enough for "-1.8061" in 11 px monospace
const NUMBER_ROW = 24; // px: tall enough for an 11 px number; rows may be lower than cells are wide
// Where W's and out's cells would be too narrow for their numbers, the one-hot's columns narrow
// first (px: its 0 or 1 still at 12 px), then they, the operators' room (px) and the room
// around the row labels (px) narrow further.
export const OPERATOR_ROOM = 26; // px: the operators' room, unnarrowed
const NARROWED = [
  { onehot: null, operator: OPERATOR_ROOM, labelPad: 8 }, // one-hot cells as wide as the others
  { onehot: 22, operator: OPERATOR_ROOM, labelPad: 8 },
  { onehot: 15, operator: 16, labelPad: 5 },
];
export const HEADER = 16; // px above the grids: column indices
export const FOOTER = 34; // px below: each grid's name and shape

// Sorted indices of [0, size) with null for each skipped run: all of them when size <= cap,
// else 0, size − 1 and `keep`.
function picked(size, cap, keep) {
  if (size <= cap) return Array.from({ length: size }, (_, i) => i);
  const set = new Set([0, size - 1, ...keep.filter((i) => i >= 0 && i < size)]);
  const sorted = [...set].sort((a, b) => a - b);
  return sorted.flatMap((index, i) =>
    i > 0 && index > sorted[i - 1] + 1 ? [null, index] : [index],
  );
}

// What the picture draws of a result (ids, vocab, dim) for token `step`:
// { tokens, vocab, dim }, shown-index lists with null for a gap, and dimCount: d, of which
// layout() may draw fewer columns.
export function slotsFor({ ids, vocab, dim }, step) {
  const tokens = picked(ids.length, TOKEN_CAP, [step - 1, step, step + 1]);
  return {
    tokens,
    vocab: picked(
      vocab,
      VOCAB_CAP,
      tokens.filter((k) => k !== null).map((k) => ids[k]),
    ),
    dim: dimWindows(dim)[0],
    dimCount: dim,
  };
}

// The columns of W and out a picture may draw, widest first: all of them (or the first 3 and
// the last 2), then fewer, the first column always among them: a narrow picture shows fewer
// columns with their numbers rather than all of them as bare colours.
function dimWindows(dim) {
  const windows = [dim <= DIM_CAP ? picked(dim, DIM_CAP, []) : [0, 1, 2, null, dim - 2, dim - 1]];
  if (dim > 4) windows.push([0, 1, null, dim - 1]);
  if (dim > 2) windows.push([0, null, dim - 1]);
  if (dim > 1) windows.push([0, null]);
  return windows;
}

// The most rows, in units (a gap: half), the picture can draw for n tokens and V rows of W,
// whatever the ids and the selected token: a frame that keeps this room, while one shape is
// typed, never moves the page below it. Beyond the caps: at most five tokens (0, k − 1, k,
// k + 1, n − 1) with two gaps; rows 0 and V − 1 and the ids of the tokens drawn, with a gap
// between each two where V leaves room for one.
export function mostRowUnits(n, vocab) {
  const beyond = n > TOKEN_CAP;
  const tokens = beyond ? 5 + 2 * 0.5 : n;
  if (vocab <= VOCAB_CAP) return Math.max(tokens, vocab);
  const rows = Math.min(vocab, 2 + (beyond ? 5 : n));
  return Math.max(tokens, rows + 0.5 * Math.min(rows - 1, vocab - rows));
}

// The picture's height in px for grids `units` rows high (a gap: half) of `row` px.
const heightOf = (units, row) => HEADER + Math.ceil(units * row) + FOOTER;

// The height of the frame that shows layout() `at` for n tokens and V rows of W: room for the
// most rows the shape can draw at its row height, within maxHeight, and never less than `at`.
export function frameHeight(at, n, vocab, maxHeight) {
  return Math.max(at.height, Math.min(maxHeight, heightOf(mostRowUnits(n, vocab), at.row)));
}

// Offsets of a run of slots of size `cell` (a gap: half as much), from `start`.
function offsets(slots, cell, start) {
  const at = [];
  let x = start;
  for (const slot of slots) {
    at.push(x);
    x += slot === null ? Math.round(cell / 2) : cell;
  }
  return { at, end: x };
}

const units = (slots) => slots.reduce((sum, slot) => sum + (slot === null ? 0.5 : 1), 0);
export const LABEL_CHAR = 6.2; // px per character of a 10 px monospace label
// Room for the longest label, and `pad` px.
const labelWidth = (labels, pad) =>
  Math.max(...labels.map((l) => String(l ?? '').length), 1) * LABEL_CHAR + pad;

// The geometry for slots (slotsFor()) in `width` × at most `maxHeight` px, with cells of at most
// `largestCell` px, `left` px in from the left edge: the cells' width and the rows' height (as
// high as the cells are wide, lower where maxHeight asks), the one-hot columns' width
// and the operators' room (narrower where that lets W's and out's cells hold numbers), the
// offsets of every row and column, the widths of the label columns, the total size (left
// included) and the grids' middle. rowLabels[k]: what labels token k's row (its id, or its text
// in Text mode). Where even then the cells are too narrow for numbers, fewer of d's columns are
// drawn (dimWindows()); the geometry's `slots` are those drawn, and `numbers` says whether the
// values' cells hold their numbers. transposed: the backward pass's arrangement (above), where
// onehotX holds a column per token slot.
export function layout(
  width,
  maxHeight,
  slots,
  rowLabels,
  { largestCell = MAX_CELL, left = 0, transposed = false } = {},
) {
  const tried = [];
  for (const dim of dimWindows(slots.dimCount)) {
    for (const narrowed of NARROWED) {
      const at = geometry(width, maxHeight, { ...slots, dim }, rowLabels, narrowed, {
        largestCell,
        left,
        transposed,
      });
      if (at.numbers) return at;
      tried.push(at);
    }
  }
  return tried[0];
}

function geometry(width, maxHeight, slots, rowLabels, narrowed, { largestCell, left, transposed }) {
  const { operator, labelPad } = narrowed;
  const tokenLabels = labelWidth(
    slots.tokens.map((k) => (k === null ? null : rowLabels[k])),
    labelPad,
  );
  const vocabLabels = labelWidth(slots.vocab, labelPad);
  const fixed = tokenLabels + vocabLabels + 2 * operator + 4;
  const down = Math.max(units(slots.tokens), units(slots.vocab));
  const onehot = narrowed.onehot;
  // The one-hot's columns: the vocabulary's, or the tokens' where it is transposed.
  const columns = transposed ? slots.tokens : slots.vocab;
  const [leftLabels, middleLabels] = transposed
    ? [vocabLabels, tokenLabels]
    : [tokenLabels, vocabLabels];
  const cell = Math.floor(
    Math.max(
      MIN_CELL,
      Math.min(
        largestCell,
        onehot === null
          ? (width - fixed) / (units(columns) + 2 * units(slots.dim))
          : (width - fixed - onehot * units(columns)) / (2 * units(slots.dim)),
      ),
    ),
  );
  const row = Math.floor(Math.max(MIN_CELL, Math.min(cell, (maxHeight - HEADER - FOOTER) / down)));
  const onehotCell = onehot ?? cell;
  const gridHeight = Math.ceil(down * row);
  const top = (rows) => HEADER + Math.round((gridHeight - units(rows) * row) / 2);
  const onehotX = offsets(columns, onehotCell, left + leftLabels);
  const weightX = offsets(slots.dim, cell, onehotX.end + operator + middleLabels);
  const outX = offsets(slots.dim, cell, weightX.end + operator);
  return {
    slots,
    cell,
    row,
    onehotCell,
    operator,
    transposed,
    numbers: cell >= NUMBER_CELL && row >= NUMBER_ROW,
    width: outX.end + 2,
    height: heightOf(down, row),
    tokenY: offsets(slots.tokens, row, top(slots.tokens)),
    vocabY: offsets(slots.vocab, row, top(slots.vocab)),
    onehotX,
    weightX,
    outX,
    tokenLabels,
    vocabLabels,
    middle: HEADER + gridHeight / 2,
  };
}

// Which labels of a row (or a column) of them to draw, so that none overlaps another: spans[i]
// is { at, size, mark }: label i's centre and extent along the row in px, and whether it is an
// ellipsis itself (a skipped run of slots). The labels in `keep` (the selected ones) are drawn
// first, then the ends, then the others in order, each where it clears those drawn by `pad`
// px. A run of labels left out is marked by one ellipsis of `ellipsis` px (dots need less room
// than digits: 1 px each side), in place of the label nearest the run's middle that leaves it
// room, unless a drawn ellipsis beside the run marks it already. Returns 'label', 'ellipsis'
// or 'none' for each.
export function thinLabels(spans, keep = [], { pad = 3, ellipsis = 7 } = {}) {
  const taken = []; // [start, end] of what is drawn
  const clear = (at, size, margin) =>
    taken.every(([a, b]) => at + size / 2 + margin <= a || at - size / 2 - margin >= b);
  const take = (at, size) => taken.push([at - size / 2, at + size / 2]);
  const shown = spans.map(() => 'none');
  const order = [...new Set([...keep, 0, spans.length - 1, ...spans.keys()])].filter(
    (i) => i >= 0 && i < spans.length,
  );
  for (const i of order) {
    const { at, size } = spans[i];
    if (keep.includes(i) || clear(at, size, pad)) {
      shown[i] = 'label';
      take(at, size);
    }
  }
  for (let i = 0; i < spans.length;) {
    if (shown[i] !== 'none') {
      ++i;
      continue;
    }
    let end = i;
    while (end + 1 < spans.length && shown[end + 1] === 'none') ++end;
    // A run beside a drawn ellipsis of the picture's own (a skipped run of slots) is marked.
    if ([i - 1, end + 1].some((j) => spans[j]?.mark && shown[j] === 'label')) {
      i = end + 1;
      continue;
    }
    const middle = (i + end) / 2;
    const places = Array.from({ length: end - i + 1 }, (_, j) => i + j).sort(
      (a, b) => Math.abs(a - middle) - Math.abs(b - middle),
    );
    const place = places.find((j) => clear(spans[j].at, ellipsis, 1));
    if (place !== undefined) {
      shown[place] = 'ellipsis';
      take(spans[place].at, ellipsis);
    }
    i = end + 1;
  }
  return shown;
}
