// The picture on the first screen: one_hot(idx) (n × V) · W (V × d) = out (n × d) as cell grids.
// Values are colours on a diverging scale (--eq-neg, --eq-zero, --eq-pos in styles/base.css, which
// follow light and dark mode), with numbers where a cell is wide enough. For the selected token
// k, its 1 is lit, row idx[k] of W glows and flows into row k of out, and the V − 1 rows of W
// that its zeros multiply are dimmed. Big matrices are drawn summarised (equation-layout.mjs).
//
// The grids are painted on a canvas: as SVG they were ~150 nodes whose style, layout and text
// shaping cost most of a keystroke's frame, since typing an id moves every column. An SVG over
// the canvas keeps what moves or is pointed at: the glow, the flows, and each token's row label
// and row of out (data-token, for views/linked-views.mjs). Moving to another token slides the glow and
// replays the flow (CSS transitions and an animation, which styles/base.css turns off for
// prefers-reduced-motion); any other redraw (typing, a new width) is still, so that typing keeps
// no animation running into the next keystroke's frame.
import { element, writeAttribute, writeStyle } from '../draw/dom.mjs';
import { FOOTER, HEADER, layout, OPERATOR, slotsFor } from '../model/equation-layout.mjs';
import { count, percent } from '../model/format-number.mjs';
import { cssColor, mix, onThemeChange, readColors } from '../draw/theme-colors.mjs';

const SVG = 'http://www.w3.org/2000/svg';
const NUMBER_CELL = 46;  // px: wide enough for "-1.8061"
const DIGIT_CELL = 15;   // px: wide enough for the one-hot's 0 and 1
const LABEL_CHAR = 6.2;  // px per digit of a 10 px label
const DIMMED = 0.22;     // the opacity of what the selected token multiplies by zero
const ONE_SHARE = 0.35;  // an unlit 1: this much of the accent over the zero colour

// What the canvas paints with: the custom properties of styles/base.css (element.css in
// <embedding-demo>), with light mode's values should one be missing.
const COLORS = {
  neg: ['--eq-neg', '#1c6fd1'], zero: ['--eq-zero', '#eef0f2'], pos: ['--eq-pos', '#d9480f'],
  nan: ['--eq-nan', '#ae3ec9'], strongText: ['--eq-strong-text', '#fff'],
  accent: ['--accent', '#0a62b8'], accentText: ['--accent-text', '#fff'],
  text: ['--text', '#1f2328'], muted: ['--muted', '#57606a'],
};

