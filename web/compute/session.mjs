// The one program behind the page and every <embedding-demo>: it turns a store's inputs
// (model/state.mjs) into a result. plan() checks them (cheap); both routes then run on the main
// thread when they fit a frame, else in the compute worker while the status says 'computing'
// and the page stays responsive. At most once a frame; the newest input wins.
import { count } from '../model/format-number.mjs';
import { FieldError, plan, PRODUCT_BUDGET, productWork, run } from './plan.mjs';
import { createWorkerRunner } from './worker-client.mjs';

// A new seeded W on the main thread stays under a few milliseconds up to this many floats (about
// 2.6·10^7 a second in headless Chromium); PRODUCT_BUDGET (plan.mjs) bounds the product.
// n = 64, V = 4096, d = 64 stays on the main thread.
const TABLE_BUDGET = 1 << 18;

const WHERE = 'in a background thread: the page stays usable';

// What plan() takes for a state: the typed ids, or in Text mode its tokens' ids, once they are
// the tokens of the text shown; null while a text waits for its tokens.
function planInput({ inputs, text, tokens }) {
  if (!text) return inputs;
  if (tokens?.text !== text.text || tokens?.tokenizer !== text.tokenizer) return null;
  return { ...inputs, ids: Float64Array.from(tokens.ids) };
}

// What a result is computed from: the parts of the state that plan() reads.
const sameSource = (a, b) => a.inputs === b.inputs && a.text === b.text && a.tokens === b.tokens;

// store: a createStore() of model/state.mjs; quiet(error): whether a FieldError waits before it
// is shown (the page's ids while they are being typed): the status then says 'typing' and the
// last verdict stays. Returns { runner, refresh(), settled() }: the compute worker runner, which
// inputs that read files also use; a way to recompute now; and a promise that resolves once the
// store's present inputs have their result or their error.
export function createSession(lab, store, { quiet = () => false } = {}) {
  const runner = createWorkerRunner(lab);
  const cache = { key: null, weight: null };
  let frame = 0;
  let done = null;    // the state the last finished update computed from
  let waiting = [];   // settled()'s resolvers

  // An update ended (a result, an error, or a text still waiting for its tokens) for `from`.
  function finished(from) {
    done = from;
    if (!sameSource(from, store.get())) return;
    for (const resolve of waiting) resolve();
    waiting = [];
  }

  function failed(error, from) {
    if (!(error instanceof FieldError)) throw error;
    store.set({ status: quiet(error) ? { state: 'typing' }
      : { state: 'failed', field: error.field, message: error.message } });
    finished(from);
  }

  function show(result, from) {
    const { step } = store.get();
    store.set({ result, step: Math.min(step, result.ids.length - 1), status: { state: 'ready' } });
    finished(from);
  }

  async function inWorker(p, newTable, from) {
    const multiplying = `n·V·d = ${count(productWork(p))} multiply-adds`;
    const making = `Making W (${count(p.vocab)} × ${count(p.dim)} = ${count(p.vocab * p.dim)} floats)`;
    const computing = (sentence) => store.set({ status: { state: 'computing', sentence } });
    computing(newTable ? `${making}, then ${multiplying}, ${WHERE}.` : `${multiplying}, ${WHERE}.`);
    let result;
    try {
      result = await runner.run(p, cache, () => computing(`W is ready; ${multiplying}, ${WHERE}.`));
    } catch (error) {
      failed(error, from);
      return;
    }
    if (result) show(result, from);
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
    const newTable = cache.key !== p.tableKey;
    if (productWork(p) > PRODUCT_BUDGET || (newTable && p.vocab * p.dim > TABLE_BUDGET)) {
      inWorker(p, newTable, from);
      return;
    }
    let result;
    try {
      result = run(lab, p, cache);
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

  return {
    runner,
    refresh() {
      cancelAnimationFrame(frame);
      update();
    },
    settled() {
      if (done && sameSource(done, store.get())) return Promise.resolve();
      if (!done) schedule();  // inputs never computed yet, whether or not they changed
      return new Promise((resolve) => waiting.push(resolve));
    },
  };
}
