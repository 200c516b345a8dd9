#include "embedlab/backward.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
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
                                         " ids: dL/dout must have one row per id, (n, d) = (" +
                                         std::to_string(n) + ", d)");
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

namespace {

// check_backward_input but for the held (V, d) result.
Index checked_padding(const Ids& ids, const Matrix& grad_output, Index vocab,
                      const EmbeddingOptions& options, const Limits& limits) {
  check_id_count(static_cast<Index>(ids.size()), limits);
  check_table_shape(vocab, grad_output.cols(), limits);
  check_grad_rows(grad_output.rows(), static_cast<Index>(ids.size()));
  check_ids(ids, vocab);
  return resolve_padding_idx(options.padding_idx, vocab);
}

// The scatter-add into the rows the ids name: row k of the result is row rows[k] of dL/dW
// (rows ascending, distinct); every other row of dL/dW is +0.0.
struct ScatteredRows {
  Ids rows;
  Matrix values;
};

ScatteredRows scatter_rows(const Ids& ids, const Matrix& grad_output, Index vocab, Index padding,
                           const EmbeddingOptions& options) {
  ScatteredRows out{distinct_ids(ids), Matrix()};
  out.values = Matrix::Zero(static_cast<Index>(out.rows.size()), grad_output.cols());
  const std::vector<Index> counts =
      options.scale_grad_by_freq ? id_counts(ids, vocab) : std::vector<Index>();
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const Index v = ids[k];
    if (v == padding) continue;
    // PyTorch divides in double, then hands the scale to a float kernel.
    const float scale = options.scale_grad_by_freq
                            ? static_cast<float>(1.0 / static_cast<double>(counts[v]))
                            : 1.0f;
    const auto row = std::lower_bound(out.rows.begin(), out.rows.end(), v) - out.rows.begin();
    add_scaled_row(out.values.row(row).data(), grad_output.row(static_cast<Index>(k)).data(),
                   grad_output.cols(), scale);
  }
  return out;
}

}  // namespace

Index check_backward_input(const Ids& ids, const Matrix& grad_output, Index vocab,
                           const EmbeddingOptions& options, const Limits& limits) {
  const Index padding = checked_padding(ids, grad_output, vocab, options, limits);
  check_held_table(vocab, grad_output.cols(), limits);
  return padding;
}

Matrix embedding_backward(const Ids& ids, const Matrix& grad_output, Index vocab,
                          const EmbeddingOptions& options, const Limits& limits) {
  const Index padding = check_backward_input(ids, grad_output, vocab, options, limits);
  const ScatteredRows scattered = scatter_rows(ids, grad_output, vocab, padding, options);
  Matrix grad = Matrix::Zero(vocab, grad_output.cols());
  for (std::size_t k = 0; k < scattered.rows.size(); ++k)
    grad.row(scattered.rows[k]) = scattered.values.row(static_cast<Index>(k));
  return grad;
}

Gradient embedding_backward_view(const Ids& ids, const Matrix& grad_output, Index vocab,
                                 const EmbeddingOptions& options, const GradientViewOptions& view,
                                 const Limits& limits) {
  const Index padding = checked_padding(ids, grad_output, vocab, options, limits);
  ScatteredRows scattered = scatter_rows(ids, grad_output, vocab, padding, options);
  return sparse_gradient(vocab, std::move(scattered.rows), std::move(scattered.values), view,
                         limits);
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
