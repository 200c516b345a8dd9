#pragma once
// The EmbeddingBag walk-through: bags of ids reduced to one row each (sum, mean or max), the
// same sums as a multi-hot matrix times W, and the backward.
#include <CLI/CLI.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "table_source.hpp"
#include "upstream_gradient.hpp"

namespace embedlab::cli {

struct BagWalkOptions {
  std::string offsets_text = "0";  // where each bag starts in --ids
  std::string mode = "mean";       // nn.EmbeddingBag's default
  std::string per_sample_weights_text;
  bool include_last_offset = false;
  std::optional<Index> padding_idx;
  bool scale_grad_by_freq = false;
  GradientOptions gradient;  // G (B, d)
};

// Registers --offsets, --mode, --per-sample-weights, --include-last-offset, --padding-idx,
// --scale-grad-by-freq, --grad and --grad-seed.
void add_bag_options(CLI::App& command, BagWalkOptions& options);

void print_bag_walkthrough(const Input& input, const BagWalkOptions& options, std::ostream& out);

}  // namespace embedlab::cli
