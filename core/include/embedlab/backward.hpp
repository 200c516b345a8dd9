#pragma once
// Gradients of the two routes. For out = lookup(W, ids) and an upstream gradient G = dL/dout
// (n, d), dL/dW (V, d) is a scatter-add of G's rows; for out = onehot * W it is onehot^T * G.
//
// Both are the same sum of G's rows in exact arithmetic. In float32 they can differ only in the
// order of additions: the scatter-add adds an id's rows in increasing position; the GEMM adds
// all n products (1 * G or 0 * G) of a column in its own blocked order. With at most two rows
// per id the results are bit-identical for finite G (a + b == b + a, and x + 0 == x), except
// that the GEMM turns an Inf or NaN anywhere in G's column into NaN in every row (0 * Inf).
// With three or more rows per id, (a + b) + c need not equal a + (b + c).
#include <optional>

#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"
#include "embedlab/streamed.hpp"

namespace embedlab {

struct EmbeddingOptions {
  // That row receives no gradient. In [-V, V): negative counts from the end, as in PyTorch
  // (resolve_padding_idx in padding_idx.hpp gives the row).
  std::optional<Index> padding_idx;
  // Divide each row's gradient by its id's count in the batch: row v accumulates
  // fma(G(k, j), s, acc) with s = float(1.0 / count(v)), as PyTorch's CPU kernel does.
  bool scale_grad_by_freq = false;
};

// Deterministic scatter-add: row v of the result is the sum of G's rows k with ids[k] == v,
// added in increasing k starting from +0.0f, the order of PyTorch's CPU embedding backward, so
// the result is bit-identical to weight.grad there. Validates ids, shapes and padding_idx first.
Matrix embedding_backward(const Ids& ids, const Matrix& grad_output, Index vocab,
                          const EmbeddingOptions& options = {},
                          const Limits& limits = default_limits);

// The same gradient as a view (streamed.hpp): whole when it fits the limits, else the rows the
// ids name (and those `view` keeps) and a summary; for any V within the limits.
Gradient embedding_backward_view(const Ids& ids, const Matrix& grad_output, Index vocab,
                                 const EmbeddingOptions& options = {},
                                 const GradientViewOptions& view = {},
                                 const Limits& limits = default_limits);

// The checks embedding_backward runs before any arithmetic, with its messages; other backends
// (CUDA) run them before touching their device. Returns the padding row in [0, vocab), or -1.
Index check_backward_input(const Ids& ids, const Matrix& grad_output, Index vocab,
                           const EmbeddingOptions& options, const Limits& limits = default_limits);

// onehot^T (V, n) times G (n, d) as a real dense GEMM.
Matrix onehot_backward(const Matrix& onehot, const Matrix& grad_output,
                       const Limits& limits = default_limits);

}  // namespace embedlab
