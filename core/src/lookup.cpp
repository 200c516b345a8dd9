#include "embedlab/lookup.hpp"

#include <cstring>
#include <vector>

#include "embedlab/ids.hpp"
#include "embedlab/limits.hpp"

namespace embedlab {
namespace {

// Rows whose every cache line is requested ahead of the copy: two 3 KB rows keep ~100 cache
// misses in flight, enough to hide DRAM latency; further ahead only evicts rows before use.
constexpr Index kPrefetchRows = 2;
// Rows whose first line is requested further ahead still: in a large table a random row is
// almost always a TLB miss, and this starts its page walk early (25% faster on cold rows).
constexpr Index kTranslateAheadRows = 8;
constexpr std::size_t kCacheLine = 64;

// The hardware prefetcher follows addresses in order and cannot guess the next random id,
// so we ask for every cache line of that row ourselves (a no-op in the WASM build).
inline void prefetch_row(const float* row, std::size_t row_bytes) {
  const auto* bytes = reinterpret_cast<const char*>(row);
  for (std::size_t offset = 0; offset < row_bytes; offset += kCacheLine) {
    __builtin_prefetch(bytes + offset);
  }
}

}  // namespace

Matrix lookup(const Matrix& weight, const Ids& ids, const Limits& limits) {
  check_output_shape(static_cast<Index>(ids.size()), weight.cols(), limits);
  check_ids(ids, weight.rows());
  Matrix out(static_cast<Index>(ids.size()), weight.cols());
  gather_rows(weight.data(), weight.cols(), ids.data(), out.rows(), out.data());
  return out;
}

Matrix lookup(const Table& weight, const Ids& ids, const Limits& limits) {
  check_output_shape(static_cast<Index>(ids.size()), weight.cols(), limits);
  check_ids(ids, weight.rows());
  Matrix out(static_cast<Index>(ids.size()), weight.cols());
  std::vector<float> all;
  if (weight.in_memory() && weight.dtype() == StoredFloat::f32) {
    // Its float32 rows in place (or converted once, if it replaces some): the prefetching copy.
    const float* rows = weight.rows_at(0, weight.rows(), all);
    gather_rows(rows, weight.cols(), ids.data(), out.rows(), out.data());
  } else {
    for (Index k = 0; k < out.rows(); ++k) weight.read_rows(ids[k], 1, out.row(k).data());
  }
  return out;
}

void gather_rows(const float* weight, Index dim, const std::int64_t* ids, Index n,
                 float* out) noexcept {
  const auto row_bytes = static_cast<std::size_t>(dim) * sizeof(float);
  for (Index k = 0; k < n && k < kTranslateAheadRows; ++k)
    __builtin_prefetch(weight + ids[k] * dim);
  for (Index k = 0; k < n && k < kPrefetchRows; ++k) prefetch_row(weight + ids[k] * dim, row_bytes);
  for (Index k = 0; k < n; ++k) {
    if (k + kTranslateAheadRows < n)
      __builtin_prefetch(weight + ids[k + kTranslateAheadRows] * dim);
    if (k + kPrefetchRows < n) prefetch_row(weight + ids[k + kPrefetchRows] * dim, row_bytes);
    std::memcpy(out + k * dim, weight + ids[k] * dim, row_bytes);
  }
}

}  // namespace embedlab
