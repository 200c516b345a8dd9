// The picture on the first screen: both routes and the backward pass on one canvas, as cell
// grids whose values are colours on a diverging scale (--eq-neg, --eq-zero, --eq-pos, which
// follow light and dark mode), with numbers where a cell is wide enough. A toggle picks the mode
// (Product: one_hot(idx) × W = out; Lookup: idx → W[idx] = out; Backward: G flows back into dW)
// and Play shows its motion (views/picture/*.mjs); prefers-reduced-motion gets the end state,
// which is also what the picture shows at rest. The selected token k is marked in its own
// colour (model/token-colors.mjs); below the picture, its way through it and its values, in
// PyTorch's notation, readable at any width. The picture is one tab stop: the arrow keys move
// the token; pointing at a row marks its token in every view (views/linking.mjs).
//
// The grids are painted on a canvas: as SVG they were ~150 nodes whose style, layout and text
// shaping cost most of a keystroke's frame, since typing an id moves every column. An SVG over
// the canvas keeps what moves or is pointed at (views/picture/overlay.mjs). Moving to another
// token slides the glow and replays the flow (CSS transitions, off for prefers-reduced-motion);
// any other redraw (typing, a new width) is still, and Play runs only when pressed and stops
// at any change of the store, so that no animation runs into a keystroke's frame.
import {
  element,
  radioKeyTarget,
  writeAttribute,
  writeProperty,
  writeStyle,
} from '../../draw/dom.mjs';
import { frameHeight, layout, slotsFor } from '../../model/picture-layout.mjs';
import { count } from '../../model/format-number.mjs';
import { playAt, playTiming } from '../../model/picture-play.mjs';
import { MODES, rowLabel, sceneOf, tokenTexts } from '../../model/picture-scene.mjs';
import { tokenColor } from '../../model/token-colors.mjs';
import { paint, readPalette, shade } from '../../draw/picture-paint.mjs';
import { onThemeChange } from '../../draw/theme-colors.mjs';
import { backwardGrads, backwardMode, GRAD_BUDGET, termsOf } from './backward.mjs';
import { lookupMode } from './lookup.mjs';
import { vectorOf } from './motion.mjs';
import { createOverlay } from './overlay.mjs';
import { productMode } from './product.mjs';

const MODE = { product: productMode, lookup: lookupMode, backward: backwardMode };
const LARGEST_CELL = 50; // px: room for the mode's bar and the detail line on the first screen
let pictures = 0; // numbers the pictures: their ids are unique in a document

// The bar above the picture: the mode toggle and Play. The token is picked with the one token
// picker (views/token-picker.mjs) above it, or with the arrow keys on the picture.
function createBar(number) {
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
  const play = element('button', 'picture-play');
  play.type = 'button';
  play.id = `picture-${number}-play`;
  const tools = element('div', 'picture-tools');
  tools.append(modes, play);
  bar.append(tools);
  return { bar, radios, play };
}

