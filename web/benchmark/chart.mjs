// A log-log line chart in SVG: time per call against V, one line per method. No library.
const SVG = 'http://www.w3.org/2000/svg';
const SIZE = { width: 640, height: 360, left: 76, right: 16, top: 16, bottom: 48 };

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

function tickLabel(exponent, unit) {
  const value = 10 ** exponent;
  if (unit === 'ms') {
    if (exponent >= 3) return `${value / 1000} s`;
    if (exponent < 0) return `${value * 1000} µs`;
    return `${value} ms`;
  }
  return value >= 1000 ? `${value / 1000}k` : String(value);
}

// series: [{ label, color, dash, points: [[V, ms], ...] }]. Replaces svg's content.
export function drawChart(svg, series, { title }) {
  svg.replaceChildren();
  svg.setAttribute('viewBox', `0 0 ${SIZE.width} ${SIZE.height}`);
  svg.setAttribute('role', 'img');
  svg.append(element('title', {}, title));
  const points = series.flatMap((s) => s.points);
  if (points.length === 0) return;
  const xs = decades(Math.min(...points.map((p) => p[0])), Math.max(...points.map((p) => p[0])));
  const ys = decades(Math.min(...points.map((p) => p[1])), Math.max(...points.map((p) => p[1])));
  const plotW = SIZE.width - SIZE.left - SIZE.right;
  const plotH = SIZE.height - SIZE.top - SIZE.bottom;
  const x = (v) => SIZE.left + ((Math.log10(v) - xs.from) / (xs.to - xs.from)) * plotW;
  const y = (ms) => SIZE.top + (1 - (Math.log10(ms) - ys.from) / (ys.to - ys.from)) * plotH;

  const grid = element('g', { class: 'bench-grid' });
  for (let e = xs.from; e <= xs.to; ++e) {
    grid.append(element('line', { x1: x(10 ** e), x2: x(10 ** e), y1: SIZE.top, y2: SIZE.top + plotH }));
    grid.append(element('text', { x: x(10 ** e), y: SIZE.top + plotH + 18, 'text-anchor': 'middle' },
                        tickLabel(e, 'V')));
  }
  for (let e = ys.from; e <= ys.to; ++e) {
    grid.append(element('line', { x1: SIZE.left, x2: SIZE.left + plotW, y1: y(10 ** e), y2: y(10 ** e) }));
    grid.append(element('text', { x: SIZE.left - 6, y: y(10 ** e) + 4, 'text-anchor': 'end' },
                        tickLabel(e, 'ms')));
  }
  grid.append(element('text', { x: SIZE.left + plotW / 2, y: SIZE.height - 6, 'text-anchor': 'middle' },
                      'vocabulary size V (log scale)'));
  grid.append(element('text', { x: 14, y: SIZE.top + plotH / 2, 'text-anchor': 'middle',
                                transform: `rotate(-90 14 ${SIZE.top + plotH / 2})` },
                      'time per call (log scale)'));
  svg.append(grid);

  for (const s of series) {
    if (s.points.length === 0) continue;
    const group = element('g', { class: 'bench-series', stroke: s.color, fill: s.color });
    group.append(element('polyline', {
      points: s.points.map(([v, ms]) => `${x(v)},${y(ms)}`).join(' '),
      fill: 'none', 'stroke-width': 2, 'stroke-dasharray': s.dash ?? 'none',
    }));
    for (const [v, ms] of s.points) group.append(element('circle', { cx: x(v), cy: y(ms), r: 3 }));
    svg.append(group);
  }
}
