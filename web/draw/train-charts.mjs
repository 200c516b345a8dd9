// The Train view's two small charts of next-token training, in SVG: the loss step by step with
// each epoch's mean, and the text's rows of W as points in a fixed plane, each with the trail it
// moved along. Both are drawn in a fixed
// viewBox about as wide as a phone's column, so that their 11-unit labels stay readable there
// and grow a little on a wide screen. Why a row moved is carried by colour and by words (the
// table beside, lab.rowCauses); the points add where it moved.
import { writeAttribute } from './dom.mjs';
import { morphChildren } from './morph.mjs';
import { causeOf } from './train-picture.mjs';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 320;
const HEIGHT = 210;
const MARGIN = { left: 48, right: 14, top: 12, bottom: 40 };
const PLOT = {
  left: MARGIN.left,
  right: WIDTH - MARGIN.right,
  top: MARGIN.top,
  bottom: HEIGHT - MARGIN.bottom,
};

function svgNode(name, attributes = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

// About `count` round values (1, 2 or 5 times a power of ten apart) covering [lo, hi], with the
// decimals that write them.
function ticks(lo, hi, count) {
  const raw = (hi - lo) / count || 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const decimals = Math.max(0, -Math.floor(Math.log10(step)));
  const values = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step / 1e6; v += step)
    values.push(Number(v.toFixed(decimals)));
  return { values, decimals };
}

// An empty chart with its axes: scales x and y map data to the viewBox.
function frame(svg, { title, xLabel, yLabel, x, y, xTicks, yTicks }) {
  svg.replaceChildren();
  svg.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', title);
  const axes = svgNode('g', { class: 'chart-axes' });
  // The grid is one path: a line at each tick, across the plot.
  const grid = [
    ...yTicks.values.map((v) => `M${PLOT.left} ${y(v)}H${PLOT.right}`),
    ...xTicks.values.map((v) => `M${x(v)} ${PLOT.top}V${PLOT.bottom}`),
  ];
  axes.append(svgNode('path', { class: 'grid', d: grid.join('') }));
  for (const v of yTicks.values) {
    axes.append(
      svgNode(
        'text',
        { x: PLOT.left - 5, y: y(v) + 4, 'text-anchor': 'end' },
        v.toFixed(yTicks.decimals),
      ),
    );
  }
  for (const v of xTicks.values) {
    axes.append(
      svgNode(
        'text',
        { x: x(v), y: PLOT.bottom + 14, 'text-anchor': 'middle' },
        v.toFixed(xTicks.decimals),
      ),
    );
  }
  axes.append(
    svgNode('rect', {
      class: 'plot',
      x: PLOT.left,
      y: PLOT.top,
      width: PLOT.right - PLOT.left,
      height: PLOT.bottom - PLOT.top,
    }),
    svgNode(
      'text',
      {
        class: 'axis-label',
        x: (PLOT.left + PLOT.right) / 2,
        y: HEIGHT - 6,
        'text-anchor': 'middle',
      },
      xLabel,
    ),
    svgNode(
      'text',
      {
        class: 'axis-label',
        transform: `translate(12 ${(PLOT.top + PLOT.bottom) / 2}) rotate(-90)`,
        'text-anchor': 'middle',
      },
      yLabel,
    ),
  );
  svg.append(axes);
}

const scale = (lo, hi, from, to) => (v) => from + ((v - lo) / (hi - lo || 1)) * (to - from);

// Draws with draw(out) into an svg built apart, then carries it over to svg, writing only what
// changed (morph.mjs): a chart drawn a few times a second restyles the little that moved.
function redraw(svg, draw) {
  const out = svgNode('svg');
  draw(out);
  for (const { name, value } of out.attributes) writeAttribute(svg, name, value);
  morphChildren(svg, out);
}

// losses: the loss of each step taken; epochs: the epoch of each; text(loss): the loss as
// printed. Each step is a point of one line; each epoch's mean is a level segment over its steps;
// a dashed line marks half the first loss, where the training has learned something.
export function drawLossCurve(svg, spec) {
  redraw(svg, (out) => lossCurve(out, spec));
}

