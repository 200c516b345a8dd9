#include "embedlab/backward.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "embedlab/error.hpp"
#include "embedlab/ids.hpp"
#include "embedlab/limits.hpp"
#include "embedlab/padding_idx.hpp"
#include "gemm.hpp"

namespace embedlab {
namespace {

void check_grad_rows(Index grad_rows, Index n) {
  if (grad_rows != n) {
    throw InputError(Argument::grad, "the upstream gradient has " + std::to_string(grad_rows) +
                     " rows but there are " + std::to_string(n) +
                     " ids: dL/dout must have one row per id, (n, d) = (" + std::to_string(n) +
                     ", d)");
  }
}

// acc (dim) += scale * g (dim), fused when scaled, as PyTorch's add kernel with alpha.
void add_scaled_row(float* acc, const float* g, Index dim, float scale) {
  if (scale == 1.0f) {
    for (Index j = 0; j < dim; ++j) acc[j] += g[j];
  } else {
    for (Index j = 0; j < dim; ++j) acc[j] = std::fma(g[j], scale, acc[j]);
  }
}

}  // namespace

Index check_backward_input(const Ids& ids, const Matrix& grad_output, Index vocab,
                           const EmbeddingOptions& options, const Limits& limits) {
  const auto n = static_cast<Index>(ids.size());
  check_id_count(n, limits);
  check_held_table(vocab, grad_output.cols(), limits);
  check_grad_rows(grad_output.rows(), n);
  check_ids(ids, vocab);
  return resolve_padding_idx(options.padding_idx, vocab);
}

Matrix embedding_backward(const Ids& ids, const Matrix& grad_output, Index vocab,
                          const EmbeddingOptions& options, const Limits& limits) {
  const auto n = static_cast<Index>(ids.size());
  const Index padding = check_backward_input(ids, grad_output, vocab, options, limits);

  const std::vector<Index> counts =
      options.scale_grad_by_freq ? id_counts(ids, vocab) : std::vector<Index>();
  const Index dim = grad_output.cols();
  Matrix grad = Matrix::Zero(vocab, dim);
  for (Index k = 0; k < n; ++k) {
    const Index v = ids[static_cast<std::size_t>(k)];
    if (v == padding) continue;
    // PyTorch divides in double, then hands the scale to a float kernel.
    const float scale = options.scale_grad_by_freq
                            ? static_cast<float>(1.0 / static_cast<double>(counts[v]))
                            : 1.0f;
    add_scaled_row(grad.row(v).data(), grad_output.row(k).data(), dim, scale);
  }
  return grad;
}

Matrix onehot_backward(const Matrix& onehot, const Matrix& grad_output, const Limits& limits) {
  check_grad_rows(grad_output.rows(), onehot.rows());
  check_held_table(onehot.cols(), grad_output.cols(), limits);
  // The GEMM, zeros included, added onto +0.0 as torch.mm's is: a row no id asked for is +0.0,
  // not the -0.0 that a sum of 0 * (negative) products alone would give.
  const Matrix transposed = onehot.transpose();
  Matrix grad = Matrix::Zero(onehot.cols(), grad_output.cols());
  gemm_accumulate(grad.rows(), transposed.cols(), grad.cols(), transposed.data(), transposed.cols(),
                  grad_output.data(), grad_output.cols(), grad.data(), grad.cols());
  return grad;
}

}  // namespace embedlab
