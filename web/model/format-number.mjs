// Numbers as the page writes them in prose: counts ("1,234 rows"), times and shares. Tensor
// values are written in PyTorch's notation by the core (lab.formatElements), which the CLI's
// printing shares: one implementation of it.
import { COL_CAP, shownIndices } from './shown-indices.mjs';

// 1234 -> "1,234", 0.12345 -> "0.123": en-US grouping, at most three decimals. Written here, not
// with Intl.NumberFormat: a page's first formatter loads its locale data, about 20 ms of the first
// screen's script on a small machine, and toLocaleString pays that on every call.
export function count(n) {
  const text = typeof n === 'bigint' || Number.isInteger(n) ? String(n) : String(+n.toFixed(3));
  const [whole, decimals] = text.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return decimals === undefined ? grouped : `${grouped}.${decimals}`;
}
// plural(1, 'row', 'rows') -> "1 row"; plural(1234, 'row', 'rows') -> "1,234 rows".
export const plural = (n, one, many) => `${count(n)} ${n === 1 ? one : many}`;

// The V field's placeholder while V is left empty: the V the ids chose (max id + 1), or none yet.
export const autoVocabText = (vocab) => (vocab === null ? 'auto' : `auto: ${count(vocab)}`);

// "34 of 154 MB", "1,536 of 3,072 bytes": progress through bytes of a file.
export function bytesText(done, total) {
  if (total < 1e6) return `${count(done)} of ${count(total)} bytes`;
  const digits = total < 1e7 ? 1 : 0;
  return `${(done / 1e6).toFixed(digits)} of ${(total / 1e6).toFixed(digits)} MB`;
}

const TIME_UNITS = [
  ['ns', 1e-6],
  ['µs', 1e-3],
  ['ms', 1],
  ['s', 1e3],
];

// A time in milliseconds, to 3 significant digits in the largest unit that keeps the number
// >= 1, trailing zeros dropped: 0.0000652 -> "65.2 ns", 0.0652 -> "65.2 µs", 530.4 -> "530 ms",
// 2500 -> "2.5 s", 0.01 -> "10 µs". A no-break space keeps number and unit together.
export function duration(ms) {
  for (const [unit, scale] of TIME_UNITS.slice(0, -1)) {
    const value = Number((ms / scale).toPrecision(3));
    if (value < 1000) return `${value}\u00a0${unit}`; // 999.96 µs rounds up to 1 ms
  }
  const seconds = Number((ms / 1e3).toPrecision(3));
  return `${seconds < 1000 ? seconds : count(Math.round(ms / 1e3))}\u00a0s`;
}

// "75.0%", with more decimals where one would round a share below 100% up to "100.0%".
export function percent(part, whole) {
  const share = (100 * part) / whole;
  let digits = 1;
  while (digits < 6 && part < whole && Number(share.toFixed(digits)) === 100) ++digits;
  return `${share.toFixed(digits)}%`;
}

// A row of a matrix in PyTorch's notation: "[0.6957, -1.8061, …]". lab: the WebAssembly module,
// whose formatElements writes the numbers.
export function vectorText(lab, data, start, length) {
  const shown = shownIndices(length, COL_CAP);
  const texts = lab.formatElements(shown.filter((j) => j !== null).map((j) => data[start + j]));
  let next = 0;
  return `[${shown.map((j) => (j === null ? '…' : texts[next++])).join(', ')}]`;
}
