// The page's side of the tokenizer worker (tokenizer-worker.mjs): one worker for the whole page,
// shared by the Text mode and every <embedding-demo>, started on the first request, so that a page that
// never tokenizes loads nothing. Each user of it opens a channel; on a channel the newest
// request wins: older ones still queued are dropped, and the one running is left to finish
// unless it runs on past KILL_AFTER_MS in a phase the newest does not need (tokenizing an old
// text, or loading a tokenizer no request wants), when the worker is ended and started afresh.
import { startModuleWorker } from '../compute/start-worker.mjs';
import { DEFAULT_TOKENIZER, TOKENIZERS } from './catalog.mjs';
import { marksLegend } from './token-label.mjs';

const KILL_AFTER_MS = 1000;

let worker = null;
let running = null; // the job the worker has
const queue = [];
let jobs = 0;

// The job's answer, or null for a request a newer one on its channel replaced.
function settle(job, answer) {
  clearTimeout(job.timer);
  job.resolve(job.channel.latest === job ? answer : null);
}

function next() {
  if (running || queue.length === 0) return;
  running = queue.shift();
  worker ??= startWorker();
  const { id: job, name, text, ids, lab } = running;
  worker.postMessage(ids ? { job, name, ids } : { job, name, text, maxIds: lab.limits.maxIds });
}

// The worker's answer as the caller gets it: a text of too many tokens is an error of the text,
// in the core's words for too many ids (the worker has no core to ask).
function answerOf(job, data) {
  if (data.tokenCount === undefined) return data;
  try {
    job.lab.checkIdCount(data.tokenCount);
  } catch (error) {
    return { error: error.message, textError: true };
  }
  throw new Error(`the worker counted ${data.tokenCount} tokens, within the core's limit`);
}

function finish(answer) {
  const job = running;
  running = null;
  settle(job, answer);
  next();
}

function startWorker() {
  const started = startModuleWorker(
    () => new Worker(new URL('./tokenizer-worker.mjs', import.meta.url), { type: 'module' }),
    './tokenizer-worker.mjs',
    import.meta.url,
  );
  started.addEventListener('message', ({ data }) => {
    if (started !== worker || data.job !== running?.id) return;
    if (!data.progress) {
      finish(answerOf(running, data));
      return;
    }
    running.phase = data.progress.phase;
    if (running.channel.latest !== running) keepOrEnd(running);
    const { latest } = running.channel;
    if (latest === running || (latest.name === running.name && running.phase !== 'encode')) {
      latest.onProgress({ name: running.name, ...data.progress });
    }
  });
  // A module that cannot load (a file missing from the site) ends the worker.
  started.addEventListener('error', (event) => {
    if (started !== worker) return;
    worker = null;
    if (running)
      finish({
        error: `The tokenizer worker could not start: ${event.message || 'its module did not load'}`,
      });
  });
  return started;
}

// job runs on for a request that no longer wants it: end the worker if it is still at it
// after KILL_AFTER_MS, unless what it does is what a queued request needs too.
function keepOrEnd(job) {
  if (job.timer) return;
  job.timer = setTimeout(() => {
    job.timer = 0;
    if (running !== job) return;
    if (job.phase !== 'encode' && queue.some((queued) => queued.name === job.name)) return;
    worker.terminate();
    worker = null;
    finish(null);
  }, KILL_AFTER_MS);
}

// Returns { tokenize(name, text, lab, onProgress), label(name, ids, lab, onProgress) }, each
// -> Promise<answer | null>: lab, the module, has the core's limit on ids and its words for a
// text over it. answer: { ids, labels, vocabSize } or { error, textError } (tokenizer-worker.mjs);
// null when a newer request on the channel came first. label() gives the labels of the ids
// (null past the vocabulary) instead of tokenizing a text. onProgress({ name, phase, loaded?, total? }).
export function createTokenizeChannel() {
  const channel = { latest: null };
  const request = (name, text, ids, lab, onProgress) =>
    new Promise((resolve) => {
      const job = {
        id: ++jobs,
        channel,
        name,
        text,
        ids,
        lab,
        onProgress,
        resolve,
        phase: null,
        timer: 0,
      };
      channel.latest = job;
      for (let i = queue.length - 1; i >= 0; --i) {
        if (queue[i].channel === channel) settle(queue.splice(i, 1)[0], null);
      }
      queue.push(job);
      if (running?.channel === channel) keepOrEnd(running);
      next();
    });
  return {
    tokenize: (name, text, lab, onProgress) => request(name, text, null, lab, onProgress),
    label: (name, ids, lab, onProgress) => request(name, null, ids, lab, onProgress),
  };
}

const megabytes = (bytes) => (bytes / 1e6).toFixed(1);

// What a progress report says to the learner.
export function progressMessage({ name, phase, loaded, total }) {
  const { label } = TOKENIZERS[name];
  if (phase === 'download') {
    return `Loading the ${label} tokenizer: ${megabytes(loaded)} of ${megabytes(total)} MB…`;
  }
  if (phase === 'prepare') return `Reading the ${label} vocabulary…`;
  return `Tokenizing with ${label}…`;
}

// What the views are handed to tokenize with (their context's `tokenizers`; views/ import no
// tokenizer): the catalog, its default, a channel of a view's own, the words of progress and the
// sentence that says what a chip's marks stand for.
export const VIEW_TOKENIZERS = Object.freeze({
  catalog: TOKENIZERS,
  defaultName: DEFAULT_TOKENIZER,
  openChannel: createTokenizeChannel,
  progressMessage,
  marksLegend,
});
