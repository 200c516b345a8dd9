#include <catch2/catch.hpp>

#include "embedlab/error.hpp"
#include "embedlab/weights.hpp"

TEST_CASE("the TensorFlow notebook's fixed weights: row i is 0.11 * i as float32 (seed 003)") {
  const auto w = embedlab::tf_fixed_weights(4, 5);
  REQUIRE(w.rows() == 4);
  REQUIRE(w.cols() == 5);
  // np.array([[0.00...], [0.11...], [0.22...], [0.33...]]).astype(np.float32)
  const float expected[] = {0.00f, 0.11f, 0.22f, 0.33f};
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 5; ++j) CHECK(w(i, j) == expected[i]);
  }
}

TEST_CASE("fixed weights refuse impossible shapes") {
  CHECK_THROWS_AS(embedlab::tf_fixed_weights(0, 5), embedlab::InputError);
  CHECK_THROWS_WITH(embedlab::tf_fixed_weights(4, 0),
                    Catch::Contains("embedding dimension d must be at least 1"));
}
