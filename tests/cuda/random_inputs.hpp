#pragma once
// Random tables, ids and gradients for comparing the GPU with the CPU core.
#include <random>

#include "embedlab/matrix.hpp"

namespace embedlab::cuda_test {

inline Matrix random_matrix(Index rows, Index cols, std::mt19937& rng) {
  std::normal_distribution<float> normal(0.0f, 1.0f);
  Matrix m(rows, cols);
  for (Index i = 0; i < m.size(); ++i) m.data()[i] = normal(rng);
  return m;
}

// n ids drawn from [0, distinct) with distinct <= vocab: a small `distinct` forces repeats.
inline Ids random_ids(Index n, Index distinct, std::mt19937& rng) {
  std::uniform_int_distribution<Index> pick(0, distinct - 1);
  Ids ids(static_cast<std::size_t>(n));
  for (auto& id : ids) id = pick(rng);
  return ids;
}

inline Index uniform(Index lo, Index hi, std::mt19937& rng) {
  return std::uniform_int_distribution<Index>(lo, hi)(rng);
}

}  // namespace embedlab::cuda_test
