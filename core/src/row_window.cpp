#include "embedlab/row_window.hpp"

#include <algorithm>

namespace embedlab {

bool views_hold_whole(Index rows, Index cols) {
  return rows >= 0 && cols >= 0 && (cols == 0 || rows <= kWholeViewValues / cols);
}

Ids drawn_rows(Index vocab, const Ids& ids) {
  Ids rows = ids;
  for (Index i = 0; i < std::min(kEdgeRows, vocab); ++i) {
    rows.push_back(i);
    rows.push_back(vocab - 1 - i);
  }
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

}  // namespace embedlab
