// The views of <embedding-demo>, built from the page's own renderers: the equation picture
// (views/equation.mjs), the tables (views/matrices.mjs), the verdict (views/verdict.mjs), the
// step-through (views/step.mjs), the
// printout (printout.mjs), the backward and bag views and the benchmark panel. Templates are
// constant markup; every value a view shows is set as text by those renderers.
import { createBackwardView } from '../views/backward.mjs';
import { createBagView } from '../views/bag.mjs';
import { byData } from '../draw/dom.mjs';
import { createEquationView } from '../views/equation.mjs';
import { renderMatrices } from '../views/matrices.mjs';
import { renderPrintout } from '../views/printout.mjs';
import { createStepThrough } from '../views/step.mjs';
import { showPending, showVerdict } from '../views/verdict.mjs';

function fragment(markup) {
  const template = document.createElement('template');
  template.innerHTML = markup;
  return template.content;
}

function matrixBox(name, title, note) {
  return `<div class="matrix-item">
      <p class="route-title">${title}</p>
      <p class="route-note">${note}</p>
      <div class="table-box" data-box="${name}"></div>
    </div>`;
}

const LOOKUP = matrixBox('lookup', 'Lookup: <code>embedding(idx)</code>',
  'Copies row <var>id</var> of <var>W</var> for each token.');
const PRODUCT = matrixBox('product', 'Product: <code>linear(onehot.float())</code>',
  'One-hot rows times <var>W</var>, every multiply-add done.');
const WEIGHT = matrixBox('weight', '<var>W</var>: <code>embedding.weight</code>',
  'The rows the tokens look up are highlighted.');
const ONEHOT = matrixBox('onehot', 'One-hot: <code>F.one_hot(idx, V)</code>',
  'One 1 per row, in the column of the token\'s id.');
const VERDICT = '<div class="verdict" data-part="verdict" aria-live="polite"></div>';
const operator = (symbol, name) => `<span class="operator" role="img" aria-label="${name}">${symbol}</span>`;

// The verdict box of a view's markup (VERDICT), where it has one: show(result) draws the
// verdict and returns its cellClass for the tables (undefined without a box); fail() says that
// the input needs fixing.
function verdictPart(container) {
  const box = container.querySelector('[data-part="verdict"]');
  return {
    show: (result) => (box ? showVerdict(box, result.comparison, result.lookup, result.product) : undefined),
    fail(hasResult) {
      if (!box) return;
      showPending(box, 'no result', hasResult
        ? 'Fix the input: the picture and tables show the last valid one.'
        : 'Fix the input to see both routes.');
    },
  };
}

// A view of tables, with the verdict above them when the markup has its box.
function tablesView(markup) {
  return (container) => {
    container.append(fragment(markup));
    const boxes = byData(container, 'box');  // renderMatrices() builds only the boxes shown
    const verdict = verdictPart(container);
    return {
      render(result, step) {
        renderMatrices(boxes, result, step, verdict.show(result));
      },
      fail: verdict.fail,
    };
  };
}

// The picture of one_hot(idx) · W = out with the verdict below it.
function equationView(container, { onStep }) {
  container.append(fragment(`<div data-part="equation"></div>${VERDICT}`));
  const equation = createEquationView(container.querySelector('[data-part="equation"]'), { onStep });
  const verdict = verdictPart(container);
  return {
    render(result, step) {
      equation.render(result, step);
      verdict.show(result);
    },
    fail: verdict.fail,
  };
}

function stepView(container, { lab, onStep }) {
  container.append(fragment(`
    <div class="step-picker">
      <button type="button" class="step-move" data-part="prev" aria-label="Previous token">←</button>
      <div class="step-tokens" data-part="tokens" role="radiogroup" aria-label="Token to step through"></div>
      <button type="button" class="step-move" data-part="next" aria-label="Next token">→</button>
    </div>
    <div class="step-detail" data-part="detail"></div>`));
  const part = (name) => container.querySelector(`[data-part="${name}"]`);
  const stepThrough = createStepThrough(lab,
    { tokens: part('tokens'), prev: part('prev'), next: part('next'), detail: part('detail') }, onStep);
  return { render: (result, step) => stepThrough.render(result, step) };
}

function printoutView(container, { lab }) {
  container.append(fragment('<div class="printout" data-part="printout"></div>'));
  const body = container.querySelector('[data-part="printout"]');
  return { render: (result) => renderPrintout(body, lab, result) };
}

// The panel times in its own worker and takes no attribute: mounted once, never re-rendered.
async function benchmarkView(container) {
  const { mountBenchmarkPanel } = await import('../benchmark/panel.mjs');
  await mountBenchmarkPanel(container);
  return {};
}

// title: the group's label before the inputs; result: whether the view shows a computed result.
// build(container, { lab, onStep }) -> (a promise of) { render?(result, step), fail?(hasResult) }.
export const VIEW_SPECS = {
  equation: { title: 'one_hot(idx) · W = out', result: true, build: equationView },
  compare: {
    title: 'Lookup and one-hot product', result: true,
    build: tablesView(`${VERDICT}<div class="side-by-side">${LOOKUP}${PRODUCT}</div>`),
  },
  lookup: {
    title: 'Embedding lookup', result: true,
    build: tablesView(`<div class="matrix-grid">${WEIGHT}${LOOKUP}</div>`),
  },
  onehot: {
    title: 'One-hot product', result: true,
    build: tablesView(`${VERDICT}<div class="matrix-grid equation">${ONEHOT}` +
                      `<div class="term">${operator('×', 'times')}${WEIGHT}</div>` +
                      `<div class="term">${operator('=', 'equals')}${PRODUCT}</div></div>`),
  },
  step: { title: 'Step through one token', result: true, build: stepView },
  printout: { title: 'As PyTorch prints it', result: true, build: printoutView },
  // Each with inputs of its own inside the element (G's seed, padding_idx; offsets, mode...).
  backward: {
    title: 'Gradients of both routes', result: true,
    build: (container, { lab }) => createBackwardView(container, lab),
  },
  bag: {
    title: 'EmbeddingBag', result: true,
    build: (container, { lab }) => createBagView(container, lab),
  },
  benchmark: { title: 'Benchmark', result: false, build: benchmarkView },
};
