// Tensor factories and module initialisers in PyTorch's order of draws
// (docs/pytorch-rng.md, section 7).
#include "embedlab/torch_init.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "embedlab/error.hpp"
#include "embedlab/limits.hpp"
#include "embedlab/padding_idx.hpp"

namespace embedlab {
namespace {

// A (rows, cols) factory result: both at least 1 and the whole within the element limit.
void check_factory_shape(Index rows, Index cols, const char* what, const Limits& limits) {
  if (rows < 1 || cols < 1) {
    throw InputError(Argument::grad, std::string(what) +
                                         ": rows and cols must be at least 1, got " +
                                         std::to_string(rows) + " x " + std::to_string(cols));
  }
  check_elements(rows, cols, Argument::grad, what, limits);
}

}  // namespace

Matrix torch_randn(TorchGenerator& gen, Index rows, Index cols, const Limits& limits) {
  check_factory_shape(rows, cols, "randn", limits);
  Matrix m(rows, cols);
  gen.normal(m.data(), m.size(), 0.0, 1.0);
  return m;
}

Matrix torch_rand(TorchGenerator& gen, Index rows, Index cols, const Limits& limits) {
  check_factory_shape(rows, cols, "rand", limits);
  Matrix m(rows, cols);
  gen.uniform(m.data(), m.size(), 0.0, 1.0);
  return m;
}

std::int64_t torch_random_int64(TorchGenerator& gen) {
  return static_cast<std::int64_t>(gen.random64() % (std::uint64_t{1} << 63));
}

Ids torch_randperm(TorchGenerator& gen, Index n, const Limits& limits) {
  if (n < 1 || n > limits.max_ids) {
    throw InputError(Argument::batch_size, "randperm: n must be between 1 and " +
                                               std::to_string(limits.max_ids) + ", got " +
                                               std::to_string(n));
  }
  Ids out(static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = i;
  for (Index i = 0; i + 1 < n; ++i) {
    const auto z = static_cast<Index>(gen.random() % static_cast<std::uint32_t>(n - i));
    std::swap(out[static_cast<std::size_t>(i)], out[static_cast<std::size_t>(i + z)]);
  }
  return out;
}

Matrix init_embedding(TorchGenerator& gen, Index vocab, Index dim, std::optional<Index> padding_idx,
                      const Limits& limits) {
  check_held_table(vocab, dim, limits);
  const Index padding_row = resolve_padding_idx(padding_idx, vocab);
  Matrix w(vocab, dim);
  gen.normal(w.data(), w.size(), 0.0, 1.0);
  if (padding_row >= 0) w.row(padding_row).setZero();
  return w;
}

// Section 7.2: kaiming_uniform_(a = sqrt(5)) then the bias, with the bounds computed in doubles
// in Python's order, so that they round to the same floats.
LinearParams init_linear(TorchGenerator& gen, Index in_features, Index out_features, bool bias,
                         const Limits& limits) {
  // Linear(V, d) is the embedding's twin, Linear(d, V) the output layer: V the larger either way.
  check_held_table(std::max(in_features, out_features), std::min(in_features, out_features),
                   limits);
  const double a = std::sqrt(5.0);
  const double gain = std::sqrt(2.0 / (1.0 + a * a));
  const double std_dev = gain / std::sqrt(static_cast<double>(in_features));
  const double bound = std::sqrt(3.0) * std_dev;

  LinearParams params;
  params.weight.resize(out_features, in_features);
  gen.uniform(params.weight.data(), params.weight.size(), -bound, bound);
  if (bias) {
    const double bias_bound = 1.0 / std::sqrt(static_cast<double>(in_features));
    params.bias.resize(1, out_features);
    gen.uniform(params.bias.data(), params.bias.size(), -bias_bound, bias_bound);
  }
  return params;
}

}  // namespace embedlab
