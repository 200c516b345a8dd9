#pragma once
// Tables that do not come from a random generator.
#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"

namespace embedlab {

// The TensorFlow notebook's hand-written table: every entry of row i is 0.11 * i
// (written as a float64 literal, then stored as float32, as np.array(...) -> Keras does).
Matrix tf_fixed_weights(Index vocab, Index dim, const Limits& limits = default_limits);

}  // namespace embedlab
