// What the Train view draws from its training: the buttons and their status, where W comes from,
// W with the rows the last step changed lit in the colour of why, a rows × steps timeline, and
// the training as a PyTorch script that prints what the view shows. Without a head, the Linear
// route's verdict and the optimizer state of the picked row; with one (window-drawing.mjs), why
// the rows moved, the loss, the predictions, the rows as points and the picked row's update.
import { byData, element } from '../../draw/dom.mjs';
import { tableRegions } from '../../draw/scroll-region.mjs';
import {
  causeOf,
  drawLegend,
  drawTimeline,
  drawWeights,
  weightCols,
} from '../../draw/train-picture.mjs';
import { showPending, showVerdict } from '../../draw/verdict-box.mjs';
import { plural, vectorText } from '../../model/format-number.mjs';
import { ROW_CAP } from '../../model/shown-indices.mjs';
import { trainRows } from '../../model/train-inputs.mjs';
import { trainScript } from '../../model/train-script.mjs';
import { copyScriptBar } from '../copy-script.mjs';
import { stepFigure } from '../printout.mjs';
import { drawWindowTraining, windowStatus } from './window-drawing.mjs';

const MARKUP = `
  <div class="train-bar">
    <button type="button" class="train-button" data-action="step">Step</button>
    <button type="button" class="train-button" data-action="play" aria-pressed="false">Play</button>
    <button type="button" class="train-button" data-action="reset">Reset</button>
    <p class="train-status" data-part="status" aria-live="polite"></p>
  </div>
  <p class="route-note view-code" data-part="origin"></p>
  <div data-part="side-by-side">
    <h3 class="train-verdict-title" data-part="verdict-title"></h3>
    <div class="verdict" data-part="verdict" aria-live="polite"></div>
  </div>
  <p class="train-why" data-part="why" aria-live="polite"></p>
  <ul class="train-legend" data-part="legend" aria-label="Why a row changed"></ul>
  <div class="train-charts" data-part="charts">
    <div class="matrix-item train-chart" data-draw="summary">
      <h3>The loss, step by step, and each epoch's mean</h3>
      <svg class="train-chart-svg" data-part="loss"></svg>
      <ol class="train-losses" data-part="losses" aria-label="The mean loss of each epoch"></ol>
      <p class="route-note">The loss and the weights are float32 as PyTorch computes them; its
        BLAS sums the products in another order, so PyTorch's may differ in the last bits (and
        Adam, which divides each gradient by its own size, moves a row whose gradient is about
        its eps by up to lr either way). The batches, the lookups, and the rows a step changes,
        are exact.</p>
    </div>
    <div class="matrix-item train-chart" data-draw="points">
      <h3>The text's rows of <code>tok.weight</code> as points</h3>
      <svg class="train-chart-svg" data-part="points"></svg>
      <p class="route-note" data-part="points-note"></p>
    </div>
  </div>
  <div class="matrix-item train-predict" data-part="predict" data-draw="predictions">
    <h3>What it predicts next</h3>
    <p class="route-note">At every position of every window: the input token → the target, the
      token that does come next, then the three likeliest next tokens by the model as it stands,
      each with its softmax probability; a target among them is marked ✓, and a position whose
      likeliest is its target is coloured.</p>
    <ol class="train-predictions" data-part="predictions" aria-label="Next-token predictions"></ol>
  </div>
  <div class="train-grid">
    <div class="matrix-item" data-draw="weights">
      <h3 data-part="weights-title"><code>embedding.weight</code>, lit where the step changed it</h3>
      <div class="table-box" data-box="weights"></div>
      <p class="route-note" data-part="more"></p>
    </div>
    <div class="matrix-item" data-draw="steps">
      <h3>Which rows each step changed</h3>
      <div class="table-box" data-box="timeline"></div>
    </div>
    <div class="matrix-item train-state">
      <h3 data-part="state-title">Optimizer state</h3>
      <div data-part="state"></div>
    </div>
  </div>
  <details class="printout-details train-printout">
    <summary>Show the PyTorch script of this training and what it prints</summary>
    <div class="printout" data-part="printout"></div>
  </details>`;

