// What the Train view draws of next-token training through a head, the chapter's loop on one
// sequence's windows (window-run.mjs keeps it): the status and where the model comes from, why
// the last step moved the rows it moved, the loss step by step with each epoch's mean, what the
// model predicts next at every position, the text's rows of W as points in a fixed plane, W's
// rows lit where the step changed them, the last steps' timeline, the picked row's update and
// the loop as a PyTorch script that prints what the view shows.
import { element, writeProperty } from '../../draw/dom.mjs';
import { morphChildren } from '../../draw/morph.mjs';
import { drawLossCurve, drawRowPoints, epochMeans } from '../../draw/train-charts.mjs';
import { drawLegend, drawTimeline, drawWeights, weightCols } from '../../draw/train-picture.mjs';
import { drawPredictions } from '../../draw/train-predictions.mjs';
import { plural } from '../../model/format-number.mjs';
import { principalPlane, project } from '../../model/train-projection.mjs';
import { trainScript } from '../../model/train-script.mjs';
import { copyScriptBar } from '../copy-script.mjs';
import { stepFigure } from '../printout.mjs';
import { drawUpdate, headOrigin, lossText, whyText } from './head-drawing.mjs';

// The timeline shows this many of the last steps.
const TIMELINE_STEPS = 8;

// Window w's ids at positions [start, start + length) of the sequence, and its targets.
function windowIds(p, w) {
  const start = w * p.loader.stride;
  return {
    x: Array.from(p.ids.subarray(start, start + p.loader.maxLength)),
    y: Array.from(p.ids.subarray(start + 1, start + 1 + p.loader.maxLength)),
  };
}

// A step's inputs and targets, every id of its batch.
function batchIds(p, step) {
  const ws = step.windows.map((w) => windowIds(p, w));
  return { inputs: ws.flatMap((w) => w.x), targets: ws.flatMap((w) => w.y), x: ws.map((w) => w.x) };
}

// The plane of a training's first table, kept while it trains: its axes, and their names.
const planes = new WeakMap(); // info -> plane
function planeOf(info) {
  if (!planes.has(info)) planes.set(info, principalPlane(info.weight));
  return planes.get(info);
}

// The parts of the drawing, each drawn on its own: while Play plays the view draws one at a time,
// a task each, so that no task of the page's grows long; the loss, every other time.
export const PLAYING_PARTS = Object.freeze([
  'summary',
  'points',
  'summary',
  'predictions',
  'summary',
  'weights',
  'summary',
  'steps',
]);

// node's children become `children`, written where they changed (morph.mjs).
function setChildren(node, ...children) {
  const holder = element('div');
  holder.append(...children);
  morphChildren(node, holder);
}

// ctx: { lab, parts, boxes, printout, seen (the parts near the screen), containers (each part's
// element, whose data-drawn is set to the step it shows) } (drawing.mjs's); spec: { p, run (window-run.mjs's current),
// picked, lit (the step just taken, whose rows light up, or null), info (the optimizer's entry in
// lab.optimizers), label(id): a token's words, focused, only (the parts to draw, of
// PLAYING_PARTS, or null for all) }.
export function drawWindowTraining({ lab, parts, boxes, printout, seen, containers }, spec) {
  const { p, run, picked, lit, info } = spec;
  const { log, last } = run;
  const step = log.at(-1) ?? null;
  const ids = step ? batchIds(p, step) : null;
  // The parts asked for, where the learner can see them; the others wait to be seen.
  const drawn = (part) => {
    const now = (!spec.only || spec.only.includes(part)) && (part === 'summary' || seen.has(part));
    if (now) containers[part].dataset.drawn = String(step?.step ?? 0);
    return now;
  };
  const text = (loss) => lossText(lab, loss);
  if (drawn('summary')) {
    setChildren(parts.origin, ...headOrigin(p, run.info));
    setChildren(
      parts['weights-title'],
      element('code', '', 'tok.weight'),
      ', lit where the last step changed it',
    );
    writeProperty(parts.why, 'textContent', whyText(lab, p, step, ids?.inputs, ids?.targets, info));
    drawLegend(
      parts.legend,
      lab.rowCauses.filter(({ name }) => name !== 'head' || p.head === 'tied'),
    );
    if (run.info) drawLoss(parts, log, text);
  }
  if (!run.info) return;

  if (drawn('predictions')) {
    // What it predicts next, position by position of every window.
    const positions = [];
    for (let w = 0; w < run.info.windows; ++w) {
      const { x, y } = windowIds(p, w);
      x.forEach((input, t) => positions.push({ input, target: y[t] }));
    }
    drawPredictions(parts.predictions, {
      positions,
      predictions: last.predictions,
      label: spec.label,
      maxLength: p.loader.maxLength,
    });
  }

  const { watched } = run.info;
  if (drawn('points')) drawPoints(lab, parts, spec, step, ids);

  // W's rows, lit where the last step changed them: its batch's rows (before any step, the
  // first window's), inputs and targets, and the picked one, each with its token.
  const named = ids ?? windowIds(p, 0);
  const rows = [
    ...new Set([...(ids?.inputs ?? named.x), ...(ids?.targets ?? named.y), picked]),
  ].sort((a, b) => a - b);
  const rowLabel = (r) => spec.label(r);
  if (drawn('weights')) {
    const index = new Map(watched.map((r, i) => [r, i]));
    const d = p.dim;
    const now = last.weight;
    drawWeights(boxes.weights, {
      lab,
      weight: { rows: p.vocab, cols: d, at: (i, j) => now.data[index.get(i) * d + j] },
      rows,
      cols: weightCols(d),
      changed: step?.changed ?? null,
      causes: lab.rowCauses,
      roles: lab.batchRoles,
      picked,
      padding: null,
      caption: step
        ? `tok.weight after step ${step.step}: the rows of its batch, and the picked one`
        : "tok.weight before training: the rows of the first window's tokens",
      lit,
      rowLabel,
    });
    const hidden = step
      ? step.changedCount - rows.filter((r) => step.changed.rows.includes(r)).length
      : 0;
    writeProperty(
      parts.more,
      'textContent',
      hidden > 0
        ? `${plural(hidden, 'more row', 'more rows')} changed in step ${step.step}, out of view: ` +
            (p.head === 'tied'
              ? "the tied head's gradient reaches every row."
              : 'weight decay and optimizer state reach every row.')
        : '',
    );
    parts.more.hidden = hidden === 0;
    if (spec.focused !== undefined)
      boxes.weights.querySelector(`.row-pick[data-row="${spec.focused}"]`)?.focus();
  }

  if (drawn('steps')) {
    const recent = log.slice(-TIMELINE_STEPS);
    drawTimeline(boxes.timeline, {
      rows,
      columns: recent.map((s) => ({ label: String(s.step), detail: `epoch ${s.epoch}` })),
      history: recent.map((s) => s.changed),
      causes: lab.rowCauses,
      roles: lab.batchRoles,
      picked,
      rowLabel,
      caption:
        log.length > TIMELINE_STEPS
          ? `Rows changed in the last ${TIMELINE_STEPS} steps`
          : 'Rows changed, step by step',
    });
    drawUpdate(lab, { title: parts['state-title'], body: parts.state }, p, last.update, info);
  }
  // The script, once the learner opens it.
  if (printout.open && (!spec.only || spec.only.includes('steps')))
    drawScript({ lab, parts }, p, log);
}

