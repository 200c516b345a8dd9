// The picture's backward mode: G = dL/dout flows back, and each row k of G is added into row
// idx[k] of dW = dL/dW, in position order (the lookup's gradient, a scatter-add), so that an id
// that repeats collects several rows of G. G is the Backward view's: torch.manual_seed(seed);
// torch.randn(n, d), with the same default seed; the core draws G and adds the rows.
import { MAIN_THREAD_FLOATS, MAIN_THREAD_MULTIPLY_ADDS } from '../../compute/positions-tables.mjs';
import { count } from '../../model/format-number.mjs';
import { tokenRow, vocabRow } from '../../model/picture-names.mjs';
import { backwardStory, backwardSteps, termsOf } from '../../model/picture-play.mjs';
import { ease, ghostOf, markRow, rowTexts, showValue, vectorOf } from './motion.mjs';

export const GRAD_SEED = 0; // the Backward view's default seed of G
// The most entries of G the picture computes a gradient for on the main thread, a few
// milliseconds' work; beyond, the Backward view computes it in the compute worker.
export const GRAD_BUDGET = 1 << 20;

// dW has V rows, of which only those the ids name are not zero, and each of those adds its own
// tokens' rows of G: the scatter-add over a vocabulary of just the distinct ids gives the same
// rows, bit for bit, without a V × d matrix (GPT-2's would be 150 MB). The rows of dW once the
// first `m` tokens' rows of G are added: Map(v -> Float32Array(d)).
function gradRows(lab, { distinct, compact }, G, m) {
  const d = G.cols;
  // A table handle's scatter-add: its rows do not enter the gradient, and its one-hot route is
  // never stepped.
  const table = lab.openTfTable(distinct.length, d);
  const run = table.startBackward(compact.subarray(0, m), {
    rows: m,
    cols: d,
    data: G.data.subarray(0, m * d),
  });
  const dW = run.scatter.whole;
  run.delete();
  table.delete();
  const reached = new Set(compact.subarray(0, m));
  return new Map(
    distinct.flatMap((v, i) => (reached.has(i) ? [[v, dW.data.subarray(i * d, (i + 1) * d)]] : [])),
  );
}

// G for a result: torch.manual_seed(GRAD_SEED); torch.randn(n, d), drawn once for the picture
// and its verdict alike.
const upstreams = new WeakMap(); // result -> its G
function upstreamOf(lab, result) {
  if (!upstreams.has(result))
    upstreams.set(result, lab.randn(GRAD_SEED, result.ids.length, result.dim));
  return upstreams.get(result);
}

// { G, rows (dW's rows that some token adds to), positions (id -> its positions in idx), seed },
// or null when G would be over the budget.
export function backwardGrads(lab, result) {
  const { ids, dim } = result;
  if (ids.length * dim > GRAD_BUDGET) return null;
  const G = upstreamOf(lab, result);
  const positions = new Map();
  ids.forEach((v, k) => positions.set(v, [...(positions.get(v) ?? []), k]));
  const distinct = [...positions.keys()];
  const rank = new Map(distinct.map((v, i) => [v, i]));
  const ranks = { distinct, compact: Float64Array.from(ids, (v) => rank.get(v)) };
  return { G, ranks, positions, rows: gradRows(lab, ranks, G, ids.length), seed: GRAD_SEED };
}

// The verdict of the gradient: the lookup's dW (a scatter-add) against one_hot(idx).T @ G, graded
// by the core over all V × d elements, for the picture's G; null where dW or the product is over
// what the page computes on its main thread (the Backward view computes it in the worker).
const gradientVerdicts = new WeakMap(); // result -> its gradient's comparison, or null
export function gradientComparison(lab, result) {
  if (!gradientVerdicts.has(result)) {
    const { ids, vocab, dim } = result;
    const within =
      ids.length * dim <= GRAD_BUDGET &&
      vocab * dim <= MAIN_THREAD_FLOATS &&
      ids.length * vocab * dim <= MAIN_THREAD_MULTIPLY_ADDS;
    let comparison = null;
    if (within) {
      const table = lab.openTfTable(vocab, dim); // the gradient does not read W
      ({ comparison } = table.backward(ids, upstreamOf(lab, result)));
      table.delete();
    }
    gradientVerdicts.set(result, comparison);
  }
  return gradientVerdicts.get(result);
}

