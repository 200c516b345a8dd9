// The page's Benchmark panel: times the lookup against the one-hot product in this browser.
// All timing runs in a Web Worker (bench-worker.mjs), so the page stays responsive; this file only
// builds the form, relays progress, and draws the table and the chart. At a glance it shows
// the lookup, the one-hot product and the speedup; "Details" adds the other timings.
import { lookupBandwidth, METHODS } from '../embedlab/bench/timing.mjs';
import { count, duration } from '../model/format-number.mjs';
import { adoptStyleSheet } from '../draw/style-sheets.mjs';
import { tableRegions } from '../draw/scroll-region.mjs';
import { startModuleWorker } from '../compute/start-worker.mjs';
import { drawChart } from './chart.mjs';
import panelCss from './panel.css';

const VOCAB_STOPS = [4, 16, 64, 256, 1000, 4096, 8192, 16384, 32768, 50257];
const DIMS = [5, 64, 768];
const COUNTS = [3, 64, 1024];
// The two routes the panel is about; every other method is a detail. Colours are the palette's
// (styles/palette.css), light or dark.
const MAIN = [
  { id: 'gather', label: 'lookup', color: 'var(--match)' },
  { id: 'dense', label: 'one-hot product', color: 'var(--mismatch)' },
];
const isMain = (id) => MAIN.some((m) => m.id === id);
const DETAILS = METHODS.filter((m) => !isMain(m.id));
// Drawn on the chart, in this order, the details only while they are shown.
const CHARTED = [
  { id: 'memcpy', color: 'var(--muted)', dash: '2 4' },
  MAIN[0],
  { id: 'js', color: 'var(--accent)', dash: '6 3' },
  { id: 'oneHot', color: 'var(--rounding)', dash: '6 3' },
  MAIN[1],
].map((style) => ({
  ...style,
  label: style.label ?? METHODS.find((m) => m.id === style.id).label,
  detail: !isMain(style.id),
}));
const MIN_MS = 60; // time each method at least this long per shape
const MAX_CALL_MS = 3000; // skip a dense product predicted to take longer per call

function html(strings, ...values) {
  const template = document.createElement('template');
  template.innerHTML = String.raw(strings, ...values);
  return template.content;
}

function options(values, selected) {
  return values
    .map((v) => `<option value="${v}"${v === selected ? ' selected' : ''}>${v}</option>`)
    .join('');
}

// The chart and its legend: built at the first result (a page that never runs the benchmark
// carries none of it).
const chartMarkup = () =>
  html` <svg class="bench-chart" aria-describedby="bench-chart-caption"></svg>
    <figcaption id="bench-chart-caption">
      Time per call against <var>V</var>, both axes logarithmic. The lookup stays flat; the one-hot
      product grows with <var>V</var>.
      <ul class="bench-legend">
        ${CHARTED.map(
          (style) => `<li${style.detail ? ' class="bench-detail"' : ''}>
        <svg width="28" height="10" aria-hidden="true">
        <line x1="0" y1="5" x2="28" y2="5" style="stroke: ${style.color}" stroke-width="2"
              stroke-dasharray="${style.dash ?? 'none'}"/></svg>
        ${style.label}</li>`,
        ).join('')}
      </ul>
    </figcaption>`;

