// Numbers as the page writes them: counts in prose ("1,234 rows"), and table cells in PyTorch's
// notation (torch/_tensor_str.py, default print options): one notation per matrix, chosen from
// the values shown, 4 decimals; Python's rounding, half to even.
import { COL_CAP, shownIndices } from './shown-indices.mjs';

const PRECISION = 4;

// 1234 -> "1,234". One formatter for the page: toLocaleString makes one per call, which the
// picture's labels paid for on every keystroke.
const COUNT = new Intl.NumberFormat('en-US');
export const count = (n) => COUNT.format(n);
// plural(1, 'row', 'rows') -> "1 row"; plural(1234, 'row', 'rows') -> "1,234 rows".
export const plural = (n, one, many) => `${count(n)} ${n === 1 ? one : many}`;

const TIME_UNITS = [['ns', 1e-6], ['µs', 1e-3], ['ms', 1], ['s', 1e3]];

// A time in milliseconds, to 3 significant digits in the largest unit that keeps the number
// >= 1, trailing zeros dropped: 0.0000652 -> "65.2 ns", 0.0652 -> "65.2 µs", 530.4 -> "530 ms",
// 2500 -> "2.5 s", 0.01 -> "10 µs". A no-break space keeps number and unit together.
export function duration(ms) {
  for (const [unit, scale] of TIME_UNITS.slice(0, -1)) {
    const value = Number((ms / scale).toPrecision(3));
    if (value < 1000) return `${value}\u00a0${unit}`;  // 999.96 µs rounds up to 1 ms
  }
  const seconds = Number((ms / 1e3).toPrecision(3));
  return `${seconds < 1000 ? seconds : count(Math.round(ms / 1e3))}\u00a0s`;
}

function nonFinite(x) {
  if (Number.isNaN(x)) return 'nan';
  return x < 0 ? '-inf' : 'inf';
}

function signOf(x) {
  return x < 0 || Object.is(x, -0) ? '-' : '';
}

// JS rounds an exact tie away from zero, Python to the even digit. Only an expansion that goes
// on with 5 after the kept digits can be a tie; then a 100-digit expansion (exact for a float32
// tie, which ends at that 5) decides, and the even choice is the expansion cut short.
function roundedAbs(a, digits, scientific) {
  const text = (n) => (scientific ? a.toExponential(n) : a.toFixed(n));
  const mantissa = (s) => (scientific ? s.slice(0, s.indexOf('e')) : s);
  if (!mantissa(text(digits + 3)).endsWith('500')) return text(digits);
  const exact = text(100);
  const digitsOf = mantissa(exact);
  const dot = digitsOf.indexOf('.');
  const cut = digits > 0 ? dot + 1 + digits : dot;
  if (!/^50*$/.test(digitsOf.slice(cut + (digits > 0 ? 0 : 1)))) return text(digits);
  const kept = digitsOf.slice(0, cut);
  if (Number(kept[kept.length - 1]) % 2 === 1) return text(digits);
  return scientific ? kept + exact.slice(exact.indexOf('e')) : kept;
}

// Python writes at least two exponent digits: 1.0000e-05, 2.5000e+00.
function pythonExponent(text) {
  return text.replace(/e([+-])(\d)$/, 'e$10$2');
}

function fixed(x, digits = PRECISION) {
  return signOf(x) + roundedAbs(Math.abs(x), digits, false);
}

export function scientific(x, digits = PRECISION) {
  return signOf(x) + pythonExponent(roundedAbs(Math.abs(x), digits, true));
}

// values: the numbers a table shows. Returns x -> text, as PyTorch's _Formatter would print x.
// integer: the tensor is an integer tensor (F.one_hot gives int64), printed without a point.
export function tensorFormatter(values, { integer = false } = {}) {
  if (integer) return (x) => String(x);
  let lo = Infinity;
  let hi = 0;
  let allIntegers = true;
  let any = false;
  for (const v of values) {
    if (!Number.isFinite(v) || v === 0) continue;
    any = true;
    const a = Math.abs(v);
    if (a < lo) lo = a;
    if (a > hi) hi = a;
    if (v !== Math.ceil(v)) allIntegers = false;
  }
  const sci = any && (hi / lo > 1000 || hi > 1e8 || (!allIntegers && lo < 1e-4));
  let finite;
  if (sci) finite = (x) => scientific(x);
  else if (allIntegers) finite = (x) => `${fixed(x, 0)}.`;
  else finite = (x) => fixed(x);
  return (x) => (Number.isFinite(x) ? finite(x) : nonFinite(x));
}

// "75.0%", with more decimals where one would round a share below 100% up to "100.0%".
export function percent(part, whole) {
  const share = (100 * part) / whole;
  let digits = 1;
  while (digits < 6 && part < whole && Number(share.toFixed(digits)) === 100) ++digits;
  return `${share.toFixed(digits)}%`;
}

// A row of a matrix in PyTorch's notation: "[0.6957, -1.8061, …]".
export function vectorText(data, start, length) {
  const shown = shownIndices(length, COL_CAP);
  const values = shown.filter((j) => j !== null).map((j) => data[start + j]);
  const format = tensorFormatter(values);
  return `[${shown.map((j) => (j === null ? '…' : format(data[start + j]))).join(', ')}]`;
}

