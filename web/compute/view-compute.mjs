// What the backward and bag views compute, apart from how they draw it, so that the compute
// worker (compute-worker.mjs) can run it on its table. table: the result's table handle
// (table-keeper.mjs). Arguments and results are plain data (typed arrays, Matrix objects),
// which postMessage can carry.
//   backward args: { ids, vocab, dim, seed, paddingIdx, padding }
//   bag args:      { ids, vocab, dim, offsets, mode, weights: null | { typed, values }, paddingIdx,
//                    padding }  (padding: the row padding_idx names, for the drawing)
import { HEATMAP_PIXELS, heldWhole, windowRows } from '../model/row-window.mjs';

// Each computation is begun as { run, result() }: run is the module's stepped run (wasm/tables.mjs)
// of its dense route, or null where it has none; result() gives the computation once run is done.

// Backward: G = torch.randn(n, d) after torch.manual_seed(seed), the lookup's gradient (a
// scatter-add) and the one-hot route's (onehot.T @ G), a block of rows a step. Each (V, d)
// gradient comes as the module's GradientView: whole when the page holds such a matrix whole
// (row-window.mjs), else the rows the view draws and a heatmap of the whole.
function backward(lab, table, { ids, vocab, dim, seed, paddingIdx }) {
  const G = lab.randn(seed, ids.length, dim);
  const view = heldWhole(vocab, dim)
    ? {}
    : { whole: false, keepRows: windowRows(vocab, ids), heatmap: HEATMAP_PIXELS };
  const run = table.startBackward(ids, G, { paddingIdx }, view);
  return {
    run,
    result() {
      const { gemm, comparison, notes } = run.result();
      return { G, grad: run.scatter, product: gemm, comparison, notes };
    },
  };
}

// Bag: the bags of W's rows, and for sum and mean the multi-hot M (B × V) times W, streamed a
// block of W's rows a step like the one-hot product; max has no product form.
function bag(lab, table, { ids, offsets, mode, weights, paddingIdx }) {
  const options = { mode, paddingIdx, perSampleWeights: weights?.values ?? null };
  const forward = table.embeddingBag(ids, offsets, options);
  const bags = forward.output.rows;
  if (mode === 'max') {
    return {
      run: null,
      result: () => ({ forward, multihot: null, product: null, comparison: null, bags }),
    };
  }
  const run = table.startBagProduct(ids, offsets, options);
  return {
    run,
    result() {
      const { product, comparison } = run.result();
      return {
        forward,
        multihot: table.bagMatrix(ids, offsets, options),
        product,
        comparison,
        bags,
      };
    },
  };
}

const STARTS = { backward, bag };

// The view `kind`'s computation on table begun: { run, result() } as above. The caller steps run
// until done (its blocks may come from a file: compute-worker.mjs reads ahead between them) and
// deletes it.
export const startView = (lab, table, kind, args) => STARTS[kind](lab, table, args);

// The whole computation at once.
export function viewResult(lab, table, kind, args) {
  const { run, result } = startView(lab, table, kind, args);
  try {
    while (run && !run.done) run.step(64);
    return result();
  } finally {
    run?.delete();
  }
}

// The multiply-adds of a view's dense route: what makes it slow.
export function viewWork(kind, args) {
  if (kind === 'backward') return args.ids.length * args.vocab * args.dim;
  return args.mode === 'max' ? 0 : args.offsets.length * args.vocab * args.dim;
}

// The typed arrays a view's result holds, for postMessage's transfer list.
export function viewBuffers(kind, computed) {
  const gradient = (view) => [view.whole, view.keptRows, view.heatmap];
  const matrices =
    kind === 'backward'
      ? [computed.G, ...gradient(computed.grad), ...gradient(computed.product)]
      : [computed.forward.output, computed.multihot, computed.product];
  return matrices.filter(Boolean).map((m) => m.data.buffer);
}
