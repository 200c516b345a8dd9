#include "embedlab/max_norm.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "embedlab/error.hpp"
#include "embedlab/ids.hpp"
#include "embedlab/limits.hpp"
#include "embedlab/lookup.hpp"

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
    throw InputError(Argument::max_norm, "max_norm must be a positive number, got " +
                                             std::to_string(max_norm) +
                                             ": rows whose norm exceeds it are scaled down to it");
  }
  if (!(norm_type > 0.0)) {
    throw InputError(Argument::norm_type,
                     "norm_type must be positive (2 is the Euclidean norm, inf the largest |x|), "
                     "got " +
                         std::to_string(norm_type));
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

namespace {

// The rows of W that max_norm scales, scaled: of `rows` (the distinct ids, ascending), whose
// values are `values`.
std::pair<Ids, Matrix> renormed_rows(const Ids& rows, const Matrix& values, double max_norm,
                                     double norm_type) {
  Ids scaled;
  Matrix scaled_values(static_cast<Index>(rows.size()), values.cols());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const float* row = values.row(static_cast<Index>(k)).data();
    const double norm = row_norm(row, values.cols(), norm_type);
    if (norm > max_norm) {
      const auto scale = static_cast<float>(max_norm / (norm + 1e-7));
      float* out = scaled_values.row(static_cast<Index>(scaled.size())).data();
      for (Index j = 0; j < values.cols(); ++j) out[j] = row[j] * scale;
      scaled.push_back(rows[k]);
    }
  }
  scaled_values.conservativeResize(static_cast<Index>(scaled.size()), Eigen::NoChange);
  return {scaled, scaled_values};
}

// The distinct ids, ascending, once the ids and the arguments are checked.
Ids renorm_rows(const Ids& ids, Index vocab, double max_norm, double norm_type,
                const Limits& limits) {
  check_id_count(static_cast<Index>(ids.size()), limits);
  check_ids(ids, vocab);
  check_renorm_arguments(max_norm, norm_type);
  return distinct_ids(ids);
}

}  // namespace

Ids embedding_renorm(Matrix& weight, const Ids& ids, double max_norm, double norm_type,
                     const Limits& limits) {
  const Ids rows = renorm_rows(ids, weight.rows(), max_norm, norm_type, limits);
  const auto [scaled, values] =
      renormed_rows(rows, lookup(weight, rows, limits), max_norm, norm_type);
  for (std::size_t k = 0; k < scaled.size(); ++k)
    weight.row(scaled[k]) = values.row(static_cast<Index>(k));
  return scaled;
}

Ids embedding_renorm(Table& weight, const Ids& ids, double max_norm, double norm_type,
                     const Limits& limits) {
  const Ids rows = renorm_rows(ids, weight.rows(), max_norm, norm_type, limits);
  const auto [scaled, values] =
      renormed_rows(rows, lookup(weight, rows, limits), max_norm, norm_type);
  if (!scaled.empty()) weight = weight.with_rows(scaled, values);
  return scaled;
}

}  // namespace embedlab
