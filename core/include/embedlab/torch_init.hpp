#pragma once
// Modules and tensor factories initialised as PyTorch does, drawing from one generator in
// construction order, so `manual_seed(123); Embedding(4, 5)` gives the notebook's numbers.
#include <cstdint>
#include <optional>

#include "embedlab/limits.hpp"
#include "embedlab/torch_generator.hpp"

namespace embedlab {

// Shape errors name Argument::grad: here a random tensor is the upstream gradient G = randn(n, d).
Matrix torch_randn(TorchGenerator& gen, Index rows, Index cols,
                   const Limits& limits = default_limits);
Matrix torch_rand(TorchGenerator& gen, Index rows, Index cols,
                  const Limits& limits = default_limits);

// torch.empty((), dtype=torch.int64).random_(): random64() % 2^63, a seed DataLoader draws.
std::int64_t torch_random_int64(TorchGenerator& gen);
// torch.randperm(n, generator=gen) on the CPU: 0..n-1, then for i < n - 1 a swap of element i
// with element i + random() % (n - i). n is at least 1 and at most limits.max_ids (an InputError
// of batch_size otherwise: the loader's windows are what it permutes).
Ids torch_randperm(TorchGenerator& gen, Index n, const Limits& limits = default_limits);

// nn.Embedding(vocab, dim, padding_idx): normal_(0, 1), then the padding row zeroed.
Matrix init_embedding(TorchGenerator& gen, Index vocab, Index dim,
                      std::optional<Index> padding_idx = std::nullopt,
                      const Limits& limits = default_limits);

// nn.Linear(in, out, bias): weight (out, in) kaiming_uniform_(a = sqrt(5)), then bias (1, out).
struct LinearParams {
  Matrix weight;  // (out, in)
  Matrix bias;    // (1, out), or empty (0 x 0) without bias
};
LinearParams init_linear(TorchGenerator& gen, Index in_features, Index out_features,
                         bool bias = true, const Limits& limits = default_limits);

}  // namespace embedlab
