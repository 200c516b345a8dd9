// Train: next-token training as the chapter runs it (a tied or untied head, one sequence cut into
// windows by DataLoader, epoch after epoch: window-run.mjs, in the page's compute worker), or,
// with no head, nn.Embedding and nn.Linear(V, d, bias=False) on one-hot rows trained side by side
// by one torch.optim optimizer each on random upstream gradients (run.mjs, on the page), bit for
// bit as PyTorch trains them (drawing.mjs and window-drawing.mjs show what).
//
// The store is the source of truth (model/train-inputs.mjs): the view's inputs (form.mjs) and
// the steps taken live in store.train, and the view makes its training follow them, so a link
// replays the same steps. V, d and the seed are the page's, except for a text (text-batches.mjs):
// V is then the tokenizer's vocabulary and d no more than TRAIN_BUDGET allows. Nothing trains
// until Step or Play (or a link's steps); typing only checks (plan.mjs), which costs no more than
// parsing (and tokenizing). With a head, the trained tables go to the store (state.trained) once
// training stops, for the head view.
import trainCss from '../../styles/train.css';
import { FieldError } from '../../compute/plan.mjs';
import { element } from '../../draw/dom.mjs';
import { adoptStyleSheet } from '../../draw/style-sheets.mjs';
import { EmbedlabError } from '../../embedlab/embedlab.mjs';
import { createTrainDrawing } from './drawing.mjs';
import { createTrainForm, optimizerInfo } from './form.mjs';
import { planTraining, planWindows } from './plan.mjs';
import { createPlayer, createRun } from './run.mjs';
import { createTextBatches } from './text-batches.mjs';
import { PLAYING_PARTS } from './window-drawing.mjs';
import { createWindowRun } from './window-run.mjs';

// While the view's fields are typed in, a new training (a new W drawn) waits for this pause:
// the checks run on every keystroke, the drawing once.
const TYPING_PAUSE_MS = 200;
// Training (even drawing W for step 0) waits until the view is this near the screen: the page's
// sections catch up when typing pauses, and a table of V·d = TRAIN_BUDGET takes a long task to
// draw.
const NEAR_PX = 200;

// While Play plays, a part of the view is drawn at most this often (window-drawing.mjs).
const PLAY_DRAW_MS = 100;

let views = 0; // ids unique in the page or shadow root

// The words of the tokens the predictions show: the text's own, then any other id's as the
// tokenizer spells it, asked for in the tokenizer worker once it is seen. redraw(): called when
// new words came.
function createTokenWords({ lab, tokenizers, redraw }) {
  const channel = tokenizers.openChannel();
  let words = new Map(); // id -> words
  let name = null; // the tokenizer that spells them
  let asking = false;
  return {
    // For plan p: its text's tokens, and the tokenizer whose vocabulary is p's V.
    reset(p) {
      const fit = p.text
        ? Object.entries(tokenizers.catalog).find(([, s]) => s.label === p.text.label)
        : Object.entries(tokenizers.catalog).find(([, s]) => s.vocabSize === p.vocab);
      const next = fit?.[0] ?? null;
      if (next !== name) words = new Map();
      name = next;
      if (p.text) p.ids.forEach((id, i) => words.set(id, p.text.labels[i]));
    },
    label: (id) => words.get(id) ?? String(id),
    // Asks for the words of the ids not spelled yet.
    async want(ids) {
      if (!name || asking) return;
      const missing = [...new Set(ids)].filter((id) => !words.has(id));
      if (missing.length === 0) return;
      asking = true;
      const from = name;
      try {
        const answer = await channel.label(from, missing, lab, () => {});
        if (!answer || answer.error || from !== name) return;
        missing.forEach((id, i) => words.set(id, answer.labels[i]));
      } finally {
        asking = false;
      }
      redraw();
    },
  };
}

