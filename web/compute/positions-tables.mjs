// The token and position tables of the positions and head views, and what those views compute on
// them, in the compute worker (compute-worker.mjs; on the page's thread only where no worker
// starts): drawn from a seed in the book's order (lab.openSeededPositions; GPT-2's V takes the
// module a few hundred milliseconds), given whole (the Train view's, trained:
// lab.openPositionTables), or a .safetensors checkpoint's own (lab.openCheckpointPositions:
// GPT-2's wte.weight and wpe.weight, and whether its output layer is tied), read where it lies,
// as a table file is (table-keeper.mjs). The last tables opened are kept for the next request.
// Arguments and results are plain data that postMessage carries.
//   spec:  { seed, vocab, dim, contextLength } | { checkpoint: { file or bytes, key, configText } }
//          | { trained: { key, token (V, d), position (context_length, d) or null } }
//   positions args: { batch }            -> { positions: { vocab, dim, contextLength, checkpoint }, e }
//   head args:      { batch, topK }      -> { info: (as positions), ids, head, comparison }
import { FieldError } from './plan.mjs';
import { fileSource, CANNOT_READ_HERE } from './table-keeper.mjs';
import { count } from '../model/format-number.mjs';

// Tables up to this many floats are drawn, and heads of up to this many multiply-adds run, each
// in one call of a few hundred milliseconds at most (the compute worker's other requests wait
// for it); the CLI takes any. The picture's gradient verdict, on the main thread, keeps within
// them too (views/picture/backward.mjs).
export const MAIN_THREAD_FLOATS = 1 << 21;
export const MAIN_THREAD_MULTIPLY_ADDS = 1 << 27;

function openSeeded(lab, { seed, vocab, dim, contextLength }) {
  const floats = (vocab + contextLength) * dim;
  if (floats > MAIN_THREAD_FLOATS) {
    throw new FieldError(
      'dim',
      `V·d + context_length·d = ${count(floats)} floats: the page draws tables up to ` +
        `${count(MAIN_THREAD_FLOATS)} floats; \`embedlab positions\` takes any`,
    );
  }
  return lab.openSeededPositions(seed, vocab, dim, contextLength);
}

// A file (read where it lies: only a worker can) or its bytes (the element's table attribute).
function openCheckpoint(lab, { file, bytes, configText = '' }) {
  if (bytes) {
    const source = {
      size: bytes.length,
      read: (offset, length) => bytes.subarray(offset, offset + length),
    };
    return lab.openCheckpointPositions(source, configText);
  }
  if (typeof FileReaderSync === 'undefined') throw new FieldError('weights', CANNOT_READ_HERE);
  return lab.openCheckpointPositions(fileSource(file), configText);
}

const infoOf = ({ vocab, dim, contextLength, checkpoint }) => ({
  vocab,
  dim,
  contextLength,
  checkpoint,
});

// h @ rows.T with each logit's d products added one at a time, left to right, in float32: another
// order than the core's GEMM, as PyTorch's BLAS sums in yet another.
function inOrder(h, rows) {
  const data = new Float32Array(h.rows * rows.rows);
  for (let i = 0; i < h.rows; ++i) {
    for (let c = 0; c < rows.rows; ++c) {
      let sum = 0;
      for (let j = 0; j < h.cols; ++j) {
        sum = Math.fround(sum + Math.fround(h.data[i * h.cols + j] * rows.data[c * rows.cols + j]));
      }
      data[i * rows.rows + c] = sum;
    }
  }
  return { rows: h.rows, cols: rows.rows, data };
}

const COMPUTE = {
  positions: (lab, positions, { batch }) => ({
    positions: infoOf(positions),
    e: positions.embed(batch),
  }),
  // The logits and each position's top k, the printed logits graded against inOrder()'s sums.
  head(lab, positions, { batch, topK }) {
    const e = positions.embed(batch);
    const work = e.rows * e.length * positions.vocab * positions.dim;
    if (work > MAIN_THREAD_MULTIPLY_ADDS) {
      throw new FieldError(
        'ids',
        `n·V·d = ${count(work)} multiply-adds: the page runs the head up to ` +
          `${count(MAIN_THREAD_MULTIPLY_ADDS)}; \`embedlab head\` takes any`,
      );
    }
    const head = positions.head(batch, { topK });
    // W's rows at the printed columns, looked up as one-token rows.
    const rows = positions.embed(Array.from(head.columns).join(';')).tokenEmbeddings;
    const comparison = lab.compare(inOrder(e.inputEmbeddings, rows), head.logits, 'head');
    const ids = lab.parseBatches(batch).flatMap((row) => Array.from(row));
    return { info: infoOf(positions), ids, head, comparison };
  },
};

export const POSITIONS_KINDS = Object.keys(COMPUTE);

// Keeps the tables last opened; compute(kind, spec, args) runs kind's computation on spec's.
export function createPositionsKeeper(lab) {
  let kept = null; // { key, positions }

  function tablesFor(spec) {
    const { checkpoint, trained } = spec;
    const key = checkpoint
      ? `file:${checkpoint.key}:${checkpoint.configText ?? ''}`
      : trained
        ? `trained:${trained.key}`
        : `seed:${spec.seed}:${spec.vocab}:${spec.dim}:${spec.contextLength}`;
    if (kept?.key === key) return kept.positions;
    kept?.positions.delete();
    kept = null;
    const positions = checkpoint
      ? openCheckpoint(lab, checkpoint)
      : trained
        ? lab.openPositionTables(trained.token, trained.position)
        : openSeeded(lab, spec);
    kept = { key, positions };
    return positions;
  }

  return {
    compute: (kind, spec, args) => COMPUTE[kind](lab, tablesFor(spec), args),
  };
}
