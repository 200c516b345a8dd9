// Train: nn.Embedding and nn.Linear(V, d, bias=False) on one-hot rows, trained side by side by
// one torch.optim optimizer each, in the WebAssembly module (lab.seededTraining), bit for bit as
// PyTorch trains them (drawing.mjs shows what).
//
// The store is the source of truth (model/train-inputs.mjs): the view's inputs (form.mjs) and
// the steps taken live in store.train, and the view makes its training (run.mjs) follow them, so
// a link replays the same steps. V, d and the seed are the page's, except for batches typed as
// text (text-batches.mjs): V is then the tokenizer's vocabulary and d no more than TRAIN_BUDGET
// allows. Nothing trains until Step or Play (or a link's steps); typing only checks
// (plan.mjs), which costs no more than parsing (and tokenizing).
import trainCss from '../../styles/train.css';
import { FieldError } from '../../compute/plan.mjs';
import { element } from '../../draw/dom.mjs';
import { adoptStyleSheet } from '../../draw/style-sheets.mjs';
import { EmbedlabError } from '../../embedlab/embedlab.mjs';
import { createTrainDrawing } from './drawing.mjs';
import { createTrainForm, optimizerInfo } from './form.mjs';
import { planTraining } from './plan.mjs';
import { createPlayer, createRun } from './run.mjs';
import { createTextBatches } from './text-batches.mjs';

// While the view's fields are typed in, a new training (a new W drawn) waits for this pause:
// the checks run on every keystroke, the drawing once.
const TYPING_PAUSE_MS = 200;
// Training (even drawing W for step 0) waits until the view is this near the screen: the page's
// sections catch up when typing pauses, and a table of V·d = TRAIN_BUDGET takes a long task to
// draw.
const NEAR_PX = 200;

let views = 0; // ids unique in the page or shadow root

function createTrainView(container, { store, lab, embedded, tokenizers }) {
  adoptStyleSheet(container.getRootNode(), trainCss);
  const root = element('div', 'train-view');
  container.append(root);
  let typed = false; // the store's train comes from a keystroke in the view's fields
  const form = createTrainForm(root, {
    lab,
    tokenizers,
    id: `train-${++views}`,
    onInput(train) {
      player.stop();
      typed = true;
      store.set({ train });
      typed = false;
    },
  });
  const drawing = createTrainDrawing(root, { lab, embedded });
  const { buttons } = drawing;
  const run = createRun(lab, (error) => error instanceof EmbedlabError);
  const textBatches = createTextBatches({
    lab,
    tokenizers,
    form,
    ready: () => update(store.get()),
  });

  let picked = null; // the row whose optimizer state is shown
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
  const player = createPlayer({
    advance() {
      const { steps } = store.get().train;
      if (!run.canStep(lastPlan, steps)) return false;
      setSteps(steps + 1);
      return true;
    },
    onChange: drawing.setPlaying,
  });

  buttons.step.addEventListener('click', () => {
    player.stop();
    setSteps(store.get().train.steps + 1);
  });
  buttons.reset.addEventListener('click', () => {
    player.stop();
    setSteps(0);
  });
  buttons.play.addEventListener('click', () => {
    if (player.playing) {
      player.stop();
      return;
    }
    if (lastPlan && store.get().train.steps >= lastPlan.batches.length) setSteps(0);
    player.start();
  });

  // A row picked in the picture: its state is shown, and where a token has its id, that token
  // becomes the page's step (the page's linking, as a click on any row of W).
  root.addEventListener('click', (event) => {
    const button = event.target.closest?.('.row-pick');
    if (!button) return;
    picked = Number(button.dataset.row);
    const k = store.get().result?.ids.indexOf(picked) ?? -1;
    if (k >= 0 && k !== store.get().step) store.set({ step: k });
    else draw(false);
  });
  drawing.printout.addEventListener('toggle', () => draw(false));

  function showError(error) {
    form.showError(error);
    root.classList.toggle('stale', error !== null);
  }

  function update(state) {
    if (!state.result) return;
    clearTimeout(pending);
    pending = 0;
    form.show(state.train);
    let p;
    try {
      const text = textBatches(state);
      if (text === undefined) {
        // the view updates again once the lines are tokenized
        player.stop();
        lastPlan = null;
        showError(null);
        root.classList.add('stale');
        drawing.drawButtons(null, run.current, state.train);
        return;
      }
      if (text) form.showLines(text.lines);
      p = planTraining(lab, state, optimizerInfo(lab, state.train), text);
    } catch (error) {
      if (!(error instanceof FieldError || error instanceof EmbedlabError)) throw error;
      player.stop();
      run.discard();
      lastPlan = null;
      if (error.field === 'lines' || error.field === 'tokenizer') {
        form.showShape('');
        form.showLines([]);
      }
      showError(error);
      drawing.drawButtons(null, run.current, state.train);
      return;
    }
    lastPlan = p;
    if (!near()) {
      showError(null);
      waiting = true;
      return;
    }
    if (typed) {
      showError(null);
      root.classList.add('stale');
      pending = setTimeout(() => update(store.get()), TYPING_PAUSE_MS);
      return;
    }
    const stepped = run.follow(p, state.train.steps);
    showError(run.current.failed);
    if (run.current.failed) player.stop();
    if (picked === null || picked >= p.vocab)
      picked =
        state.result.ids[state.step] < p.vocab ? state.result.ids[state.step] : p.batches[0][0];
    draw(stepped);
  }

  // Redraws from the training as it stands; lit: a step was just taken, so its rows light up.
  function draw(lit) {
    const p = lastPlan;
    drawing.drawButtons(p, run.current, store.get().train);
    if (!p || run.current?.key !== p.key || pending) return;
    drawing.draw({
      p,
      run: run.current,
      picked,
      lit,
      info: optimizerInfo(lab, store.get().train),
      focused: container.getRootNode().activeElement?.closest?.('.row-pick')?.dataset.row,
    });
  }

  return {
    update(state, changed) {
      if (changed.has('step') && state.result && state.step < state.result.ids.length) {
        picked = state.result.ids[state.step];
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
  title: 'Training: which rows an optimizer step changes',
  build: (container, context) => createTrainView(container, context),
};
