// The steps of the picture's stepper (views/picture/), and what each says in plain words.
// Pure: no DOM; model/picture-stepper.mjs moves through them.
//   product   one step per drawn row r of W (a skipped run of rows is one step): r times its
//             one-hot entry, added to the running sum in out's row; then a last step: only
//             row idx[k] survived
//   lookup    two steps: idx[k] names row idx[k] of W, then that row is copied to out
//   backward  one step per drawn token (a skipped run of tokens is one step), in position
//             order: row k of G is added into row idx[k] of dW; then a last step: dW

import { count } from './format-number.mjs';
import { tokenRow, vocabRow } from './picture-names.mjs';

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

// "G[0] + G[2]": the rows of G that a row of dW adds (their positions), summarised beyond 6.
export function termsOf(positions) {
  const shown =
    positions.length <= 6 ? positions : [...positions.slice(0, 5), null, positions.at(-1)];
  return shown.map((k) => (k === null ? '…' : `G[${k}]`)).join(' + ');
}

// The product's story for token k of `ids` (steps: productSteps()): for each step, the
// equation it draws and a caption, then the last step's; { equation, caption, row (the row of
// W it multiplies, or null) } each, and on the steps before row id's, a question to the
// learner: predict { k, id, answer: id, choices: the rows of W the steps name }, which row of W
// out[k] will be. Rows and tokens are named as picture-names.mjs names them.
export function productStory({ ids, vocab, dim }, k, steps) {
  const id = ids[k];
  const n = ids.length;
  const out = tokenRow('out', k, id);
  const predict = {
    k,
    id,
    answer: id,
    choices: steps.filter((s) => s.from === s.to).map((s) => s.from),
  };
  const reveal = steps.findIndex((s) => s.from === id);
  const told = steps.map((s, i) => {
    const asked = i < reveal ? { predict } : {};
    if (s.from !== s.to) {
      return {
        equation: `0 · W[${s.from}…${s.to}] = 0`,
        caption:
          `… ${count(s.rows)} more rows × 0 …: ${vocabRow('W', s.from)} to ${vocabRow('W', s.to)} ` +
          `are each multiplied by 0 and add nothing to ${out}.`,
        row: null,
        ...asked,
      };
    }
    const W = vocabRow('W', s.from);
    if (s.from === id) {
      return {
        equation: `1 · ${W} = ${W}`,
        caption: `${W} is multiplied by one_hot[${k}, ${id}] = 1: it is added to ${out} whole.`,
        row: s.from,
      };
    }
    return {
      equation: `0 · ${W} = 0`,
      caption: `${W} is multiplied by one_hot[${k}, ${s.from}] = 0: it adds nothing to ${out}.`,
      row: s.from,
      ...asked,
    };
  });
  const others = vocab - 1;
  const W = vocabRow('W', id);
  return [
    ...told,
    {
      equation: `out[${k}] = ${W}`,
      caption:
        `Only ${W} survived: ${out} = ${W}, the lookup's row. The other ` +
        `${count(others)} ${others === 1 ? 'row' : 'rows'} of W cost ${count(others * dim)} ` +
        `multiply-adds by zero for this token, n·(V−1)·d = ${count(n * others * dim)} for all ` +
        `${count(n)} tokens.`,
      row: null,
    },
  ];
}

// The question asked before the row that survives is shown.
export const predictQuestion = ({ k, id }) =>
  `Predict: which row of W will ${tokenRow('out', k, id)} be?`;

// What the picture says to a learner who predicted row `picked` of W for out[k]: right, or why
// not, without the answer (they try again).
export function predictReply({ k, id, answer }, picked) {
  const out = tokenRow('out', k, id);
  if (picked === answer) {
    return (
      `${vocabRow('W', answer)}: right. one_hot[${k}, ${answer}] = 1 is the only 1 of ${out}'s ` +
      `one-hot row, so ${vocabRow('W', answer)} is the only row of W that survives.`
    );
  }
  const why =
    picked === k && k !== id
      ? ` ${k} is the token's position in idx, not its id: one_hot's columns, and W's rows, are ids.`
      : '';
  return (
    `Not ${vocabRow('W', picked)}: one_hot[${k}, ${picked}] = 0, so ${vocabRow('W', picked)} is ` +
    `multiplied by 0 and adds nothing to ${out}.${why} Find the 1 in one_hot's row [${k}], and ` +
    'try again.'
  );
}

// The lookup's two steps for token k.
export function lookupStory({ ids, dim }, k) {
  const id = ids[k];
  const out = tokenRow('out', k, id);
  const W = vocabRow('W', id);
  return [
    {
      equation: `idx[${k}] = ${id}`,
      caption: `${out}: the lookup goes straight to ${W}, with no one-hot.`,
      row: id,
    },
    {
      equation: `out[${k}] = ${W}`,
      caption:
        `${W} is copied into ${out}: ${count(dim)} copies and 0 multiply-adds, ` +
        'the same numbers as the product.',
      row: id,
    },
  ];
}

// The backward pass's story (steps: backwardSteps()): each token's row of G added into the row
// of dW its id names, a repeated id collecting more than one; then dW itself. Each step's
// `token`: the token it adds (null for a run, and at the end).
export function backwardStory({ ids, vocab, dim }, steps) {
  const n = ids.length;
  const told = steps.map((s) => {
    if (s.from !== s.to) {
      return {
        equation: `dW[idx[${s.from}…${s.to}]] += G[${s.from}…${s.to}]`,
        caption:
          `… ${count(s.to - s.from + 1)} more tokens …: G[${count(s.from)}] to G[${count(s.to)}] ` +
          'are each added into the row of dW their id names.',
        token: null,
      };
    }
    const t = s.from;
    const id = ids[t];
    const G = tokenRow('G', t, id);
    const dW = vocabRow('dW', id);
    const earlier = [];
    for (let j = 0; j < t; ++j) if (ids[j] === id) earlier.push(j);
    const how = `its column of one_hot(idx)ᵀ holds its 1 at id ${id}, so G[${t}] is added into ${dW}`;
    if (earlier.length === 0) {
      return { equation: `${dW} += G[${t}]`, caption: `${G}: ${how}.`, token: t };
    }
    return {
      equation: `${dW} = ${termsOf([...earlier, t])}`,
      caption: `${G} again: ${how}, which already holds ${termsOf(earlier)}.`,
      token: t,
    };
  });
  const named = new Set(ids).size;
  return [
    ...told,
    {
      equation: 'dW = one_hot(idx)ᵀ @ G',
      caption:
        `dW = one_hot(idx)ᵀ @ G: only the ${count(named)} ${named === 1 ? 'row' : 'rows'} ` +
        `the ids name are not zero, the other ${count(vocab - named)} stay 0. The scatter-add ` +
        `made n·d = ${count(n * dim)} additions; the matmul spends n·(V−1)·d = ` +
        `${count(n * (vocab - 1) * dim)} multiply-adds on zeros.`,
      token: null,
    },
  ];
}