function lossCurve(svg, { losses, epochs, text }) {
  const n = losses.length;
  const top = Math.max(...losses.filter(Number.isFinite), 1) * 1.08;
  const x = scale(1, Math.max(n, 8), PLOT.left + 6, PLOT.right - 6);
  const y = scale(0, top, PLOT.bottom, PLOT.top);
  const means = epochMeans(losses, epochs);
  frame(svg, {
    title:
      n === 0
        ? 'The loss, step by step: no step yet'
        : `The loss of ${n} steps: ${text(losses[0])} at the first, ${text(losses[n - 1])} at ` +
          `the last; the mean of each epoch: ${means.map((m) => text(m.mean)).join(', ')}`,
    xLabel: 'step',
    yLabel: 'loss (cross-entropy)',
    x,
    y,
    xTicks: ticks(1, Math.max(n, 8), 4),
    yTicks: ticks(0, top, 4),
  });
  if (n === 0) return;
  const half = y(losses[0] / 2);
  svg.append(
    svgNode('line', { class: 'loss-half', x1: PLOT.left, x2: PLOT.right, y1: half, y2: half }),
    svgNode(
      'text',
      { class: 'loss-half-label', x: PLOT.right - 4, y: half - 4, 'text-anchor': 'end' },
      '½ of the first',
    ),
  );
  const points = losses.map((loss, k) => [x(k + 1), y(loss)]);
  svg.append(svgNode('polyline', { class: 'loss-line', points: points.join(' ') }));
  if (n <= 40) {
    for (const [px, py] of points)
      svg.append(svgNode('circle', { class: 'loss-point', cx: px, cy: py, r: 2.5 }));
  }
  for (const m of means) {
    const seg = svgNode('line', {
      class: 'epoch-mean',
      x1: x(m.first) - (m.first === m.last ? 3 : 0),
      x2: x(m.last) + (m.first === m.last ? 3 : 0),
      y1: y(m.mean),
      y2: y(m.mean),
    });
    seg.append(svgNode('title', {}, `epoch ${m.epoch}: mean loss ${text(m.mean)}`));
    svg.append(seg);
  }
  const [lx, ly] = points.at(-1);
  svg.append(
    svgNode(
      'text',
      {
        class: 'loss-value',
        x: Math.min(lx, PLOT.right - 4),
        y: Math.max(ly - 8, PLOT.top + 10),
        'text-anchor': lx > (PLOT.left + PLOT.right) / 2 ? 'end' : 'start',
      },
      text(losses[n - 1]),
    ),
  );
}

// Each epoch's { epoch, first, last (its steps, from 1), mean } of the losses taken so far.
export function epochMeans(losses, epochs) {
  const out = [];
  losses.forEach((loss, k) => {
    const e = epochs[k];
    if (out.at(-1)?.epoch !== e) out.push({ epoch: e, first: k + 1, last: k + 1, sum: 0 });
    const m = out.at(-1);
    m.last = k + 1;
    m.sum += loss;
  });
  return out.map(({ epoch, first, last, sum }) => ({
    epoch,
    first,
    last,
    mean: sum / (last - first + 1),
  }));
}

// trail: [{ step, points: [[x, y] of each row] }], the rows' places at each step kept (the last
// is now); labels: each row's words; rows: their ids (data-vocab); changed: the last step's
// { rows, causes } among them, or null; inputs: its input ids; causes: lab.rowCauses; picked: a
// row; axes: { x, y } the axes' names.
export function drawRowPoints(svg, spec) {
  redraw(svg, (out) => rowPoints(out, spec));
}

function rowPoints(svg, { trail, labels, rows, changed, inputs, causes, picked, axes }) {
  const all = trail.flatMap((t) => t.points);
  const bounds = (k) => {
    const values = all.map((p) => p[k]);
    const lo = Math.min(...values);
    const hi = Math.max(...values);
    const pad = (hi - lo || 1) * 0.08;
    return [lo - pad, hi + pad];
  };
  const [x0, x1] = bounds(0);
  const [y0, y1] = bounds(1);
  const x = scale(x0, x1, PLOT.left, PLOT.right);
  const y = scale(y0, y1, PLOT.bottom, PLOT.top);
  const moved = changed ? rows.filter((r) => causeOf(changed, r) !== undefined).length : 0;
  frame(svg, {
    title:
      `${rows.length} rows of W as points in a fixed plane, over ${trail.at(-1).step} steps; ` +
      `${moved} of them moved in the last step`,
    xLabel: axes.x,
    yLabel: axes.y,
    x,
    y,
    xTicks: ticks(x0, x1, 4),
    yTicks: ticks(y0, y1, 4),
  });
  const inputSet = new Set(Array.from(inputs ?? []));
  const order = rows.map((_, i) => i).sort((a, b) => (rows[a] === picked) - (rows[b] === picked));
  for (const i of order) {
    const r = rows[i];
    const cause = changed ? causeOf(changed, r) : undefined;
    const path = trail.map((t) => [x(t.points[i][0]), y(t.points[i][1])]);
    // A row's trail, dot and words are the svg's own children, each classed and named (data-vocab)
    // as the row is: no group a row, to keep the page within its element budget.
    const classes = [
      'row-point',
      cause === undefined ? 'same' : `changed cause-${causes[cause].name}`,
      inputSet.has(r) ? 'input' : '',
      r === picked ? 'picked' : '',
    ]
      .filter(Boolean)
      .join(' ');
    const [cx, cy] = path.at(-1);
    if (path.length > 1)
      svg.append(
        svgNode('polyline', { class: `${classes} trail`, points: path.join(' '), 'data-vocab': r }),
      );
    svg.append(
      svgNode('circle', {
        class: `${classes} dot`,
        cx,
        cy,
        r: inputSet.has(r) ? 4.5 : 3.5,
        'data-vocab': r,
      }),
    );
    // Words beside the rows that matter now: the last step's inputs and the picked row.
    if (inputSet.has(r) || r === picked)
      svg.append(
        svgNode(
          'text',
          { class: `${classes} row-label`, x: cx + 6, y: cy - 4, 'data-vocab': r },
          labels[i],
        ),
      );
  }
}
