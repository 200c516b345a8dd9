// Tensor factories and module initialisers in PyTorch's order of draws
// (docs/pytorch-rng.md, section 7).
#include "embedlab/torch_init.hpp"

#include <cmath>
#include <string>

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
  check_held_table(in_features, out_features, limits);  // Linear(V, d) is the embedding's twin
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
