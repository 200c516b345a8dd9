// The page's Benchmark panel: times the lookup against the one-hot product in this browser.
// All timing runs in a Web Worker (worker.mjs), so the page stays responsive; this file only
// builds the form, relays progress, and draws the table and the chart.
import { drawChart } from './chart.mjs';
import { METHODS } from '../embedlab/bench/timing.mjs';

const VOCAB_STOPS = [4, 16, 64, 256, 1000, 4096, 8192, 16384, 32768, 50257];
const DIMS = [5, 64, 768];
const COUNTS = [3, 64, 1024];
// Drawn on the chart, in this order; the table shows every method.
const CHARTED = {
  memcpy: { color: '#6e7781', dash: '2 4' },
  gather: { color: '#1a7f37' },
  js: { color: '#0a62b8', dash: '6 3' },
  oneHot: { color: '#9a6700', dash: '6 3' },
  dense: { color: '#c2281f' },
};
const MIN_MS = 60;          // time each method at least this long per shape
const MAX_CALL_MS = 3000;   // skip a dense product predicted to take longer per call

function html(strings, ...values) {
  const template = document.createElement('template');
  template.innerHTML = String.raw(strings, ...values);
  return template.content;
}

function formatMs(ms) {
  if (ms === undefined) return '–';
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 1) return ms.toPrecision(3);
  return ms.toPrecision(2);
}

function options(values, selected) {
  return values.map((v) => `<option value="${v}"${v === selected ? ' selected' : ''}>${v}</option>`).join('');
}

// Into the section's root: the document's head, or the shadow root of an <embedding-demo>.
function addStylesheet(section) {
  const href = new URL('./panel.css', import.meta.url).href;
  const root = section.getRootNode();
  if (![...root.styleSheets].some((sheet) => sheet.href === href)) {
    const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href });
    (root === document ? document.head : root).append(link);
  }
}

