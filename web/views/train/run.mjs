// The Train view's training without a head (both routes on random upstream gradients) as it
// follows the store (store.train.steps), and Play's timer. Pure: no DOM; the WebAssembly module
// is handed in (lab), and the timers (setTimeout's pair), so that Node runs both with stand-ins
// (tests/web/train.test.mjs). With a head, window-run.mjs trains.

// Between two steps of Play: long enough to read which rows lit up.
export const PLAY_INTERVAL_MS = 900;

// The training of a plan (plan.mjs), stepped as far as the store asks. isInputError(error): the
// core's refusal of a batch (an EmbedlabError), which ends the training there; anything else is
// a bug and is thrown on.
export function createRun(lab, isInputError) {
  let run = null; // { key, training, history: steps taken, failed: the error that ended it }

  function discard() {
    run?.training.delete();
    run = null;
  }

  return {
    get current() {
      return run;
    },
    discard,
    // Whether Step (or Play) has a batch left to take at `steps` steps.
    canStep: (p, steps) => p !== null && steps < p.batches.length && !run?.failed,
    // A new training for new inputs, then the steps asked for (from the start again when fewer
    // than taken). Returns whether a step was taken.
    follow(p, steps) {
      const sameBatches = run?.history.every((s, k) => String(s.batch) === String(p.batches[k]));
      if (run?.key !== p.key || steps < run.history.length || !sameBatches) {
        discard();
        run = {
          key: p.key,
          training: lab.seededTraining(p.seed, p.vocab, p.dim, p.options),
          history: [],
          failed: null,
        };
      }
      const wanted = Math.min(steps, p.batches.length);
      let stepped = false;
      while (!run.failed && run.history.length < wanted) {
        try {
          const batch = p.batches[run.history.length];
          const s = run.training.step(batch);
          s.batch ??= batch;
          s.torchEqual = Boolean(s.verdict?.torchEqual);
          run.history.push(s);
          stepped = true;
        } catch (error) {
          if (!isInputError(error)) throw error;
          run.failed = error;
        }
      }
      return stepped;
    },
  };
}

// Play: advance() takes one step and says whether it could (false ends Play); onChange(playing)
// hears each start and stop. The first step comes at once, each next one an interval later; a
// stop() during advance() (the step failed) ends Play too.
export function createPlayer({
  advance,
  onChange,
  timers = globalThis,
  interval = PLAY_INTERVAL_MS,
}) {
  let timer = 0;

  function stop() {
    if (!timer) return;
    timers.clearTimeout(timer);
    timer = 0;
    onChange(false);
  }

  function tick() {
    if (!advance()) {
      stop();
      return;
    }
    if (timer) timer = timers.setTimeout(tick, interval);
  }

  return {
    get playing() {
      return timer !== 0;
    },
    stop,
    start() {
      if (timer) return;
      timer = timers.setTimeout(tick, 0);
      onChange(true);
    },
  };
}