function createTrainView(container, { store, lab, embedded, tokenizers, computeTraining }) {
  adoptStyleSheet(container.getRootNode(), trainCss);
  const root = element('div', 'train-view');
  container.append(root);
  let typed = false; // the store's train comes from a keystroke in the view's fields
  let following = false; // the store's steps come from the training itself
  const form = createTrainForm(root, {
    lab,
    tokenizers,
    id: `train-${++views}`,
    onInput(train) {
      stopPlaying();
      typed = true;
      store.set({ train });
      typed = false;
    },
    textIds: () => texts.textIds(),
  });
  const drawing = createTrainDrawing(root, {
    lab,
    embedded,
    // A part that comes near the screen is drawn then (while it plays, at its turn).
    onSeen: (part) => {
      if (!windowRun.playing) draw(null, [part]);
    },
  });
  const { buttons } = drawing;
  const run = createRun(lab, (error) => error instanceof EmbedlabError);
  const texts = createTextBatches({
    lab,
    tokenizers,
    form,
    ready: () => update(store.get()),
  });
  const words = createTokenWords({ lab, tokenizers, redraw: () => draw(false) });

  let picked = null; // the row whose optimizer state or update is shown
  let shownLines = null; // the tokenized text whose tokens the form shows
  let drawnAt = 0; // when a part of the training was last drawn, while it plays
  let playingPart = 0; // the part drawn next while it plays
  let lastPlan = null;
  let pending = 0; // the timer of the training that waits for typing to pause
  // Whether the view is near the screen is measured when it updates; coming near, it updates.
  const near = () => {
    const box = container.getBoundingClientRect();
    return box.bottom >= -NEAR_PX && box.top <= innerHeight + NEAR_PX;
  };
  let waiting = false;
  new IntersectionObserver(
    (entries) => {
      if (entries[entries.length - 1].isIntersecting && waiting) {
        waiting = false;
        update(store.get());
      }
    },
    { rootMargin: `${NEAR_PX}px` },
  ).observe(container);

  const setSteps = (steps) => store.set({ train: { ...store.get().train, steps } });
  const headed = () => lastPlan !== null && lastPlan.head !== 'none';
  const player = createPlayer({
    advance() {
      const { steps } = store.get().train;
      if (!run.canStep(lastPlan, steps)) return false;
      setSteps(steps + 1);
      return true;
    },
    onChange: drawing.setPlaying,
  });

  // With a head: the training's reply, drawn; the store's steps follow it.
  const windowRun = createWindowRun({
    computeTraining,
    nextFrame: () => new Promise((resolve) => requestAnimationFrame(resolve)),
    onUpdate(current) {
      if (lastPlan?.key !== current.key) return;
      // While it plays, the store (and so the address, and every section that listens) hears
      // of the steps once it pauses.
      if (!windowRun.playing) syncSteps(current);
      publish(current);
      showError(null);
      // While it plays, the view draws a part at a time, a few times a second, its rows not
      // flashed: the page stays free for what the learner does meanwhile.
      if (!windowRun.playing) {
        draw(current.log.length > 0 ? current.log.length : null);
      } else {
        const now = performance.now();
        if (now - drawnAt < PLAY_DRAW_MS) return;
        drawnAt = now;
        draw(null, [PLAYING_PARTS[playingPart++ % PLAYING_PARTS.length]]);
      }
      words.want(Array.from(current.last.predictions.ids));
    },
    onError(error) {
      drawing.setPlaying(false);
      if (!(error instanceof EmbedlabError)) throw error;
      showError(error);
      draw(false);
    },
  });

  // The store's steps are the training's.
  function syncSteps(current) {
    const { train } = store.get();
    if (train.steps === current.log.length) return;
    following = true;
    store.set({ train: { ...train, steps: current.log.length } });
    following = false;
  }

  // The trained tables, once training stands still, for the head view (state.trained): the
  // training's plan and its steps decide them, and name them (their key).
  function publish(current) {
    const steps = current.log.length;
    if (windowRun.playing) return;
    const { trained } = store.get();
    if (steps === 0) {
      if (trained) store.set({ trained: null });
      return;
    }
    const key = `${current.key}:${steps}`;
    if (trained?.key === key) return;
    const whole = current.last?.whole;
    if (!whole) {
      windowRun.askWhole();
      return;
    }
    const p = lastPlan;
    store.set({
      trained: {
        key,
        seed: p.seed,
        vocab: p.vocab,
        dim: p.dim,
        head: p.head,
        contextLength: p.positions ? p.loader.maxLength : 0,
        steps,
        epochs: current.log.at(-1).epoch,
        token: whole.token,
        position: whole.position,
      },
    });
  }

  function stopPlaying() {
    player.stop();
    if (windowRun.playing) {
      windowRun.pause();
      drawing.setPlaying(false);
      syncSteps(windowRun.current);
      publish(windowRun.current);
      draw(false);
    }
  }

  buttons.step.addEventListener('click', () => {
    stopPlaying();
    setSteps(store.get().train.steps + 1);
  });
  buttons.reset.addEventListener('click', () => {
    stopPlaying();
    setSteps(0);
  });
  buttons.play.addEventListener('click', () => {
    if (headed()) {
      if (windowRun.playing) {
        stopPlaying();
        return;
      }
      windowRun.play();
      drawing.setPlaying(true);
      return;
    }
    if (player.playing) {
      player.stop();
      return;
    }
    if (lastPlan && store.get().train.steps >= lastPlan.batches.length) setSteps(0);
    player.start();
  });

  // A row picked in the picture: its state (or update) is shown, and where a token has its id,
  // that token becomes the page's step (the page's linking, as a click on any row of W).
  root.addEventListener('click', (event) => {
    const button = event.target.closest?.('.row-pick');
    if (!button) return;
    picked = Number(button.dataset.row);
    if (headed()) windowRun.pick(picked);
    const k = store.get().result?.ids.indexOf(picked) ?? -1;
    if (k >= 0 && k !== store.get().step) store.set({ step: k });
    else draw(false);
  });
  drawing.printout.addEventListener('toggle', () => draw(false));

  function showError(error) {
    form.showError(error);
    root.classList.toggle('stale', error !== null);
  }

  // The plan of the store's inputs, or a thrown FieldError / EmbedlabError; undefined while the
  // text is being tokenized.
  function planOf(state) {
    const text = texts.textBatches(state);
    if (text === undefined) return undefined;
    if (text && text.lines !== shownLines) {
      shownLines = text.lines;
      form.showLines(text.lines, state.train.head !== 'none');
    }
    const plan = state.train.head === 'none' ? planTraining : planWindows;
    return plan(lab, state, optimizerInfo(lab, state.train), text);
  }

  function update(state) {
    // The steps the training itself took: drawn where it replied (onUpdate).
    if (!state.result || following) return;
    clearTimeout(pending);
    pending = 0;
    form.show(state.train);
    // Nothing is checked, tokenized or trained until the view comes near: the page's first load
    // fetches no tokenizer for it, and starts no worker.
    if (!near()) {
      waiting = true;
      return;
    }
    let p;
    try {
      p = planOf(state);
      if (p === undefined) {
        // the view updates again once the text is tokenized
        stopPlaying();
        lastPlan = null;
        showError(null);
        root.classList.add('stale');
        drawing.drawButtons(null, run.current, state.train);
        return;
      }
    } catch (error) {
      if (!(error instanceof FieldError || error instanceof EmbedlabError)) throw error;
      stopPlaying();
      run.discard();
      windowRun.discard();
      lastPlan = null;
      if (error.field === 'lines' || error.field === 'tokenizer') {
        form.showShape('');
        form.showLines([]);
        shownLines = null;
      }
      showError(error);
      drawing.drawButtons(null, run.current, state.train);
      return;
    }
    lastPlan = p;
    if (typed) {
      showError(null);
      root.classList.add('stale');
      pending = setTimeout(() => update(store.get()), TYPING_PAUSE_MS);
      return;
    }
    if (p.head !== 'none') {
      run.discard();
      if (picked === null || !p.ids.includes(picked)) picked = p.ids[0];
      words.reset(p);
      windowRun.pick(picked);
      windowRun.follow(p, state.train.steps);
      // A training that has started draws now (while it plays, at its next reply); a new one
      // stays stale until its first reply.
      if (windowRun.current?.info && !windowRun.playing) {
        showError(windowRun.current.failed);
        draw(false);
      }
      return;
    }
    windowRun.discard();
    const stepped = run.follow(p, state.train.steps);
    showError(run.current.failed);
    if (run.current.failed) player.stop();
    if (picked === null || picked >= p.vocab)
      picked =
        state.result.ids[state.step] < p.vocab ? state.result.ids[state.step] : p.batches[0][0];
    draw(stepped ? run.current.history.length : null);
  }

  // Redraws from the training as it stands; lit: the step just taken, whose rows light up, or
  // a falsy value.
  // only: the parts to draw (window-drawing.mjs's PLAYING_PARTS), or all of them.
  function draw(lit, only = null) {
    const p = lastPlan;
    const windows = p && p.head !== 'none';
    const current = windows ? windowRun.current : run.current;
    drawing.drawButtons(p, current, store.get().train);
    if (!p || current?.key !== p.key || pending) return;
    const spec = {
      p,
      run: current,
      picked,
      lit,
      info: optimizerInfo(lab, store.get().train),
      focused: container.getRootNode().activeElement?.closest?.('.row-pick')?.dataset.row,
    };
    if (windows) {
      if (current.info) drawing.drawWindows({ ...spec, label: words.label, only });
    } else {
      drawing.draw(spec);
    }
  }

  return {
    update(state, changed) {
      if (changed.has('step') && state.result && state.step < state.result.ids.length) {
        const id = state.result.ids[state.step];
        if (!headed() || lastPlan.ids.includes(id)) picked = id;
        if (headed()) windowRun.pick(picked);
      }
      if (changed.has('result') || changed.has('train')) {
        update(state);
      } else if (changed.has('step') && lastPlan) {
        draw(false);
      }
    },
  };
}

export const trainView = {
  title: 'Training: what a step does to the rows of W',
  build: (container, context) => createTrainView(container, context),
};
