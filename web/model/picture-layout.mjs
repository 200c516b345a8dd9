// Where the picture (views/picture/picture.mjs) puts things: which rows and columns of each
// grid it draws, and their offsets in px for a given width. Pure: no DOM.
//   one_hot (n × V): rows = tokens, columns = vocabulary;  W (V × d): rows = vocabulary,
//   columns = dims;  out (n × d): rows = tokens, columns = dims.
// Side by side: [token labels][one_hot] × [vocabulary labels][W][notes] = [out].
// Stacked, where side by side would drop W's numbers (a phone, a narrow column): W on top, its
// notes and row labels at its left; below it the one-hot and out, sharing their rows, out's
// columns under W's:
//                  [notes][vocabulary labels][W]
//   [token labels][one_hot]                  [out]
// Transposed (the backward pass, dW = one_hot(idx)ᵀ @ G): one_hotᵀ (V × n) has the vocabulary's
// rows and a column per token, G (n × d) stands in W's place with the tokens' rows, dW (V × d)
// in out's with the vocabulary's: [vocabulary labels][one_hotᵀ] @ [token labels][G] = [dW], or
// stacked, G on top. Either way one_hot(ᵀ) and out (dW) share their rows, W (G) has its own.
// The notes beside W's rows say what the product does with each: "0 · W[1] = 0".
import { rowNote } from './picture-names.mjs';

const TOKEN_CAP = 7; // tokens drawn in full up to this many, else 0, k − 1, k, k + 1, n − 1
const VOCAB_CAP = 8; // vocabulary rows drawn in full up to this many, else 0, V − 1 and the ids shown
const DIM_CAP = 6; // columns drawn in full up to this many, else the first 3 and the last 2
const MAX_CELL = 56; // px
const MIN_CELL = 9;
// px: wide enough for "-1.8061" in 9 px monospace (7 characters of 0.61 em, and 2 px each
// side); the scene picks the largest font its numbers fit (picture-scene.mjs).
export const NUMBER_CELL = 42;
const WHOLE_NUMBER_CELL = 50; // px: wide enough for "-1.8061" in 11 px, the numbers' largest font
const NUMBER_ROW = 20; // px: tall enough for an 11 px number; rows may be lower than cells are wide
export const OPERATOR_ROOM = 26; // px: the operators' room, unnarrowed
// Where W's and out's cells would be too narrow for their numbers, the one-hot's columns narrow
// first (px: its 0 or 1 still at 12 px), then they, the operators' room (px) and the room around
// the row labels (px) narrow further, then the picture is stacked; last, the notes beside W's
// rows shrink to "×0".
const ARRANGEMENTS = [
  { onehot: null, operator: OPERATOR_ROOM, labelPad: 8, notes: 'full' }, // one-hot cells as wide as the others
  { onehot: 22, operator: OPERATOR_ROOM, labelPad: 8, notes: 'full' },
  { onehot: 15, operator: 16, labelPad: 5, notes: 'full' },
  { stacked: true, onehot: 15, labelPad: 5, notes: 'full' },
  { stacked: true, onehot: 12, labelPad: 4, notes: 'full' },
  { stacked: true, onehot: 12, labelPad: 4, notes: 'compact' },
];
export const HEADER = 16; // px above the grids: column indices
export const FOOTER = 34; // px below: each grid's name and shape
const STACKED_FOOTER = 20; // px below, stacked: each name and shape in one line
const STACK_GAP = 8; // px between the one-hot and out, stacked
const STACKED_ROW = 24; // px: the rows' most height, stacked
// px: narrower, the picture is stacked rather than drawing smaller numbers side by side (a
// phone, an article column, a tablet's page); wider, only where side by side holds none.
const STACK_WIDTH = 700;
const CURVE_ROOM = 14; // px right of out, stacked: the curve from W's row down to out's
const GLOW_ROOM = 6; // px right of out side by side: the halo of the mark on out's row

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
export function dimWindows(dim) {
  const windows = [dim <= DIM_CAP ? picked(dim, DIM_CAP, []) : [0, 1, 2, null, dim - 2, dim - 1]];
  if (dim > 4) windows.push([0, 1, null, dim - 1]);
  if (dim > 2) windows.push([0, null, dim - 1]);
  if (dim > 1) windows.push([0, null]);
  return windows;
}

// The most rows, in units (a gap: half), the picture can draw for n tokens and V rows of W,
// whatever the ids and the selected token: { tokens, vocab }. A frame that keeps this room, while
// one shape is typed, never moves the page below it. Beyond the caps: at most five tokens (0,
// k − 1, k, k + 1, n − 1) with two gaps; rows 0 and V − 1 and the ids of the tokens drawn, with a
// gap between each two where V leaves room for one. Distinct ids reach both at once.
export function mostRowUnits(n, vocab) {
  const beyond = n > TOKEN_CAP;
  const tokens = beyond ? 5 + 2 * 0.5 : n;
  if (vocab <= VOCAB_CAP) return { tokens, vocab };
  const rows = Math.min(vocab, 2 + (beyond ? 5 : n));
  return { tokens, vocab: rows + 0.5 * Math.min(rows - 1, vocab - rows) };
}

