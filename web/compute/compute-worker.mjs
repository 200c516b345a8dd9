// A module Web Worker that runs compute.run() off the page's main thread, with a WASM instance
// and a cached W of its own. Protocol (compute/worker-client.mjs is the other side):
//   in:  first { wasmURL }: where the page's module came from, to load this one's
//   in:  { id, p: plan() (a file's table only when the worker lacks it), haveKey }
//   out: { ready } or { loadError } once; per request, { id, stage: 'product' } when a new W is
//        made and the product starts, then { id, cachedKey, result } | { id, cachedKey, error }
//        | { id, bug }. result holds W only when haveKey (the page's W) is not p's table.
// A view's request (compute/view-compute.mjs) runs beside the cached W:
//   in:  { viewId, kind, tableKey, args };
//   out: { viewId, computed } | { viewId, error, argument: the core's message and argument }
//        | { viewId, missing: true }
//        (the worker's W is not tableKey's) | { viewId, bug }.
// A .safetensors table is read here, so a large one never blocks the page; it becomes the
// worker's W (loadTable() in compute/worker-client.mjs is the other side):
//   in:  { loadId, file: a File, headerBytes, name, key }; a newer loadId stops an older read,
//        and { loadId } alone only stops it
//   out: { loadId, progress: { name, done, total } } per block, then { loadId, cachedKey,
//        loaded: { weight (a copy), table } } | { loadId, error: the core's message }
//        | { loadId, stopped: true } | { loadId, bug }.
import { FieldError, run, tableFor } from './plan.mjs';
import { EmbedlabError, loadEmbedlab } from '../embedlab/embedlab.mjs';
import { fileSource, readSafetensorsTable } from './table-file.mjs';
import { VIEW_COMPUTATIONS, viewBuffers } from './view-compute.mjs';

const cache = { key: null, weight: null };
let loaded = null;  // the module, loaded on the first message

function load(wasmURL) {
  loaded = loadEmbedlab({ wasmURL });
  loaded.then(() => postMessage({ ready: true }), (error) => postMessage({ loadError: error.message }));
}

function reply(id, p, haveKey, lab) {
  if (cache.key !== p.tableKey) {
    tableFor(lab, p, cache);
    postMessage({ id, stage: 'product' });
  }
  const { weight, lookup, product, comparison } = run(lab, p, cache);
  // The worker keeps its W for the next request: the page gets a copy. The page makes its own
  // one-hot cells from the ids.
  const sent = haveKey === p.tableKey ? null : { ...weight, data: weight.data.slice() };
  const buffers = [lookup, product, sent].filter(Boolean).map((m) => m.data.buffer);
  const result = { weight: sent, lookup, product, comparison };
  postMessage({ id, cachedKey: cache.key, result }, buffers);
}

function replyView({ viewId, kind, tableKey, args }, lab) {
  if (cache.key !== tableKey) {
    postMessage({ viewId, missing: true });
    return;
  }
  try {
    const computed = VIEW_COMPUTATIONS[kind](lab, cache.weight, args);
    postMessage({ viewId, computed }, viewBuffers(kind, computed));
  } catch (error) {
    postMessage(error instanceof EmbedlabError ? { viewId, error: error.message, argument: error.argument }
      : { viewId, bug: String(error?.stack ?? error) });
  }
}

let newestLoad = 0;

async function replyLoad({ loadId, file, headerBytes, name, key }, lab) {
  newestLoad = loadId;
  if (!file) return;
  // The W before is let go first, so the memory is at most the new table's (the page sends it
  // again if a request still wants it).
  cache.key = null;
  cache.weight = null;
  try {
    const read = await readSafetensorsTable(lab, fileSource(file), headerBytes, name, {
      onProgress: (progress) => postMessage({ loadId, progress }),
      stillWanted: () => loadId === newestLoad,
    });
    if (!read) {
      postMessage({ loadId, stopped: true });
      return;
    }
    cache.key = key;
    cache.weight = read.weight;
    // The worker keeps its W for the requests to come: the page gets a copy.
    const weight = { ...read.weight, data: read.weight.data.slice() };
    postMessage({ loadId, cachedKey: key, loaded: { weight, table: read.table } }, [weight.data.buffer]);
  } catch (error) {
    postMessage(error instanceof EmbedlabError ? { loadId, error: error.message }
      : { loadId, bug: String(error?.stack ?? error) });
  }
}

onmessage = async ({ data }) => {
  if (data.wasmURL !== undefined) {
    load(data.wasmURL);
    return;
  }
  const lab = await loaded.catch(() => null);
  if (!lab) return;  // the page was told { loadError } and runs the request itself
  if (data.viewId !== undefined) {
    replyView(data, lab);
    return;
  }
  if (data.loadId !== undefined) {
    await replyLoad(data, lab);
    return;
  }
  const { id, p, haveKey } = data;
  try {
    reply(id, p, haveKey, lab);
  } catch (error) {
    if (error instanceof FieldError) {
      postMessage({ id, cachedKey: cache.key, error: { field: error.field, message: error.message } });
    } else {
      postMessage({ id, bug: String(error?.stack ?? error) });
    }
  }
};
