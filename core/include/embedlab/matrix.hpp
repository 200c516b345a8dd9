#pragma once
// The types every part of the core shares.
#include <Eigen/Core>
#include <cstdint>
#include <vector>

namespace embedlab {

using Index = std::int64_t;
// Row-major float32, like a contiguous torch tensor: W is (V, d), W(i, :) is token i's row.
using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
// Token ids as PyTorch holds them (int64); signed so that a typed -1 can be reported, not wrapped.
using Ids = std::vector<std::int64_t>;

}  // namespace embedlab