export async function mountBenchmarkPanel(section) {
  // Into the section's root: the document, or the shadow root of an <embedding-demo>.
  adoptStyleSheet(section.getRootNode(), panelCss);
  section.classList.add('bench-panel');
  section.replaceChildren(
    html` <h2 id="bench-title">Benchmark: lookup vs one-hot product, in this browser</h2>
      <p class="hint">
        Times the WebAssembly core (the same C++ as the native build) and a plain JavaScript row
        copy on random ids, for every vocabulary size up to the one you pick. It runs in a
        background worker: the page stays usable, and Stop ends it.
      </p>
      <form class="bench-form" novalidate>
        <div class="bench-field bench-vocab">
          <label for="bench-vocab">Largest vocabulary size <var>V</var></label>
          <input
            id="bench-vocab"
            type="range"
            min="0"
            max="${VOCAB_STOPS.length - 1}"
            step="1"
            value="${VOCAB_STOPS.indexOf(8192)}"
            aria-describedby="bench-vocab-value"
          />
          <output id="bench-vocab-value" for="bench-vocab"></output>
        </div>
        <div class="bench-field">
          <label for="bench-dim"
            >Dimension <var>d</var><span class="visually-hidden"> to time</span></label
          >
          <select id="bench-dim">
            ${options(DIMS, 64)}
          </select>
        </div>
        <div class="bench-field">
          <label for="bench-n">Ids per call <var>n</var></label>
          <select id="bench-n">
            ${options(COUNTS, 64)}
          </select>
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
      <p class="hint bench-key">
        <dfn>Lookup</dfn>: the kernel that copies the chosen rows of <var>W</var>.
        <dfn>One-hot product</dfn>: one-hot × <var>W</var> as a dense matrix product. Speedup =
        product ÷ lookup. <dfn>GB/s</dfn>: the bytes the lookup writes per second, and its share of
        the <dfn>copy floor</dfn>, a memcpy of the same bytes (1 = as fast as copying them).
        Everything but the plain JavaScript copy runs in WebAssembly.
      </p>
      <button
        type="button"
        class="bench-details-toggle"
        aria-expanded="false"
        aria-controls="bench-table"
      >
        Details: all ${METHODS.length} timings
      </button>
      <div class="table-box">
        <table class="bench-table" id="bench-table">
          <caption>
            Time per call (lower is better)
          </caption>
          <thead>
            <tr>
              <th scope="col"><var>V</var></th>
              ${MAIN.map((m) => `<th scope="col" data-method="${m.id}">${m.label}</th>`).join('')}
              <th scope="col">speedup</th>
              <th scope="col">lookup GB/s (of floor)</th>
              ${DETAILS.map((m) => `<th scope="col" class="bench-detail" data-method="${m.id}">${m.label}</th>`).join('')}
            </tr>
          </thead>
          <tbody></tbody>
        </table>
      </div>
      <figure class="bench-figure" hidden></figure>`,
  );

  tableRegions(section);
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
  const toggle = $('.bench-details-toggle');
  const figure = $('.bench-figure');
  let worker = null;
  let rows = [];
  let chartTitle = '';

  const redraw = () => {
    if (rows.length === 0) return;
    if (!figure.firstChild) figure.append(chartMarkup());
    figure.hidden = false;
    drawChart(figure.querySelector('.bench-chart'), chartSeries(rows, showsDetails()), {
      title: chartTitle,
      width: figure.clientWidth,
    });
  };
  // The chart is laid out for its width: drawn again when that changes (a phone turned, say).
  let drawnWidth = 0;
  new ResizeObserver(() => {
    if (figure.clientWidth !== drawnWidth) {
      drawnWidth = figure.clientWidth;
      redraw();
    }
  }).observe(figure);

  const showsDetails = () => toggle.getAttribute('aria-expanded') === 'true';
  toggle.addEventListener('click', () => {
    const shown = !showsDetails();
    toggle.setAttribute('aria-expanded', String(shown));
    section.classList.toggle('bench-details-shown', shown);
    redraw();
  });

  const showVocab = () => {
    // The slider's value is the stop's index: what it stands for is read out instead.
    const text = `V = ${count(VOCAB_STOPS[Number(vocab.value)])}`;
    vocabValue.textContent = text;
    vocab.setAttribute('aria-valuetext', text);
  };
  vocab.addEventListener('input', showVocab);
  showVocab();

  const finish = (message) => {
    worker?.terminate(); // also frees the worker's WASM memory
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
    rows = [];
    chartTitle = `Time per call against V for d = ${dim}, n = ${n}`;
    tbody.replaceChildren();
    summary.textContent = '';
    figure.hidden = true;
    progress.max = shapes.length;
    progress.value = 0;
    run.disabled = true;
    stop.disabled = false;
    worker = startModuleWorker(
      () => new Worker(new URL('./bench-worker.mjs', import.meta.url), { type: 'module' }),
      './bench-worker.mjs',
      import.meta.url,
    );
    worker.onmessage = ({ data }) => {
      if (data.type === 'start') {
        status.textContent =
          `Timing V = ${data.shape.vocab} (${data.index + 1} of ${shapes.length}), ` +
          `d = ${dim}, n = ${n}…`;
      } else if (data.type === 'result') {
        rows.push(data);
        progress.value = rows.length;
        tbody.append(tableRow(data));
        summary.textContent = summarize(data);
        redraw();
      } else if (data.type === 'done') {
        finish(`Done: ${shapes.length} vocabulary sizes, d = ${dim}, n = ${n}.`);
      } else if (data.type === 'error') {
        finish(`The benchmark failed: ${data.message}`);
      }
    };
    worker.onerror = (event) =>
      finish(`The benchmark worker failed: ${event.message ?? 'could not start'}`);
    worker.postMessage({ shapes, minMs: MIN_MS, maxCallMs: MAX_CALL_MS });
  });
}