// root: an empty element the picture fills; onStep(k) when the learner picks another token.
// Returns { render(state) } for the store's state.
function createEquationView(root, { lab, onStep }) {
  const number = ++pictures;
  const figure = element('figure', 'equation-figure');
  const { bar, radios, play: playButton } = createBar(number);
  // The picture itself: one tab stop, a slider over the tokens.
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
  const picture = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  picture.setAttribute('class', 'equation-svg');
  picture.setAttribute('aria-hidden', 'true');
  const overlay = createOverlay(picture);
  frame.append(cells, picture);
  const detail = element('p', 'picture-detail');
  const counts = element('figcaption', 'equation-counts');
  figure.append(bar, frame, detail, counts, description);
  root.append(figure);

  let mode = 'product';
  let state = null; // { result, step, texts (Text mode's token texts, or null), grads }
  let drawn = null; // { scene, slots, at, labels }: what the picture shows now
  let width = 0;
  let sizedFor = ''; // the width and pixel ratio the canvas was sized for
  let ratio = 1; // its device pixels per CSS px
  let kept = { shape: '', cell: 0, width: 0, height: 0 }; // a shape's (width, n, V, d) cell and size
  let described = ''; // what describe() last wrote, as a key
  let play = null; // Play under way: { player, stepMs, start, elapsed, paused, frame }
  // Read at the first paint (getComputedStyle forces a style pass), again on a theme change.
  let colors = null;
  let fonts = null;

  const pick = (k) => {
    if (state && k >= 0 && k < state.result.ids.length && k !== state.step) onStep(k);
  };
  frame.addEventListener('keydown', (event) => {
    const k = state ? radioKeyTarget(event.key, state.step, state.result.ids.length) : null;
    if (k === null) return;
    event.preventDefault();
    pick(k);
  });
  for (const radio of radios) {
    radio.addEventListener('change', () => {
      if (!radio.checked) return;
      mode = radio.value;
      stopPlay(false);
      if (state) draw();
    });
  }
  playButton.addEventListener('click', () => {
    if (play && !play.paused) pausePlay();
    else startPlay();
  });

  // The selected token's way through the picture: "·cat → 3797 → W[3797] → out[1]" in Text
  // mode, "idx[1] = 3797 → W[3797] → out[1]" otherwise; backward "G[1] → dW[3797]".
  function pathOf({ result, step, texts }) {
    const id = result.ids[step];
    const start = texts ? `${texts[step]} → ${id}` : `idx[${step}] = ${id}`;
    return mode === 'backward'
      ? `${texts ? `${texts[step]}: ` : ''}G[${step}] → dW[${id}]`
      : `${start} → W[${id}] → out[${step}]`;
  }

  // The numbers of a drawn row (grid's cells that `mine` picks), as the scene has them or, where
  // the cells are too narrow for numbers, from the core.
  function rowNumbers(scene, grid, mine) {
    const row = scene.cells.filter((c) => c.grid === grid && mine(c));
    return row[0].number !== undefined
      ? row.map((c) => c.number)
      : lab.formatElements(
          scene.notation,
          row.map((c) => c.value),
        );
  }

  // The line below the picture at rest: the token's way and the values it ends with.
  function restingDetail() {
    const { result, step, grads } = state;
    const { scene, slots } = drawn;
    const id = result.ids[step];
    if (mode === 'backward') {
      return (
        `${pathOf(state)}: dW[${id}] = ${termsOf(grads.positions.get(id))} = ` +
        `${vectorOf(
          rowNumbers(scene, 'grad', (c) => c.v === id),
          slots.dim,
        )}`
      );
    }
    return `${pathOf(state)} = ${vectorOf(
      rowNumbers(scene, 'weight', (c) => c.v === id),
      slots.dim,
    )}`;
  }

  // What stays the same while the token, the mode and the shape do: the counts, the names.
  function describe() {
    const { result, step } = state;
    const { ids, vocab, dim } = result;
    const n = ids.length;
    const id = ids[step];
    const path = pathOf(state);
    const key = [mode, n, vocab, dim, step, path].join('|');
    if (key === described) return;
    described = key;
    const token = `token ${count(step + 1)} of ${count(n)}`;
    writeAttribute(frame, 'aria-label', `Picture: ${MODE[mode].name}`);
    writeAttribute(frame, 'aria-valuemax', n);
    writeAttribute(frame, 'aria-valuenow', step + 1);
    writeAttribute(frame, 'aria-valuetext', `${token}: ${path}`);
    const sentence = {
      product:
        `one_hot(idx), ${n} × ${vocab}, times W, ${vocab} × ${dim}, equals out, ${n} × ${dim}. ` +
        `Token ${step + 1} has id ${id}: the 1 in column ${id} of its one-hot row picks row ${id} of W, ` +
        `which becomes row ${step} of out; the other ${count(vocab - 1)} rows of W are multiplied by 0.`,
      lookup:
        `idx, ${n} ids, names rows of W, ${vocab} × ${dim}, copied into out, ${n} × ${dim}. ` +
        `Token ${step + 1} has id ${id}: row ${id} of W is copied into row ${step} of out.`,
      backward:
        `G = dL/dout, ${n} × ${dim}, drawn with seed ${state.grads?.seed}, flows back: each row k of G ` +
        `is added into row idx[k] of dW, ${vocab} × ${dim}. Token ${step + 1} adds G[${step}] into dW[${id}].`,
    }[mode];
    writeProperty(description, 'textContent', sentence);
    const stat = ([className, [term, more], formula, amount]) => {
      const span = element('span', `equation-stat ${className}`);
      const strong = element('strong', '', term);
      if (more) strong.append(element('span', 'long-term', more));
      span.append(strong, ' ', element('span', 'nowrap', `${formula} = ${amount}`));
      return span;
    };
    counts.replaceChildren(...MODE[mode].counts(result).map(stat));
  }

  // The picture's geometry and scene for the state, then the selected token's marks.
  function draw() {
    const { result, step, texts } = state;
    if (mode === 'backward' && !state.grads) {
      state.grads = backwardGrads(lab, result);
      if (!state.grads) {
        mode = 'product';
        radios[MODES.indexOf('product')].checked = true;
      }
    }
    const slots = slotsFor(result, step);
    // Read once, then kept by the ResizeObserver below: reading it here would force a layout in
    // the middle of every keystroke's redraw.
    if (!width) width = figure.clientWidth;
    // While the same shape is typed (width, n, V, d), the cells only shrink and the frame
    // only grows: an id typed or deleted changes which columns and rows show, and the picture
    // would otherwise swell and shrink, its numbers come and go, the centred frame slide
    // sideways and the page below it move (and every keystroke lay the whole page out again).
    const shape = [width, result.ids.length, result.vocab, result.dim].join();
    const same = shape === kept.shape;
    const rowLabels = {};
    for (const k of slots.tokens) if (k !== null) rowLabels[k] = rowLabel(k, result.ids, texts);
    const room = { width, height: width < 600 ? 190 : 300 };
    let at = layout(room.width, room.height, slots, rowLabels, same ? kept.cell : LARGEST_CELL);
    // The frame keeps the room of the most rows this shape can draw, so that an id typed, which
    // may add a row of W, moves nothing below.
    const tallest = frameHeight(at, result.ids.length, result.vocab, room.height);
    const grown = (side, size) => (same ? Math.max(kept[side], size) : size);
    kept = {
      shape,
      cell: at.cell,
      width: grown('width', at.width),
      height: grown('height', tallest),
    };
    // In a frame kept wider than it, the picture stands in the middle, as it does in the figure.
    if (kept.width > at.width) {
      at = layout(
        room.width,
        room.height,
        slots,
        rowLabels,
        at.cell,
        Math.floor((kept.width - at.width) / 2),
      );
    }
    // The canvas covers the room the picture may take (more only where its cells at their
    // smallest need it), whatever the shape, and only grows while the width stays: each new
    // size costs Chromium new buffers, a few milliseconds each over the next frames, so typing
    // that changes the shape must not resize it. The frame shows the picture's part of it.
    const fresh = sizedFor !== `${width}@${devicePixelRatio}`;
    sizedFor = `${width}@${devicePixelRatio}`;
    if (fresh) ratio = devicePixelRatio || 1;
    for (const side of ['width', 'height']) {
      const pixels = Math.round(Math.max(room[side], at[side]) * ratio);
      if (fresh || canvas[side] < pixels) {
        canvas[side] = pixels;
        canvas.style[side] = `${pixels / ratio}px`;
      }
    }
    writeStyle(frame, 'width', `${kept.width}px`);
    writeStyle(frame, 'height', `${kept.height}px`);
    writeStyle(picture, 'height', `${kept.height}px`);
    // Cells at their smallest can still be too wide for a phone: then the picture is shrunk.
    writeStyle(frame, 'zoom', kept.width > width ? String(width / kept.width) : '');
    writeAttribute(picture, 'viewBox', `0 0 ${kept.width} ${kept.height}`);
    const scene = sceneOf(result, slots, at, {
      mode,
      step,
      formatElements: lab.formatElements,
      texts,
      grads: state.grads,
    });
    drawn = { scene, slots, at, labels: overlay.drawRows(scene, at) };
    select();
  }

  // The canvas at rest is painted once the redraw's other writes are done (in a microtask, at
  // the end of the store's update): the first font set on a canvas in the document styles the
  // page, which, before the last write of the frame, would leave the frame's style to be worked
  // out twice.
  let paintDue = false;
  function paintSoon() {
    if (paintDue) return;
    paintDue = true;
    queueMicrotask(() => {
      paintDue = false;
      if (!play) paint(canvas, drawn.scene, ratio);
    });
  }

  // Paints the scene for the selected token at rest: dimming, marks, glow, flows, detail.
  function select() {
    const { result, step } = state;
    const { scene, at, labels } = drawn;
    const id = result.ids[step];
    if (!colors) {
      if (!fonts) onThemeChange(figure, repaint); // the first paint: the figure is in place
      colors = readPalette(figure);
      const style = getComputedStyle(figure);
      fonts = {
        mono: style.getPropertyValue('--mono').trim() || 'monospace',
        sans: 'system-ui, sans-serif',
      };
    }
    shade(scene, step, id, colors, fonts);
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
    const text = restingDetail();
    writeProperty(detail, 'textContent', text);
    describe();
  }

  // Play: the mode's frames, one per animation frame, from the ms since Play was pressed.
  function showFrame(now) {
    play.start ??= now - play.elapsed;
    const at = playAt(play.player.steps, play.stepMs, now - play.start);
    if (at.finished) {
      stopPlay();
      figure.dataset.play = 'ended';
      return;
    }
    const { result, step } = state;
    const { scene } = drawn;
    shade(scene, step, result.ids[step], colors, fonts);
    const shown = play.player.apply(at);
    paint(canvas, scene, ratio);
    overlay.frame(shown);
    detail.textContent = shown.detail;
    play.frame = requestAnimationFrame(showFrame);
  }

  function startPlay() {
    if (!state) return;
    if (play?.paused) {
      play.paused = false;
      play.start = null;
    } else {
      // Reduced motion: the end state, which the picture shows at rest.
      if (matchMedia('(prefers-reduced-motion: reduce)').matches) {
        figure.dataset.play = 'ended';
        return;
      }
      const player = MODE[mode].player({
        lab,
        ...state,
        scene: drawn.scene,
        at: drawn.at,
        slots: drawn.slots,
        colors,
      });
      play = {
        player,
        stepMs: playTiming(player.steps).stepMs,
        start: null,
        elapsed: 0,
        paused: false,
      };
    }
    figure.dataset.play = 'playing';
    labelPlay(true);
    play.frame = requestAnimationFrame(showFrame);
  }

  function pausePlay() {
    cancelAnimationFrame(play.frame);
    play.elapsed = performance.now() - play.start;
    play.paused = true;
    figure.dataset.play = 'paused';
    labelPlay(false);
  }

  // Back to rest, redrawn unless a redraw follows anyway. At rest already (every keystroke
  // passes here), it writes nothing.
  function stopPlay(redraw = true) {
    if (!play) return;
    cancelAnimationFrame(play.frame);
    play = null;
    figure.dataset.play = '';
    labelPlay(false);
    if (redraw) select();
  }

  function labelPlay(playing) {
    const icon = element('span', 'play-icon', playing ? '❚❚' : '▶');
    icon.setAttribute('aria-hidden', 'true');
    playButton.replaceChildren(icon, element('span', 'play-text', playing ? 'Pause' : 'Play'));
    // A name of its own: the Train view has a Play too.
    playButton.setAttribute('aria-label', playing ? 'Pause the picture' : 'Play the picture');
  }
  labelPlay(false);

  // Redrawn at a new width: the cell size, and whether numbers fit, depend on it.
  new ResizeObserver(() => {
    const now = figure.clientWidth;
    if (!state || now === width) return;
    width = now;
    figure.classList.remove('moving');
    stopPlay(false);
    draw();
  }).observe(figure);
  // The canvas does not follow the page's colours by itself.
  function repaint() {
    colors = null;
    stopPlay(false);
    if (state) select();
  }

  return {
    render({ result, step: picked, tokens }) {
      // A token picked in a newer text than the result shown (its chips come first) waits.
      const step = Math.min(picked, result.ids.length - 1);
      const moved = state !== null && step !== state.step;
      const texts = tokenTexts(tokens, result.ids);
      const grads = state?.result === result ? state.grads : null;
      stopPlay(false);
      state = { result, step, texts, grads };
      // G too big to draw here: the Backward view computes it in the compute worker.
      const backward = radios[MODES.indexOf('backward')];
      const tooBig = result.ids.length * result.dim > GRAD_BUDGET;
      if (backward.disabled !== tooBig) {
        backward.disabled = tooBig;
        backward.parentElement.title = tooBig
          ? `G would hold n·d = ${count(result.ids.length * result.dim)} values: see the Backward view`
          : '';
      }
      // Transitions run from the places before this style change, when the new style has them.
      figure.classList.toggle('moving', moved);
      figure.classList.toggle('drawn', true); // add() rewrites the class even when it is there
      draw();
      if (moved) overlay.replay();
    },
  };
}

export const pictureView = {
  title: 'one_hot(idx) × W = out',
  build(container, { store, lab }) {
    const picture = createEquationView(container, { lab, onStep: (k) => store.set({ step: k }) });
    return {
      update(state, changed) {
        if (state.result && ['result', 'step', 'tokens'].some((key) => changed.has(key)))
          picture.render(state);
      },
    };
  },
};
