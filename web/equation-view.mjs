// The picture on the first screen: one_hot(idx) (n × V) · W (V × d) = out (n × d) as cell grids.
// Values are colours on a diverging scale (--eq-neg, --eq-zero, --eq-pos in style.css, which
// follow light and dark mode), with numbers where a cell is wide enough. For the selected token
// k, its 1 is lit, row idx[k] of W glows and flows into row k of out, and the V − 1 rows of W
// that its zeros multiply are dimmed. Big matrices are drawn summarised (equation-layout.mjs),
// so the SVG stays a few hundred nodes. Moving to another token slides the glow and replays the
// flow (CSS transitions and an animation, which style.css turns off for prefers-reduced-motion);
// any other redraw (typing, a new width) is still, so that typing keeps no animation running
// into the next keystroke's frame.
import { element } from './dom.mjs';
import { FOOTER, HEADER, layout, OPERATOR, slotsFor } from './equation-layout.mjs';
import { count, tensorFormatter } from './format-number.mjs';
import { percent } from './step-through.mjs';

const SVG = 'http://www.w3.org/2000/svg';
const NUMBER_CELL = 46;  // px: wide enough for "-1.8061"
const DIGIT_CELL = 15;   // px: wide enough for the one-hot's 0 and 1
const LABEL_CHAR = 6.2;  // px per digit of a 10 px label

