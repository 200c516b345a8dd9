#pragma once
// Gradients of the two routes. For out = lookup(W, ids) and an upstream gradient G = dL/dout
// (n, d), dL/dW (V, d) is a scatter-add of G's rows; for out = onehot * W it is onehot^T * G.
#include <optional>

#include "embedlab/matrix.hpp"

namespace embedlab {

struct EmbeddingOptions {
  std::optional<Index> padding_idx;  // that row receives no gradient
  bool scale_grad_by_freq = false;   // divide each row's gradient by its id's count in the batch
};

// Deterministic scatter-add: row v of the result is the sum of G's rows k with ids[k] == v,
// added in increasing k. Validates ids, shapes and padding_idx first.
Matrix embedding_backward(const Ids& ids, const Matrix& grad_output, Index vocab,
                          const EmbeddingOptions& options = {});

// onehot^T (V, n) times G (n, d) as a real dense GEMM.
Matrix onehot_backward(const Matrix& onehot, const Matrix& grad_output);

}  // namespace embedlab
