#include "embedlab/weights.hpp"

#include "embedlab/limits.hpp"

namespace embedlab {

Matrix tf_fixed_weights(Index vocab, Index dim, const Limits& limits) {
  check_held_table(vocab, dim, limits);
  Matrix w(vocab, dim);
  for (Index i = 0; i < vocab; ++i) {
    // 11 * i / 100 in double is the nearest double to the literal 0.11 * i that the
    // notebook types (0.22, 0.33), and float() of it is what Keras stores.
    w.row(i).setConstant(static_cast<float>(static_cast<double>(11 * i) / 100.0));
  }
  return w;
}

}  // namespace embedlab
