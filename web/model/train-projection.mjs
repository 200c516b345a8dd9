// The plane the Train view draws the text's token rows in: the two principal axes of those rows
// in the first table (step 0), kept fixed while training moves the rows, so that a point moves
// only because its row moved. Pure: no DOM.

// The unit eigenvector of the symmetric matrix c (d × d, row-major) with the largest eigenvalue,
// by power iteration from a fixed start; its largest component made positive, so the same rows
// always give the same axes.
function leading(c, d) {
  let v = Array.from({ length: d }, (_, j) => 1 / Math.sqrt(d) + j * 1e-3);
  let value = 0;
  for (let it = 0; it < 500; ++it) {
    const w = Array.from({ length: d }, (_, i) => v.reduce((s, x, j) => s + c[i * d + j] * x, 0));
    const norm = Math.hypot(...w);
    if (norm === 0) break;
    const next = w.map((x) => x / norm);
    const moved = Math.hypot(...next.map((x, j) => x - v[j]));
    v = next;
    value = norm;
    if (moved < 1e-12) break;
  }
  const big = v.reduce((k, x, j) => (Math.abs(x) > Math.abs(v[k]) ? j : k), 0);
  return { vector: v[big] < 0 ? v.map((x) => -x) : v, value };
}

// rows: (n, d) { rows, cols, data } at step 0. Returns { mean, axes: [a1, a2], shares: the
// fraction of the rows' spread each axis holds }. With d = 1 the second axis is none (zeros).
export function principalPlane(rows) {
  const { rows: n, cols: d, data } = rows;
  const mean = Array.from({ length: d }, (_, j) => {
    let s = 0;
    for (let i = 0; i < n; ++i) s += data[i * d + j];
    return s / Math.max(n, 1);
  });
  const c = new Array(d * d).fill(0);
  for (let i = 0; i < n; ++i) {
    for (let a = 0; a < d; ++a) {
      for (let b = 0; b < d; ++b) {
        c[a * d + b] += (data[i * d + a] - mean[a]) * (data[i * d + b] - mean[b]);
      }
    }
  }
  const total = Array.from({ length: d }, (_, j) => c[j * d + j]).reduce((s, x) => s + x, 0);
  const first = leading(c, d);
  // Deflate the first axis away, then the second is the leading one of what is left.
  const rest = c.map(
    (x, k) => x - first.value * first.vector[Math.floor(k / d)] * first.vector[k % d],
  );
  const second = d > 1 ? leading(rest, d) : { vector: [0], value: 0 };
  return {
    mean,
    axes: [first.vector, second.vector],
    shares: [first.value, second.value].map((v) => (total > 0 ? v / total : 0)),
  };
}

// Row i of rows (n, d) in the plane: [x, y].
export function project(plane, rows, i) {
  const d = rows.cols;
  const at = (axis) => axis.reduce((s, a, j) => s + a * (rows.data[i * d + j] - plane.mean[j]), 0);
  return [at(plane.axes[0]), at(plane.axes[1])];
}
