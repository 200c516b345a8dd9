// The picture on the first screen: both routes and the backward pass on one canvas, as cell
// grids whose values are colours on a diverging scale (--eq-neg, --eq-zero, --eq-pos, which
// follow light and dark mode), with numbers where a cell is wide enough. A toggle picks the mode
// (Product: one_hot(idx) × W = out; Lookup: idx → W[idx] = out; Backward: dW = one_hot(idx)ᵀ @ G,
// G flowing back into dW; the mode is the store's pictureMode, which the verdict below follows)
// and a stepper goes through its steps, one row at a time, with Play, Prev and Next
// (stepper.mjs; each mode's steps in product.mjs, lookup.mjs, backward.mjs); the picture at
// rest is its last step. prefers-reduced-motion gets the same steps without movement. The
// selected token k is marked in its own colour (model/token-colors.mjs). Under the picture, the
// verdict on what it shows (views/verdict.mjs), then the token's way through it and its values,
// in PyTorch's notation, readable at any width; while the inputs are wrong, the picture is dimmed
// under a line naming the ids it still shows. Its words number rows one way
// (model/picture-names.mjs). The picture is one tab stop: the arrow keys move the token; a token
// pointed at or focused anywhere marks its rows here (views/linking.mjs).
//
// The grids are painted on a canvas: as SVG they were ~150 nodes whose style, layout and text
// shaping cost most of a keystroke's frame, since typing an id moves every column. An SVG over
// the canvas keeps what moves or is pointed at (views/picture/overlay.mjs). Moving to another
// token slides the glow and replays the flow (CSS transitions, off for prefers-reduced-motion);
// any other redraw (typing, a new width) is still, and the stepper leaves rest only when asked and
// goes back to it at any change of the store, so that no animation runs into a keystroke's frame.
import { element, radioKeyTarget, writeProperty } from '../../draw/dom.mjs';
import { slotsFor } from '../../model/picture-layout.mjs';
import { inputsText } from '../../model/describe.mjs';
import { count } from '../../model/format-number.mjs';
import { labelsOf, MODES, rowLabel, sceneOf } from '../../model/picture-scene.mjs';
import { tokenColor } from '../../model/token-colors.mjs';
import { createPalette, paint, shade } from '../../draw/picture-paint.mjs';
import { backwardGrads, backwardMode, GRAD_BUDGET } from './backward.mjs';
import { createCanvasSize } from './canvas-size.mjs';
import { lookupMode } from './lookup.mjs';
import { createOverlay } from './overlay.mjs';
import { productMode } from './product.mjs';
import { createStepper, stepperParts } from './stepper.mjs';
import { verdictView } from '../verdict.mjs';
import { createDescriber, restingDetail } from './words.mjs';

const MODE = { product: productMode, lookup: lookupMode, backward: backwardMode };

// The heading of the section that shows the picture in `mode`: the verdict below it is the
// gradient's in backward mode.
export const pictureTitle = (mode) => MODE[mode].title;
let pictures = 0; // numbers the pictures: their ids are unique in a document

// The bar above the picture: the mode toggle and the stepper. The token is picked with the one
// token picker (views/token-picker.mjs) above it, or with the arrow keys on the picture.
function createBar(number, stepper) {
  const bar = element('div', 'equation-bar');
  const modes = element('div', 'picture-modes');
  modes.setAttribute('role', 'radiogroup');
  modes.setAttribute('aria-label', 'What the picture shows');
  const radios = MODES.map((name) => {
    const label = element('label', 'picture-mode');
    const input = element('input');
    input.type = 'radio';
    input.id = `picture-${number}-${name}`;
    input.name = `picture-${number}-mode`;
    input.value = name;
    input.checked = name === 'product';
    label.append(input, element('span', '', MODE[name].label));
    modes.append(label);
    return input;
  });
  const tools = element('div', 'picture-tools');
  tools.append(modes, stepper.controls);
  bar.append(tools);
  return { bar, radios };
}

