#include "embedlab/encoding.hpp"

#include <algorithm>

#include "embedlab/ids.hpp"

namespace embedlab {

Encoding one_hot_encoding(const Ids& ids, Index vocab, const Limits& limits) {
  const auto n = static_cast<Index>(ids.size());
  check_onehot_entries(n, vocab, limits);
  check_ids(ids, vocab);
  Encoding e{n, vocab, {}};
  e.entries.reserve(ids.size());
  for (Index k = 0; k < n; ++k) e.entries.push_back({k, ids[static_cast<std::size_t>(k)], 1.0f});
  std::stable_sort(e.entries.begin(), e.entries.end(),
                   [](const EncodingEntry& a, const EncodingEntry& b) { return a.col < b.col; });
  return e;
}

Matrix dense(const Encoding& encoding) {
  Matrix m = Matrix::Zero(encoding.rows, encoding.cols);
  for (const EncodingEntry& e : encoding.entries) m(e.row, e.col) = e.value;
  return m;
}

}  // namespace embedlab
