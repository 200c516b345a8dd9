// A log-log line chart in SVG: time per call against V, one line per method. No library.
// It is laid out for the width it is shown at (one SVG unit = one CSS pixel), so its labels
// keep their 12 px on a phone instead of shrinking with a scaled-down drawing.
import { duration } from '../model/format-number.mjs';

const SVG = 'http://www.w3.org/2000/svg';
const MARGIN = { left: 70, right: 12, top: 12, bottom: 44 };
const MAX_WIDTH = 640;
const MIN_WIDTH = 240;
const FONT_PX = 12;
// Least px between the centres of two axis labels: "100k" is about 28 px wide, a line 15 px tall.
const MIN_GAP = { x: 40, y: 20 };

function element(name, attributes = {}, text = '') {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text) node.textContent = text;
  return node;
}

// Powers of ten covering [lo, hi], widened to at least one decade.
function decades(lo, hi) {
  const from = Math.floor(Math.log10(lo));
  const to = Math.max(Math.ceil(Math.log10(hi)), from + 1);
  return { from, to };
}

const vocabLabel = (v) => (v >= 1000 ? `${v / 1000}k` : String(v));

// series: [{ label, color (a CSS colour, var() too), dash, points: [[V, ms], ...] }]; width: the CSS pixels the chart is
// shown at (clamped to [240, 640]). Replaces svg's content.
export function drawChart(svg, series, { title, width }) {
  const w = Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, width)));
  const h = Math.round(Math.min(360, Math.max(240, w * 0.5625)));
  svg.replaceChildren();
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  svg.setAttribute('width', w);
  svg.setAttribute('height', h);
  svg.setAttribute('role', 'img');
  svg.append(element('title', {}, title));
  const points = series.flatMap((s) => s.points);
  if (points.length === 0) return;
  const xs = decades(Math.min(...points.map((p) => p[0])), Math.max(...points.map((p) => p[0])));
  const ys = decades(Math.min(...points.map((p) => p[1])), Math.max(...points.map((p) => p[1])));
  const plotW = w - MARGIN.left - MARGIN.right;
  const plotH = h - MARGIN.top - MARGIN.bottom;
  const x = (v) => MARGIN.left + ((Math.log10(v) - xs.from) / (xs.to - xs.from)) * plotW;
  const y = (ms) => MARGIN.top + (1 - (Math.log10(ms) - ys.from) / (ys.to - ys.from)) * plotH;
  // Label every k-th decade, k as small as keeps labels MIN_GAP apart.
  const every = (decadeCount, span, gap) => Math.max(1, Math.ceil(gap / (span / decadeCount)));

  const grid = element('g', { class: 'bench-grid', 'font-size': FONT_PX });
  const xStep = every(xs.to - xs.from, plotW, MIN_GAP.x);
  for (let e = xs.from; e <= xs.to; ++e) {
    grid.append(
      element('line', { x1: x(10 ** e), x2: x(10 ** e), y1: MARGIN.top, y2: MARGIN.top + plotH }),
    );
    if ((e - xs.from) % xStep === 0) {
      grid.append(
        element(
          'text',
          { x: x(10 ** e), y: MARGIN.top + plotH + 16, 'text-anchor': 'middle' },
          vocabLabel(10 ** e),
        ),
      );
    }
  }
  const yStep = every(ys.to - ys.from, plotH, MIN_GAP.y);
  for (let e = ys.from; e <= ys.to; ++e) {
    grid.append(
      element('line', { x1: MARGIN.left, x2: MARGIN.left + plotW, y1: y(10 ** e), y2: y(10 ** e) }),
    );
    if ((ys.to - e) % yStep === 0) {
      grid.append(
        element(
          'text',
          { x: MARGIN.left - 6, y: y(10 ** e) + 4, 'text-anchor': 'end' },
          duration(10 ** e),
        ),
      );
    }
  }
  grid.append(
    element(
      'text',
      { x: MARGIN.left + plotW / 2, y: h - 6, 'text-anchor': 'middle' },
      'vocabulary size V (log scale)',
    ),
  );
  grid.append(
    element(
      'text',
      {
        x: 12,
        y: MARGIN.top + plotH / 2,
        'text-anchor': 'middle',
        transform: `rotate(-90 12 ${MARGIN.top + plotH / 2})`,
      },
      'time per call (log scale)',
    ),
  );
  svg.append(grid);

  for (const s of series) {
    if (s.points.length === 0) continue;
    // A style, not attributes: the colour is a CSS var().
    const group = element('g', {
      class: 'bench-series',
      style: `stroke: ${s.color}; fill: ${s.color}`,
    });
    group.append(
      element('polyline', {
        points: s.points.map(([v, ms]) => `${x(v)},${y(ms)}`).join(' '),
        fill: 'none',
        'stroke-width': 2,
        'stroke-dasharray': s.dash ?? 'none',
      }),
    );
    for (const [v, ms] of s.points) group.append(element('circle', { cx: x(v), cy: y(ms), r: 3 }));
    svg.append(group);
  }
}
