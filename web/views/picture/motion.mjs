// What the picture's modes share to draw a frame of Play on the scene that shade() has just
// shaded (draw/picture-paint.mjs): rows on their way (ghosts), values that change as terms
// are added, and the texts of those values.
import { valueColors } from '../../draw/picture-paint.mjs';

// Slow in, slow out: where a move is at `progress` (0 to 1).
export const ease = (p) => (p < 0.5 ? 2 * p * p : 1 - (-2 * p + 2) ** 2 / 2);

// A copy of the cells of `grid` that `mine` picks (one row), drawn at (x, y), `scale` times its
// size, with `label` before it; `blank` draws it as zeros (a row times 0, or a skipped run).
export function ghostOf(scene, grid, mine, { x, y, scale, label, blank = false }) {
  const cells = scene.cells.filter((c) => c.grid === grid && mine(c));
  const left = cells[0].x;
  const last = cells.at(-1);
  return {
    x,
    y,
    scale,
    label,
    labelFont: scene.ghostFont,
    labelInk: scene.ghostInk,
    width: last.x + last.width - left,
    cells: cells.map((c) => ({
      ...c,
      dx: c.x - left,
      dimmed: false,
      ...(blank
        ? { fill: scene.zero, stroke: null, ink: scene.ghostInk, text: c.text ? '0' : '' }
        : {}),
    })),
  };
}

// A cell shows `value`, with its number `text` where numbers fit.
export function showValue(scene, c, value, text, colors) {
  const { fill, ink } = valueColors(colors, scene.scale, value);
  c.shown = value;
  c.fill = fill;
  c.ink = ink;
  c.text = scene.numbers ? text : undefined;
}

// A cell whose sum has no term yet: empty.
export function pending(c, colors) {
  c.shown = null;
  c.fill = colors.zero;
  c.text = undefined;
}

// The texts of a series of value rows, in the picture's notation (PyTorch's, by the core), in
// one call: rows[i] is a Float32Array of the values of some columns, the same for every row.
export function rowTexts(lab, scene, rows) {
  const width = rows[0]?.length ?? 0;
  const all = lab.formatElements(
    scene.notation,
    rows.flatMap((row) => [...row]),
  );
  return rows.map((_, i) => all.slice(i * width, (i + 1) * width));
}

// "[0.3374, -0.1778, -0.3035, …, 0.1234, 0.5]": a row's texts with "…" where the picture skips
// columns (dimSlots: slotsFor()'s dim).
export function vectorOf(texts, dimSlots) {
  let next = 0;
  return `[${dimSlots.map((j) => (j === null ? '…' : texts[next++])).join(', ')}]`;
}

// An outline around the cells of `grid` that `mine` picks (one row, or one cell) in `color`.
export function markRow(scene, grid, mine, color) {
  const cells = scene.cells.filter((c) => c.grid === grid && mine(c));
  if (cells.length === 0) return;
  const last = cells.at(-1);
  scene.marks.push({
    x: cells[0].x,
    y: cells[0].y,
    width: last.x + last.width - cells[0].x,
    height: scene.row,
    color,
  });
}