function svg(tag, attributes = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

// What the picture shows of result and its slots at geometry `at`, before any token is selected:
//   cells: { grid: 'onehot' | 'weight' | 'out', x, y, k (a token's row) or v (a vocabulary
//            row), one (the one-hot's 1), value (W's and out's), text (the number or digit) }
//   texts: { x, y, text, kind (a font and colour, see shade()), align, id (the vocabulary id a
//            label names), crowded (drawn only while it names the selected id) }
//   tokens: { k, y, label } for each drawn token row; the svg overlay's labels and targets.
// Pure: no DOM, so that painting it again for another token costs no layout. formatElements:
// lab.formatElements, PyTorch's notation for the numbers.
function sceneOf(result, slots, at, formatElements) {
  const { ids, weight, product } = result;
  const { cell } = at;
  const shownWeights = slots.vocab.flatMap((v) => (v === null ? [] : slots.dim
    .filter((j) => j !== null).map((j) => weight.at(v, j))));
  // The ends of the colour scale: the largest finite |value| drawn (all of W when it is small;
  // a pass over a GPT-2-sized W would hold up the page for tens of milliseconds).
  const scale = shownWeights.reduce(
    (max, v) => (Number.isFinite(v) ? Math.max(max, Math.abs(v)) : max), 0) || 1;
  const scene = { cell, scale, cells: [], texts: [], tokens: [], vocabY: new Map(), tokenY: new Map() };
  const text = (x, y, kind, content, extra = {}) =>
    scene.texts.push({ x, y, kind, text: content, align: 'center', ...extra });

  // Column indices above the grids, row labels beside them, "…" and "⋮" for the gaps.
  const headerY = HEADER - 5;
  const columnLabels = (xs, indices, names) => indices.forEach((index, c) => {
    if (index === null) {
      text(xs.at[c] + cell / 4, headerY, 'gap', '…');
      return;
    }
    const label = String(index);
    text(xs.at[c] + cell / 2, headerY, 'label', label,
      { crowded: label.length * LABEL_CHAR > cell + 1, id: names ? index : undefined });
  });
  columnLabels(at.onehotX, slots.vocab, true);
  columnLabels(at.weightX, slots.dim, false);
  columnLabels(at.outX, slots.dim, false);
  const rowGap = (x, y) => text(x, y + cell / 4 + 4, 'gap', '⋮');
  slots.tokens.forEach((k, r) => {
    const y = at.tokenY.at[r];
    if (k === null) {
      rowGap(at.tokenLabels / 2, y);
      rowGap((at.outX.at[0] + at.outX.end) / 2, y);
      return;
    }
    scene.tokens.push({ k, y, label: String(ids[k]) });
    scene.tokenY.set(k, y);
  });
  slots.vocab.forEach((v, r) => {
    const y = at.vocabY.at[r];
    if (v === null) {
      rowGap(at.weightX.at[0] - at.vocabLabels / 2, y);
      return;
    }
    text(at.weightX.at[0] - 5, y + cell / 2 + 3.5, 'label', String(v), { align: 'right', crowded: cell < 10, id: v });
    scene.vocabY.set(v, y);
  });

  // one_hot: the 1 of row k in column idx[k]; W and out: values as colour, numbers where they fit.
  for (const [k, y] of scene.tokenY) {
    slots.vocab.forEach((v, c) => {
      if (v === null) return;
      const one = ids[k] === v;
      scene.cells.push({ grid: 'onehot', x: at.onehotX.at[c], y, k, one,
        text: cell >= DIGIT_CELL ? (one ? '1' : '0') : undefined });
    });
  }
  const valueCells = (grid, valueAt, row, y, xs, owner) => slots.dim.forEach((j, c) => {
    if (j === null) return;
    scene.cells.push({ grid, x: xs.at[c], y, value: valueAt(row, j), ...owner });
  });
  for (const [v, y] of scene.vocabY) valueCells('weight', weight.at, v, y, at.weightX, { v });
  // out is the product, the equation's own right-hand side: where W holds an Inf, its NaNs show.
  // While the product streams W, the lookup's rows stand in (the verdict says it is computing).
  const out = product ?? result.lookup;
  for (const [k, y] of scene.tokenY) valueCells('out', (k, j) => out.data[k * out.cols + j], k, y, at.outX, { k });
  // Numbers where a cell is wide enough, all in the notation of the W values drawn.
  if (cell >= NUMBER_CELL) {
    const numbered = scene.cells.filter((c) => c.grid !== 'onehot');
    const texts = formatElements(shownWeights, numbered.map((c) => c.value));
    numbered.forEach((c, i) => { c.text = texts[i]; });
  }

  // The operators, and each grid's name and shape below it.
  scene.dot = { x: at.onehotX.end + OPERATOR / 2, y: at.middle };
  text(at.weightX.end + OPERATOR / 2, at.middle + 6, 'operator', '=');
  const footY = at.height - FOOTER + 14;
  const caption = (xs, name, shape) => {
    const x = (xs.at[0] + xs.end) / 2;
    text(x, footY, 'name', name);
    text(x, footY + 14, 'shape', shape);
  };
  const n = ids.length;
  caption(at.onehotX, 'one_hot(idx)', `${count(n)} × ${count(result.vocab)}`);
  caption(at.weightX, 'W', `${count(result.vocab)} × ${count(result.dim)}`);
  caption(at.outX, 'out', `${count(n)} × ${count(result.dim)}`);
  return scene;
}

// The page's colours, with an unlit 1's, and a value's colour on the scale: `share` of the end
// `side` ('neg' or 'pos') over the zero colour, in whole per cent (100 steps look continuous),
// each mixed once.
function paletteOf(colors) {
  const steps = { neg: [], pos: [] };
  return {
    ...colors,
    one: mix(colors.zero, colors.accent, ONE_SHARE),
    step(side, share) {
      const percent = Math.round(share * 100);
      steps[side][percent] ??= mix(colors.zero, colors[side], percent / 100);
      return steps[side][percent];
    },
  };
}

// Each cell's fill, opacity and number colour for token `step` (whose id is `id`), resolved
// against the palette: what paint() draws, and what the e2e tests read back (canvas.scene).
function shade(scene, step, id, colors, fonts) {
  const { cell } = scene;
  // Whole px: each new size is a font the canvas looks up and rasterises glyphs for.
  const digitFont = `${Math.round(Math.min(12, Math.max(8, cell / 3.5)))}px ${fonts.mono}`;
  const valueFont = `${Math.round(Math.min(11, Math.max(8, cell / 4.6)))}px ${fonts.mono}`;
  for (const c of scene.cells) {
    if (c.grid === 'onehot') {
      const selected = c.k === step;
      c.lit = selected && c.one;
      c.dimmed = selected && !c.one;
      c.fill = c.lit ? colors.accent : c.one ? colors.one : colors.zero;
      c.ink = c.lit ? colors.accentText : c.one ? colors.text : colors.muted;
      c.font = c.one ? `700 ${digitFont}` : digitFont;
      continue;
    }
    const share = Math.min(1, Math.abs(c.value) / scene.scale);
    c.dimmed = c.grid === 'weight' && c.v !== id;
    c.fill = Number.isNaN(c.value) ? colors.nan : colors.step(c.value < 0 ? 'neg' : 'pos', share);
    c.ink = Number.isNaN(c.value) || share > 0.55 ? colors.strongText : colors.text;
    c.font = valueFont;
  }
  for (const t of scene.texts) {
    t.current = t.id !== undefined && t.id === id;
    [t.font, t.ink] = {
      label: [`${t.current ? '700 ' : ''}10px ${fonts.mono}`, t.current ? colors.accent : colors.muted],
      gap: [`13px ${fonts.mono}`, colors.muted],
      operator: [`700 26px ${fonts.mono}`, colors.muted],
      name: [`700 12px ${fonts.mono}`, colors.text],
      shape: [`11px ${fonts.sans}`, colors.muted],
    }[t.kind];
  }
}

// ratio: device pixels per CSS px of the canvas's buffer.
function paint(canvas, scene, colors, ratio) {
  const context = canvas.getContext('2d');
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  context.clearRect(0, 0, canvas.width / ratio, canvas.height / ratio);
  // Each font and colour is parsed when set: set them only when they change.
  let font = '';
  const write = (content, x, y, textFont, ink) => {
    if (textFont !== font) context.font = font = textFont;
    context.fillStyle = cssColor(ink);
    context.fillText(content, x, y);
  };
  const { cell } = scene;
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  for (const c of scene.cells) {
    context.globalAlpha = c.dimmed ? DIMMED : 1;
    context.fillStyle = cssColor(c.fill);
    context.beginPath();
    context.roundRect(c.x + 1, c.y + 1, cell - 2, cell - 2, 2);
    context.fill();
    if (c.text === undefined) continue;
    // The one-hot's digits stay whole: the dimmed zeros still read as zeros.
    if (c.grid === 'onehot') context.globalAlpha = 1;
    write(c.text, c.x + cell / 2, c.y + cell / 2, c.font, c.ink);
  }
  context.globalAlpha = 1;
  context.textBaseline = 'alphabetic';
  for (const t of scene.texts) {
    if (t.crowded && !t.current) continue;
    context.textAlign = t.align;
    write(t.text, t.x, t.y, t.font, t.ink);
  }
  context.fillStyle = cssColor(colors.muted);
  context.beginPath();
  context.arc(scene.dot.x, scene.dot.y, 3.5, 0, 2 * Math.PI);
  context.fill();
}

// root: an empty element the picture fills; onStep(k) when the learner picks another token.
// Returns { render(result, step) } for compute/plan.mjs's run() result.
function createEquationView(root, { lab, onStep }) {
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
  const frame = element('div', 'equation-picture');
  const cells = element('div', 'equation-cells');  // shows the picture's part of the canvas
  const canvas = element('canvas', 'equation-canvas');
  cells.append(canvas);
  canvas.setAttribute('aria-hidden', 'true');  // the SVG's title describes the picture
  const picture = svg('svg', { class: 'equation-svg', role: 'img' });
  const title = svg('title');
  const rows = svg('g', { class: 'eq-rows' });
  // Kept from one drawing to the next, so that a new token slides them (a CSS transition).
  // The 1, W's row and out's row have a halo under their outline: a wide faint stroke, which
  // software rasterisers draw in a fraction of the time a blur filter (drop-shadow) takes.
  const outlined = (name, halo) => [
    ...(halo ? [svg('rect', { class: 'eq-glow eq-halo', rx: 3 })] : []),
    svg('rect', { class: `eq-glow eq-glow-${name}`, rx: 3 })];
  const glow = {
    token: outlined('token', false), one: outlined('one', true),
    row: outlined('row', true), out: outlined('out', true),
  };
  // pathLength 1: a replayed flow draws itself as its dash offset runs from 1 to 0.
  const flows = [0, 1].map(() => svg('path', { class: 'eq-flow', pathLength: 1 }));
  picture.append(title, rows, ...Object.values(glow).flat(), ...flows);
  frame.append(cells, picture);
  const counts = element('figcaption', 'equation-counts');
  figure.append(bar, frame, counts);
  root.append(figure);

  let current = { result: null, step: 0, n: 0 };
  let drawn = null;    // { key, scene, slots, at, labels }: what the picture shows now
  let width = 0;
  let sizedFor = '';   // the width and pixel ratio the canvas was sized for
  let ratio = 1;       // its device pixels per CSS px
  let kept = { shape: '', cell: 0, height: 0 };  // a shape's (width, n, V, d) cell and height
  let described = '';
  // Read at the first paint (getComputedStyle forces a style pass), again on a theme change.
  let colors = null;
  let fonts = null;

  prev.addEventListener('click', () => current.step > 0 && onStep(current.step - 1));
  next.addEventListener('click', () => current.step < current.n - 1 && onStep(current.step + 1));

  // The overlay's nodes for the drawn token rows: the label naming each token's id, and a
  // target over its row of out. A keystroke mostly keeps the rows: their nodes are reused.
  function drawRows({ scene, at }) {
    const { cell } = at;
    const labels = new Map();
    const nodes = rows.children;  // live: [label, target] per row
    scene.tokens.forEach(({ k, y, label }, r) => {
      if (!nodes[2 * r]) {
        rows.append(svg('text', { class: 'eq-label', 'text-anchor': 'end' }),
          svg('rect', { class: 'eq-row-target', rx: 2 }));
      }
      const text = nodes[2 * r];
      const target = nodes[2 * r + 1];
      for (const [node, attributes] of [
        [text, { x: at.tokenLabels - 5, y: y + cell / 2 + 3.5, 'data-token': k }],
        [target, { x: at.outX.at[0] + 1, y: y + 1, width: at.outX.end - at.outX.at[0] - 2,
          height: cell - 2, 'data-token': k }],
      ]) {
        for (const [name, value] of Object.entries(attributes)) writeAttribute(node, name, value);
      }
      text.classList.toggle('crowded', cell < 10);
      if (text.textContent !== label) text.textContent = label;
      labels.set(k, text);
    });
    while (nodes.length > 2 * scene.tokens.length) nodes[nodes.length - 1].remove();
    return labels;
  }

  // The dimming, the glow and the flows for token `step`.
  function select(result, step) {
    const { scene, slots, at, labels } = drawn;
    const id = result.ids[step];
    const { cell } = at;
    if (!colors) {
      if (!fonts) onThemeChange(figure, repaint);  // the first paint: the figure is in place
      colors = paletteOf(readColors(figure, COLORS));
      const style = getComputedStyle(figure);
      fonts = { mono: style.getPropertyValue('--mono').trim() || 'monospace', sans: 'system-ui, sans-serif' };
    }
    shade(scene, step, id, colors, fonts);
    paint(canvas, scene, colors, ratio);
    canvas.scene = scene;  // what it shows, for the e2e tests: text cannot be read back from pixels
    for (const [k, label] of labels) label.classList.toggle('current', k === step);

    const tokenY = scene.tokenY.get(step);
    const rowY = scene.vocabY.get(id);
    const oneX = at.onehotX.at[slots.vocab.indexOf(id)];
    const place = (rects, xs, x, y, size) => {
      for (const rect of rects) {
        writeAttribute(rect, 'width', xs ? xs.end - xs.at[0] + 2 : size);
        writeAttribute(rect, 'height', size);
        writeStyle(rect, 'transform', `translate(${xs ? xs.at[0] - 1 : x}px, ${y}px)`);
      }
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
    writeStyle(flows[0], 'd', curve(oneX + cell + 2, mid(tokenY), at.weightX.at[0] - 2, mid(rowY)));
    writeStyle(flows[1], 'd', curve(at.weightX.end + 2, mid(rowY), at.outX.at[0] - 2, mid(tokenY)));
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
    const key = [n, vocab, dim, step, id].join();
    if (key === described) return;
    described = key;
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
    if (!width) width = figure.clientWidth;
    // While the same shape is typed (width, n, V, d), the cells only shrink and the frame only
    // grows: an id typed or deleted changes which columns show, and the picture would otherwise
    // swell and shrink, its numbers come and go, and the page below it move, at every keystroke.
    const shape = [width, result.ids.length, result.vocab, result.dim].join();
    const same = shape === kept.shape;
    const at = layout(width, width < 600 ? 190 : 300, slots, result.ids, same ? kept.cell : undefined);
    kept = { shape, cell: at.cell, height: same ? Math.max(kept.height, at.height) : at.height };
    const key = [width, at.cell, slots.tokens, slots.vocab, slots.dim].join('|');
    if (result !== current.result || key !== drawn?.key) {
      // The canvas only grows while the width stays, so that typing (which changes the
      // picture's size) seldom resizes it: a new size costs Chromium a new buffer, several
      // milliseconds. The frame shows the picture's part of it.
      const fresh = sizedFor !== `${width}@${devicePixelRatio}`;
      sizedFor = `${width}@${devicePixelRatio}`;
      if (fresh) ratio = devicePixelRatio || 1;
      for (const [side, size] of [['width', at.width], ['height', at.height]]) {
        const pixels = Math.round(size * ratio);
        if (fresh || canvas[side] < pixels) {
          canvas[side] = pixels;
          canvas.style[side] = `${pixels / ratio}px`;
        }
      }
      writeStyle(frame, 'width', `${at.width}px`);
      writeStyle(frame, 'height', `${kept.height}px`);
      writeStyle(picture, 'height', `${at.height}px`);
      // Cells at their smallest can still be too wide for a phone: then the picture is shrunk.
      writeStyle(frame, 'zoom', at.width > width ? String(width / at.width) : '');
      writeAttribute(picture, 'viewBox', `0 0 ${at.width} ${at.height}`);
      drawn = { key, slots, at, scene: sceneOf(result, slots, at, lab.formatElements) };
      drawn.labels = drawRows(drawn);
    }
    current = { result, step, n: result.ids.length };
    select(result, step);
  }

  // Redrawn at a new width: the cell size, and whether numbers fit, depend on it.
  new ResizeObserver(() => {
    const now = figure.clientWidth;
    if (!current.result || now === width) return;
    width = now;
    figure.classList.remove('moving');
    draw(current.result, current.step);
  }).observe(figure);
  // The canvas does not follow the page's colours by itself.
  function repaint() {
    colors = null;
    if (current.result) select(current.result, current.step);
  }

  return {
    render(result, step) {
      const moved = current.result !== null && step !== current.step;
      // Transitions run from the places before this style change, when the new style has them.
      figure.classList.toggle('moving', moved);
      figure.classList.add('drawn');
      draw(result, step);
      if (moved) replayFlows();
      describe(result, step);
    },
  };
}

export const pictureView = {
  title: 'one_hot(idx) · W = out',
  build(container, { store, lab }) {
    const picture = createEquationView(container, { lab, onStep: (k) => store.set({ step: k }) });
    return {
      update({ result, step }, changed) {
        if (result && (changed.has('result') || changed.has('step'))) picture.render(result, step);
      },
    };
  },
};
