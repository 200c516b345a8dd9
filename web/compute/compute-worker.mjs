// A module Web Worker that computes off the page's main thread, with a WASM instance and a table
// handle of its own (table-keeper.mjs): a file's table is read here, where it lies, so the page
// never holds W. Protocol (compute/worker-client.mjs is the other side):
//   in:  first { wasmURL }: where the page's module came from, to load this one's
//   out: { ready } or { loadError } once
//   in:  { id, p: plan() }: both routes; a newer request stops the run before it
//   out: { id, first } (startRun()'s first part: the lookup's rows and W's window), then
//        { id, progress } after blocks of the streamed product, at most every PROGRESS_MS, then
//        { id, last } (its result) | { id, error: { field, message } } | { id, bug }
//   in:  { stop: id }: stop that run; out: { id, stopped: progress }
// A view's request (compute/view-compute.mjs) runs on the table of p ({ tableKey, vocab, dim,
// table }), opened if the worker holds another:
//   in:  { viewId, kind, p, args };
//   out: { viewId, computed } | { viewId, error, argument: the core's message and argument }
//        | { viewId, bug }.
import { FieldError, onTable, startRun } from './plan.mjs';
import { EmbedlabError, loadEmbedlab } from '../embedlab/embedlab.mjs';
import { createTableKeeper } from './table-keeper.mjs';
import { VIEW_COMPUTATIONS, viewBuffers } from './view-compute.mjs';

// Between blocks the run lets messages in (a newer request, a stop) at least this often, and
// reports its progress at most this often.
const YIELD_MS = 25;
const PROGRESS_MS = 100;

let loaded = null;  // the module, loaded on the first message
let keeper = null;
let current = 0;    // the id of the run that may go on; any other stops at its next block

function load(wasmURL) {
  loaded = loadEmbedlab({ wasmURL });
  loaded.then((lab) => {
    keeper = createTableKeeper(lab);
    postMessage({ ready: true });
  }, (error) => postMessage({ loadError: error.message }));
}

// Resolves once the messages already queued have been handled.
const channel = new MessageChannel();
const pending = [];
channel.port1.onmessage = () => pending.shift()();
const yieldToMessages = () => new Promise((resolve) => {
  pending.push(resolve);
  channel.port2.postMessage(null);
});

const matrixBuffers = (...matrices) => matrices.filter(Boolean).map((m) => m.data.buffer);

async function reply(id, p, lab) {
  current = id;
  const { run, first } = startRun(lab, p, keeper);
  try {
    // A whole table's rows stay the keeper's for the next request: the page gets a copy.
    postMessage({ id, first }, matrixBuffers(first.lookup, first.weight.keptRows));
    let yielded = performance.now();
    let reported = yielded;
    while (!run.done) {
      await keeper.readAhead();
      const progress = onTable(p, () => run.step(1));
      const now = performance.now();
      if (now - reported >= PROGRESS_MS && !progress.done) {
        postMessage({ id, progress });
        reported = now;
      }
      if (now - yielded >= YIELD_MS) {
        await yieldToMessages();
        yielded = performance.now();
      }
      if (current !== id) {
        postMessage({ id, stopped: run.progress });
        return;
      }
    }
    const last = onTable(p, () => run.result());
    postMessage({ id, last }, matrixBuffers(last.product, last.heatmap));
  } finally {
    run.delete();
  }
}

function replyView({ viewId, kind, p, args }, lab) {
  try {
    const computed = VIEW_COMPUTATIONS[kind](lab, keeper.tableFor(p), args);
    postMessage({ viewId, computed }, viewBuffers(kind, computed));
  } catch (error) {
    postMessage(error instanceof EmbedlabError ? { viewId, error: error.message, argument: error.argument }
      : error instanceof FieldError ? { viewId, error: error.message, argument: error.field }
        : { viewId, bug: String(error?.stack ?? error) });
  }
}

onmessage = async ({ data }) => {
  if (data.wasmURL !== undefined) {
    load(data.wasmURL);
    return;
  }
  if (data.stop !== undefined) {
    if (current === data.stop) current = 0;
    return;
  }
  const lab = await loaded.catch(() => null);
  if (!lab) return;  // the page was told { loadError } and runs the request itself
  if (data.viewId !== undefined) {
    replyView(data, lab);
    return;
  }
  const { id, p } = data;
  try {
    await reply(id, p, lab);
  } catch (error) {
    if (error instanceof FieldError) {
      postMessage({ id, error: { field: error.field, message: error.message } });
    } else {
      postMessage({ id, bug: String(error?.stack ?? error) });
    }
  }
};
