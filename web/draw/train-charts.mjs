// The Train view's two small charts of next-token training, in SVG: the loss step by step, and
// W's rows as points in a plane, each with the trail it moved along. Both are drawn in a fixed
// viewBox about as wide as a phone's column, so that their 11-unit labels stay readable there
// and grow a little on a wide screen. Why a row moved is carried by colour and by words (the
// table beside, lab.rowCauses); the points add where it moved.
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
  for (const v of yTicks.values) {
    axes.append(
      svgNode('line', { class: 'grid', x1: PLOT.left, x2: PLOT.right, y1: y(v), y2: y(v) }),
      svgNode(
        'text',
        { x: PLOT.left - 5, y: y(v) + 4, 'text-anchor': 'end' },
        v.toFixed(yTicks.decimals),
      ),
    );
  }
  for (const v of xTicks.values) {
    axes.append(
      svgNode('line', { class: 'grid', x1: x(v), x2: x(v), y1: PLOT.top, y2: PLOT.bottom }),
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

// losses: the loss of each step taken, texts: the same as printed; total: the steps there are.
export function drawLossCurve(svg, { losses, texts, total }) {
  const top = Math.max(...losses, 1) * 1.1;
  const x = scale(total === 1 ? 0 : 1, Math.max(total, 2), PLOT.left + 10, PLOT.right - 10);
  const y = scale(0, top, PLOT.bottom, PLOT.top);
  const every = Math.ceil(total / 8);
  frame(svg, {
    title: `The loss after each of ${losses.length} steps: ${texts.join(', ')}`,
    xLabel: 'step',
    yLabel: 'loss (mean cross-entropy)',
    x,
    y,
    xTicks: {
      values: Array.from({ length: total }, (_, k) => k + 1).filter((k) => (k - 1) % every === 0),
      decimals: 0,
    },
    yTicks: ticks(0, top, 4),
  });
  const points = losses.map((loss, k) => [x(k + 1), y(loss)]);
  svg.append(svgNode('polyline', { class: 'loss-line', points: points.join(' ') }));
  points.forEach(([px, py], k) => {
    const dot = svgNode('circle', { class: 'loss-point', cx: px, cy: py, r: 3.5 });
    dot.append(svgNode('title', {}, `step ${k + 1}: loss ${texts[k]}`));
    svg.append(dot);
  });
  const last = points.at(-1);
  if (last) {
    svg.append(
      svgNode(
        'text',
        {
          class: 'loss-value',
          x: Math.min(last[0], PLOT.right - 4),
          y: Math.max(last[1] - 8, PLOT.top + 10),
          'text-anchor': last[0] > (PLOT.left + PLOT.right) / 2 ? 'end' : 'start',
        },
        texts.at(-1),
      ),
    );
  }
}

// weights: embedding.weight at step 0, 1, ... (the steps taken); rows: the rows drawn; dim: d
// (x = W[r, 0], y = W[r, 1], or 0 where d = 1); changed: the last step's { rows, causes } or
// null; inputs: its input ids; causes: lab.rowCauses; picked: a row.
export function drawRowPoints(svg, { weights, rows, dim, changed, inputs, causes, picked }) {
  const at = (w, r) => [w.data[r * dim], dim > 1 ? w.data[r * dim + 1] : 0];
  const all = weights.flatMap((w) => rows.map((r) => at(w, r)));
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
      `${rows.length} rows of W as points, x = W[r, 0]` +
      `${dim > 1 ? ', y = W[r, 1]' : ''}, over ${weights.length - 1} steps; ` +
      `${moved} of them moved in the last step`,
    xLabel: 'W[r, 0]',
    yLabel: dim > 1 ? 'W[r, 1]' : '(d = 1: no second column)',
    x,
    y,
    xTicks: ticks(x0, x1, 4),
    yTicks: dim > 1 ? ticks(y0, y1, 4) : { values: [0], decimals: 0 },
  });
  const inputSet = new Set(Array.from(inputs ?? []));
  const drawn = [...rows].sort((a, b) => (a === picked) - (b === picked)); // picked on top
  for (const r of drawn) {
    const cause = changed ? causeOf(changed, r) : undefined;
    const trail = weights.map((w) => at(w, r)).map(([px, py]) => [x(px), y(py)]);
    const g = svgNode('g', {
      class: [
        'row-point',
        cause === undefined ? 'same' : `changed cause-${causes[cause].name}`,
        inputSet.has(r) ? 'input' : '',
        r === picked ? 'picked' : '',
      ]
        .filter(Boolean)
        .join(' '),
      'data-vocab': r,
    });
    if (trail.length > 1)
      g.append(svgNode('polyline', { class: 'trail', points: trail.join(' ') }));
    for (const [px, py] of trail.slice(0, -1))
      g.append(svgNode('circle', { class: 'was', cx: px, cy: py, r: 1.8 }));
    const [cx, cy] = trail.at(-1);
    g.append(
      svgNode('circle', { class: 'dot', cx, cy, r: inputSet.has(r) ? 5.5 : 4 }),
      svgNode('text', { class: 'row-label', x: cx + 7, y: cy - 5 }, String(r)),
    );
    svg.append(g);
  }
}
