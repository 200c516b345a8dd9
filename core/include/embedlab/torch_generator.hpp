#pragma once
// PyTorch's CPU generator (MT19937 plus its float32 uniform_/normal_ kernels), reproduced bit
// for bit for x86-64 with AVX2 (docs/pytorch-rng.md describes the algorithm).
#include <array>
#include <cstdint>
#include <optional>

#include "embedlab/matrix.hpp"

namespace embedlab {

// The notebooks' seed, torch.manual_seed(123): where a walk-through's draws start by default.
inline constexpr std::int64_t kNotebookSeed = 123;

class TorchGenerator {
 public:
  // torch.manual_seed(seed): negative seeds wrap to uint64 as in PyTorch; the low 32 bits seed MT.
  explicit TorchGenerator(std::int64_t seed = 67280421310721LL);
  void manual_seed(std::int64_t seed);

  std::uint32_t random();    // one 32-bit draw
  std::uint64_t random64();  // two draws, first is the high word

  // Tensor.uniform_(from, to) / normal_(mean, std) on a contiguous float32 buffer of n elements.
  void uniform(float* out, Index n, double from, double to);
  void normal(float* out, Index n, double mean, double std);

 private:
  std::array<std::uint32_t, 624> state_{};
  int next_ = 0;
  int left_ = 1;
  std::optional<double> cached_normal_;  // the serial normal path's spare sample
};

}  // namespace embedlab
