#pragma once
// The left operand of the products, by its nonzero entries: the one-hot matrix of n ids (n, V),
// with a 1 at (k, ids[k]), or the multi-hot matrix of B bags (B, V) of nn.EmbeddingBag's sum and
// mean (embedding_bag.hpp). A product streamed through W (streamed.hpp) makes its dense columns
// one block at a time, so the (n, V) matrix is never held whole; dense() makes all of it, as
// F.one_hot(ids, V).float() and bag_matrix() give it.
#include <vector>

#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"

namespace embedlab {

struct EncodingEntry {
  Index row;
  Index col;
  float value;
};

struct Encoding {
  Index rows = 0;                      // n ids, or B bags
  Index cols = 0;                      // V
  std::vector<EncodingEntry> entries;  // one per nonzero (row, col), by column then row
};

// The one-hot matrix of ids: checks the ids against vocab and their count (no n x V limit: it is
// never held whole).
Encoding one_hot_encoding(const Ids& ids, Index vocab, const Limits& limits = default_limits);

// The (rows, cols) matrix whole. The caller checks its size against the limits first.
Matrix dense(const Encoding& encoding);

}  // namespace embedlab