// The picture's height in px for `rows` ({ tokens, vocab } in units, a gap: half) of `row` px:
// side by side, the taller of the two; stacked, W's (G's) over the others, each under its
// column indices.
function heightOf(stacked, transposed, rows, row) {
  if (!stacked) return HEADER + Math.ceil(Math.max(rows.tokens, rows.vocab) * row) + FOOTER;
  const [top, bottom] = transposed ? [rows.tokens, rows.vocab] : [rows.vocab, rows.tokens];
  return HEADER + Math.ceil(top * row) + HEADER + Math.ceil(bottom * row) + STACKED_FOOTER;
}

// The height of the frame that shows layout() `at` for n tokens and V rows of W: room for the
// most rows the shape can draw at its row height, within maxHeight, and never less than `at`.
export function frameHeight(at, n, vocab, maxHeight) {
  const most = heightOf(at.stacked, at.transposed, mostRowUnits(n, vocab), at.row);
  return Math.max(at.height, Math.min(maxHeight, most));
}

// Offsets of a run of slots of size `cell` (a gap: half as much), from `start`.
export function offsets(slots, cell, start) {
  const at = [];
  let x = start;
  for (const slot of slots) {
    at.push(x);
    x += slot === null ? Math.round(cell / 2) : cell;
  }
  return { at, end: x };
}

// The room a run of slots takes, in cells (a gap: half).
export const units = (slots) => slots.reduce((sum, slot) => sum + (slot === null ? 0.5 : 1), 0);
export const LABEL_CHAR = 6.2; // px per character of a 10 px monospace label
// Room for the longest label, and `pad` px.
const labelWidth = (labels, pad) =>
  Math.max(...labels.map((l) => String(l ?? '').length), 1) * LABEL_CHAR + pad;

// The room of the notes beside W's rows (model/picture-names.mjs's rowNote()), for `level`
// 'full' or 'compact'; none without notes.
function notesWidth(vocabSlots, level) {
  if (!level) return 0;
  const longest = Math.max(...vocabSlots.map((v) => rowNote(v, false, level).length));
  return longest * LABEL_CHAR + 6;
}

// The geometry for slots (slotsFor()) in `width` × at most `maxHeight` px, with cells of at most
// `largestCell` px, `left` px in from the left edge: the cells' width and the rows' height (as
// high as the cells are wide, lower where maxHeight asks), the one-hot columns' width, the
// operators' room and the notes' (narrower where that lets W's and out's cells hold numbers),
// whether it is stacked, the offsets of every row and column, the widths of the label columns,
// the total size (left included), the grids' middle (for the operators) and where the column
// indices and names stand. rowLabels[k]: what labels token k's row (picture-names.mjs's
// tokenLabel()). Where even stacked the cells are too narrow for numbers, fewer of d's columns
// are drawn (dimWindows()); the geometry's `slots` are those drawn, and `numbers` says whether
// the values' cells hold their numbers. transposed: the backward pass's arrangement (above),
// where onehotX holds a column per token slot. notes: whether W's rows have notes (the
// product's, and the lookup's room for them, so that switching moves nothing).
export function layout(
  width,
  maxHeight,
  slots,
  rowLabels,
  { largestCell = MAX_CELL, left = 0, transposed = false, notes = false } = {},
) {
  const tried = [];
  for (const dim of dimWindows(slots.dimCount)) {
    const drawn = ARRANGEMENTS.map((arrangement) =>
      geometry(width, maxHeight, { ...slots, dim }, rowLabels, arrangement, {
        largestCell,
        left,
        transposed,
        notes: notes && !transposed,
      }),
    );
    tried.push(...drawn);
    // Numbers at their whole size side by side, else (narrower than STACK_WIDTH) stacked; else
    // the widest cells that hold numbers at all, side by side first; else fewer columns. Of
    // equals, the least narrowed.
    const whole = (at) => at.numbers && at.cell >= Math.min(largestCell, WHOLE_NUMBER_CELL);
    const widest = (list) =>
      list
        .filter((at) => at.numbers)
        .reduce((best, at) => (best && best.cell >= at.cell ? best : at), null);
    const side = drawn.filter((at) => !at.stacked);
    const stacked = drawn.filter((at) => at.stacked);
    const found =
      side.find(whole) ??
      (width < STACK_WIDTH ? stacked.find(whole) : undefined) ??
      widest(side) ??
      widest(stacked) ??
      null;
    if (found) return found;
  }
  return tried[0];
}