// The text's rows as points in the plane of the first table.
function drawPoints(lab, parts, spec, step, ids) {
  const { run } = spec;
  const { watched } = run.info;
  const plane = planeOf(run.info);
  const trail = run.trail.map(({ step: s, weight }) => ({
    step: s,
    points: watched.map((_, i) => project(plane, weight, i)),
  }));
  const pct = (share) => `${Math.round(share * 100)}%`;
  drawRowPoints(parts.points, {
    trail,
    labels: watched.map((r) => spec.label(r)),
    rows: watched,
    changed: step?.changed ?? null,
    inputs: ids?.inputs ?? null,
    causes: lab.rowCauses,
    picked: spec.picked,
    axes: {
      x: `axis 1 of step 0 (${pct(plane.shares[0])})`,
      y: `axis 2 (${pct(plane.shares[1])})`,
    },
  });
  writeProperty(
    parts['points-note'],
    'textContent',
    `Each point is a token's row of W (d = ${spec.p.dim}), drawn in the plane in which the text's ` +
      `${plural(watched.length, 'row', 'rows')} spread most in the first table, step 0: its two ` +
      `principal axes, which hold ${pct(plane.shares[0])} and ${pct(plane.shares[1])} of their ` +
      'spread. The plane stays as it was while training moves the rows, so a point moves only ' +
      "because its row did; its line is where it has been. The last step's input rows are the " +
      'larger points, labelled, the rows it moved in the colour of why.',
  );
}

// The loss chart, and each epoch's mean as text under it.
function drawLoss(parts, log, text) {
  const losses = log.map((s) => s.loss);
  const epochs = log.map((s) => s.epoch);
  drawLossCurve(parts.loss, { losses, epochs, text });
  setChildren(
    parts.losses,
    ...epochMeans(losses, epochs).map((m) => {
      const item = element('li', '', `epoch ${m.epoch}: `);
      item.append(element('span', 'loss-text', text(m.mean)));
      item.dataset.mean = String(m.mean);
      return item;
    }),
  );
  parts.losses.hidden = log.length === 0;
}

function drawScript({ lab, parts }, p, log) {
  const script = trainScript(
    lab,
    {
      head: p.head,
      seed: p.seed,
      vocab: p.vocab,
      dim: p.dim,
      optimizer: p.optimizer,
      ids: p.ids,
      loader: p.loader,
      positions: p.positions,
      text: p.text?.text ?? null,
      tokenizerLabel: p.text?.label ?? null,
    },
    log.map((s) => ({ ...s, x: batchIds(p, s).x })),
  );
  const figures = element('div', 'printout-steps');
  figures.append(...script.map((s) => stepFigure(s, null)));
  const bar = copyScriptBar(
    script,
    figures,
    `The steps taken so far (${log.length}): each prints its line in PyTorch, where the loss may ` +
      'differ in a rare last digit (see the loss).',
  );
  parts.printout.replaceChildren(bar, figures);
}

// The status line: the step, its epoch and batch, and the loss; data-steps and data-loss hold
// the numbers (the loss as loss.item() gives it, and the first step's).
export function windowStatus(lab, p, run) {
  const info = run?.info;
  if (!info) return { text: '', steps: 0 };
  const step = run.log.at(-1);
  if (!step) {
    return {
      text:
        `${plural(info.windows, 'window', 'windows')} of ${p.loader.maxLength} tokens, ` +
        `${plural(info.batchesPerEpoch, 'batch', 'batches')} an epoch: Play trains until you ` +
        'pause it, Step takes one batch.',
      steps: 0,
    };
  }
  return {
    text:
      `Step ${step.step}: epoch ${step.epoch}, batch ${step.batch} of ${info.batchesPerEpoch}, ` +
      `windows [${step.windows.join(', ')}], loss ${lossText(lab, step.loss)} ` +
      `(the first: ${lossText(lab, run.log[0].loss)}).`,
    steps: step.step,
    loss: step.loss,
    first: run.log[0].loss,
  };
}
