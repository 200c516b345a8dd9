#pragma once
// The backward walk-through: the gradient of the lookup (a scatter-add) next to the gradient of
// the one-hot product (onehot^T @ G), for an upstream gradient G drawn like torch.randn.
#include <CLI/CLI.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "table_source.hpp"
#include "upstream_gradient.hpp"

namespace embedlab::cli {

struct BackwardOptions {
  GradientOptions gradient;  // G (n, d)
  std::optional<Index> padding_idx;
  bool scale_grad_by_freq = false;
  std::optional<double> max_norm;
  double norm_type = 2.0;
};

// Registers --grad, --grad-seed, --padding-idx, --scale-grad-by-freq, --max-norm, --norm-type.
void add_backward_options(CLI::App& command, BackwardOptions& options);

// G's draw order: see upstream_gradient.hpp.
void print_backward_walkthrough(const Input& input, const BackwardOptions& options,
                                std::ostream& out);

}  // namespace embedlab::cli
