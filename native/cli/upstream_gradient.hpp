#pragma once
// Where a walk-through's upstream gradient G = dL/dout comes from, and the table it continues:
// torch.manual_seed(seed); module = nn.Embedding(V, d, ...) (or EmbeddingBag); G = torch.randn(...)
// draws G from the same generator right after the table, as a notebook cell would.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>

#include "embedlab/torch_generator.hpp"
#include "table_source.hpp"

namespace embedlab::cli {

struct GradientOptions {
  std::string file;                  // G from a .npy file
  std::optional<std::int64_t> seed;  // torch.manual_seed(seed) before G = torch.randn(...)
};

// Registers --grad and --grad-seed.
void add_gradient_options(CLI::App& command, GradientOptions& options);

// The module's weight: a seeded table is drawn again (padding row zeroed, as nn.Embedding and
// nn.EmbeddingBag do) so that `generator` continues after it; other tables are used as they are
// and leave `generator` empty.
embedlab::Table module_weight(const Input& input, std::optional<Index> padding_idx,
                              std::optional<TorchGenerator>& generator);

struct UpstreamGradient {
  Matrix g;          // (rows, cols)
  std::string code;  // the PyTorch line that makes it, ending in "; G"
};

// G from the file, or torch.randn(rows, cols): from `generator` if it is set and no seed was
// given, else after torch.manual_seed(seed, default 123).
UpstreamGradient upstream_gradient(const GradientOptions& options, Index rows, Index cols,
                                   std::optional<TorchGenerator>& generator);

}  // namespace embedlab::cli
