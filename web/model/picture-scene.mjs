// What the picture (views/picture/picture.mjs) shows, as data: its cells, texts and token rows for a
// result, the slots it draws and their geometry (picture-layout.mjs), in one of three modes,
// which share the geometry so that switching keeps W and out where they are:
//   product   one_hot(idx) × W = out   every row of W multiplied by its one-hot entry and summed
//   lookup    idx → W[idx] = out       the row each id names, copied; no one-hot at all
//   backward  one_hot(idx)ᵀ @ G = dW  each row of G = dL/dout added into row idx[k] of dW, as
//                                      the 1s of that row of one_hot(idx)ᵀ pick them: the
//                                      transposed geometry (picture-layout.mjs), G in W's
//                                      place, dW in out's
// Pure: no DOM, so that painting it again for another token or another frame of Play costs no
// layout.
import { HEADER, LABEL_CHAR, OPERATOR_ROOM, thinLabels } from './picture-layout.mjs';
import { count } from './format-number.mjs';
import { rowNote, tokenLabel, vocabRow } from './picture-names.mjs';

export const MODES = ['product', 'lookup', 'backward'];
const DIGIT_CELL = 11; // px: wide enough for the one-hot's 0 and 1
const LABEL_FONT = 10; // px: the labels' font size, their height in a column of them
const NAME_CHAR = 7.2; // px per character of a grid's name (12 px monospace)
const MONO_CHAR = 0.61; // em: a monospace digit's width, at most (DejaVu Sans Mono's is 0.602)
const NUMBER_MARGIN = 1.5; // px each side of a number in its cell
const SHAPE_CHAR = 6; // px per character of a grid's shape (11 px sans-serif), at most
const TEXT_LABEL = 10; // characters of a token's text a row label shows

// A token's row label: its position and its id, or in Text mode its text, cut with an ellipsis
// when long (picture-names.mjs's tokenLabel()).
export function rowLabel(k, ids, texts) {
  const text = texts?.[k];
  if (text === undefined) return tokenLabel(k, ids[k]);
  const characters = [...text];
  return tokenLabel(
    k,
    characters.length > TEXT_LABEL ? `${characters.slice(0, TEXT_LABEL - 1).join('')}…` : text,
  );
}

// The largest font size in px (half px steps, 8 to 11) in which the longest of `texts` fits a
// cell `cell` px wide with a margin on each side, or null where even 8 px does not.
export function numberSize(cell, texts) {
  const longest = Math.max(...texts.map((t) => t.trim().length));
  const size = Math.floor((2 * (cell - 2 * NUMBER_MARGIN)) / (longest * MONO_CHAR)) / 2;
  return size >= 8 ? Math.min(11, size) : null;
}

// Whether the store's tokens (Text mode) are those of the result: then their texts label it.
export function tokenTexts(tokens, ids) {
  if (!tokens || tokens.ids.length !== ids.length) return null;
  for (let k = 0; k < ids.length; ++k) if (tokens.ids[k] !== ids[k]) return null;
  return tokens.labels;
}

// The texts that label a result's tokens: Text mode's (tokenTexts()), else those of the table
// file's own vocabulary (a GGUF file's, result.labels), else null.
export const labelsOf = (tokens, result) => tokenTexts(tokens, result.ids) ?? result.labels ?? null;

// The values each mode draws in W's place and in out's: { grid, value: (row, column) -> value,
// rows: 'vocab' or 'tokens' }.
//   grads (backward): { G: Matrix (n × d), rows: Map(v -> Float32Array(d)) }, the rows of dW
//   that some token adds to (the others are +0).
function gridsOf(mode, result, grads) {
  const at = (m) => (row, j) => m.data[row * m.cols + j];
  if (mode === 'backward') {
    return [
      { grid: 'upstream', value: at(grads.G), rows: 'tokens' },
      { grid: 'grad', value: (v, j) => grads.rows.get(v)?.[j] ?? 0, rows: 'vocab' },
    ];
  }
  // While the product streams W, the lookup's rows stand in for out (the verdict says so).
  const out = mode === 'lookup' ? result.lookup : (result.product ?? result.lookup);
  return [
    { grid: 'weight', value: result.weight.at, rows: 'vocab' },
    { grid: 'out', value: at(out), rows: 'tokens' },
  ];
}

