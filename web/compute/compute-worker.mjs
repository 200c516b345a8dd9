// A module Web Worker that computes off the page's main thread, with a WASM instance and a table
// handle of its own (table-keeper.mjs): a file's table is read here, where it lies, so the page
// never holds W. Protocol (compute/worker-client.mjs is the other side):
//   in:  first { wasm: { wasmURL, deferredURL } }: where the page's module came from, to load
//        this one's, both parts
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
//        | { viewId, bug }
//   in:  { stopView: viewId }: stop that view's computation; out: { viewId, stopped: true }
// The positions and head views' requests (compute/positions-tables.mjs) run on tables of their
// own, and are answered as a view's:
//   in:  { viewId, kind, spec, args }
// The Train view's training (train-session.mjs), kept here between requests:
//   in:  { trainId, request }; out: { trainId, reply } | { trainId, error, argument } |
//        { trainId, bug }
// A stream reads a file's table a block at a time with the next block read ahead, which only
// pays while one stream reads: two taking turns would each read every block anew. So a view's
// computation waits while a product runs, before it starts and between its blocks: the
// learner's newest ids come first.
import { FieldError, onTable, startRun } from './plan.mjs';
import { EmbedlabError, loadEmbedlab } from '../embedlab/embedlab.mjs';
import { createPositionsKeeper } from './positions-tables.mjs';
import { createTableKeeper } from './table-keeper.mjs';
import { createTrainSession, replyBuffers } from './train-session.mjs';
import { startView, viewBuffers } from './view-compute.mjs';

// Between blocks the run lets messages in (a newer request, a stop) at least this often, and
// reports its progress at most this often.
const YIELD_MS = 25;
const PROGRESS_MS = 100;

let loaded = null; // the module, loaded on the first message
let keeper = null;
let positionsKeeper = null;
let training = null; // the Train view's session, made by its first request
let current = 0; // the id of the run that may go on; any other stops at its next block

function load(wasm) {
  loaded = loadEmbedlab(wasm);
  loaded.then(
    (lab) => {
      keeper = createTableKeeper(lab);
      positionsKeeper = createPositionsKeeper(lab);
      postMessage({ ready: true });
    },
    (error) => postMessage({ loadError: error.message }),
  );
}

// Resolves once the messages already queued have been handled.
const channel = new MessageChannel();
const pending = [];
channel.port1.onmessage = () => pending.shift()();
const yieldToMessages = () =>
  new Promise((resolve) => {
    pending.push(resolve);
    channel.port2.postMessage(null);
  });

const matrixBuffers = (...matrices) => matrices.filter(Boolean).map((m) => m.data.buffer);

let products = 0; // product runs going on
const waiting = []; // the views' turn() resolvers, called once none is
const views = new Map(); // viewId -> { stopped } of the views' computations going on

const turn = () =>
  products === 0 ? Promise.resolve() : new Promise((resolve) => waiting.push(resolve));

// Steps run (a streamed run of wasm/tables.mjs on p's table) until done, with the table's next
// block read ahead before each step (readAhead: the keeper's readAheadFor()), and messages let in
// (a newer request, a stop) at least every YIELD_MS. Before each step it awaits wait() (a view's
// turn()); report(progress) hears how far it has come, at most every PROGRESS_MS. Resolves to
// false, the run unfinished, once stopped() says so, else to true.
async function stream(run, p, { readAhead, stopped, wait = null, report = null }) {
  let yielded = performance.now();
  let reported = yielded;
  while (!run.done) {
    if (wait) await wait();
    if (stopped()) return false;
    await readAhead();
    const progress = onTable(p, () => run.step(1));
    const now = performance.now();
    if (report && now - reported >= PROGRESS_MS && !progress.done) {
      report(progress);
      reported = now;
    }
    if (now - yielded >= YIELD_MS) {
      await yieldToMessages();
      yielded = performance.now();
    }
    if (stopped()) return false;
  }
  return true;
}

async function reply(id, p, lab) {
  current = id;
  products += 1;
  try {
    const { run, finish, first } = startRun(lab, p, keeper);
    try {
      // A whole table's rows stay the keeper's for the next request: the page gets a copy.
      postMessage({ id, first }, matrixBuffers(first.lookup, first.weight.keptRows));
      const finished = await stream(run, p, {
        readAhead: keeper.readAheadFor(p.tableKey),
        stopped: () => current !== id,
        report: (progress) => postMessage({ id, progress }),
      });
      if (!finished) {
        postMessage({ id, stopped: run.progress });
        return;
      }
      const last = onTable(p, () => finish());
      postMessage({ id, last }, matrixBuffers(last.product, last.heatmap));
    } finally {
      run.delete();
    }
  } finally {
    products -= 1;
    if (products === 0) for (const resolve of waiting.splice(0)) resolve();
  }
}

// A view's failure as the page hears it: the core's message and argument, or a bug.
function failure(error) {
  if (error instanceof EmbedlabError) return { error: error.message, argument: error.argument };
  if (error instanceof FieldError) return { error: error.message, argument: error.field };
  return { bug: String(error?.stack ?? error) };
}

async function replyView({ viewId, kind, p, args }, lab) {
  const view = { stopped: false };
  views.set(viewId, view);
  let begun = null;
  try {
    await turn();
    if (!view.stopped) {
      begun = onTable(p, () => startView(lab, keeper.tableFor(p), kind, args));
    }
    const finished =
      begun !== null &&
      (!begun.run ||
        (await stream(begun.run, p, {
          readAhead: keeper.readAheadFor(p.tableKey),
          stopped: () => view.stopped,
          wait: turn,
        })));
    if (!finished) {
      postMessage({ viewId, stopped: true });
      return;
    }
    const computed = onTable(p, () => begun.result());
    postMessage({ viewId, computed }, viewBuffers(kind, computed));
  } catch (error) {
    postMessage({ viewId, ...failure(error) });
  } finally {
    begun?.run?.delete();
    views.delete(viewId);
  }
}

// A positions or head view's computation, once no product runs: one call on its tables, short
// enough (positions-tables.mjs bounds it) to run without a stop.
async function replyPositions({ viewId, kind, spec, args }) {
  try {
    await turn();
    postMessage({ viewId, computed: positionsKeeper.compute(kind, spec, args) });
  } catch (error) {
    postMessage({ viewId, ...failure(error) });
  }
}

// The Train view's request on its training, kept here between requests.
function replyTraining({ trainId, request }, lab) {
  training ??= createTrainSession(lab);
  try {
    const reply = training.run(request);
    postMessage({ trainId, reply }, replyBuffers(reply));
  } catch (error) {
    postMessage({ trainId, ...failure(error) });
  }
}

onmessage = async ({ data }) => {
  if (data.wasm !== undefined) {
    load(data.wasm);
    return;
  }
  if (data.stop !== undefined) {
    if (current === data.stop) current = 0;
    return;
  }
  if (data.stopView !== undefined) {
    const view = views.get(data.stopView);
    if (view) view.stopped = true;
    return;
  }
  const lab = await loaded.catch(() => null);
  if (!lab) return; // the page was told { loadError } and runs the request itself
  if (data.viewId !== undefined) {
    if (data.spec) replyPositions(data);
    else replyView(data, lab);
    return;
  }
  if (data.trainId !== undefined) {
    replyTraining(data, lab);
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
