// The one program behind the page and every <embedding-demo>: it turns a store's inputs
// (model/state.mjs) into a result. plan() checks them (cheap); both routes then run on the main
// thread when they fit a frame, else in the compute worker, which reads a file's table where it
// lies: the lookup's rows come at once, then the one-hot product streams the table while the
// status says how far it has come, and the page stays responsive. At most once a frame; the
// newest input wins; stop() ends a product that takes too long, keeping the lookup's rows.
import { bytesText, count } from '../model/format-number.mjs';
import { FieldError, plan, PRODUCT_BUDGET, productWork, resultOf, run } from './plan.mjs';
import { createPositionsKeeper } from './positions-tables.mjs';
import { createTableKeeper } from './table-keeper.mjs';
import { createTrainSession } from './train-session.mjs';
import { viewResult, viewWork } from './view-compute.mjs';
import { createWorkerRunner } from './worker-client.mjs';

// A new seeded W on the main thread stays under a few milliseconds up to this many floats (about
// 2.6·10^7 a second in headless Chromium); PRODUCT_BUDGET (plan.mjs) bounds the product.
// n = 64, V = 4096, d = 64 stays on the main thread.
const TABLE_BUDGET = 1 << 18;

const WHERE = 'in a background thread: the page stays usable';

// A slice of training on the main thread, where no worker runs: a step or two, then the page.
const MAIN_THREAD_SLICE_MS = 20;

// What the status says while the product streams W.
function progressSentence({ bytesRead, bytes, multiplyAdds, totalMultiplyAdds }) {
  return (
    `Streaming W through the one-hot product: ${bytesText(bytesRead, bytes)} read, ` +
    `${count(multiplyAdds)} of ${count(totalMultiplyAdds)} multiply-adds, ${WHERE}.`
  );
}

// What plan() takes for a state: the typed ids, or in Text mode its tokens' ids (and which
// tokenizer gave them), once they are the tokens of the text shown; null while a text waits for
// its tokens.
function planInput({ inputs, text, tokens }) {
  if (!text) return inputs;
  if (tokens?.text !== text.text || tokens?.tokenizer !== text.tokenizer) return null;
  return {
    ...inputs,
    ids: Float64Array.from(tokens.ids),
    tokenizer: { label: tokens.tokenizerLabel, vocabSize: tokens.vocabSize },
  };
}

// What a result is computed from: the parts of the state that plan() reads.
const sameSource = (a, b) => a.inputs === b.inputs && a.text === b.text && a.tokens === b.tokens;

