#pragma once
// The embedding forward pass: a row gather.
#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"
#include "embedlab/table.hpp"

namespace embedlab {

// (n, d) rows W(ids[k], :). Validates ids against W's rows first.
Matrix lookup(const Matrix& weight, const Ids& ids, const Limits& limits = default_limits);
// The same from a table handle: reads its n rows and nothing else.
Matrix lookup(const Table& weight, const Ids& ids, const Limits& limits = default_limits);

// The trusted kernel behind lookup(): out(k, :) = weight(ids[k], :), for ids already checked.
// weight is (vocab, dim) row-major, out is (n, dim) row-major.
void gather_rows(const float* weight, Index dim, const std::int64_t* ids, Index n,
                 float* out) noexcept;

}  // namespace embedlab
