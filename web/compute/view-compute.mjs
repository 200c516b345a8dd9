// What the backward and bag views compute, apart from how they draw it, so that the compute
// worker (compute-worker.mjs) can run it beside its cached W. Arguments and results are plain
// data (typed arrays, Matrix objects), which postMessage can carry.
//   backward args: { ids, vocab, dim, seed, paddingIdx, padding }
//   bag args:      { ids, vocab, dim, offsets, mode, weights: null | { typed, values }, paddingIdx,
//                    padding }  (padding: the row padding_idx names, for the drawing)

// Backward: G = torch.randn(n, d) after torch.manual_seed(seed), the lookup's gradient (a
// scatter-add) and the one-hot route's (onehot.T @ G).
function backward(lab, weight, { ids, vocab, dim, seed, paddingIdx }) {
  const G = lab.randn(seed, ids.length, dim);
  const grad = lab.embeddingBackward(ids, G, vocab, { paddingIdx });
  const product = lab.onehotBackward(lab.oneHot(ids, vocab), G);
  return { G, grad, product, comparison: lab.compare(grad, product, 'backward') };
}

// Bag: the bags of W's rows, and for sum and mean the multi-hot M (B × V) times W with the
// one-hot route's dense GEMM (it takes any (B, V) matrix); max has no product form.
function bag(lab, weight, { ids, vocab, offsets, mode, weights, paddingIdx }) {
  const options = { mode, paddingIdx, perSampleWeights: weights?.values ?? null };
  const forward = lab.embeddingBag(weight, ids, offsets, options);
  const multihot = mode === 'max' ? null : lab.bagMatrix(ids, offsets, vocab, options);
  const product = multihot && lab.onehotProduct(multihot, weight);
  const comparison = product && lab.compare(forward.output, product, 'bag');
  return { forward, multihot, product, comparison, bags: forward.output.rows };
}

export const VIEW_COMPUTATIONS = { backward, bag };

// The multiply-adds of a view's dense route: what makes it slow.
export function viewWork(kind, args) {
  if (kind === 'backward') return args.ids.length * args.vocab * args.dim;
  return args.mode === 'max' ? 0 : args.offsets.length * args.vocab * args.dim;
}

// The typed arrays a view's result holds, for postMessage's transfer list.
export function viewBuffers(kind, computed) {
  const matrices = kind === 'backward'
    ? [computed.G, computed.grad, computed.product]
    : [computed.forward.output, computed.multihot, computed.product];
  return matrices.filter(Boolean).map((m) => m.data.buffer);
}
