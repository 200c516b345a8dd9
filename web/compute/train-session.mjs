// The Train view's next-token training on one sequence's windows (lab.windowTraining: the
// chapter's loop), stepped as far as the page asks, a slice of time at a time: in the compute
// worker (compute-worker.mjs), or without one on the page, a slice per task. One training is
// kept between requests. Of each step the page gets what it draws: its loss, its batch, and the
// rows it changed among the rows the page watches (the sequence's ids); of the last step, the
// picked row's update (its weights, gradient and optimizer state, before and after), the watched
// rows' weights and every window position's likeliest next tokens. Pure: no DOM.
//
// request: { key (what makes one training differ from another), plan: { seed, vocab, dim, ids,
//   head, optimizer, positions, maxLength, stride, batchSize, shuffle }, steps (how far to go),
//   since (the steps the page holds: the reply lists those after), picked (a watched row),
//   topK, budgetMs (a slice: at least one step, then no new step after it), whole (the token and
//   position tables whole too, for the head view) }
// reply: { key, taken, info (since 0: { vocab, dim, windows, batchesPerEpoch, watched,
//   weight (the watched rows at step 0), positionWeight }), steps: [{ step, epoch, batch,
//   windows, loss, changedCount, changed: { rows, causes, roles } of the watched rows }],
//   weight (the watched rows now, (watched, d)), positionWeight, update, predictions
//   ({ positions, k, ids, probabilities }), whole: { token, position } or null }

// Row r of a (V, d) matrix, copied.
const rowOf = (m, r) => m.data.slice(r * m.cols, (r + 1) * m.cols);

// The rows of m (V, d) at ascending `rows`, one after another.
function rowsOf(m, rows) {
  const out = new Float32Array(rows.length * m.cols);
  rows.forEach((r, i) => out.set(m.data.subarray(r * m.cols, (r + 1) * m.cols), i * m.cols));
  return { rows: rows.length, cols: m.cols, data: out };
}

// A step's changed rows among `watched` (both ascending): { rows, causes, roles }.
function changedAmong({ rows, causes, roles }, watched) {
  const out = { rows: [], causes: [], roles: [] };
  let i = 0;
  for (const r of watched) {
    while (i < rows.length && rows[i] < r) i += 1;
    if (i < rows.length && rows[i] === r) {
      out.rows.push(r);
      out.causes.push(causes[i]);
      out.roles.push(roles[i]);
    }
  }
  return out;
}

// The picked row's update in the last step: its weights before and after, its gradient (and
// the head's share, tied), whether an input named it, and each piece of optimizer state before
// and after.
function updateOf(training, picked, last, previous) {
  const stateOf = (step) =>
    Object.fromEntries(
      (step?.state ?? []).map(({ name, values }) => [name, rowOf(values, picked)]),
    );
  return {
    row: picked,
    step: last.step,
    before: rowOf(previous ? previous.embeddingWeight : training.weight, picked),
    after: rowOf(last.embeddingWeight, picked),
    grad: rowOf(last.grad, picked),
    headGrad: training.head === 'tied' ? rowOf(last.headGrad, picked) : null,
    named: Array.from(last.inputs).includes(picked),
    stateBefore: stateOf(previous),
    stateAfter: stateOf(last),
  };
}

export function createTrainSession(lab, now = () => performance.now()) {
  let current = null; // { key, training, watched, log: light steps, last, previous }

  function open({ key, plan }) {
    current?.training.delete();
    current = null;
    const { seed, vocab, dim, ids, ...options } = plan;
    const training = lab.windowTraining(seed, vocab, dim, ids, options);
    const watched = [...new Set(Array.from(plan.ids))].sort((a, b) => a - b);
    current = { key, training, watched, log: [], last: null, previous: null };
  }

  function step() {
    const s = current.training.step({ details: true });
    current.previous = current.last;
    current.last = s;
    current.log.push({
      step: s.step,
      epoch: s.epoch,
      batch: s.batch,
      windows: Array.from(s.windows),
      loss: s.loss,
      changedCount: s.changed.rows.length,
      changed: changedAmong(s.changed, current.watched),
    });
  }

  return {
    // The reply to a request (see above); throws the core's EmbedlabError for a plan it refuses.
    run(request) {
      if (current?.key !== request.key || request.steps < current.log.length) open(request);
      const { training, watched } = current;
      const start = now();
      while (current.log.length < request.steps) {
        step();
        if (now() - start >= request.budgetMs) break;
      }
      const { last, previous, log } = current;
      const since = Math.min(request.since, log.length);
      const picked = watched.includes(request.picked) ? request.picked : watched[0];
      return {
        key: request.key,
        taken: log.length,
        info:
          since === 0
            ? {
                vocab: training.vocab,
                dim: training.dim,
                windows: training.windows,
                batchesPerEpoch: training.batchesPerEpoch,
                watched,
                weight: rowsOf(training.weight, watched),
                positionWeight: training.positionWeight,
              }
            : null,
        steps: log.slice(since),
        weight: rowsOf(last ? last.embeddingWeight : training.weight, watched),
        positionWeight: last ? last.positionWeight : training.positionWeight,
        update: last ? updateOf(training, picked, last, previous) : null,
        predictions: training.predict(request.topK),
        whole: request.whole
          ? {
              token: last ? last.embeddingWeight : training.weight,
              position: last ? last.positionWeight : training.positionWeight,
            }
          : null,
      };
    },
    discard() {
      current?.training.delete();
      current = null;
    },
  };
}

// The typed arrays a reply holds, for postMessage's transfer list: only its own copies (the
// session keeps the last steps' matrices, which a transfer would empty).
export function replyBuffers(reply) {
  const buffers = [reply.weight.data.buffer, reply.predictions.ids.buffer];
  buffers.push(reply.predictions.probabilities.buffer);
  if (reply.info) buffers.push(reply.info.weight.data.buffer);
  return buffers;
}