// The figure's parts: the bar, the picture (one tab stop, a slider over the tokens: a canvas
// with an SVG over it), the stepper's story (scrubber, speed, caption), the line below, the counts, the description.
function createFigure(number) {
  const figure = element('figure', 'equation-figure');
  const stepper = stepperParts(number);
  const { bar, radios } = createBar(number, stepper);
  const frame = element('div', 'equation-picture');
  frame.id = `picture-${number}`;
  frame.tabIndex = 0;
  frame.setAttribute('role', 'slider');
  frame.setAttribute('aria-valuemin', '1');
  const description = element('p', 'visually-hidden');
  description.id = `picture-${number}-description`;
  frame.setAttribute('aria-describedby', description.id);
  const cells = element('div', 'equation-cells'); // shows the picture's part of the canvas
  const canvas = element('canvas', 'equation-canvas');
  cells.append(canvas);
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('class', 'equation-svg');
  svg.setAttribute('aria-hidden', 'true');
  frame.append(cells, svg);
  // While the inputs are wrong, over the dimmed picture: which input it still shows.
  const stage = element('div', 'picture-stage');
  const staleNote = element('p', 'picture-stale-note');
  staleNote.hidden = true;
  stage.append(frame, staleNote);
  const detail = element('p', 'picture-detail');
  const counts = element('figcaption', 'equation-counts');
  // The verdict on what the picture shows (the gradient's in Backward), right under it: its
  // headline stays on the first screen, the words about the selected row and the counts below.
  const verdict = element('div', 'picture-verdict');
  // Backward's equation, left of the tools: the picture draws the product's and the lookup's.
  const formula = element('p', 'picture-formula');
  bar.prepend(formula);
  figure.append(bar, stage, stepper.story, verdict, detail, counts, description);
  return {
    figure,
    radios,
    stepper,
    frame,
    canvas,
    svg,
    staleNote,
    verdict,
    detail,
    counts,
    description,
    formula,
  };
}