// store: a createStore() of model/state.mjs; quiet(error): whether a FieldError waits before it
// is shown (the page's ids while they are being typed): the status then says 'typing' and the
// last verdict stays; typing(): whether the learner is in the middle of typing, when a result
// is one of a part of what is typed (the ids "2, 3, 15" on the way to "2, 3, 150"). An error
// shown brings back the last result computed while not typing, or at a pause (paused()): the
// last valid input, not a part of the one that went wrong.
// Returns { refresh(), paused(), stop(), computeView(kind, result, args), computePositions(kind,
// spec, args), computeTraining(request), settled() }: a way to recompute now; the pause in
// typing; a way to stop the product streaming; the backward and bag views' computations
// (view-compute.mjs) on a result's table; the positions and head views' (positions-tables.mjs);
// the Train view's training (train-session.mjs), in the worker where there is one; and a promise
// that resolves once the store's present inputs have their result (or its lookup's rows, when
// stopped) or their error.
export function createSession(lab, store, { quiet = () => false, typing = () => false } = {}) {
  const keeper = createTableKeeper(lab);
  const runner = createWorkerRunner(lab, keeper);
  let positionsHere = null; // a positions-tables.mjs keeper, where no worker runs
  let frame = 0;
  let done = null; // the state the last finished update computed from
  let kept = null; // the last result computed while not typing, or at a pause
  let waiting = []; // settled()'s resolvers
  let trainingHere = null; // the Train view's session on this thread, where no worker runs

  // An update ended (a result, an error, or a text still waiting for its tokens) for `from`.
  function finished(from) {
    done = from;
    if (!sameSource(from, store.get())) return;
    for (const resolve of waiting) resolve();
    waiting = [];
  }

  function failed(error, from) {
    if (!(error instanceof FieldError)) throw error;
    if (quiet(error)) {
      store.set({ status: { state: 'typing' } });
    } else {
      const { result, step } = store.get();
      const back = kept && result !== kept ? kept : null;
      store.set({
        status: { state: 'failed', field: error.field, message: error.message },
        ...(back ? { result: back, step: Math.min(step, back.ids.length - 1) } : {}),
      });
    }
    finished(from);
  }

  function show(result, from, status = { state: 'ready' }) {
    const { step } = store.get();
    store.set({ result, step: Math.min(step, result.ids.length - 1), status });
    if (!typing()) kept = result;
    finished(from);
  }

  async function inWorker(p, from) {
    // stoppable: the product streams W, and stop() keeps the lookup's rows already shown.
    const computing = (sentence, stoppable = false) => ({
      state: 'computing',
      sentence,
      stoppable,
    });
    store.set({
      status: computing(
        `Opening W (${count(p.vocab)} × ${count(p.dim)}) for n·V·d = ` +
          `${count(productWork(p))} multiply-adds, ${WHERE}.`,
      ),
    });
    let answer;
    try {
      answer = await runner.run(p, {
        onFirst: (first) =>
          store.set({
            result: resultOf(p, first),
            status: computing(
              `The lookup's rows are read; the one-hot product streams W, ${WHERE}.`,
              true,
            ),
          }),
        onProgress: (progress) =>
          store.set({ status: computing(progressSentence(progress), true) }),
      });
    } catch (error) {
      failed(error, from);
      return;
    }
    if (!answer) return;
    if (answer.result) show(answer.result, from);
    else if (answer.last) show(resultOf(p, answer.first, answer.last), from);
    else
      show(resultOf(p, answer.first), from, {
        state: 'stopped',
        sentence:
          `Stopped after ` +
          `${bytesText(answer.stopped.bytesRead, answer.stopped.bytes)} of W: the one-hot product needs ` +
          'every row, so there is nothing to compare yet. Change an input to start again.',
      });
  }

  function update() {
    frame = 0;
    runner.cancel();
    const from = store.get();
    const input = planInput(from);
    if (!input) {
      finished(from);
      return;
    }
    let p;
    try {
      p = plan(lab, input);
    } catch (error) {
      failed(error, from);
      return;
    }
    // A file's table is read in the worker, unless its bytes are in memory or both routes are
    // given; a table the worker holds stays there.
    const here =
      keeper.held(p.tableKey) !== null ||
      Boolean(p.table.routes) ||
      ((p.table.source !== 'file' || p.table.bytes) &&
        !runner.holds(p.tableKey) &&
        p.vocab * p.dim <= TABLE_BUDGET);
    if (!here || productWork(p) > PRODUCT_BUDGET) {
      inWorker(p, from);
      return;
    }
    let result;
    try {
      result = run(lab, p, keeper);
    } catch (error) {
      failed(error, from);
      return;
    }
    show(result, from);
  }

  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(update);
  };
  store.subscribe((state, changed) => {
    if (changed.has('inputs') || changed.has('text') || changed.has('tokens')) schedule();
  });

  function refresh() {
    cancelAnimationFrame(frame);
    update();
  }

  return {
    refresh,
    // The learner paused typing (or left the field): an error waiting for it is shown, else the
    // result of what stands typed is the one to come back to.
    paused() {
      const state = store.get();
      if (state.status.state === 'typing') refresh();
      else if (state.status.state === 'ready' && done && sameSource(done, state))
        kept = state.result;
    },
    stop: () => runner.stop(),
    // Resolves to the view's computation on result's table: here when this thread holds that
    // table and the work fits a frame, else in the compute worker (which opens the table if it
    // lacks it). Rejects with the core's EmbedlabError or a FieldError, or with signal's reason
    // once signal (an AbortSignal) stops it.
    async computeView(kind, result, args, signal = null) {
      const p = {
        tableKey: result.tableKey,
        vocab: result.vocab,
        dim: result.dim,
        table: result.table,
      };
      const here = keeper.held(p.tableKey);
      if (here && viewWork(kind, args) <= PRODUCT_BUDGET) return viewResult(lab, here, kind, args);
      return (
        (await runner.runView(kind, p, args, signal)) ??
        viewResult(lab, keeper.tableFor(p), kind, args)
      );
    },
    // Resolves to the positions or head view's computation `kind` (positions-tables.mjs), in the
    // compute worker: its tables take the module hundreds of milliseconds to draw. Rejects with
    // the core's EmbedlabError or a FieldError.
    async computePositions(kind, spec, args) {
      const computed = await runner.runPositions(kind, spec, args);
      if (computed) return computed;
      positionsHere ??= createPositionsKeeper(lab);
      return positionsHere.compute(kind, spec, args);
    },
    // Resolves to the training's reply: from the compute worker, or without one from a session
    // on this thread, a slice of MAIN_THREAD_SLICE_MS after a task's pause (the page paints
    // between slices).
    async computeTraining(request) {
      const reply = await runner.train(request);
      if (reply) return reply;
      trainingHere ??= createTrainSession(lab);
      await new Promise((resolve) => setTimeout(resolve, 0));
      return trainingHere.run({
        ...request,
        budgetMs: Math.min(request.budgetMs, MAIN_THREAD_SLICE_MS),
      });
    },
    settled() {
      if (done && sameSource(done, store.get())) return Promise.resolve();
      if (!done) schedule(); // inputs never computed yet, whether or not they changed
      return new Promise((resolve) => waiting.push(resolve));
    },
  };
}