// The view's output appended to root: { buttons (by data-action), printout (the details),
// setPlaying(playing), drawButtons(p, run, train), draw(spec) (without a head),
// drawWindows(spec) (with one: window-drawing.mjs's spec) }. With a head, a part of the drawing
// (data-draw: window-drawing.mjs's parts) is drawn once it comes near the screen, where the
// learner can see it; onSeen(part) hears that a part came near, to draw it.
export function createTrainDrawing(root, { lab, embedded, onSeen }) {
  const template = document.createElement('template');
  template.innerHTML = MARKUP;
  const parts = byData(template.content, 'part');
  const boxes = byData(template.content, 'box');
  const buttons = byData(template.content, 'action');
  const printout = template.content.querySelector('details');
  const seen = new Set(); // the parts near the screen
  const observer = new IntersectionObserver(
    (entries) => {
      for (const { target, isIntersecting } of entries) {
        const part = target.dataset.draw;
        if (!isIntersecting) seen.delete(part);
        else if (!seen.has(part)) {
          seen.add(part);
          onSeen(part);
        }
      }
    },
    { rootMargin: '200px' },
  );
  const containers = {}; // part -> its element: data-drawn says the step it shows
  for (const node of template.content.querySelectorAll('[data-draw]')) {
    observer.observe(node);
    containers[node.dataset.draw] = node;
  }
  root.append(template.content);
  tableRegions(root);
  printout.open = embedded;

  function setPlaying(playing) {
    buttons.play.textContent = playing ? 'Pause' : 'Play';
    buttons.play.setAttribute('aria-pressed', String(playing));
  }

  // p: the plan, or null where the inputs are wrong; run: the run's current training (without a
  // head) or window-run.mjs's current (with one).
  function drawButtons(p, run, train) {
    if (p && p.head !== 'none') {
      const status = windowStatus(lab, p, run);
      buttons.step.disabled = Boolean(run?.failed);
      buttons.play.disabled = Boolean(run?.failed);
      buttons.reset.disabled = train.steps === 0;
      parts.status.textContent = status.text;
      parts.status.dataset.steps = String(status.steps);
      if (status.loss === undefined) {
        delete parts.status.dataset.loss;
        delete parts.status.dataset.firstLoss;
      } else {
        parts.status.dataset.loss = String(status.loss);
        parts.status.dataset.firstLoss = String(status.first);
      }
      return;
    }
    const total = p?.batches.length ?? 0;
    const taken = run?.history.length ?? 0;
    buttons.step.disabled = !p || taken >= total || Boolean(run?.failed);
    buttons.play.disabled = !p || total === 0;
    buttons.reset.disabled = train.steps === 0;
    delete parts.status.dataset.loss;
    parts.status.dataset.steps = String(taken);
    parts.status.textContent = !p
      ? ''
      : taken === 0
        ? `${plural(total, 'batch', 'batches')} to train: Step takes the first.`
        : `Step ${taken} of ${total}: batch [${Array.from(p.batches[taken - 1]).join(', ')}]` +
          `${p.lines ? `, ${JSON.stringify(p.lines[taken - 1].text)}` : ''}.`;
  }

  function drawOrigin(p) {
    parts.origin.replaceChildren(
      element(
        'code',
        '',
        `torch.manual_seed(${p.seed}); embedding = nn.Embedding(${p.vocab}, ${p.dim}` +
          `${p.options.paddingIdx === null ? '' : `, padding_idx=${p.options.paddingIdx}`}` +
          `${p.options.sparse ? ', sparse=True' : ''})`,
      ),
      p.lines
        ? `: V is ${p.tokenizerLabel}'s vocabulary, d as said under the batches, the seed the page's. `
        : ": V, d and the seed are the page's. ",
      'Step k draws G = torch.randn(len(batch k), d) after the table, as ',
      element('code', 'nowrap', 'embedlab train'),
      ' does.',
    );
  }

  function drawVerdict(training, last) {
    parts['verdict-title'].replaceChildren(
      `The Linear route ${last ? `after step ${last.step}` : 'before training'}: `,
      element('code', '', 'embedding.weight'),
      ' against ',
      element('code', '', 'linear.weight.T'),
    );
    if (!last) {
      showPending(
        parts.verdict,
        'step 0',
        'Both routes start from the same W. Step trains the first batch ' +
          'and compares embedding.weight with linear.weight.T, bit by bit.',
      );
    } else if (!last.verdict) {
      showPending(
        parts.verdict,
        'no Linear route',
        `linear.weight cannot be trained with this optimizer: ${training.linearRefusal}`,
      );
    } else {
      showVerdict(parts.verdict, last.verdict, lab.verdictDefinitions);
    }
  }

  function drawState(training, picked, padding, info) {
    const { step, state } = training.rowState(picked);
    parts['state-title'].replaceChildren(
      element('code', '', `optimizer.state`),
      ` of row ${picked}`,
      padding === picked ? ' (padding_idx)' : '',
    );
    const list = element('dl', 'train-state-list');
    const entry = (term, value) => list.append(element('dt', '', term), element('dd', '', value));
    entry('step', String(step));
    for (const { name, values } of state) {
      if (values.rows === 0) entry(`${name}[${picked}]`, 'no entry for this row yet');
      for (let r = 0; r < values.rows; ++r) {
        entry(
          values.rows > 1 ? `${name}[${picked}], entry ${r + 1}` : `${name}[${picked}]`,
          vectorText(lab, values.data, r * values.cols, values.cols),
        );
      }
    }
    const note = element(
      'p',
      'route-note',
      state.length === 0
        ? `torch.optim.${info.className} has made no state for this row: ${step === 0 ? 'it makes it at the first step' : 'it keeps none with these options'}.`
        : 'Pick another row of W to see its state.',
    );
    parts.state.replaceChildren(list, note);
  }

  function drawPrintout(p, training, history) {
    const script = trainScript(
      lab,
      {
        head: 'none',
        seed: p.seed,
        vocab: p.vocab,
        dim: p.dim,
        paddingIdx: p.options.paddingIdx,
        sparse: p.options.sparse,
        optimizer: p.options.optimizer,
        weight: training.weight,
        linearRefusal: training.linearRefusal ?? null,
        lines: p.lines?.map((line) => line.text) ?? null,
      },
      history,
    );
    const figures = element('div', 'printout-steps');
    figures.append(...script.map((step) => stepFigure(step, null)));
    const bar = copyScriptBar(
      script,
      figures,
      `The steps taken so far (${history.length}): each prints the text under it in PyTorch.`,
    );
    parts.printout.replaceChildren(bar, figures);
  }

  // Which parts a training shows: without a head the Linear route's verdict and the picked
  // row's state; with one the charts, the predictions and why the rows moved.
  function showParts(head) {
    parts['side-by-side'].hidden = head;
    parts.charts.hidden = !head;
    parts.predict.hidden = !head;
    parts.why.hidden = !head;
  }

  // spec: { p (the plan), run (the run's current training), picked (a row), lit (a step was
  // just taken: its rows light up), info (the optimizer's entry in lab.optimizers), focused
  // (the row whose button has the keyboard's focus, or undefined) }.
  function draw({ p, run, picked, lit, info, focused }) {
    const { training, history } = run;
    const last = history.at(-1) ?? null;
    const weight = last ? last.embeddingWeight : training.weight;
    const padding = training.paddingRow ?? null;
    showParts(false);
    parts['weights-title'].replaceChildren(
      element('code', '', 'embedding.weight'),
      ', lit where the step changed it',
    );
    drawLegend(
      parts.legend,
      lab.rowCauses.filter(({ name }) => name !== 'head'),
    );
    drawOrigin(p);
    drawVerdict(training, last);
    // Every row a batch names stays in view, with the padding row and the picked one.
    const named = p.batches.flatMap((b) => Array.from(b));
    const keep = [...named, picked, ...(padding === null ? [] : [padding])];
    const rows = trainRows(p.vocab, ROW_CAP, keep);
    drawWeights(boxes.weights, {
      lab,
      weight,
      rows,
      cols: weightCols(p.dim),
      changed: last?.changed ?? null,
      causes: lab.rowCauses,
      roles: lab.batchRoles,
      picked,
      padding,
      caption: last
        ? `embedding.weight after step ${last.step}`
        : 'embedding.weight before training',
      lit,
    });
    const hidden = last
      ? last.changed.rows.length -
        rows.filter((r) => r !== null && causeOf(last.changed, r) !== undefined).length
      : 0;
    parts.more.textContent =
      hidden > 0
        ? `${plural(hidden, 'more row', 'more rows')} changed in step ${last.step}, ` +
          'out of view: weight decay and optimizer state reach every row.'
        : '';
    parts.more.hidden = hidden === 0;
    // A row's button redrawn keeps the keyboard's focus.
    if (focused !== undefined)
      boxes.weights.querySelector(`.row-pick[data-row="${focused}"]`)?.focus();
    drawTimeline(boxes.timeline, {
      rows,
      columns: p.batches.map((batch, k) => ({
        label: String(k + 1),
        detail: `[${Array.from(batch).join(', ')}]`,
      })),
      history: history.map((s) => s.changed),
      causes: lab.rowCauses,
      roles: lab.batchRoles,
      picked,
    });
    drawState(training, picked, padding, info);
    if (printout.open) drawPrintout(p, training, history);
  }

  // spec: window-drawing.mjs's; of its parts, those near the screen.
  function drawWindows(spec) {
    showParts(true);
    drawWindowTraining({ lab, parts, boxes, printout, seen, containers }, spec);
  }

  return { buttons, printout, setPlaying, drawButtons, draw, drawWindows };
}
