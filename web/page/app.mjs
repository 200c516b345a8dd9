// Wiring: read the inputs, compute both routes in WebAssembly, show the tables, the verdict
// and the step-through; recompute on every input event (once per frame). A request too large
// for one frame (a new W or a product beyond the budgets below) runs in a Web Worker while the
// page says 'computing' and stays responsive; the newest input wins.
import { loadEmbedlab } from '../embedlab/embedlab.mjs';
import { createBackwardView } from '../views/backward.mjs';
import { createBagView } from '../views/bag.mjs';
import { FieldError, plan, PRODUCT_BUDGET, productWork, run } from '../compute/plan.mjs';
import { createWorkerRunner } from '../compute/worker-client.mjs';
import { deferredRedraw } from './deferred-redraw.mjs';
import { createEquationView } from '../views/equation.mjs';
import { mountBenchmarkPanel } from '../benchmark/panel.mjs';
import { setFieldErrors } from '../inputs/field-errors.mjs';
import { count } from '../model/format-number.mjs';
import { linkHeatmaps, renderMatrices } from '../views/matrices.mjs';
import { renderPrintout } from '../views/printout.mjs';
import { readUrlState, urlFor } from '../model/url-state.mjs';
import { createSelection } from '../model/selection.mjs';
import { linkViews } from '../views/linked-views.mjs';
import { linkBackward, linkBag } from '../views/group-links.mjs';
import { createStepThrough } from '../views/step.mjs';
import { createTextInput } from '../inputs/text-input.mjs';
import { createTokenJump } from '../inputs/token-jump.mjs';
import { showPending, showVerdict } from '../views/verdict.mjs';
import { createWeightsInput } from '../inputs/weights-input.mjs';

// Main-thread budgets of a few milliseconds each, at the rates measured in headless Chromium
// (GPT-2's shape): PRODUCT_BUDGET (compute/plan.mjs) for the product, and a seeded W runs about
// 2.6·10^7 floats a second. Beyond either, the request goes to the worker; n = 64, V = 4096,
// d = 64 stays here.
const TABLE_BUDGET = 1 << 18;

const byId = (id) => document.getElementById(id);

function idsSummary(ids) {
  const shown = Array.from(ids.slice(0, 8)).join(', ');
  return ids.length > 8 ? `${shown}, … (${ids.length} ids)` : shown;
}

// A list being typed ("[4, 7") is shown as wrong only after this long without a keystroke, or
// when the learner leaves the field.
const TYPING_PAUSE_MS = 700;
// The address follows the inputs this long after the last change (rememberInUrl()).
const URL_PAUSE_MS = 250;

// The limits the core enforces, in the hints under the inputs that meet them.
function showLimits(lab) {
  for (const span of document.querySelectorAll('[data-limit]')) {
    span.textContent = count(lab.limits[span.dataset.limit]);
  }
}

