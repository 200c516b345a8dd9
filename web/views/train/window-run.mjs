// The Train view's training with a head: the chapter's loop on one sequence's windows, run by
// the page's session (compute/train-session.mjs: in the compute worker, or without one on the
// page a slice at a time) and followed here as far as the store's steps ask, or on and on while
// Play plays. Pure: no DOM; computeTraining(request) and nextFrame() are handed in, so that Node
// runs it with stand-ins (tests/web/train.test.mjs).
//
// What the view draws is kept here, in `current`: { key, p, info (the training's shapes and the
// watched rows at step 0), log (every step's loss, batch and the watched rows it changed), trail
// ([{ step, weight }]: the watched rows after each reply, thinned to TRAIL_MAX), last (the last
// reply: the weights now, the picked row's update, the predictions), failed }.

// A reply slice: the worker steps this long before it answers, and the page draws.
export const SLICE_MS = 60;
// The next tokens the view shows at each position.
export const TOP_K = 3;
// The trail keeps at most this many of the watched rows' past positions: every other one goes
// when it is full, the first and the last always kept.
export const TRAIL_MAX = 240;

// Every other snapshot of a full trail, the first and the newest kept.
export function thinned(trail) {
  if (trail.length <= TRAIL_MAX) return trail;
  return trail.filter((_, k) => k % 2 === 0 || k === trail.length - 1);
}

// onUpdate(current): a reply came (the store's steps follow current.log.length); onError(error):
// the core refused the plan (an EmbedlabError) or the worker failed.
export function createWindowRun({ computeTraining, nextFrame, onUpdate, onError }) {
  let current = null;
  let wanted = 0; // the steps the store asks for
  let playing = false;
  let picked = null;
  let fresh = false; // the last reply is older than the picked row or the whole tables asked for
  let wantWhole = false;
  let busy = false;

  function start(p) {
    current = { key: p.key, p, info: null, log: [], trail: [], last: null, failed: null };
    fresh = true;
  }

  function merge(reply) {
    const c = current;
    if (reply.info) {
      c.info = reply.info;
      c.log = [];
      c.trail = [{ step: 0, weight: reply.info.weight }];
    }
    c.log.push(...reply.steps);
    if (reply.steps.length > 0)
      c.trail = thinned([...c.trail, { step: reply.taken, weight: reply.weight }]);
    c.last = reply;
  }

  async function pump() {
    if (busy) return;
    busy = true;
    try {
      while (current && !current.failed && (playing || current.log.length !== wanted || fresh)) {
        const c = current;
        const { p } = c;
        const whole = wantWhole && !playing;
        const request = {
          key: c.key,
          plan: {
            seed: p.seed,
            vocab: p.vocab,
            dim: p.dim,
            ids: p.ids,
            head: p.head,
            optimizer: p.optimizer,
            positions: p.positions,
            ...p.loader,
          },
          steps: playing ? Number.MAX_SAFE_INTEGER : wanted,
          since: c.info ? c.log.length : 0,
          picked,
          topK: TOP_K,
          budgetMs: SLICE_MS,
          whole,
        };
        fresh = false;
        let reply;
        try {
          reply = await computeTraining(request);
        } catch (error) {
          if (current === c) {
            c.failed = error;
            playing = false;
          }
          onError(error);
          return;
        }
        if (current !== c) continue; // new inputs came meanwhile: their training starts
        merge(reply);
        if (whole) wantWhole = false;
        if (!playing && c.log.length > wanted) wanted = c.log.length;
        onUpdate(c);
        if (playing) await nextFrame();
      }
    } finally {
      busy = false;
    }
  }

  return {
    get current() {
      return current;
    },
    get playing() {
      return playing;
    },
    // The training of plan p, as far as `steps`; from the start again for new inputs or fewer
    // steps than taken (while it plays, the steps it has taken stand).
    follow(p, steps) {
      if (current?.key !== p.key || (!playing && steps < current.log.length)) start(p);
      if (!playing) wanted = steps;
      pump();
    },
    // The row whose update the view shows: the next reply brings it.
    pick(row) {
      if (row === picked) return;
      picked = row;
      fresh = true;
      pump();
    },
    // The token and position tables whole, with the next reply when not playing.
    askWhole() {
      wantWhole = true;
      fresh = true;
      pump();
    },
    play() {
      if (!current || current.failed) return;
      playing = true;
      pump();
    },
    pause() {
      if (!playing) return;
      playing = false;
      wanted = current?.log.length ?? 0;
    },
    discard() {
      current = null;
      playing = false;
    },
  };
}
