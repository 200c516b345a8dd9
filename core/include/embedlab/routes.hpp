#pragma once
// Both routes to the same rows, side by side: what the page computes on every keystroke.
#include "embedlab/compare.hpp"
#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"
#include "embedlab/table.hpp"

namespace embedlab {

struct Routes {
  Matrix lookup;          // lookup(weight, ids)
  Matrix product;         // onehot_product(one_hot(ids, V), weight)
  Comparison comparison;  // compare(lookup, product)
};

// Both routes for ids into weight (V, d), and how they compare. Validates like lookup().
Routes both_routes(const Matrix& weight, const Ids& ids, const Limits& limits = default_limits);
// The same from a table handle, the product streamed through it (streamed.hpp): the same bits.
Routes both_routes(const Table& weight, const Ids& ids, const Limits& limits = default_limits);

}  // namespace embedlab