function start(lab) {
  const form = byId('inputs');
  const fields = { ids: byId('ids'), vocab: byId('vocab'), dim: byId('dim'), seed: byId('seed') };
  const verdict = byId('verdict');
  const printout = byId('printout');
  const dataSections = ['results', 'step', 'matrices', 'printout-section', 'backward', 'bag'].map(byId);
  const routeBoxes = { lookup: byId('lookup-box'), product: byId('product-box') };
  const matrixBoxes = { weight: byId('weight-box'), onehot: byId('onehot-box'), linear: byId('linear-box') };
  const boxes = { ...routeBoxes, ...matrixBoxes };
  const cache = { key: null, weight: null };
  let result = null;  // the last good result, shown until the next one
  let differs;        // marks the cells where its two routes differ (showVerdict())
  let step = 0;
  let frame = 0;
  let lastIdsKey = -Infinity;  // performance.now() of the last keystroke in the ids
  let pauseTimer = 0;
  const worker = createWorkerRunner(lab);

  const weights = createWeightsInput(lab, worker, {
    form, seed: fields.seed, file: byId('npy-file'), dropZone: byId('drop-zone'),
    fileName: byId('npy-name'), vocab: fields.vocab, dim: fields.dim,
    tensorField: byId('tensor-field'), tensor: byId('tensor'),
    tensorProgress: byId('tensor-progress'), tensorStatus: byId('tensor-status'),
  }, schedule);
  const stepThrough = createStepThrough(lab, {
    tokens: byId('step-tokens'), prev: byId('step-prev'), next: byId('step-next'),
    detail: byId('step-detail'),
  }, pick);
  const equation = createEquationView(byId('equation'), { onStep: pick });
  // One token marked in every view (pointer or focus), and a jump to any token.
  const selection = createSelection();
  const links = linkViews(document.body, selection, pick);
  const hooks = { onHover: selection.hover, onPick: pick };
  selection.subscribe((k) => linkHeatmaps(boxes, k));
  const jump = createTokenJump(byId('step-next').parentNode, pick);
  const textMode = createTextInput(lab, {
    modes: byId('ids-from'), panel: byId('text-mode'), text: byId('text'),
    tokenizer: byId('tokenizer'), status: byId('text-status'), error: byId('text-error'),
    chips: byId('token-chips'), ids: fields.ids, idsHint: byId('ids-hint'), vocab: fields.vocab,
    dim: fields.dim,
  }, pick);

  function pick(picked) {
    step = picked;
    render({ everywhere: true });
    rememberInUrl();
  }

  // The inputs as typed, the source, the token and the view in the address (url-state.mjs).
  // Written once the keystrokes pause: one replaceState costs Chromium about 10 ms here, most of
  // a frame's budget if paid on every keystroke.
  const linked = readUrlState(location.search);
  let urlTimer = 0;
  function rememberInUrl() {
    clearTimeout(urlTimer);
    urlTimer = setTimeout(() => {
      const inputs = Object.fromEntries(Object.entries(fields).map(([id, input]) => [id, input.value]));
      history.replaceState(null, '', urlFor(location.href,
        { inputs, source: weights.source(), step, view: linked.view }));
    }, URL_PAUSE_MS);
  }

  // Each with inputs of its own, recomputed when the result or those inputs change.
  // Beyond a frame's work, in the worker beside its W.
  const views = [createBackwardView(byId('backward-view'), lab, worker),
                 createBagView(byId('bag-view'), lab, worker)];
  linkBackward(byId('backward-view'));
  linkBag(byId('bag-view'));
  // Below the first screen: redrawn when scrolled to or when typing pauses (deferred-redraw.mjs).
  const redrawBelow = [
    deferredRedraw(byId('step'), () => stepThrough.render(result, step)),
    deferredRedraw(byId('matrices'), () => {
      renderMatrices(matrixBoxes, result, step, differs, hooks);
      links.refresh(result);
    }),
    deferredRedraw(byId('printout-section'), () => {
      if (printout.open) renderPrintout(byId('printout-body'), lab, result);
    }),
    deferredRedraw(byId('backward'), () => views[0].render(result)),
    deferredRedraw(byId('bag'), () => views[1].render(result)),
  ];

  function setStale(stale) {
    for (const section of dataSections) section.classList.toggle('stale', stale);
  }

  // A keystroke's frame draws the first screen: the picture, the verdict and the two routes; the
  // sections below follow later. A token picked (one deliberate act, which every view follows)
  // redraws everywhere at once.
  function render({ everywhere = false } = {}) {
    equation.render(result, step);
    renderMatrices(routeBoxes, result, step, differs, hooks);
    jump.render(result.ids.length, step);
    links.refresh(result);
    textMode.select(step, result.ids.length);
    for (const request of redrawBelow) request(everywhere);
  }

  // An error in ids still being typed waits for a pause (update() runs again then); meanwhile
  // no older message stands beside the ids.
  function stillTyping(error) {
    const since = performance.now() - lastIdsKey;
    if (error.field !== 'ids' || document.activeElement !== fields.ids || since >= TYPING_PAUSE_MS) {
      return false;
    }
    clearTimeout(pauseTimer);
    pauseTimer = setTimeout(update, TYPING_PAUSE_MS - since);
    setFieldErrors({});
    return true;
  }

  function fail(error) {
    if (!(error instanceof FieldError)) throw error;
    if (stillTyping(error)) return;
    setFieldErrors({ [error.field]: error.message });
    setStale(result !== null);
    showPending(verdict, 'no result', result
      ? `Fix the input above. The tables below still show the last valid input: idx = [${idsSummary(result.ids)}], V = ${result.vocab}, d = ${result.dim}.`
      : 'Fix the input above to see both routes.');
  }

  function show(next) {
    result = next;
    step = Math.min(step, result.ids.length - 1);
    setStale(false);
    differs = showVerdict(verdict, result.comparison, result.lookup, result.product);
    render();
    rememberInUrl();
  }

  function finish(p) {
    let next;
    try {
      next = run(lab, p, cache);
    } catch (error) {
      fail(error);
      return;
    }
    show(next);
  }

  // Off the main thread; null when a newer input came first.
  async function finishInWorker(p, newTable) {
    const where = 'in a background thread: the page stays usable';
    const multiplying = `n·V·d = ${count(productWork(p))} multiply-adds`;
    const making = `Making W (${count(p.vocab)} × ${count(p.dim)} = ${count(p.vocab * p.dim)} floats)`;
    showPending(verdict, 'computing',
      newTable ? `${making}, then ${multiplying}, ${where}.` : `${multiplying}, ${where}.`);
    setStale(result !== null);
    let next;
    try {
      next = await worker.run(p, cache,
        () => showPending(verdict, 'computing', `W is ready; ${multiplying}, ${where}.`));
    } catch (error) {
      fail(error);
      return;
    }
    if (next) show(next);
  }

  function update() {
    frame = 0;
    worker.cancel();
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
    const newTable = cache.key !== p.tableKey;
    if (productWork(p) > PRODUCT_BUDGET || (newTable && p.vocab * p.dim > TABLE_BUDGET)) {
      finishInWorker(p, newTable);
    } else {
      finish(p);
    }
  }

  function schedule() {
    if (!frame) frame = requestAnimationFrame(update);
  }

  form.addEventListener('input', (event) => {
    if (event.target === fields.ids) lastIdsKey = performance.now();
    schedule();
  });
  fields.ids.addEventListener('blur', () => {
    lastIdsKey = -Infinity;
    schedule();
  });
  form.addEventListener('submit', (event) => event.preventDefault());
  printout.addEventListener('toggle', () => {
    if (printout.open && result) renderPrintout(byId('printout-body'), lab, result);
  });
  for (const [id, text] of Object.entries(linked.inputs)) fields[id].value = text;
  if (linked.source) form.elements.source.value = linked.source;
  step = linked.step ?? 0;
  update();
  // Sections off screen are laid out late (content-visibility): scroll once the page has settled.
  if (linked.view) requestAnimationFrame(() => requestAnimationFrame(() => byId(linked.view).scrollIntoView()));
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
  showLimits(lab);
  start(lab);
  const benchmark = byId('benchmark');
  benchmark.hidden = false;
  await mountBenchmarkPanel(benchmark);
}

main();