// root: an empty element the picture fills; onStep(k) when the learner picks another token,
// onMode(mode) when another mode. Returns { render(state) } for the store's state.
function createPictureView(root, { lab, onStep, onMode }) {
  const parts = createFigure(++pictures);
  const { figure, radios, frame, canvas, svg, detail, formula } = parts;
  root.append(figure);
  const overlay = createOverlay(svg);
  const size = createCanvasSize(figure, { frame, canvas, svg });
  const describe = createDescriber(parts, MODE);
  const palette = createPalette(figure, () => {
    stepper.stop();
    if (view.state) select();
  });
  // The page's colours and fonts, read once the browser is idle after the figure is built (on the
  // index page, while the module downloads), not in a style pass in the frame of the first result.
  requestIdleCallback(() => palette());
  // mode: the toggle's; state: { result, step, texts (Text mode's token texts, or null), grads };
  // drawn: { scene, slots, wanted (slotsFor()'s: the drawn slots may have fewer columns), at,
  // labels }, what the picture shows now.
  const view = { mode: 'product', state: null, drawn: null };

  const stepper = createStepper(parts.stepper, figure, {
    begin() {
      const { colors } = palette();
      const { scene, at, slots, wanted } = view.drawn;
      return MODE[view.mode].player({ lab, ...view.state, scene, at, slots, wanted, colors });
    },
    show(player, index, moved, asking) {
      const { result, step } = view.state;
      const { scene } = view.drawn;
      const { colors, fonts } = palette();
      shade(scene, step, result.ids[step], colors, fonts, { asking });
      figure.toggleAttribute('data-asking', asking);
      const shown = player.apply(index, moved);
      paint(canvas, scene, size.ratio);
      overlay.frame(shown ?? {});
      writeProperty(
        detail,
        'textContent',
        shown?.detail ?? restingDetail(lab, view.mode, view.state, view.drawn),
      );
    },
    rest: () => select(),
  });

  frame.addEventListener('keydown', (event) => {
    const { state } = view;
    const k = state ? radioKeyTarget(event.key, state.step, state.result.ids.length) : null;
    if (k === null) return;
    event.preventDefault();
    if (k >= 0 && k < state.result.ids.length && k !== state.step) onStep(k);
  });
  for (const radio of radios) {
    radio.addEventListener('change', () => {
      if (radio.checked) onMode(radio.value);
    });
  }

  // The picture's geometry and scene for the state, then the selected token's marks.
  function draw() {
    const { state } = view;
    const { result, step, texts } = state;
    if (view.mode === 'backward') state.grads ??= backwardGrads(lab, result);

    const wanted = slotsFor(result, step);
    const rowLabels = {};
    for (const k of wanted.tokens) if (k !== null) rowLabels[k] = rowLabel(k, result.ids, texts);
    const at = size.fit(result, wanted, rowLabels, {
      transposed: view.mode === 'backward',
      notes: view.mode !== 'backward',
    });
    const { slots } = at; // fewer of d's columns where the width leaves no room for numbers
    const scene = sceneOf(result, slots, at, {
      mode: view.mode,
      step,
      formatElements: lab.formatElements,
      texts,
      grads: state.grads,
    });
    view.drawn = { scene, slots, wanted, at, labels: overlay.drawRows(scene, at) };
    // The equation above the picture where the picture does not spell it: stacked, and
    // Backward's always (its operators are drawn, its names are long).
    const spelled = view.mode === 'backward' || at.stacked;
    writeProperty(formula, 'textContent', spelled ? MODE[view.mode].name : '');
    writeProperty(formula, 'hidden', !spelled);
    stepper.story(MODE[view.mode].story(result, step, slots));
    select();
  }

  // The canvas at rest is painted once the redraw's other writes are done (in a microtask, at
  // the end of the store's update): the first font set on a canvas in the document styles and
  // lays out the page, which, before the last write of the frame, would leave the frame's style
  // to be worked out twice. Its first paint comes in the next frame: with the fonts' first
  // lookups and that layout, it would double the first result's frame (an element's, which
  // computes in a frame, held the tutorial 50 to 70 ms).
  let paintDue = null; // a promise of the paint to come, or null
  let painted = false;
  function paintSoon() {
    paintDue ??= new Promise((resolve) =>
      (painted ? queueMicrotask : requestAnimationFrame)(() => {
        paintDue = null;
        painted = true;
        if (!figure.dataset.play) paint(canvas, view.drawn.scene, size.ratio);
        resolve();
      }),
    );
  }

  // Paints the scene for the selected token at rest: dimming, marks, glow, flows, detail.
  function select() {
    const { result, step } = view.state;
    const { scene, at, labels } = view.drawn;
    const id = result.ids[step];
    const { colors, fonts } = palette();
    shade(scene, step, id, colors, fonts);
    figure.toggleAttribute('data-asking', false);
    paintSoon();
    canvas.scene = scene; // what it shows, for the e2e tests: text cannot be read back from pixels
    for (const [k, label] of labels) label.classList.toggle('current', k === step);
    if (figure.style.getPropertyValue('--selected') !== tokenColor(step)) {
      figure.style.setProperty('--selected', tokenColor(step));
    }
    overlay.select(scene, at, {
      step,
      id,
      ids: result.ids,
      grade: result.comparison?.grade ?? null,
    });
    overlay.frame();
    writeProperty(detail, 'textContent', restingDetail(lab, view.mode, view.state, view.drawn));
    describe(view.mode, view.state);
  }

  // Redrawn at a new width: the cell size, and whether numbers fit, depend on it. The width is
  // read here, where the layout is done, from the first layout on: the first result's fit then
  // has it without laying the page out.
  new ResizeObserver(() => {
    if (!size.resized() || !view.state) return;
    figure.classList.remove('moving');
    stepper.stop();
    draw();
  }).observe(figure);

  return {
    verdict: parts.verdict,
    // Resolves once the canvas shows the last redraw.
    painted: () => paintDue ?? Promise.resolve(),
    // Dimmed, and saying which ids it shows, while the inputs ask for one it cannot draw.
    stale({ status, result }) {
      const stale = status.state === 'failed' && result !== null;
      figure.classList.toggle('stale', stale);
      writeProperty(parts.staleNote, 'hidden', !stale);
      if (stale)
        writeProperty(
          parts.staleNote,
          'textContent',
          `Showing the last valid ids: ${inputsText(result)}`,
        );
    },
    render({ result, step: picked, tokens, pictureMode }) {
      const { state } = view;
      // G too big to draw here: the Backward view computes it in the compute worker.
      const tooBig = result.ids.length * result.dim > GRAD_BUDGET;
      const mode = tooBig ? 'product' : pictureMode;
      if (mode !== view.mode) {
        view.mode = mode;
        radios[MODES.indexOf(mode)].checked = true;
      }
      // A token picked in a newer text than the result shown (its chips come first) waits.
      const step = Math.min(picked, result.ids.length - 1);
      const moved = state !== null && step !== state.step;
      const texts = labelsOf(tokens, result);
      const grads = state?.result === result ? state.grads : null;
      stepper.stop();
      view.state = { result, step, texts, grads };
      const backward = radios[MODES.indexOf('backward')];
      if (backward.disabled !== tooBig) {
        backward.disabled = tooBig;
        backward.parentElement.title = tooBig
          ? `G would hold n·d = ${count(result.ids.length * result.dim)} values: see the Backward view`
          : '';
      }
      // The store follows, after this update of its listeners, not during it.
      if (mode !== pictureMode) queueMicrotask(() => onMode(mode));
      // Transitions run from the places before this style change, when the new style has them.
      figure.classList.toggle('moving', moved);
      figure.classList.toggle('drawn', true); // add() rewrites the class even when it is there
      draw();
      if (moved) overlay.replay();
    },
  };
}

// The picture and, in it, the verdict (views/verdict.mjs).
export const pictureView = {
  title: 'one_hot(idx) × W = out',
  build(container, context) {
    const { store, lab } = context;
    const picture = createPictureView(container, {
      lab,
      onStep: (k) => store.set({ step: k }),
      onMode: (mode) => store.set({ pictureMode: mode }),
    });
    const verdict = verdictView.build(picture.verdict, context);
    return {
      update(state, changed) {
        if (
          state.result &&
          ['result', 'step', 'tokens', 'pictureMode'].some((key) => changed.has(key))
        )
          picture.render(state);
        if (changed.has('status') || changed.has('result')) picture.stale(state);
        verdict.update(state, changed);
      },
      settled: () => picture.painted(),
    };
  },
};