// What the picture shows of `result` at geometry `at` (layout()) for the slots (slotsFor()):
//   cells: { grid: 'onehot' | 'idx' | 'weight' | 'out' | 'grad' | 'upstream', x, y, width,
//            k (a token's row) and/or v (a vocabulary row or column), one (the one-hot's 1),
//            value, column (its index in shownDims), number (its text, where it fits) }
//   texts: { x, y, kind (a font and colour: label, gap, operator, name, shape), text, align,
//            id (the vocabulary id a label names), k (the token a label names) }
//   tokens: { k, y, label, shown } for each drawn token row: the svg overlay's labels
//   vocabY, tokenY: Map of each drawn vocabulary row's and token row's top
// options: { mode, step (the selected token, whose labels are always shown), formatElements
//   (lab.formatElements: PyTorch's notation), texts (Text mode's token texts, or null), grads }
export function sceneOf(result, slots, at, options) {
  const { mode, step, formatElements, texts: tokenText = null, grads = null } = options;
  const { ids } = result;
  const { cell, row } = at;
  const grids = gridsOf(mode, result, grads);
  const shownDims = slots.dim.filter((j) => j !== null);
  const shownRows = slots.vocab.filter((v) => v !== null);
  const scene = {
    mode,
    cell, // the cells' width
    onehotCell: at.onehotCell, // the one-hot's columns' width
    row, // the rows' height: lower than the cells are wide where the picture's height is short
    numbers: at.numbers, // whether the values' cells hold their numbers
    stacked: at.stacked, // W over the one-hot and out (picture-layout.mjs)
    cells: [],
    texts: [],
    tokens: [],
    vocabY: new Map(),
    tokenY: new Map(),
    hits: new Set(ids), // the rows of W the ids name, and of dW that get a gradient
  };
  const text = (x, y, kind, content, extra = {}) =>
    scene.texts.push({ x, y, kind, text: content, align: 'center', ...extra });

  // Column labels above the grids, thinned where they would overlap: the selected one always
  // shown, an ellipsis for a run left out, and "…" for a skipped run of columns. indices: the
  // columns' slots (null for a skipped run); selected: the slot kept, if any; name(index): its
  // label, and what it stands for ({ id } or { k }: linked to the selected token).
  const columnLabels = (
    xs,
    indices,
    { width = cell, selected, name = (i) => [String(i), {}], y = HEADER - 5 },
  ) => {
    const names = indices.map((index) => (index === null ? null : name(index)));
    const spans = indices.map((index, c) =>
      index === null
        ? { at: xs.at[c] + width / 4, size: LABEL_CHAR, mark: true }
        : { at: xs.at[c] + width / 2, size: names[c][0].length * LABEL_CHAR },
    );
    const keep = selected === undefined ? [] : [indices.indexOf(selected)];
    thinLabels(spans, keep).forEach((shown, c) => {
      if (shown === 'none') return;
      if (shown === 'ellipsis' || names[c] === null) text(spans[c].at, y, 'gap', '…');
      else text(spans[c].at, y, 'label', ...names[c]);
    });
  };
  const id = ids[step];
  const onehotHeader = { width: at.onehotCell, y: at.onehotHeaderY };
  if (at.transposed) {
    // one_hotᵀ's columns are the tokens, each headed by its position (G's row labels, and the
    // row its 1 stands in, say its id).
    columnLabels(at.onehotX, slots.tokens, {
      ...onehotHeader,
      selected: step,
      name: (k) => [`[${k}]`, { k }],
    });
  } else if (mode !== 'lookup') {
    columnLabels(at.onehotX, slots.vocab, {
      ...onehotHeader,
      selected: id,
      name: (v) => [String(v), { id: v }],
    });
  }
  columnLabels(at.weightX, slots.dim, {});
  columnLabels(at.outX, slots.dim, { y: at.onehotHeaderY });

  // Row labels beside the grids, thinned the same way down a column: "⋮" for a skipped run.
  const rowSpans = (ys, indices) =>
    indices.map((index, r) => ({
      at: ys.at[r] + (index === null ? row / 4 : row / 2),
      size: LABEL_FONT,
      mark: index === null,
    }));
  const rowGap = (x, y) => text(x, y + 4, 'gap', '⋮');
  // Where the token rows' labels and the vocabulary rows' labels stand: left of the grid whose
  // rows they are, the first (the one-hot, or G where transposed) and W's (or one_hotᵀ's).
  const [tokenGrid, vocabGrid] = at.transposed
    ? [at.weightX, at.onehotX]
    : [at.onehotX, at.weightX];
  scene.tokenLabelX = tokenGrid.at[0] - 5; // where the overlay's token labels end
  const tokenSpans = rowSpans(at.tokenY, slots.tokens);
  const tokenShown = thinLabels(tokenSpans, [slots.tokens.indexOf(step)]);
  slots.tokens.forEach((k, r) => {
    const y = at.tokenY.at[r];
    if (k === null) {
      rowGap(tokenGrid.at[0] - at.tokenLabels / 2, tokenSpans[r].at);
      if (!at.transposed) rowGap((at.outX.at[0] + at.outX.end) / 2, tokenSpans[r].at);
      return;
    }
    scene.tokens.push({ k, y, label: rowLabel(k, ids, tokenText), shown: tokenShown[r] });
    scene.tokenY.set(k, y);
  });
  const vocabSpans = rowSpans(at.vocabY, slots.vocab);
  // Full notes name W's rows where they stand in its labels' place (picture-layout.mjs).
  const named = mode === 'product' && at.notes?.named;
  thinLabels(vocabSpans, [slots.vocab.indexOf(id)]).forEach((shown, r) => {
    const v = slots.vocab[r];
    if (v !== null) scene.vocabY.set(v, at.vocabY.at[r]);
    if (named) return;
    if (v === null || shown === 'ellipsis')
      rowGap(vocabGrid.at[0] - at.vocabLabels / 2, vocabSpans[r].at);
    else if (shown === 'label') {
      text(vocabGrid.at[0] - 5, vocabSpans[r].at + 3.5, 'label', String(v), {
        align: 'right',
        id: v,
      });
    }
  });

  // one_hot: the 1 of row k in column idx[k] (one_hotᵀ: of column k in row idx[k]); lookup mode
  // draws the ids themselves instead, in a column at the left of the one-hot's place.
  if (mode === 'lookup') {
    const digits = Math.max(...[...scene.tokenY.keys()].map((k) => String(ids[k]).length));
    scene.idxWidth = Math.min(at.onehotX.end - at.onehotX.at[0], Math.max(cell, digits * 7 + 10));
    for (const [k, y] of scene.tokenY) {
      scene.cells.push({
        grid: 'idx',
        x: at.onehotX.at[0],
        y,
        width: scene.idxWidth,
        k,
        number: String(ids[k]),
      });
    }
  } else {
    const digits = Math.min(at.onehotCell, row) >= DIGIT_CELL;
    const entry = (k, v, x, y) =>
      scene.cells.push({
        grid: 'onehot',
        x,
        y,
        width: at.onehotCell,
        k,
        v,
        one: ids[k] === v,
        number: digits ? (ids[k] === v ? '1' : '0') : undefined,
      });
    if (at.transposed) {
      const columns = slots.tokens.flatMap((k, c) => (k === null ? [] : [[k, at.onehotX.at[c]]]));
      for (const [v, y] of scene.vocabY) for (const [k, x] of columns) entry(k, v, x, y);
    } else {
      for (const [k, y] of scene.tokenY)
        slots.vocab.forEach((v, c) => v !== null && entry(k, v, at.onehotX.at[c], y));
    }
  }
  // W's place and out's: values as colour, numbers where a cell is wide enough.
  // column: the index of the cell's column among those drawn.
  const valueCells = (grid, value, row, y, xs, owner) =>
    slots.dim.forEach((j, c) => {
      if (j === null) return;
      scene.cells.push({
        grid,
        x: xs.at[c],
        y,
        width: cell,
        value: value(row, j),
        column: shownDims.indexOf(j),
        ...owner,
      });
    });
  grids.forEach(({ grid, value, rows }, i) => {
    const xs = i === 0 ? at.weightX : at.outX;
    if (rows === 'vocab')
      for (const [v, y] of scene.vocabY) valueCells(grid, value, v, y, xs, { v });
    else for (const [k, y] of scene.tokenY) valueCells(grid, value, k, y, xs, { k });
  });
  // The ends of the colour scale: the largest finite |value| in W's place (all of W when it
  // is small; a pass over a GPT-2-sized W would hold up the page for tens of milliseconds),
  // and in backward mode G's too.
  const valued = scene.cells.filter((c) => c.value !== undefined);
  const scaled = mode === 'backward' ? valued : valued.filter((c) => c.grid === 'weight');
  scene.scale =
    scaled.reduce(
      (max, c) => (Number.isFinite(c.value) ? Math.max(max, Math.abs(c.value)) : max),
      0,
    ) || 1;
  // The notation: that of the values in W's place (and G's) drawn, as PyTorch prints them.
  scene.notation = scaled.map((c) => c.value);
  // The numbers, where the cells are wide enough, in the largest font they fit (numberSize()).
  if (at.numbers) {
    const numbers = formatElements(
      scene.notation,
      valued.map((c) => c.value),
    );
    const size = numberSize(cell, numbers);
    scene.numberSize = size;
    scene.numbers = size !== null;
    if (scene.numbers)
      valued.forEach((c, i) => {
        c.number = numbers[i];
      });
  }
  scene.shownRows = shownRows;
  scene.shownDims = shownDims;

  // The notes beside W's rows: what the product does with each row for the selected token
  // ("0 · W[1] = 0", "1 · W[2]"), every row visited at rest (a frame of Play hides those not yet
  // reached; where the notes name the rows, it shows their bare names, "W[1]"). The lookup keeps
  // their room, empty. Rows lower than a label draw none.
  if (at.notes && mode === 'product' && row > LABEL_FONT) {
    slots.vocab.forEach((v, r) => {
      const half = v === null;
      if (half && row / 2 < LABEL_FONT) return;
      text(
        at.notes.x,
        at.vocabY.at[r] + (half ? row / 4 : row / 2) + 3.5,
        'note',
        rowNote(half ? null : v, v === id, at.notes.level),
        {
          align: at.notes.align,
          one: v === id,
          slot: r,
          bare: named ? vocabRow('W', half ? '…' : v) : null,
          ...(half ? {} : { id: v }),
        },
      );
    });
  }

  // The operators, and each grid's name and shape below it (stacked, W's or G's at its top
  // left, the operators left to the layout). In the narrowed operators' room a smaller glyph
  // keeps clear of the row labels beside it ("@" is as wide as the room at 26 px).
  scene.operatorSize = at.operator >= OPERATOR_ROOM ? 26 : 18;
  const operator = (x, symbol) => symbol && text(x, at.middle, 'operator', symbol);
  const [first, second] = { product: ['×', '='], lookup: ['', '='], backward: ['@', '='] }[mode];
  if (!at.stacked) {
    operator(at.onehotX.end + at.operator / 2, first);
    operator(at.outX.at[0] - at.operator / 2, second);
  }
  const footY = at.footerY;
  const middle = (xs) => (xs.at[0] + xs.end) / 2;
  const n = ids.length;
  const { vocab, dim } = result;
  // Each grid's [centre, name, shape, a shorter name where its own is long, its shape then].
  const captions = {
    product: () => [
      [middle(at.onehotX), 'one_hot(idx)', `${count(n)} × ${count(vocab)}`],
      [middle(at.weightX), 'W', `${count(vocab)} × ${count(dim)}`],
      [middle(at.outX), 'out', `${count(n)} × ${count(dim)}`],
    ],
    lookup: () => [
      [at.onehotX.at[0] + scene.idxWidth / 2, 'idx', count(n)],
      [middle(at.weightX), 'W', `${count(vocab)} × ${count(dim)}`],
      [middle(at.outX), 'out', `${count(n)} × ${count(dim)}`],
    ],
    backward: () => [
      [middle(at.onehotX), 'one_hot(idx)ᵀ', `${count(vocab)} × ${count(n)}`],
      [
        middle(at.weightX),
        'G = dL/dout',
        `${count(n)} × ${count(dim)}, seed ${grads.seed}`,
        'G',
        `${count(n)} × ${count(dim)}`,
      ],
      [middle(at.outX), 'dW', `${count(vocab)} × ${count(dim)}`],
    ],
  }[mode]();
  let below = captions;
  if (at.stacked) {
    // W (G) has the one-hot under it: its name and shape in the row of its column indices, left
    // of them, ending where its row labels do.
    const [, name, shape, short = name, shortShape = shape] = captions[1];
    const end = at.weightX.at[0] - 6;
    text(end, HEADER - 4, 'shape', shortShape, { align: 'right' });
    text(end - shortShape.length * SHAPE_CHAR - 6, HEADER - 4, 'name', short, { align: 'right' });
    below = [captions[0], captions[2]];
  }
  // Centred under its grid, but kept inside the picture where the grid is narrower than its
  // name; the shorter names where the names would run into one another. Stacked, each shape
  // follows its name on the same line.
  const widthOf = (name, shape) =>
    name.length * NAME_CHAR + (at.stacked ? 6 + shape.length * SHAPE_CHAR : 0);
  const place = (names) =>
    names.map((name, i) => {
      const half = widthOf(name, below[i][2]) / 2;
      const x = Math.min(Math.max(below[i][0], half), at.width - half);
      return { name, from: x - half, to: x + half, x };
    });
  let placed = place(below.map(([, name]) => name));
  if (placed.some((p, i) => i > 0 && p.from < placed[i - 1].to + NAME_CHAR))
    placed = place(below.map(([, name, , short]) => short ?? name));
  placed.forEach(({ name, x, from }, i) => {
    if (at.stacked) {
      text(from, footY, 'name', name, { align: 'left' });
      text(from + name.length * NAME_CHAR + 6, footY, 'shape', below[i][2], { align: 'left' });
    } else {
      text(x, footY, 'name', name);
      text(x, footY + 14, 'shape', below[i][2]);
    }
  });
  return scene;
}
