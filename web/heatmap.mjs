// A big matrix as a <canvas> heatmap: each value a colour on the picture's diverging scale
// (--eq-neg, --eq-zero, --eq-pos in style.css, light or dark), one canvas element however big the
// matrix, so the page's DOM stays bounded. Beyond MAX_WIDTH × MAX_HEIGHT cells each pixel shows
// the cell at its centre (a sampled view: reading all of GPT-2's W would hold up the page).
// Hovering shows the cell's (row, col) and value in a line below; the selected token's row (or
// column) is outlined.
import { element } from './dom.mjs';
import { tensorFormatter } from './format-number.mjs';

const MAX_WIDTH = 512;
const MAX_HEIGHT = 256;

// A CSS colour (any syntax the canvas knows) as [r, g, b].
function rgbOf(color) {
  const probe = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  probe.fillStyle = color;
  probe.fillRect(0, 0, 1, 1);
  return Array.from(probe.getImageData(0, 0, 1, 1).data.slice(0, 3));
}

// The three ends of the scale and the NaN colour, as the page's style resolves them now.
function palette(node) {
  const style = getComputedStyle(node);
  const read = (name, fallback) => rgbOf(style.getPropertyValue(name).trim() || fallback);
  return {
    neg: read('--eq-neg', '#1c6fd1'), zero: read('--eq-zero', '#eef0f2'),
    pos: read('--eq-pos', '#d9480f'), nan: read('--eq-nan', '#000'), outline: style.getPropertyValue('--accent').trim() || '#0a62b8',
  };
}

// onHover(i, j) with the cell under the pointer (null when it leaves); onPick(i, j) on a click.
export function createHeatmap({ onHover = () => {}, onPick = () => {} } = {}) {
  const node = element('figure', 'heatmap');
  const canvas = element('canvas', 'heatmap-canvas');
  canvas.setAttribute('role', 'img');
  const readout = element('figcaption', 'heatmap-readout', 'Hover over the heatmap for a value.');
  node.append(canvas, readout);
  let spec = null;
  let image = null;
  let outlined = null;  // { row } or { col }

  const cellAt = (event) => {
    // offsetX/Y: from the inside of the border, across clientWidth × clientHeight.
    const { rows, cols } = spec.matrix;
    const clamp = (x, size) => Math.max(0, Math.min(size - 1, Math.floor(x * size)));
    return [clamp(event.offsetY / canvas.clientHeight, rows), clamp(event.offsetX / canvas.clientWidth, cols)];
  };
  canvas.addEventListener('pointermove', (event) => {
    if (!spec) return;
    const [i, j] = cellAt(event);
    const value = spec.matrix.at(i, j);
    readout.textContent = `${spec.name}[${i}, ${j}] = ${tensorFormatter([value])(value)}`;
    readout.dataset.row = String(i);
    readout.dataset.col = String(j);
    onHover(i, j);
  });
  canvas.addEventListener('pointerleave', () => onHover(null, null));
  canvas.addEventListener('click', (event) => {
    if (spec) onPick(...cellAt(event));
  });

  function paint() {
    const context = canvas.getContext('2d');
    context.putImageData(image, 0, 0);
    if (!outlined) return;
    const { rows, cols } = spec.matrix;
    context.strokeStyle = spec.colors.outline;
    context.lineWidth = 2;
    if ('row' in outlined) {
      const y = (outlined.row * canvas.height) / rows;
      context.strokeRect(1, Math.max(1, y - 1), canvas.width - 2, Math.max(2, canvas.height / rows) + 2);
    } else {
      const x = (outlined.col * canvas.width) / cols;
      context.strokeRect(Math.max(1, x - 1), 1, Math.max(2, canvas.width / cols) + 2, canvas.height - 2);
    }
  }

  return {
    node,
    // matrix: { rows, cols, at(i, j) }; name: how the readout names it ("W").
    render(matrix, name) {
      const width = Math.min(matrix.cols, MAX_WIDTH);
      const height = Math.min(matrix.rows, MAX_HEIGHT);
      canvas.width = width;
      canvas.height = height;
      // Its width follows the page; its height a few px a row, within one screen.
      canvas.style.height = `${Math.min(280, Math.max(48, 4 * matrix.rows))}px`;
      canvas.setAttribute('aria-label', `${name} as a heatmap, ${matrix.rows} × ${matrix.cols}`);
      const colors = palette(node);
      spec = { matrix, name, colors };
      const values = new Float64Array(width * height);
      let scale = 0;
      for (let y = 0; y < height; ++y) {
        const i = Math.floor(((y + 0.5) * matrix.rows) / height);
        for (let x = 0; x < width; ++x) {
          const v = matrix.at(i, Math.floor(((x + 0.5) * matrix.cols) / width));
          values[y * width + x] = v;
          if (Number.isFinite(v)) scale = Math.max(scale, Math.abs(v));
        }
      }
      scale ||= 1;
      image = new ImageData(width, height);
      values.forEach((v, p) => {
        const end = v < 0 ? colors.neg : colors.pos;
        const share = Math.min(1, Math.abs(v) / scale);
        for (let c = 0; c < 3; ++c) {
          image.data[4 * p + c] = Number.isNaN(v) ? colors.nan[c]
            : Math.round(colors.zero[c] + share * (end[c] - colors.zero[c]));
        }
        image.data[4 * p + 3] = 255;
      });
      paint();
    },
    // Outlines { row: i } or { col: j }, or nothing for null.
    outline(which) {
      outlined = which;
      if (image) paint();
    },
  };
}
