// The steps of the picture's stepper (views/picture/), and what each says in plain words.
// Pure: no DOM; model/picture-stepper.mjs moves through them.
//   product   one step per drawn row r of W (a skipped run of rows is one step): r times its
//             one-hot entry, added to the running sum in out's row; then a last step: only
//             row idx[k] survived
//   lookup    two steps: idx[k] names row idx[k] of W, then that row is copied to out
//   backward  one step per drawn token (a skipped run of tokens is one step), in position
//             order: row k of G is added into row idx[k] of dW; then a last step: dW

import { count } from './format-number.mjs';

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
// equation it draws and a caption, then the last step's; { equation, caption } each, and on the
// steps before row id's, a question to the learner: predict { k, answer: id, choices: the rows
// of W the steps name }, which row of W out[k] will be.
export function productStory({ ids, vocab, dim }, k, steps) {
  const id = ids[k];
  const n = ids.length;
  const predict = {
    k,
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
          `… ${count(s.rows)} more rows × 0 …: rows ${count(s.from)} to ${count(s.to)} of W ` +
          `are each multiplied by 0 and add nothing to out[${k}].`,
        ...asked,
      };
    }
    if (s.from === id) {
      return {
        equation: `1 · W[${id}] = W[${id}]`,
        caption: `Row ${id} of W is multiplied by one_hot[${k}, ${id}] = 1: it is added to out[${k}] whole.`,
      };
    }
    return {
      equation: `0 · W[${s.from}] = 0`,
      caption: `Row ${s.from} of W is multiplied by one_hot[${k}, ${s.from}] = 0: it adds nothing to out[${k}].`,
      ...asked,
    };
  });
  const others = vocab - 1;
  return [
    ...told,
    {
      equation: `out[${k}] = W[${id}]`,
      caption:
        `Only row ${id} survived: out[${k}] = W[${id}], the lookup's row. The other ` +
        `${count(others)} ${others === 1 ? 'row' : 'rows'} of W cost ${count(others * dim)} ` +
        `multiply-adds by zero for this token, n·(V−1)·d = ${count(n * others * dim)} for all ` +
        `${count(n)} tokens.`,
    },
  ];
}

// What the picture says to a learner who predicted row `picked` of W for out[k].
export function predictReply({ k, answer }, picked) {
  if (picked === answer) {
    return (
      `W[${answer}]: right. one_hot[${k}, ${answer}] = 1 is the only 1 of its row, so row ` +
      `${answer} is the only row of W that survives.`
    );
  }
  return (
    `Not W[${picked}]: one_hot[${k}, ${picked}] = 0, so row ${picked} of W adds nothing to ` +
    `out[${k}]. The 1 is in column ${answer}: out[${k}] = W[${answer}].`
  );
}

// The lookup's two steps for token k.
export function lookupStory({ ids, dim }, k) {
  const id = ids[k];
  return [
    {
      equation: `idx[${k}] = ${id}`,
      caption: `Token ${k} has id ${id}: the lookup goes straight to row ${id} of W, with no one-hot.`,
    },
    {
      equation: `out[${k}] = W[${id}]`,
      caption:
        `Row ${id} of W is copied into out[${k}]: ${count(dim)} copies and 0 multiply-adds, ` +
        'the same numbers as the product.',
    },
  ];
}

// The backward pass's story (steps: backwardSteps()): each token's row of G added into the row
// of dW its id names, a repeated id collecting more than one; then dW itself.
export function backwardStory({ ids, vocab, dim }, steps) {
  const n = ids.length;
  const told = steps.map((s) => {
    if (s.from !== s.to) {
      return {
        equation: `dW[idx[${s.from}…${s.to}]] += G[${s.from}…${s.to}]`,
        caption:
          `… ${count(s.to - s.from + 1)} more tokens …: rows ${count(s.from)} to ${count(s.to)} ` +
          'of G are each added into the row of dW their id names.',
      };
    }
    const t = s.from;
    const id = ids[t];
    const earlier = [];
    for (let j = 0; j < t; ++j) if (ids[j] === id) earlier.push(j);
    if (earlier.length === 0) {
      return {
        equation: `dW[${id}] += G[${t}]`,
        caption:
          `Token ${t} has id ${id}: the 1 of column ${t} of one_hot(idx)ᵀ, in row ${id}, ` +
          `adds row ${t} of G into row ${id} of dW.`,
      };
    }
    return {
      equation: `dW[${id}] = ${termsOf([...earlier, t])}`,
      caption:
        `Token ${t} has id ${id} again: the 1 of column ${t} of one_hot(idx)ᵀ, in row ${id}, ` +
        `adds row ${t} of G into row ${id} of dW, which already holds ${termsOf(earlier)}.`,
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
    },
  ];
}