export const backwardMode = {
  label: 'Backward',
  title: 'Backward: two routes, one gradient', // the heading of the section that shows the picture
  name: 'dW = one_hot(idx)ᵀ @ G',
  counts({ ids, vocab, dim }) {
    const n = ids.length;
    return [
      ['useful', ['additions', ' (scatter-add)'], 'n·d', count(n * dim)],
      ['wasted', ['onehot.T @ G by zero', ''], 'n·(V−1)·d', count(n * (vocab - 1) * dim)],
    ];
  },
  story: (result, step, slots) => backwardStory(result, backwardSteps(slots.tokens)),
  // Each drawn token's row of G slides into its row of dW, the row of one_hotᵀ whose 1 picks
  // it, and dW's row shows its running sum (from the core: the scatter-add of the tokens so
  // far); a skipped run of tokens adds at once.
  player({ lab, result, scene, at, slots, wanted, grads, colors }) {
    const { ids, dim } = result;
    const steps = backwardSteps(slots.tokens);
    const after = steps.map((s) => gradRows(lab, grads.ranks, grads.G, s.to + 1));
    const zero = new Float32Array(scene.shownDims.length);
    const drawnRow = (rows, v) =>
      rows.has(v) ? Float32Array.from(scene.shownDims, (j) => rows.get(v)[j]) : zero;
    const drawn = [...scene.vocabY.keys()];
    const texts = after.map((rows) =>
      rowTexts(
        lab,
        scene,
        drawn.map((v) => drawnRow(rows, v)),
      ),
    );
    const zeroTexts = rowTexts(lab, scene, [zero])[0];
    const template = slots.tokens.find((t) => t !== null); // a drawn token: a run's ghost's cells
    return {
      // Step `index` with its move `moved` of the way done; the last step: at rest.
      apply(index, moved) {
        if (index >= steps.length) return null;
        const done = moved === 1 ? index : index - 1; // the last step whose rows are in dW
        const rows = done >= 0 ? after[done] : new Map();
        for (const c of scene.cells) {
          if (c.grid !== 'grad') continue;
          const reached = rows.has(c.v);
          c.dimmed = !reached;
          showValue(
            scene,
            c,
            reached ? rows.get(c.v)[scene.shownDims[c.column]] : 0,
            reached ? texts[done][drawn.indexOf(c.v)][c.column] : zeroTexts[c.column],
            colors,
          );
        }
        const s = steps[index];
        const k = s.from === s.to ? s.from : template;
        const to = scene.vocabY.get(ids[k]);
        markRow(scene, 'onehot', (c) => c.k === k && c.one, colors.token(k));
        markRow(scene, 'upstream', (c) => c.k === k, colors.token(k));
        markRow(scene, 'grad', (c) => c.v === ids[k], colors.token(k));
        if (moved < 1) {
          const p = ease(moved);
          const from = scene.tokenY.get(k) ?? at.tokenY.at[s.slot];
          scene.ghosts.push(
            ghostOf(scene, 'upstream', (c) => c.k === k, {
              x: at.weightX.at[0] + p * (at.outX.at[0] - at.weightX.at[0]),
              y: from + p * (to - from),
              scale: 1,
              label: s.from === s.to ? `G[${k}]` : `G[${s.from}–${s.to}]`,
              blank: s.from !== s.to,
            }),
          );
        }
        const added = done >= 0 ? steps[done].to + 1 : 0;
        const progress = `${count(added)} of ${count(ids.length)} rows of G added into dW`;
        if (s.from !== s.to) return { arrows: added, detail: `${progress}.` };
        // The row of dW this step's token adds into, as it accumulates: the words follow the
        // step, as its caption does.
        const id = ids[k];
        const terms = grads.positions.get(id).filter((position) => position < added);
        // Spelled in the columns slotsFor() picks, also where fewer are drawn.
        const sum = rows.get(id);
        const [row] = rowTexts(lab, scene, [
          Float32Array.from(
            wanted.dim.filter((j) => j !== null),
            (j) => sum?.[j] ?? 0,
          ),
        ]);
        return {
          arrows: added,
          detail:
            `${tokenRow('G', k, id)} → ${vocabRow('dW', id)}: ${progress}, ` +
            `${count(added * dim)} additions so far; ${vocabRow('dW', id)} = ` +
            `${terms.length > 0 ? `${termsOf(terms)} = ` : ''}${vectorOf(row, wanted.dim)}`,
        };
      },
    };
  },
};