function geometry(width, maxHeight, slots, rowLabels, arrangement, options) {
  const { largestCell, left, transposed } = options;
  const { stacked = false, labelPad, onehot } = arrangement;
  const operator = stacked ? 0 : arrangement.operator;
  const tokenLabels = labelWidth(
    slots.tokens.map((k) => (k === null ? null : rowLabels[k])),
    labelPad,
  );
  const vocabLabels = labelWidth(slots.vocab, labelPad);
  const noteRoom = options.notes ? notesWidth(slots.vocab, arrangement.notes) : 0;
  // The one-hot's columns (the vocabulary's, or the tokens' where it is transposed), the rows it
  // shares with out, and W's (G's).
  const columns = transposed ? slots.tokens : slots.vocab;
  const [shared, middle] = transposed ? [slots.vocab, slots.tokens] : [slots.tokens, slots.vocab];
  const [sharedLabels, middleLabels] = transposed
    ? [vocabLabels, tokenLabels]
    : [tokenLabels, vocabLabels];
  const dims = units(slots.dim);
  // Stacked, W (G) and its notes and labels stand over the one-hot: the wider of the two sets
  // where out and W begin.
  const onehotWidth = (onehot ?? 0) * units(columns);
  // Stacked, full notes name W's rows themselves ("0 · W[1] = 0"): they stand in its labels'
  // place (picture-scene.mjs).
  const named = stacked && arrangement.notes === 'full' && noteRoom > 0;
  const stackedLeft = Math.max(
    sharedLabels + onehotWidth + STACK_GAP,
    named ? noteRoom : noteRoom + middleLabels,
    middleLabels,
  );
  const fitted = stacked
    ? (width - stackedLeft - CURVE_ROOM) / dims
    : onehot === null
      ? (width - sharedLabels - middleLabels - 2 * operator - 4 - noteRoom) /
        (units(columns) + 2 * dims)
      : (width - sharedLabels - middleLabels - 2 * operator - 4 - noteRoom - onehotWidth) /
        (2 * dims);
  const cell = Math.floor(Math.max(MIN_CELL, Math.min(largestCell, fitted)));
  const onehotCell = onehot ?? cell;
  const rows = { tokens: units(slots.tokens), vocab: units(slots.vocab) };
  const down = stacked ? units(shared) + units(middle) : Math.max(units(shared), units(middle));
  const room = maxHeight - HEADER - (stacked ? HEADER + STACKED_FOOTER : FOOTER);
  // Stacked, rows lower than the cells are wide: the picture no taller than side by side.
  const row = Math.floor(
    Math.max(MIN_CELL, Math.min(cell, stacked ? STACKED_ROW : Infinity, room / down)),
  );
  let sharedY;
  let middleY;
  let onehotX;
  let weightX;
  let outX;
  if (stacked) {
    middleY = offsets(middle, row, HEADER);
    sharedY = offsets(shared, row, middleY.end + HEADER);
    weightX = offsets(slots.dim, cell, left + stackedLeft);
    outX = weightX;
    onehotX = offsets(columns, onehotCell, weightX.at[0] - STACK_GAP - onehotCell * units(columns));
  } else {
    const gridHeight = Math.ceil(Math.max(units(shared), units(middle)) * row);
    const top = (slotsOf) => HEADER + Math.round((gridHeight - units(slotsOf) * row) / 2);
    sharedY = offsets(shared, row, top(shared));
    middleY = offsets(middle, row, top(middle));
    onehotX = offsets(columns, onehotCell, left + sharedLabels);
    weightX = offsets(slots.dim, cell, onehotX.end + operator + middleLabels);
    outX = offsets(slots.dim, cell, weightX.end + noteRoom + operator);
  }
  const [tokenY, vocabY] = transposed ? [middleY, sharedY] : [sharedY, middleY];
  const height = heightOf(stacked, transposed, rows, row);
  return {
    slots,
    cell,
    row,
    onehotCell,
    operator,
    transposed,
    stacked,
    numbers: cell >= NUMBER_CELL && row >= NUMBER_ROW,
    width: outX.end + (stacked ? CURVE_ROOM : GLOW_ROOM),
    height,
    tokenY,
    vocabY,
    onehotX,
    weightX,
    outX,
    tokenLabels,
    vocabLabels,
    // The notes beside W's rows: right of W side by side (x: where they start), left of it
    // stacked (x: where they end), in its labels' place where they name its rows (named);
    // level: 'full' or 'compact'.
    notes: options.notes
      ? {
          level: arrangement.notes,
          width: noteRoom,
          named,
          x: stacked ? weightX.at[0] - (named ? 0 : vocabLabels) - 6 : weightX.end + 4,
          align: stacked ? 'right' : 'left',
        }
      : null,
    // The y of the column indices over the one-hot (and out), and of the grids' names.
    onehotHeaderY: (stacked ? sharedY.at[0] : HEADER) - 5,
    footerY: height - (stacked ? STACKED_FOOTER : FOOTER) + 14,
    middle: stacked ? 0 : HEADER + Math.ceil(Math.max(units(shared), units(middle)) * row) / 2,
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
