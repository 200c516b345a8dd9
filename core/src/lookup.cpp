#include "embedlab/lookup.hpp"

#include <cstring>

#include "embedlab/ids.hpp"
#include "embedlab/limits.hpp"

namespace embedlab {

Matrix lookup(const Matrix& weight, const Ids& ids) {
  check_id_count(static_cast<Index>(ids.size()));
  check_ids(ids, weight.rows());
  Matrix out(static_cast<Index>(ids.size()), weight.cols());
  gather_rows(weight.data(), weight.cols(), ids.data(), out.rows(), out.data());
  return out;
}

void gather_rows(const float* weight, Index dim, const std::int64_t* ids, Index n,
                 float* out) noexcept {
  const auto row_bytes = static_cast<std::size_t>(dim) * sizeof(float);
  for (Index k = 0; k < n; ++k) {
    std::memcpy(out + k * dim, weight + ids[k] * dim, row_bytes);
  }
}

}  // namespace embedlab