function speedup({ ms }) {
  return ms.dense !== undefined && ms.gather ? ms.dense / ms.gather : undefined;
}

const timeOf = (result, id) => (id in result.ms ? duration(result.ms[id]) : 'skipped');

// 8,043× from 10 up; 1.3× below, where the digits after the point still tell something.
const times = (ratio) => `${ratio >= 10 ? count(Math.round(ratio)) : ratio.toPrecision(2)}×`;

function tableRow(result) {
  const row = document.createElement('tr');
  row.append(
    Object.assign(document.createElement('th'), {
      scope: 'row',
      textContent: count(result.shape.vocab),
    }),
  );
  const cell = (id, className = '') => {
    const td = Object.assign(document.createElement('td'), {
      textContent: timeOf(result, id),
      className,
    });
    if (result.skipped[id]) td.title = result.skipped[id];
    return td;
  };
  for (const { id } of MAIN) row.append(cell(id));
  const ratio = speedup(result);
  row.append(
    Object.assign(document.createElement('td'), {
      textContent: ratio === undefined ? '–' : times(ratio),
    }),
  );
  row.append(
    Object.assign(document.createElement('td'), {
      textContent: bandwidthText(result, (gbps, ofFloor) => `${gbps} (${ofFloor})`) ?? '–',
    }),
  );
  for (const { id } of DETAILS) row.append(cell(id, 'bench-detail'));
  return row;
}

// "3.2 GB/s (0.89 of the copy floor)", or as `words` put the two numbers (the table's column says
// the units); null where the lookup or the floor was not timed.
function bandwidthText(
  result,
  words = (gbps, ofFloor) => `${gbps} GB/s (${ofFloor} of the copy floor)`,
) {
  const bandwidth = lookupBandwidth(result.shape, result);
  if (!bandwidth) return null;
  return words(bandwidth.gbps.toPrecision(3), bandwidth.ofFloor.toFixed(2));
}

function summarize(result) {
  const ratio = speedup(result);
  const dense =
    ratio === undefined
      ? `the one-hot product was skipped (${result.skipped.dense})`
      : `the one-hot product ${duration(result.ms.dense)}: the lookup is ${times(ratio)} faster`;
  return (
    `At V = ${count(result.shape.vocab)}: lookup ${duration(result.ms.gather)} per call, ` +
    `${bandwidthText(result)} (plain JavaScript ${duration(result.ms.js)}), ${dense}.`
  );
}

function chartSeries(rows, withDetails) {
  return CHARTED.filter((style) => withDetails || !style.detail).map((style) => ({
    ...style,
    points: rows.filter((r) => r.ms[style.id] > 0).map((r) => [r.shape.vocab, r.ms[style.id]]),
  }));
}

// The panel takes no input from the store: mounted once, it times in its own worker.
export const benchmarkView = {
  title: 'Benchmark',
  async build(container) {
    await mountBenchmarkPanel(container);
    return { update() {} };
  },
};