function svg(tag, attributes = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

// A value's fill: a share of --eq-pos or --eq-neg over --eq-zero (NaN has a colour of its own),
// and whether it is strong enough to need the light text.
function fillOf(value, scale) {
  if (Number.isNaN(value)) return { className: 'eq-value-cell nan', style: '', strong: true };
  const share = Math.min(1, Math.abs(value) / scale);
  const end = value < 0 ? 'var(--eq-neg)' : 'var(--eq-pos)';
  return {
    className: 'eq-value-cell',
    style: `fill: color-mix(in oklab, ${end} ${Math.round(share * 100)}%, var(--eq-zero))`,
    strong: share > 0.55,
  };
}

// The grids for result and its slots at geometry `at`, as SVG groups: the labels, one_hot, W
// and out. Returns them with what select() marks: the one-hot cells, the nodes of each row of W,
// the labels naming an id or a token, and each drawn row's y.
function drawGrids(result, slots, at) {
  const { ids, weight, product } = result;
  const { cell } = at;
  const shownWeights = slots.vocab.flatMap((v) => (v === null ? [] : slots.dim
    .filter((j) => j !== null).map((j) => weight.data[v * weight.cols + j])));
  const format = tensorFormatter(shownWeights);
  // The ends of the colour scale: the largest finite |value| drawn (all of W when it is small;
  // a pass over a GPT-2-sized W would hold up the page for tens of milliseconds).
  const scale = shownWeights.reduce(
    (max, v) => (Number.isFinite(v) ? Math.max(max, Math.abs(v)) : max), 0) || 1;
  const groups = { labels: [], onehot: [], weight: [], out: [] };
  const marks = {
    onehot: [],                                          // { rect, digit?, k, one }
    weightRows: new Map(),                               // id -> its nodes in W
    labels: { vocab: new Map(), token: new Map() },      // id -> labels, k -> label
    tokenY: new Map(), vocabY: new Map(),
  };
  const add = (group, node) => {
    groups[group].push(node);
    return node;
  };
  const text = (group, x, y, className, content, extra = {}) =>
    add(group, svg('text', { x, y, class: className, 'text-anchor': 'middle', ...extra }, content));
  const cellRect = (group, x, y, className, style = '') => {
    const rect = svg('rect', { x: x + 1, y: y + 1, width: cell - 2, height: cell - 2, rx: 2, class: className });
    if (style) rect.setAttribute('style', style);
    return add(group, rect);
  };
  const inCell = (group, x, y, className, content, size) => text(group, x + cell / 2, y + cell / 2,
    className, content, { 'dominant-baseline': 'central', 'font-size': size });
  const remember = (map, key, node) => map.set(key, [...(map.get(key) ?? []), node]);

  // Column indices above the grids, row labels beside them, "…" and "⋮" for the gaps. A label
  // wider than its cell is drawn only while it names the selected token's id (style.css).
  const headerY = HEADER - 5;
  const columnLabels = (xs, indices, named) => indices.forEach((index, c) => {
    if (index === null) {
      text('labels', xs.at[c] + cell / 4, headerY, 'eq-gap', '…');
      return;
    }
    const label = String(index);
    const crowded = label.length * LABEL_CHAR > cell + 1;
    const node = text('labels', xs.at[c] + cell / 2, headerY, `eq-label${crowded ? ' crowded' : ''}`, label);
    if (named) remember(named, index, node);
  });
  columnLabels(at.onehotX, slots.vocab, marks.labels.vocab);
  columnLabels(at.weightX, slots.dim);
  columnLabels(at.outX, slots.dim);
  const rowLabel = (x, y, label) => text('labels', x, y + cell / 2 + 3.5,
    `eq-label${cell < 10 ? ' crowded' : ''}`, label, { 'text-anchor': 'end' });
  const rowGap = (x, y) => text('labels', x, y + cell / 4 + 4, 'eq-gap', '⋮');
  slots.tokens.forEach((k, r) => {
    const y = at.tokenY.at[r];
    if (k === null) {
      rowGap(at.tokenLabels / 2, y);
      rowGap((at.outX.at[0] + at.outX.end) / 2, y);
      return;
    }
    const label = rowLabel(at.tokenLabels - 5, y, String(ids[k]));
    label.dataset.token = String(k);  // linked-views.mjs: pointing at it marks token k everywhere
    marks.labels.token.set(k, label);
    marks.tokenY.set(k, y);
  });
  slots.vocab.forEach((v, r) => {
    const y = at.vocabY.at[r];
    if (v === null) {
      rowGap(at.weightX.at[0] - at.vocabLabels / 2, y);
      return;
    }
    remember(marks.labels.vocab, v, rowLabel(at.weightX.at[0] - 5, y, String(v)));
    marks.vocabY.set(v, y);
  });

  // one_hot: the 1 of row k in column idx[k].
  const digitSize = Math.min(12, Math.max(8, cell / 3.5));
  for (const [k, y] of marks.tokenY) {
    slots.vocab.forEach((v, c) => {
      if (v === null) return;
      const one = ids[k] === v;
      const x = at.onehotX.at[c];
      const rect = cellRect('onehot', x, y, one ? 'eq-one' : 'eq-zero-cell');
      const digit = cell >= DIGIT_CELL
        ? inCell('onehot', x, y, one ? 'eq-digit one' : 'eq-digit', one ? '1' : '0', digitSize)
        : undefined;
      marks.onehot.push({ rect, digit, k, one });
    });
  }
  // W and out: values as colour, numbers where they fit.
  const valueSize = Math.min(11, Math.max(8, cell / 4.6));
  const valueCells = (group, matrix, row, y, xs, onNode = () => {}) => slots.dim.forEach((j, c) => {
    if (j === null) return;
    const value = matrix.data[row * matrix.cols + j];
    const fill = fillOf(value, scale);
    onNode(cellRect(group, xs.at[c], y, fill.className, fill.style));
    if (cell >= NUMBER_CELL) {
      onNode(inCell(group, xs.at[c], y, `eq-value${fill.strong ? ' strong' : ''}`, format(value), valueSize));
    }
  });
  for (const [v, y] of marks.vocabY) {
    valueCells('weight', weight, v, y, at.weightX, (node) => remember(marks.weightRows, v, node));
  }
  // out is the product, the equation's own right-hand side: where W holds an Inf, its NaNs show.
  for (const [k, y] of marks.tokenY) {
    valueCells('out', product, k, y, at.outX, (node) => { node.dataset.token = String(k); });
  }

  // The operators, and each grid's name and shape below it.
  add('labels', svg('circle', { cx: at.onehotX.end + OPERATOR / 2, cy: at.middle, r: 3.5, class: 'eq-dot' }));
  text('labels', at.weightX.end + OPERATOR / 2, at.middle + 6, 'eq-operator', '=');
  const footY = at.height - FOOTER + 14;
  const caption = (xs, name, shape) => {
    const x = (xs.at[0] + xs.end) / 2;
    text('labels', x, footY, 'eq-label eq-name', name);
    text('labels', x, footY + 14, 'eq-label eq-shape', shape);
  };
  const n = ids.length;
  caption(at.onehotX, 'one_hot(idx)', `${count(n)} × ${count(result.vocab)}`);
  caption(at.weightX, 'W', `${count(result.vocab)} × ${count(result.dim)}`);
  caption(at.outX, 'out', `${count(n)} × ${count(result.dim)}`);

  const nodes = Object.entries(groups).map(([name, children]) => {
    const group = svg('g', { class: `eq-${name}` });
    group.append(...children);
    return group;
  });
  return { nodes, marks };
}

// root: an empty element the picture fills; onStep(k) when the learner picks another token.
// Returns { render(result, step) } for compute.run()'s result.
export function createEquationView(root, { onStep }) {
  const figure = element('figure', 'equation-figure');
  const bar = element('div', 'equation-bar');
  const prev = element('button', 'step-move', '←');
  const next = element('button', 'step-move', '→');
  const token = element('p', 'equation-token');
  token.setAttribute('aria-live', 'polite');
  prev.type = next.type = 'button';
  prev.setAttribute('aria-label', 'Previous token');
  next.setAttribute('aria-label', 'Next token');
  bar.append(prev, token, next);
  const picture = svg('svg', { class: 'equation-svg', role: 'img' });
  const title = svg('title');
  const grids = svg('g', { class: 'eq-grids' });
  // Kept from one drawing to the next, so that a new token slides them (a CSS transition).
  const glow = {
    token: svg('rect', { class: 'eq-glow eq-glow-token', rx: 3 }),
    one: svg('rect', { class: 'eq-glow eq-glow-one', rx: 3 }),
    row: svg('rect', { class: 'eq-glow eq-glow-row', rx: 3 }),
    out: svg('rect', { class: 'eq-glow eq-glow-out', rx: 3 }),
  };
  // pathLength 1: a replayed flow draws itself as its dash offset runs from 1 to 0.
  const flows = [0, 1].map(() => svg('path', { class: 'eq-flow', pathLength: 1 }));
  picture.append(title, grids, ...Object.values(glow), ...flows);
  const counts = element('figcaption', 'equation-counts');
  figure.append(bar, picture, counts);
  root.append(figure);

  let current = { result: null, step: 0, n: 0 };
  let drawn = null;    // { key, marks }: the grids drawn, and what select() marks in them
  let width = 0;

  prev.addEventListener('click', () => current.step > 0 && onStep(current.step - 1));
  next.addEventListener('click', () => current.step < current.n - 1 && onStep(current.step + 1));

  // The glow, the dimming and the flows for token `step`.
  function select(result, step, slots, at) {
    const id = result.ids[step];
    const { cell } = at;
    const { marks } = drawn;
    for (const { rect, digit, k, one } of marks.onehot) {
      rect.classList.toggle('lit', k === step && one);
      rect.classList.toggle('dimmed', k === step && !one);
      digit?.classList.toggle('lit', k === step && one);
    }
    for (const [v, nodes] of marks.weightRows) {
      for (const node of nodes) node.classList.toggle('dimmed', v !== id);
    }
    for (const [v, labels] of marks.labels.vocab) {
      for (const label of labels) label.classList.toggle('current', v === id);
    }
    for (const [k, label] of marks.labels.token) label.classList.toggle('current', k === step);

    const tokenY = marks.tokenY.get(step);
    const rowY = marks.vocabY.get(id);
    const oneX = at.onehotX.at[slots.vocab.indexOf(id)];
    const place = (rect, xs, x, y, size) => {
      const w = xs ? xs.end - xs.at[0] + 2 : size;
      rect.setAttribute('width', w);
      rect.setAttribute('height', size);
      rect.style.transform = `translate(${xs ? xs.at[0] - 1 : x}px, ${y}px)`;
    };
    place(glow.token, at.onehotX, 0, tokenY - 1, cell + 2);
    place(glow.one, null, oneX - 2, tokenY - 2, cell + 4);
    place(glow.row, at.weightX, 0, rowY - 1, cell + 2);
    place(glow.out, at.outX, 0, tokenY - 1, cell + 2);
    const mid = (y) => y + cell / 2;
    const curve = (x1, y1, x2, y2) => {
      const bend = (x2 - x1) / 2;
      return `path("M ${x1} ${y1} C ${x1 + bend} ${y1}, ${x2 - bend} ${y2}, ${x2} ${y2}")`;
    };
    // From the 1 to W's row, and from W's row to out's row.
    flows[0].style.d = curve(oneX + cell + 2, mid(tokenY), at.weightX.at[0] - 2, mid(rowY));
    flows[1].style.d = curve(at.weightX.end + 2, mid(rowY), at.outX.at[0] - 2, mid(tokenY));
  }

  function replayFlows() {
    for (const flow of flows) {
      flow.classList.remove('replay');
      flow.getBoundingClientRect();  // a style flush, so that re-adding the class restarts it
      flow.classList.add('replay');
    }
  }

  function describe(result, step) {
    const { ids, vocab, dim } = result;
    const n = ids.length;
    const id = ids[step];
    token.replaceChildren(`token ${count(step + 1)} of ${count(n)}: `,
      element('code', '', `idx[${step}] = ${id}`));
    prev.disabled = step === 0;
    next.disabled = step === n - 1;
    title.textContent = `one_hot(idx), ${n} × ${vocab}, times W, ${vocab} × ${dim}, equals out, ` +
      `${n} × ${dim}. Token ${step + 1} has id ${id}: the 1 in column ${id} of its one-hot row ` +
      `picks row ${id} of W, which becomes row ${step} of out; the other ${count(vocab - 1)} ` +
      'rows of W are multiplied by 0.';
    const wasted = n * (vocab - 1) * dim;
    const stat = (className, term, formula, amount) => {
      const span = element('span', `equation-stat ${className}`);
      span.append(element('strong', '', term), ' ', element('span', 'nowrap', `${formula} = ${amount}`));
      return span;
    };
    counts.replaceChildren(
      stat('useful', 'useful multiply-adds', 'n·d', count(n * dim)),
      stat('wasted', 'by zero (dimmed)', 'n·(V−1)·d', `${count(wasted)} (${percent(wasted, n * vocab * dim)})`),
    );
  }

  function draw(result, step) {
    const slots = slotsFor(result, step);
    // Read once, then kept by the ResizeObserver below: reading it here would force a layout in
    // the middle of every keystroke's redraw.
    if (!width) width = picture.parentNode.clientWidth;
    const at = layout(width, width < 600 ? 190 : 300, slots, result.ids);
    const key = [width, at.cell, slots.tokens, slots.vocab, slots.dim].join('|');
    if (result !== current.result || key !== drawn?.key) {
      picture.setAttribute('viewBox', `0 0 ${at.width} ${at.height}`);
      picture.setAttribute('width', at.width);
      picture.setAttribute('height', at.height);
      const { nodes, marks } = drawGrids(result, slots, at);
      grids.replaceChildren(...nodes);
      drawn = { key, marks };
    }
    current = { result, step, n: result.ids.length };
    select(result, step, slots, at);
  }

  // Redrawn at a new width: the cell size, and whether numbers fit, depend on it.
  new ResizeObserver(() => {
    const now = picture.parentNode.clientWidth;
    if (!current.result || now === width) return;
    width = now;
    figure.classList.remove('moving');
    draw(current.result, current.step);
  }).observe(figure);

  return {
    render(result, step) {
      const moved = current.result !== null && step !== current.step;
      // Transitions run from the places before this style change, when the new style has them.
      figure.classList.toggle('moving', moved);
      draw(result, step);
      if (moved) replayFlows();
      describe(result, step);
    },
  };
}
