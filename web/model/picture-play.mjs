// Play in the picture (views/picture/picture.mjs): the steps each mode's motion goes through, where a
// play is at a given time, and what it has counted and summed by then. Pure: no DOM and no
// clock; the view asks for the frame at the milliseconds since Play was pressed.
//   product   one step per drawn row of W (a skipped run of rows is one step): the row slides
//             to the out row scaled by its one-hot entry, and is added to the running sum
//   lookup    two steps: the arrow from idx[k] to row idx[k] of W, then that row copied to out
//   backward  one step per drawn token (a skipped run of tokens is one step), in position
//             order: row k of G slides back and is added into row idx[k] of dW

const PLAY_MS = 3600; // a whole play, however many steps it has
const STEP_MS = { min: 280, max: 900 }; // unless its steps would be too quick or too slow

// The rows of a run of slots (picture-layout.mjs's slotsFor(), with null for a skipped run)
// that each step covers: { slot, from, to } (inclusive), one step per slot.
function stepsOf(slots) {
  return slots.map((index, slot) =>
    index !== null
      ? { slot, from: index, to: index }
      : { slot, from: slots[slot - 1] + 1, to: slots[slot + 1] - 1 },
  );
}

// The product's steps for a token with id `id`: each with `rows`, the rows of W it covers, and
// `zeros`, those its one-hot entry 0 multiplies.
export function productSteps(vocabSlots, id) {
  return stepsOf(vocabSlots).map((s) => {
    const rows = s.to - s.from + 1;
    return { ...s, rows, zeros: rows - (id >= s.from && id <= s.to ? 1 : 0) };
  });
}

// The backward pass's steps: the token positions each adds, in order.
export const backwardSteps = (tokenSlots) => stepsOf(tokenSlots);

export const LOOKUP_STEPS = 2;

// How long each of `count` steps lasts, and the whole play: { stepMs, totalMs }.
export function playTiming(count) {
  const stepMs = Math.min(STEP_MS.max, Math.max(STEP_MS.min, PLAY_MS / count));
  return { stepMs, totalMs: stepMs * count };
}

// Where a play of `count` steps of `stepMs` is `ms` after it started: the step under way
// (`index`, count once finished) and how far into it (`progress`, 0 to 1).
export function playAt(count, stepMs, ms) {
  if (!(ms < count * stepMs)) return { index: count, progress: 0, finished: true };
  const index = Math.floor(Math.max(0, ms) / stepMs);
  return { index, progress: (Math.max(0, ms) - index * stepMs) / stepMs, finished: false };
}

// The product's multiply-adds by zero done at `at` (playAt()): d for each row of W a zero
// multiplies, counted row by row as a step goes on.
export function wastedAt(steps, dim, { index, progress }) {
  let rows = 0;
  steps.forEach((s, i) => {
    if (i < index) rows += s.zeros;
    else if (i === index) rows += Math.floor(progress * s.zeros);
  });
  return rows * dim;
}

// out[k, j] = Σ_v one_hot[k, v] · W[v, j] for the columns `dims` of a token with id `id`, summed
// in vocabulary order in float32 from +0: after[i] holds the sums once step i's rows are added.
// Every term but one is a zero times a weight (±0, or NaN for an infinite or NaN weight), and
// adding a zero is exact, so the sum is the same in any order: the GEMM's, at the end.
// weight: model/row-window.mjs's cells. Of a table held in part, the rows not on the page add
// nothing here (a zero times an Inf of theirs is the product's NaN, which out shows at the end).
export function runningSums(weight, dims, id, steps) {
  const sums = new Float32Array(dims.length); // +0
  return steps.map((s) => {
    for (let v = s.from; v <= s.to; ++v) {
      if (!weight.has(v)) continue;
      const one = v === id ? 1 : 0;
      dims.forEach((j, c) => {
        sums[c] += one * weight.at(v, j);
      });
    }
    return Float32Array.from(sums);
  });
}
