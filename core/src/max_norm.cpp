#include "embedlab/max_norm.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "embedlab/error.hpp"
#include "embedlab/ids.hpp"
#include "embedlab/limits.hpp"

namespace embedlab {
namespace {

// ReduceOpsKernel's vectorised 2-norm (AVX2: 8 lanes). The scalar tail is what GCC made of
// `sum += x * x` in Debian's build: groups of four squares computed as a vector multiply
// (rounded), then added one by one; the last one to three contracted into fmas. Checked bit
// for bit against torch 1.13.1 for d = 1..1000 (tests/torch/).
float two_norm(const float* x, Index dim) {
  constexpr Index kLanes = 8;
  float lanes[kLanes] = {};
  const Index vectorised = dim - dim % kLanes;
  for (Index i = 0; i < vectorised; i += kLanes)
    for (Index j = 0; j < kLanes; ++j) lanes[j] = std::fma(x[i + j], x[i + j], lanes[j]);
  float sum = lanes[0];
  for (Index j = 1; j < kLanes; ++j) sum += lanes[j];
  Index i = vectorised;
  for (; dim - i >= 4; i += 4) {
    for (Index j = i; j < i + 4; ++j) {
      const float square = x[j] * x[j];
      sum += square;
    }
  }
  for (; i < dim; ++i) sum = std::fma(x[i], x[i], sum);
  return std::sqrt(sum);
}

void check_renorm_arguments(double max_norm, double norm_type) {
  if (!(max_norm > 0.0) || !std::isfinite(max_norm)) {
    throw InputError(Argument::max_norm, "max_norm must be a positive number, got " + std::to_string(max_norm) +
                     ": rows whose norm exceeds it are scaled down to it");
  }
  if (!(norm_type > 0.0)) {
    throw InputError(Argument::norm_type, "norm_type must be positive (2 is the Euclidean norm, inf the largest |x|), "
                     "got " + std::to_string(norm_type));
  }
}

}  // namespace

float row_norm(const float* row, Index dim, double norm_type) {
  const auto p = static_cast<float>(norm_type);
  if (p == 2.0f) return two_norm(row, dim);
  float acc = 0.0f;
  if (p == std::numeric_limits<float>::infinity()) {
    for (Index i = 0; i < dim; ++i) {
      const float a = std::fabs(row[i]);
      acc = std::isnan(a) || std::isnan(acc) ? std::numeric_limits<float>::quiet_NaN()
                                             : std::max(acc, a);
    }
    return acc;
  }
  if (p == 1.0f) {
    for (Index i = 0; i < dim; ++i) acc += std::fabs(row[i]);
    return acc;
  }
  for (Index i = 0; i < dim; ++i) acc += std::pow(std::fabs(row[i]), p);
  return std::pow(acc, 1.0f / p);
}

Ids embedding_renorm(Matrix& weight, const Ids& ids, double max_norm, double norm_type,
                     const Limits& limits) {
  check_id_count(static_cast<Index>(ids.size()), limits);
  check_ids(ids, weight.rows());
  check_renorm_arguments(max_norm, norm_type);
  Ids rows = ids;
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  Ids scaled;
  for (auto id : rows) {
    float* row = weight.row(id).data();
    const double norm = row_norm(row, weight.cols(), norm_type);
    if (norm > max_norm) {
      const auto scale = static_cast<float>(max_norm / (norm + 1e-7));
      for (Index j = 0; j < weight.cols(); ++j) row[j] *= scale;
      scaled.push_back(id);
    }
  }
  return scaled;
}

}  // namespace embedlab
