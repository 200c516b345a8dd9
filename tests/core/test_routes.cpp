#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "embedlab/error.hpp"
#include "embedlab/routes.hpp"

using embedlab::Matrix;

TEST_CASE("both routes of ids 2, 0, 2 into a small table: the same rows, bit for bit") {
  Matrix w(3, 2);
  w << 1.5f, -2, 0.25f, 3, -0.5f, 7;
  Matrix rows(3, 2);  // by hand: rows 2, 0, 2 of w
  rows << -0.5f, 7, 1.5f, -2, -0.5f, 7;
  const embedlab::Routes routes = embedlab::both_routes(w, {2, 0, 2});
  CHECK(routes.lookup == rows);
  CHECK(routes.product == rows);
  CHECK(routes.comparison.elements == 6);
  CHECK(routes.comparison.bit_identical == 6);
  CHECK(routes.comparison.identical);
}

TEST_CASE("both routes with an Inf in W: the product's 0 * Inf = NaN is in the comparison") {
  Matrix w = Matrix::Ones(3, 2);
  w(0, 1) = std::numeric_limits<float>::infinity();
  const embedlab::Routes routes = embedlab::both_routes(w, {1, 2});
  CHECK(routes.lookup == Matrix::Ones(2, 2));
  CHECK(std::isnan(routes.product(0, 1)));
  CHECK(std::isnan(routes.product(1, 1)));
  CHECK(routes.comparison.nan_mismatches == 2);
  CHECK_FALSE(routes.comparison.identical);
}

TEST_CASE("both routes name the id out of range, as the lookup does") {
  const Matrix w = Matrix::Ones(3, 2);
  try {
    embedlab::both_routes(w, {0, 3});
    FAIL("no error for id 3 in a table of 3 rows");
  } catch (const embedlab::InputError& e) {
    CHECK(e.argument() == embedlab::Argument::ids);
  }
}
