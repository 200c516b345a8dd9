// Wiring: read the inputs, compute both routes in WebAssembly, show the tables, the verdict
// and the step-through; recompute on every input event (once per frame). A large product is
// announced first and run after a short pause, so typing stays responsive.
import { loadEmbedlab } from './embedlab/embedlab.mjs';
import { createBackwardView } from './backward-view.mjs';
import { createBagView } from './bag-view.mjs';
import { FieldError, plan, productWork, run } from './compute.mjs';
import { setFieldErrors } from './field-errors.mjs';
import { renderMatrices } from './matrix-views.mjs';
import { renderPrintout } from './printout.mjs';
import { createStepThrough } from './step-through.mjs';
import { showPending, showVerdict } from './verdict-view.mjs';
import { createWeightsInput } from './weights-input.mjs';

// Above this many multiply-adds (or floats of a new W) a request takes noticeable time.
const HEAVY_WORK = 1 << 25;
const HEAVY_PAUSE_MS = 250;

const byId = (id) => document.getElementById(id);

function idsSummary(ids) {
  const shown = Array.from(ids.slice(0, 8)).join(', ');
  return ids.length > 8 ? `${shown}, … (${ids.length} ids)` : shown;
}

async function mountBenchmark(section) {
  let panel;
  try {
    panel = await import('./benchmark/panel.mjs');
  } catch {
    section.hidden = true;  // the benchmark panel is optional
    return;
  }
  section.hidden = false;
  await panel.mountBenchmarkPanel(section);
}

function start(lab) {
  const form = byId('inputs');
  const fields = { ids: byId('ids'), vocab: byId('vocab'), dim: byId('dim'), seed: byId('seed') };
  const verdict = byId('verdict');
  const printout = byId('printout');
  const dataSections = ['results', 'step', 'matrices', 'printout-section', 'backward', 'bag'].map(byId);
  const boxes = {
    weight: byId('weight-box'), onehot: byId('onehot-box'), linear: byId('linear-box'),
    lookup: byId('lookup-box'), product: byId('product-box'),
  };
  const cache = { key: null, weight: null };
  let result = null;  // the last good result, shown until the next one
  let step = 0;
  let frame = 0;
  let pause = 0;

  const weights = createWeightsInput(lab, {
    form, seed: fields.seed, file: byId('npy-file'), dropZone: byId('drop-zone'),
    fileName: byId('npy-name'), vocab: fields.vocab, dim: fields.dim,
  }, schedule);
  const stepThrough = createStepThrough(lab, {
    tokens: byId('step-tokens'), prev: byId('step-prev'), next: byId('step-next'),
    detail: byId('step-detail'),
  }, (picked) => {
    step = picked;
    render();
  });

  // Each with inputs of its own, recomputed when the result or those inputs change.
  const views = [createBackwardView(byId('backward-view'), lab), createBagView(byId('bag-view'), lab)];

  function setStale(stale) {
    for (const section of dataSections) section.classList.toggle('stale', stale);
  }

  function render() {
    renderMatrices(boxes, result, step);
    stepThrough.render(result, step);
    if (printout.open) renderPrintout(byId('printout-body'), lab, result);
    for (const view of views) view.render(result);
  }

  function fail(error) {
    if (!(error instanceof FieldError)) throw error;
    setFieldErrors({ [error.field]: error.message });
    setStale(result !== null);
    showPending(verdict, 'no result', result
      ? `Fix the input above. The tables below still show the last valid input: idx = [${idsSummary(result.ids)}], V = ${result.vocab}, d = ${result.dim}.`
      : 'Fix the input above to see both routes.');
  }

  function finish(p) {
    try {
      result = run(lab, p, cache);
    } catch (error) {
      fail(error);
      return;
    }
    step = Math.min(step, result.ids.length - 1);
    setStale(false);
    showVerdict(verdict, result.comparison);
    render();
  }

  function update() {
    frame = 0;
    let p;
    try {
      p = plan(lab, {
        idsText: fields.ids.value, vocabText: fields.vocab.value, dimText: fields.dim.value,
        source: weights.source(), seedText: fields.seed.value, npy: weights.npy(),
      });
    } catch (error) {
      fail(error);
      return;
    }
    setFieldErrors({});
    if (!fields.vocab.disabled && fields.vocab.value.trim() === '') {
      fields.vocab.placeholder = `auto: ${p.vocab}`;
    }
    const newTable = cache.key !== p.tableKey && p.vocab * p.dim > HEAVY_WORK;
    if (productWork(p) > HEAVY_WORK || newTable) {
      showPending(verdict, 'computing',
        `n·V·d = ${productWork(p).toLocaleString('en-US')} multiply-adds: this takes a moment.`);
      pause = setTimeout(() => finish(p), HEAVY_PAUSE_MS);
    } else {
      finish(p);
    }
  }

  function schedule() {
    clearTimeout(pause);
    if (!frame) frame = requestAnimationFrame(update);
  }

  form.addEventListener('input', schedule);
  form.addEventListener('submit', (event) => event.preventDefault());
  printout.addEventListener('toggle', () => {
    if (printout.open && result) renderPrintout(byId('printout-body'), lab, result);
  });
  update();
}

async function main() {
  const status = byId('status');
  let lab;
  try {
    lab = await loadEmbedlab();
  } catch (error) {
    status.textContent = `The WebAssembly module could not be loaded: ${error.message}`;
    status.classList.add('failed');
    return;
  }
  status.textContent = 'Ready: type token IDs below.';
  start(lab);
  await mountBenchmark(byId('benchmark'));
}

main();
