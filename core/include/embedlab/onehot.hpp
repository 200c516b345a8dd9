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
// The GEMM's blocking is fixed, so the same product streamed through a table (streamed.hpp)
// gives the same bits. On a finite table every order of additions gives the lookup's rows (with
// -0.0 as +0.0), so this is Eigen's own product bit for bit. Where a column of W holds an Inf or
// a NaN, which NaN the sum ends with depends on the order of its additions: Eigen's own product
// picks its blocking from the sizes and the CPU's caches (and below 20 rows + columns + depth
// computes coefficient by coefficient), so there, and only there, its bits can differ.
Matrix onehot_product(const Matrix& onehot, const Matrix& weight,
                      const Limits& limits = default_limits);

// How nn.Linear stores the same parameters: (d, V), the transpose of the embedding table.
Matrix linear_weight(const Matrix& weight);

}  // namespace embedlab
