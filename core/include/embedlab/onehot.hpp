#pragma once
// The nn.Linear route to the same rows: one-hot encode the ids, then a dense matrix product.
#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"

namespace embedlab {

// (n, vocab) with a single 1 per row, like F.one_hot(ids, vocab).float(). Validates first.
Matrix one_hot(const Ids& ids, Index vocab, const Limits& limits = default_limits);

// onehot (n, V) times weight (V, d) as a real dense GEMM: every one of the n*V*d
// multiply-adds is performed, including the n*(V-1)*d multiplications by zero.
// This equals Linear(V, d, bias=False) with linear.weight = weight.T.
Matrix onehot_product(const Matrix& onehot, const Matrix& weight,
                      const Limits& limits = default_limits);

// How nn.Linear stores the same parameters: (d, V), the transpose of the embedding table.
Matrix linear_weight(const Matrix& weight);

}  // namespace embedlab
