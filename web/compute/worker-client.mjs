// The page's side of the compute worker (compute-worker.mjs): both routes on a table the worker
// opens and keeps, so that a large table or product never blocks the page and the page never
// holds W. One request runs at a time: a newer one stops the one running, whose promise is
// answered null, so an older result never shows after a newer one. Where no module worker starts
// (Firefox before 114), requests run on the main thread after a pause that lets the page paint
// its 'computing' state first; a file's table then cannot be read (table-keeper.mjs says why).
// The backward and bag views send their work too (runView), to run on the worker's table, and the
// positions and head views theirs (runPositions), on tables of their own, and the Train view its
// training (train).
import { FieldError, run } from './plan.mjs';
import { EmbedlabError, embedlabWasmSources } from '../embedlab/embedlab.mjs';
import { startModuleWorker } from './start-worker.mjs';

const FALLBACK_PAUSE_MS = 250;

// lab: the page's module and keeper its table keeper (table-keeper.mjs), for the fallback.
export function createWorkerRunner(lab, keeper) {
  let worker = null; // started by the first request
  let ready = false; // the worker's module loaded
  let usable = true; // false once it could not start
  let workerKey = null; // the table key of the worker's table, once a request used it
  let running = null; // { id, p, hooks, resolve, reject, superseded }
  let ids = 0;
  const views = new Map(); // viewId -> { resolve, reject } of runView()
  let viewIds = 0;
  const trainings = new Map(); // trainId -> { resolve, reject } of train()
  let trainIds = 0;

  // Every view and training request still open is answered null: the page computes it itself.
  function releaseViews() {
    for (const { resolve } of [...views.values(), ...trainings.values()]) resolve(null);
    views.clear();
    trainings.clear();
  }

  function settle(job, answer, error) {
    if (running === job) running = null;
    if (job.superseded) job.resolve(null);
    else if (error) job.reject(error);
    else job.resolve(answer);
  }

  function runHere(job) {
    setTimeout(() => {
      if (job.superseded) {
        settle(job, null);
        return;
      }
      let result;
      try {
        result = run(lab, job.p, keeper);
      } catch (error) {
        settle(job, null, error);
        return;
      }
      settle(job, { result });
    }, FALLBACK_PAUSE_MS);
  }

  function giveUp() {
    usable = false;
    worker?.terminate();
    worker = null;
    releaseViews();
    if (running) runHere(running);
  }

  function receiveView(data) {
    const job = views.get(data.viewId);
    if (!job) return;
    views.delete(data.viewId);
    if (data.bug) job.reject(new Error(`compute worker: ${data.bug}`));
    else if (data.stopped) job.reject(job.signal.reason);
    else if (data.error !== undefined) job.reject(new EmbedlabError(data.error, data.argument));
    else job.resolve(data.computed);
  }

  function receiveTraining(data) {
    const job = trainings.get(data.trainId);
    if (!job) return;
    trainings.delete(data.trainId);
    if (data.bug) job.reject(new Error(`compute worker: ${data.bug}`));
    else if (data.error !== undefined) job.reject(new EmbedlabError(data.error, data.argument));
    else job.resolve(data.reply);
  }

  function receive({ data }) {
    if (data.ready) {
      ready = true;
      return;
    }
    if (data.loadError !== undefined) {
      giveUp();
      return;
    }
    if (data.viewId !== undefined) {
      receiveView(data);
      return;
    }
    if (data.trainId !== undefined) {
      receiveTraining(data);
      return;
    }
    const job = running;
    if (!job || data.id !== job.id) return; // a request stopped for a newer one
    if (data.bug) {
      workerKey = null;
      settle(job, null, new Error(`compute worker: ${data.bug}`));
    } else if (data.error) {
      workerKey = null;
      settle(job, null, new FieldError(data.error.field, data.error.message));
    } else if (data.first) {
      workerKey = job.p.tableKey;
      job.first = data.first;
      if (!job.superseded) job.hooks.onFirst?.(data.first);
    } else if (data.progress) {
      if (!job.superseded) job.hooks.onProgress?.(data.progress);
    } else if (data.stopped) {
      settle(job, { first: job.first, stopped: data.stopped });
    } else {
      settle(job, { first: job.first, last: data.last });
    }
  }

  function start() {
    try {
      worker = startModuleWorker(
        () => new Worker(new URL('./compute-worker.mjs', import.meta.url), { type: 'module' }),
        './compute-worker.mjs',
        import.meta.url,
      );
    } catch {
      return false;
    }
    // Its instance of the module is made from the page's: the files the page compiled, or their
    // addresses.
    worker.postMessage({ wasm: embedlabWasmSources() });
    worker.addEventListener('message', receive);
    worker.addEventListener('error', (event) => {
      if (!ready) {
        event.preventDefault(); // a browser without module workers: the fallback takes over
        giveUp();
      } else {
        for (const { reject } of [...views.values(), ...trainings.values()])
          reject(new Error(`compute worker: ${event.message}`));
        views.clear();
        trainings.clear();
        if (running) settle(running, null, new Error(`compute worker: ${event.message}`));
      }
    });
    return true;
  }

  const started = () => {
    if (usable && !worker && !start()) usable = false;
    return usable;
  };

  // The request running stops, unanswered (its promise: null).
  function cancel() {
    if (!running) return;
    running.superseded = true;
    if (running.id) worker.postMessage({ stop: running.id });
    running.resolve(null);
    running = null;
  }

  return {
    // Both routes for plan p in the worker. Resolves to { first, last } (startRun()'s parts,
    // plan.mjs), { result } (computed on the main thread, without a worker), { first, stopped:
    // progress } after stop(), or null when a newer request or cancel() came first; rejects
    // with its FieldError. hooks: { onFirst(first), onProgress(progress) } as the run goes on.
    run(p, hooks = {}) {
      cancel();
      return new Promise((resolve, reject) => {
        const job = { p, hooks, resolve, reject, superseded: false, first: null };
        running = job;
        if (!started()) {
          runHere(job);
          return;
        }
        job.id = ++ids;
        worker.postMessage({ id: job.id, p });
      });
    },
    // Whether the worker's table is the one under key.
    holds: (key) => workerKey === key,
    // Stops the run going on: its promise resolves to { first, stopped }.
    stop() {
      if (running?.id) worker.postMessage({ stop: running.id });
    },
    // A view's computation (compute/view-compute.mjs) on plan p's table (p: { tableKey, vocab,
    // dim, table }), once no product runs. Resolves to its result, or null without a worker: the
    // page computes it itself. Rejects with the core's EmbedlabError or a FieldError, or with
    // signal's reason once signal (an AbortSignal, or null) stops it.
    runView(kind, p, args, signal = null) {
      if (!started()) return Promise.resolve(null);
      const viewId = ++viewIds;
      worker.postMessage({ viewId, kind, p, args });
      signal?.addEventListener('abort', () => worker?.postMessage({ stopView: viewId }), {
        once: true,
      });
      return new Promise((resolve, reject) => {
        views.set(viewId, { resolve, reject, signal });
      });
    },
    // The positions or head view's computation kind on spec's tables (positions-tables.mjs), once
    // no product runs. Resolves to its result, or null without a worker; rejects as runView().
    runPositions(kind, spec, args) {
      if (!started()) return Promise.resolve(null);
      const viewId = ++viewIds;
      worker.postMessage({ viewId, kind, spec, args });
      return new Promise((resolve, reject) => {
        views.set(viewId, { resolve, reject, signal: null });
      });
    },
    // The Train view's training request (compute/train-session.mjs) in the worker, which keeps
    // the training between requests. Resolves to its reply, or null without a worker: the page
    // trains itself. Rejects with the core's EmbedlabError.
    train(request) {
      if (!started()) return Promise.resolve(null);
      const trainId = ++trainIds;
      worker.postMessage({ trainId, request });
      return new Promise((resolve, reject) => {
        trainings.set(trainId, { resolve, reject });
      });
    },
    // For a newer request answered on the main thread.
    cancel,
  };
}
