#include <catch2/catch.hpp>
#include <limits>

#include "embedlab/compare.hpp"
#include "embedlab/error.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/onehot.hpp"

using Catch::Contains;
using embedlab::Matrix;

TEST_CASE("identical results are a match") {
  Matrix a(2, 2);
  a << 1, -2, 0.5f, 3;
  const auto c = embedlab::compare(a, a);
  CHECK(c.identical);
  CHECK(c.bit_identical == 4);
  CHECK(c.max_abs_diff == 0.0);
}

TEST_CASE("a value difference is reported with its size") {
  Matrix a(1, 3), b(1, 3);
  a << 1, 2, 3;
  b << 1, 2.5f, 3;
  const auto c = embedlab::compare(a, b);
  CHECK_FALSE(c.identical);
  CHECK(c.bit_identical == 2);
  CHECK(c.max_abs_diff == 0.5);
  CHECK(c.value_equal == 2);
}

TEST_CASE("an Inf in W breaks the equivalence: 0 * Inf = NaN poisons every other row") {
  Matrix w = Matrix::Constant(4, 2, 0.25f);
  w(3, 0) = std::numeric_limits<float>::infinity();
  const embedlab::Ids ids{2, 3, 1};
  const auto c = embedlab::compare(embedlab::lookup(w, ids),
                                   embedlab::onehot_product(embedlab::one_hot(ids, 4), w));
  CHECK_FALSE(c.identical);
  // Column 0 of rows for ids 2 and 1 become NaN; the row for id 3 holds Inf in both.
  CHECK(c.nan_mismatches == 2);
  CHECK(c.bit_identical == 4);
}

TEST_CASE("a NaN in W reaches every output row of the product") {
  Matrix w = Matrix::Constant(3, 1, 1.0f);
  w(0, 0) = std::numeric_limits<float>::quiet_NaN();
  const embedlab::Ids ids{1, 2};
  const auto c = embedlab::compare(embedlab::lookup(w, ids),
                                   embedlab::onehot_product(embedlab::one_hot(ids, 3), w));
  CHECK(c.nan_mismatches == 2);
}

TEST_CASE("signed zeros: a -0.0 row is copied by the lookup, the product sums it to +0.0") {
  Matrix w = Matrix::Constant(3, 2, 1.0f);
  w.row(1).setConstant(-0.0f);
  const embedlab::Ids ids{1, 0};
  const auto c = embedlab::compare(embedlab::lookup(w, ids),
                                   embedlab::onehot_product(embedlab::one_hot(ids, 3), w));
  CHECK_FALSE(c.identical);
  CHECK(c.signed_zero_mismatches == 2);
  CHECK(c.value_equal == 4);
  CHECK(c.max_abs_diff == 0.0);
}

TEST_CASE("comparing different shapes is an error") {
  CHECK_THROWS_WITH(embedlab::compare(Matrix::Zero(2, 3), Matrix::Zero(3, 2)),
                    Contains("cannot compare a 2 x 3 result with a 3 x 2 one"));
}

TEST_CASE("torch_equal is torch.equal: -0.0 equals +0.0, NaN equals nothing, itself included") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Matrix a(1, 3), b(1, 3);
  a << 1, -0.0f, 3;
  b << 1, 0.0f, 3;
  CHECK(embedlab::compare(a, b).torch_equal);  // torch.equal(tensor([-0.]), tensor([0.])): True
  CHECK_FALSE(embedlab::compare(a, b).identical);
  a(0, 2) = nan;
  b(0, 2) = nan;
  // The same NaN on both sides is equal in value here and bit-identical, never torch.equal.
  const auto same_nan = embedlab::compare(a, a);
  CHECK(same_nan.identical);
  CHECK(same_nan.value_equal == 3);
  CHECK_FALSE(same_nan.torch_equal);
  CHECK_FALSE(embedlab::compare(a, b).torch_equal);
  b(0, 2) = 3;
  CHECK_FALSE(embedlab::compare(a, b).torch_equal);
  // torch.equal(torch.empty(0, 3), torch.empty(0, 3)): True; of two shapes: False, no error.
  CHECK(embedlab::compare(Matrix(0, 3), Matrix(0, 3)).torch_equal);
  CHECK_FALSE(embedlab::torch_equal(Matrix::Zero(1, 3), Matrix::Zero(3, 1)));
  CHECK(embedlab::torch_equal(Matrix::Zero(1, 3), -Matrix::Zero(1, 3)));
}
