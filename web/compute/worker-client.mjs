// compute.run() in a module Web Worker (compute-worker.mjs), so that making a large W or a large
// product never blocks the page. One request runs at a time: a newer one replaces the one
// waiting, and the one running is answered null when it ends, so an older result never shows
// after a newer one. Where no module worker starts (Firefox before 114), requests run on the
// main thread after a pause that lets the page paint its 'computing' state first.
// The backward and bag views send their work too (runView), to run beside the worker's W, and
// a .safetensors table is read there (loadTable).
import { oneHotCells } from '../model/cells.mjs';
import { FieldError, run, tableOrigin } from './plan.mjs';
import { EmbedlabError, embedlabWasmURL } from '../embedlab/embedlab.mjs';
import { startModuleWorker } from './start-worker.mjs';
import { fileSource, readSafetensorsTable } from './table-file.mjs';

const FALLBACK_PAUSE_MS = 250;

// lab: the page's module, for the fallback. Returns { run(p, cache, onStage), cancel() }.
export function createWorkerRunner(lab) {
  let worker = null;      // started by the first request
  let ready = false;      // the worker's module loaded
  let usable = true;      // false once it could not start
  let workerKey = null;   // the table key of the worker's W
  let running = null;     // { id, p, cache, onStage, resolve, reject, superseded }
  let waiting = null;
  let ids = 0;
  const views = new Map();  // viewId -> { resolve, reject } of runView()
  let viewIds = 0;
  let loading = null;       // { loadId, file, headerBytes, name, key, onProgress, resolve, reject }
  let loadIds = 0;
  // The read that clears the worker's W when it starts, until a message of it arrives: results
  // posted before then name a W the worker no longer has.
  let clearingLoad = 0;

  // Every view request still open is answered null: the page computes it itself.
  function releaseViews() {
    for (const { resolve } of views.values()) resolve(null);
    views.clear();
  }

  function settle(job, result, error) {
    running = null;
    if (job.superseded) job.resolve(null);
    else if (error) job.reject(error);
    else job.resolve(result);
    if (waiting) {
      const next = waiting;
      waiting = null;
      send(next);
    }
  }

  function runHere(job) {
    setTimeout(() => {
      if (job.superseded) {
        settle(job, null);
        return;
      }
      let result;
      try {
        result = run(lab, job.p, job.cache);
      } catch (error) {
        settle(job, null, error);
        return;
      }
      settle(job, result);
    }, FALLBACK_PAUSE_MS);
  }

  // A table read on the main thread: a block at a time, so the page still paints between them.
  function loadHere(job) {
    const { file, headerBytes, name, onProgress } = job;
    readSafetensorsTable(lab, fileSource(file), headerBytes, name,
      { onProgress, stillWanted: () => loading === job })
      .then((read) => job.resolve(read), (error) => job.reject(error))
      .finally(() => { if (loading === job) loading = null; });
  }

  function giveUp() {
    usable = false;
    worker?.terminate();
    worker = null;
    releaseViews();
    if (running) runHere(running);
    if (loading) loadHere(loading);
  }

  function receiveLoad(data) {
    if (data.loadId >= clearingLoad) clearingLoad = 0;
    const job = loading;
    if (!job || data.loadId !== job.loadId) return;  // a read given up for a newer one
    if (data.progress) {
      job.onProgress(data.progress);
      return;
    }
    loading = null;
    if (data.bug) job.reject(new Error(`compute worker: ${data.bug}`));
    else if (data.error !== undefined) job.reject(new EmbedlabError(data.error, 'weights'));
    else if (data.stopped) job.resolve(null);
    else {
      workerKey = data.cachedKey;
      job.resolve(data.loaded);
    }
  }

  function receiveView(data) {
    const job = views.get(data.viewId);
    if (!job) return;
    views.delete(data.viewId);
    if (data.bug) job.reject(new Error(`compute worker: ${data.bug}`));
    else if (data.error !== undefined) job.reject(new EmbedlabError(data.error, data.argument));
    else job.resolve(data.missing ? null : data.computed);
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
    if (data.loadId !== undefined) {
      receiveLoad(data);
      return;
    }
    const job = running;
    if (!job || data.id !== job.id) return;
    if (data.stage) {
      if (!job.superseded) job.onStage?.(data.stage);
      return;
    }
    if (data.bug) {
      settle(job, null, new Error(`compute worker: ${data.bug}`));
      return;
    }
    if (!clearingLoad) workerKey = data.cachedKey;
    if (data.error) {
      settle(job, null, new FieldError(data.error.field, data.error.message));
      return;
    }
    const { p, cache } = job;
    const { weight, ...routes } = data.result;
    // Without W in the answer, the page has p's W: its file's table, or its cache's (haveKey).
    const pageWeight = weight ?? (p.table.source === 'file' ? p.table.matrix : cache.weight);
    if (!job.superseded) {
      cache.key = p.tableKey;
      cache.weight = pageWeight;
    }
    settle(job, { ids: p.ids, vocab: p.vocab, dim: p.dim, tableKey: p.tableKey, table: tableOrigin(p),
                  weight: pageWeight, onehot: oneHotCells(p.ids, p.vocab), ...routes });
  }

  function start() {
    try {
      worker = startModuleWorker(
        () => new Worker(new URL('./compute-worker.mjs', import.meta.url), { type: 'module' }),
        './compute-worker.mjs', import.meta.url);
    } catch {
      return false;
    }
    // Its instance of the module comes from where the page's came from.
    worker.postMessage({ wasmURL: embedlabWasmURL() });
    worker.addEventListener('message', receive);
    worker.addEventListener('error', (event) => {
      if (!ready) {
        event.preventDefault();  // a browser without module workers: the fallback takes over
        giveUp();
      } else {
        for (const { reject } of views.values()) reject(new Error(`compute worker: ${event.message}`));
        views.clear();
        loading?.reject(new Error(`compute worker: ${event.message}`));
        loading = null;
        if (running) settle(running, null, new Error(`compute worker: ${event.message}`));
      }
    });
    return true;
  }

  function send(job) {
    running = job;
    if (usable && !worker && !start()) usable = false;
    if (!usable) {
      runHere(job);
      return;
    }
    job.id = ++ids;
    const { p, cache } = job;
    // A file's table crosses once; the worker keeps it with its key. The page holds it already,
    // so it never comes back.
    const fromFile = p.table.source === 'file';
    const sent = fromFile && workerKey === p.tableKey ? { ...p, table: tableOrigin(p) } : p;
    worker.postMessage({ id: job.id, p: sent, haveKey: fromFile ? p.tableKey : cache.key });
  }

  return {
    // Resolves to compute.run()'s result, or null when a newer request or cancel() came first;
    // rejects with its FieldError. cache: the page's { key, weight }, updated with a new W.
    // onStage('product'): a new W is made and the product starts.
    run(p, cache, onStage) {
      return new Promise((resolve, reject) => {
        waiting?.resolve(null);
        waiting = { p, cache, onStage, resolve, reject, superseded: false };
        if (running) {
          running.superseded = true;
        } else {
          const job = waiting;
          waiting = null;
          send(job);
        }
      });
    },
    // A view's computation (compute/view-compute.mjs) for a result with tableKey, after the requests
    // sent before it. Resolves to its result, or null where the worker cannot run it (no worker,
    // or its W is no longer tableKey's): the page computes it itself. Rejects with the core's
    // EmbedlabError.
    runView(kind, tableKey, args) {
      if (usable && !worker && !start()) usable = false;
      if (!usable) return Promise.resolve(null);
      const viewId = ++viewIds;
      worker.postMessage({ viewId, kind, tableKey, args });
      return new Promise((resolve, reject) => { views.set(viewId, { resolve, reject }); });
    },
    // The tensor `name` of a .safetensors file (headerBytes: its first 8 + N bytes) as a table,
    // read in the worker where one runs, which keeps it as its W under `key`. Resolves to
    // { weight, table: { name, dtype, rows, cols, conversion } }, or null when a newer
    // loadTable() came first; rejects with the core's EmbedlabError. onProgress({ name, done,
    // total }) after each block, in bytes of the file.
    loadTable(file, headerBytes, name, key, onProgress) {
      loading?.resolve(null);
      return new Promise((resolve, reject) => {
        const job = { loadId: ++loadIds, file, headerBytes, name, key, onProgress, resolve, reject };
        loading = job;
        if (usable && !worker && !start()) usable = false;
        if (!usable) {
          loadHere(job);
          return;
        }
        workerKey = null;  // the worker lets its W go when it starts reading
        clearingLoad = job.loadId;
        worker.postMessage({ loadId: job.loadId, file, headerBytes, name, key });
      });
    },
    // Gives up the table being read, if any: its loadTable() resolves to null.
    stopLoading() {
      if (!loading) return;
      loading.resolve(null);
      loading = null;
      worker?.postMessage({ loadId: ++loadIds });
    },
    // A newer request is answered on the main thread: drop what waits, ignore what runs.
    cancel() {
      waiting?.resolve(null);
      waiting = null;
      if (running) running.superseded = true;
    },
  };
}
