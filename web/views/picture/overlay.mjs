// The SVG over the picture's canvas: what moves or is pointed at. Each drawn token row has its
// label and targets over its one-hot row (or idx cell, or one_hotᵀ's column) and its out row (or
// G's) (data-token), each drawn row of W (or dW) a target (data-vocab), for views/linking.mjs;
// the selected token's glow and flows; the lookup's arrow and its verdict; the backward arrows
// from each row of G to its row of dW.
// Nodes are kept from one drawing to the next: a keystroke mostly rewrites a few attributes,
// and a new token slides the glow (a CSS transition in styles/picture.css).
import { writeAttribute, writeProperty, writeStyle } from '../../draw/dom.mjs';
import { tokenColor } from '../../model/token-colors.mjs';

const SVG = 'http://www.w3.org/2000/svg';
const HEAD = 5; // px: the length of an arrowhead's sides
const VERDICT_CHAR = 6.7; // px per character of the verdict's 11 px bold monospace

function svg(tag, attributes = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

function write(node, attributes) {
  for (const [name, value] of Object.entries(attributes)) writeAttribute(node, name, value);
}

// The token colour a node is drawn and marked in (--token, for styles/picture.css).
function paintAs(node, k) {
  const color = tokenColor(k);
  if (node.style.getPropertyValue('--token') !== color) node.style.setProperty('--token', color);
}

// Keeps `count` children of group, child i made by make(i) when missing: returns them.
function pool(group, count, make) {
  while (group.children.length < count) group.append(make(group.children.length));
  while (group.children.length > count) group.lastChild.remove();
  return [...group.children];
}

// A curve leaving (x1, y1) and reaching (x2, y2) level, as CSS's path() for `d`.
function curve(x1, y1, x2, y2) {
  const bend = (x2 - x1) / 2;
  return `M ${x1} ${y1} C ${x1 + bend} ${y1}, ${x2 - bend} ${y2}, ${x2} ${y2}`;
}
// A curve leaving (x1, y1) heading right and reaching (x2, y2) heading left, round the right of
// what lies between (a row of W, a row of out under it), within the room the layout keeps there
// (picture-layout.mjs's CURVE_ROOM: the curve reaches 3/4 of LOOP_BEND out, its head 5 px).
const LOOP_BEND = 10;
function loop(x1, y1, x2, y2) {
  const b = LOOP_BEND;
  return `M ${x1} ${y1} C ${x1 + b} ${y1}, ${x2 + b} ${y2}, ${x2} ${y2}`;
}
// The x and width of a grid's row (its columns' offsets xs), `pad` px wider on each side.
const across = (xs, pad = 0) => [xs.at[0] - pad, xs.end - xs.at[0] + 2 * pad];

// An arrowhead at (x, y) pointing right (direction 1) or left (-1).
const head = (x, y, direction) =>
  `M ${x - direction * HEAD} ${y - HEAD} L ${x} ${y} L ${x - direction * HEAD} ${y + HEAD}`;

export function createOverlay(picture) {
  const vocabRows = svg('g', { class: 'eq-vocab-rows' });
  const rows = svg('g', { class: 'eq-rows' });
  // The 1 (or the idx cell), W's row and out's row have a halo under their outline: a wide
  // faint stroke, which software rasterisers draw in a fraction of the time a blur filter takes.
  const outlined = (name, halo) => [
    ...(halo ? [svg('rect', { class: `eq-glow eq-halo eq-glow-${name}`, rx: 3 })] : []),
    svg('rect', { class: `eq-glow eq-glow-${name}`, rx: 3 }),
  ];
  const glow = {
    token: outlined('token', false),
    one: outlined('one', true),
    row: outlined('row', true),
    out: outlined('out', true),
  };
  // pathLength 1: a replayed flow draws itself as its dash offset runs from 1 to 0.
  const flows = [0, 1].map((i) => svg('path', { class: `eq-flow eq-flow-${i}`, pathLength: 1 }));
  const heads = [0, 1].map(() => svg('path', { class: 'eq-head' }));
  const back = svg('g', { class: 'eq-back' });
  const verdict = svg('text', { class: 'eq-verdict' });
  picture.append(vocabRows, rows, ...Object.values(glow).flat(), ...flows, ...heads, back, verdict);

  // The targets and labels of the drawn rows. Returns the token labels by token.
  function drawRows(scene, at) {
    const { row } = at;
    const labels = new Map();
    // [label, left target, right target] for each token row.
    const tokenNodes = pool(rows, 3 * scene.tokens.length, (i) =>
      i % 3 === 0
        ? svg('text', { class: 'eq-label', 'text-anchor': 'end' })
        : svg('rect', { class: 'eq-row-target', rx: 2 }),
    );
    // A target over a row (or a column) of a grid: [x, width] (across()) and [y, height].
    const target = (node, [x, width], [y, height], key, value) =>
      write(node, { x: x + 1, y: y + 1, width: width - 2, height: height - 2, [key]: value });
    scene.tokens.forEach(({ k, y, label, shown }, r) => {
      const [text, left, right] = tokenNodes.slice(3 * r, 3 * r + 3);
      write(text, { x: scene.tokenLabelX, y: y + row / 2 + 3.5, 'data-token': k });
      if (at.transposed) {
        // one_hotᵀ's column of the token, and its row of G.
        const column = scene.cells.find((c) => c.grid === 'onehot' && c.k === k);
        const top = at.vocabY.at[0];
        target(left, [column.x, column.width], [top, at.vocabY.end - top], 'data-token', k);
        target(right, across(at.weightX), [y, row], 'data-token', k);
      } else {
        const leftWidth =
          scene.mode === 'lookup' ? scene.idxWidth : at.onehotX.end - at.onehotX.at[0];
        target(left, [at.onehotX.at[0], leftWidth], [y, row], 'data-token', k);
        target(right, across(at.outX), [y, row], 'data-token', k);
      }
      const content = shown === 'ellipsis' ? '⋮' : label;
      writeProperty(text, 'textContent', content);
      text.classList.toggle('thinned', shown === 'none');
      for (const node of [text, left, right]) paintAs(node, k);
      labels.set(k, text);
    });
    const vocabNodes = pool(vocabRows, scene.vocabY.size, () =>
      svg('rect', { class: 'eq-row-target', rx: 2 }),
    );
    const vocabGrid = at.transposed ? at.outX : at.weightX; // W's rows, or dW's
    [...scene.vocabY].forEach(([v, y], r) => {
      target(vocabNodes[r], across(vocabGrid), [y, row], 'data-vocab', v);
    });
    return labels;
  }

  // The glow and the flows of token `step` (id `id`) in the scene's mode; the lookup's verdict
  // (result.comparison.grade, or null); the backward arrows of every drawn token.
  function select(scene, at, { step, id, ids, grade }) {
    const { cell, row, mode } = scene;
    const tokenY = scene.tokenY.get(step);
    const rowY = scene.vocabY.get(id);
    const place = (rects, x, width, y, height) => {
      for (const rect of rects) {
        writeAttribute(rect, 'width', width);
        writeAttribute(rect, 'height', height);
        writeStyle(rect, 'transform', `translate(${x}px, ${y}px)`);
      }
    };
    // The selected token's 1, or its idx cell.
    const one = scene.cells.find(
      (c) => c.k === step && (c.grid === 'idx' || (c.grid === 'onehot' && c.one)),
    );
    place(glow.one, one.x - 2, one.width + 4, one.y - 2, row + 4);
    if (at.transposed) {
      // The token's column of one_hotᵀ, its row of G, and the row of dW it adds into.
      const top = at.vocabY.at[0];
      place(glow.token, one.x - 1, one.width + 2, top - 1, at.vocabY.end - top + 2);
      place(glow.out, ...across(at.weightX, 1), tokenY - 1, row + 2);
      place(glow.row, ...across(at.outX, 1), rowY - 1, row + 2);
    } else {
      place(glow.token, ...across(at.onehotX, 1), tokenY - 1, row + 2);
      place(glow.row, ...across(at.weightX, 1), rowY - 1, row + 2);
      place(glow.out, ...across(at.outX, 1), tokenY - 1, row + 2);
    }

    const mid = (y) => y + row / 2;
    // From W's (G's) row to out's (dW's): across side by side, round the right of both grids
    // stacked. Side by side, W's notes stand between them.
    const noteRoom = at.notes && !at.stacked ? at.notes.width : 0;
    const down = (y1, y2) =>
      at.stacked
        ? [
            loop(at.weightX.end + 2, mid(y1), at.outX.end + 2, mid(y2)),
            head(at.outX.end + 2, mid(y2), -1),
          ]
        : [
            curve(at.weightX.end + 2 + noteRoom, mid(y1), at.outX.at[0] - 2, mid(y2)),
            head(at.outX.at[0] - 2, mid(y2), 1),
          ];
    // From the end of the 1's row (or from idx[k]) to the row's label, both of which stay
    // readable: no digit of the one-hot lies under the curve. Backward: from the end of the 1's
    // row of one_hotᵀ (dW's row) to the label of the row of G its column picks. Stacked, where
    // the one-hot stands under W, the marks of the 1 and of W's row, in one colour, link them.
    const [x1, y1, y2] =
      mode === 'backward'
        ? [at.onehotX.end + 2, mid(rowY), mid(tokenY)]
        : [(mode === 'lookup' ? one.x + one.width : at.onehotX.end) + 2, mid(tokenY), mid(rowY)];
    const x2 = at.weightX.at[0] - (mode === 'backward' ? at.tokenLabels : at.vocabLabels);
    const over = at.stacked && mode !== 'lookup' ? null : [curve(x1, y1, x2, y2), head(x2, y2, 1)];
    const [fromY, toY] = mode === 'backward' ? [tokenY, rowY] : [rowY, tokenY];
    [over, down(fromY, toY)].forEach((way, i) => {
      writeStyle(flows[i], 'd', way ? `path("${way[0]}")` : '');
      writeAttribute(heads[i], 'd', way ? way[1] : '');
      flows[i].classList.toggle('absent', !way);
    });
    // The verdict above the lookup's arrow, in the header row the one-hot's indices leave free
    // (up to W's first column index, "0"): the headline alone where that room is short,
    // squeezed where even that is.
    // Stacked, over W's rows at its left, where the one-hot's notes would stand.
    const left = at.stacked ? at.onehotX.at[0] - at.tokenLabels + 2 : one.x + one.width + 6;
    const room = at.stacked
      ? at.weightX.at[0] - at.vocabLabels - 6 - left
      : at.weightX.at[0] + cell / 2 - 8 - left;
    // grade is null while the product streams a table file.
    const headline = grade?.headline ?? 'computing…';
    const sentence = grade ? `vs the product: ${headline}` : `the product: ${headline}`;
    const words = sentence.length * VERDICT_CHAR <= room ? sentence : headline;
    writeProperty(verdict, 'textContent', words);
    const y = at.stacked ? at.vocabY.at[0] + row / 2 + 4 : at.onehotHeaderY;
    write(verdict, { x: left, y, 'data-state': grade?.state ?? 'computing' });
    if (words.length * VERDICT_CHAR > room)
      write(verdict, { textLength: room, lengthAdjust: 'spacingAndGlyphs' });
    else verdict.removeAttribute('textLength');

    const tokens = mode === 'backward' ? scene.tokens : [];
    pool(back, tokens.length, () => svg('path', { class: 'eq-back-arrow' })).forEach((arrow, r) => {
      const { k, y } = tokens[r];
      writeAttribute(arrow, 'd', down(y, scene.vocabY.get(ids[k])).join(' '));
      paintAs(arrow, k);
      arrow.classList.toggle('current', k === step);
      writeAttribute(arrow, 'data-position', k);
    });
    writeAttribute(picture, 'data-mode', mode);
  }

  // A frame of Play: how much of the lookup's arrow is drawn (arrow, 0 to 1), how many tokens'
  // backward arrows are (arrows); neither: at rest, everything drawn.
  function frame({ arrow, arrows } = {}) {
    for (const flow of flows) {
      writeStyle(flow, 'strokeDasharray', arrow === undefined ? '' : '1 1');
      writeStyle(flow, 'strokeDashoffset', arrow === undefined ? '' : String(1 - arrow));
    }
    picture.classList.toggle('arrow-drawing', arrow !== undefined && arrow < 1);
    for (const node of back.children) {
      node.classList.toggle(
        'waiting',
        arrows !== undefined && Number(node.dataset.position) >= arrows,
      );
    }
  }

  // Another token: the flows draw themselves again (an animation in styles/picture.css).
  function replay() {
    for (const flow of flows) {
      flow.classList.remove('replay');
      flow.getBoundingClientRect(); // a style flush, so that re-adding the class restarts it
      flow.classList.add('replay');
    }
  }

  return { drawRows, select, frame, replay };
}