export async function mountBenchmarkPanel(section) {
  addStylesheet(section);
  section.replaceChildren(html`
    <h2 id="bench-title">Benchmark: lookup vs one-hot product, in this browser</h2>
    <p class="hint">Times the WebAssembly core (the same C++ as the native build) and a plain
      JavaScript row copy on random ids, for every vocabulary size up to the one you pick.
      It runs in a background worker: the page stays usable, and Stop ends it.</p>
    <form class="bench-form" novalidate>
      <div class="bench-field bench-vocab">
        <label for="bench-vocab">Largest vocabulary size <var>V</var></label>
        <input id="bench-vocab" type="range" min="0" max="${VOCAB_STOPS.length - 1}" step="1"
               value="${VOCAB_STOPS.indexOf(8192)}" aria-describedby="bench-vocab-value">
        <output id="bench-vocab-value" for="bench-vocab"></output>
      </div>
      <div class="bench-field">
        <label for="bench-dim">Dimension <var>d</var></label>
        <select id="bench-dim">${options(DIMS, 64)}</select>
      </div>
      <div class="bench-field">
        <label for="bench-n">Ids per call <var>n</var></label>
        <select id="bench-n">${options(COUNTS, 64)}</select>
      </div>
      <div class="bench-buttons">
        <button type="submit" class="bench-run">Run</button>
        <button type="button" class="bench-stop" disabled>Stop</button>
      </div>
    </form>
    <div class="bench-progress">
      <progress max="1" value="0" aria-labelledby="bench-status"></progress>
      <p id="bench-status" role="status" aria-live="polite">Not run yet.</p>
    </div>
    <p class="bench-summary" aria-live="polite"></p>
    <div class="table-box">
      <table class="bench-table">
        <caption>Milliseconds per call (lower is better); speedup = dense product ÷ lookup</caption>
        <thead><tr><th scope="col"><var>V</var></th>
          ${METHODS.map((m) => `<th scope="col">${m.label}</th>`).join('')}
          <th scope="col">speedup</th></tr></thead>
        <tbody></tbody>
      </table>
    </div>
    <figure class="bench-figure">
      <svg class="bench-chart" aria-describedby="bench-chart-caption"></svg>
      <figcaption id="bench-chart-caption">Time per call against <var>V</var>, both axes
        logarithmic. The lookup stays flat; the dense product grows with <var>V</var>.
        <ul class="bench-legend">
          ${Object.entries(CHARTED).map(([id, style]) => `<li><svg width="28" height="10" aria-hidden="true">
            <line x1="0" y1="5" x2="28" y2="5" stroke="${style.color}" stroke-width="2"
                  stroke-dasharray="${style.dash ?? 'none'}"/></svg>
            ${METHODS.find((m) => m.id === id).label}</li>`).join('')}
        </ul>
      </figcaption>
    </figure>`);

  const $ = (selector) => section.querySelector(selector);
  const form = $('.bench-form');
  const vocab = $('#bench-vocab');
  const vocabValue = $('#bench-vocab-value');
  const run = $('.bench-run');
  const stop = $('.bench-stop');
  const progress = $('progress');
  const status = $('#bench-status');
  const summary = $('.bench-summary');
  const tbody = $('tbody');
  const chart = $('.bench-chart');
  let worker = null;

  const showVocab = () => {
    const v = VOCAB_STOPS[Number(vocab.value)];
    vocabValue.textContent = `V = ${v.toLocaleString('en')}`;
    vocab.setAttribute('aria-valuetext', `V = ${v}`);
  };
  vocab.addEventListener('input', showVocab);
  showVocab();

  const finish = (message) => {
    worker?.terminate();  // also frees the worker's WASM memory
    worker = null;
    run.disabled = false;
    stop.disabled = true;
    status.textContent = message;
  };
  stop.addEventListener('click', () => finish('Stopped.'));

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (worker) return;
    const dim = Number($('#bench-dim').value);
    const n = Number($('#bench-n').value);
    const largest = VOCAB_STOPS[Number(vocab.value)];
    const shapes = VOCAB_STOPS.filter((v) => v <= largest).map((v) => ({ vocab: v, dim, n }));
    const rows = [];
    tbody.replaceChildren();
    summary.textContent = '';
    progress.max = shapes.length;
    progress.value = 0;
    run.disabled = true;
    stop.disabled = false;
    worker = new Worker(new URL('./worker.mjs', import.meta.url), { type: 'module' });
    worker.onmessage = ({ data }) => {
      if (data.type === 'start') {
        status.textContent = `Timing V = ${data.shape.vocab} (${data.index + 1} of ${shapes.length}), ` +
                             `d = ${dim}, n = ${n}…`;
      } else if (data.type === 'result') {
        rows.push(data);
        progress.value = rows.length;
        tbody.append(tableRow(data));
        summary.textContent = summarize(data);
        drawChart(chart, chartSeries(rows), {
          title: `Time per call against V for d = ${dim}, n = ${n}` });
      } else if (data.type === 'done') {
        finish(`Done: ${shapes.length} vocabulary sizes, d = ${dim}, n = ${n}.`);
      } else if (data.type === 'error') {
        finish(`The benchmark failed: ${data.message}`);
      }
    };
    worker.onerror = (event) => finish(`The benchmark worker failed: ${event.message ?? 'could not start'}`);
    worker.postMessage({ shapes, minMs: MIN_MS, maxCallMs: MAX_CALL_MS });
  });
}

function speedup({ ms }) {
  return ms.dense !== undefined && ms.gather ? ms.dense / ms.gather : undefined;
}

function tableRow(result) {
  const row = document.createElement('tr');
  const header = Object.assign(document.createElement('th'), { scope: 'row',
    textContent: result.shape.vocab.toLocaleString('en') });
  row.append(header);
  for (const { id } of METHODS) {
    const cell = document.createElement('td');
    cell.textContent = id in result.ms ? formatMs(result.ms[id]) : 'skipped';
    if (result.skipped[id]) cell.title = result.skipped[id];
    row.append(cell);
  }
  const ratio = speedup(result);
  row.append(Object.assign(document.createElement('td'), {
    textContent: ratio === undefined ? '–' : `${Math.round(ratio).toLocaleString('en')}×` }));
  return row;
}

function summarize(result) {
  const { vocab } = result.shape;
  const lookup = formatMs(result.ms.gather);
  const js = formatMs(result.ms.js);
  const ratio = speedup(result);
  const dense = ratio === undefined
      ? `the dense product was skipped (${result.skipped.dense})`
      : `the dense product ${formatMs(result.ms.dense)} ms: the lookup is ` +
        `${Math.round(ratio).toLocaleString('en')}× faster`;
  return `At V = ${vocab.toLocaleString('en')}: lookup ${lookup} ms per call ` +
         `(plain JavaScript ${js} ms), ${dense}.`;
}

function chartSeries(rows) {
  return Object.entries(CHARTED).map(([id, style]) => ({
    ...style,
    label: METHODS.find((m) => m.id === id).label,
    points: rows.filter((r) => r.ms[id] > 0).map((r) => [r.shape.vocab, r.ms[id]]),
  }));
}
