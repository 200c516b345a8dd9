#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "embedlab/error.hpp"
#include "embedlab/onehot.hpp"

using Catch::Contains;
using embedlab::Matrix;

TEST_CASE("one_hot of 2, 3, 1 is the notebooks' matrix (seed 000/002)") {
  Matrix expected(3, 4);
  expected << 0, 0, 1, 0,  //
      0, 0, 0, 1,          //
      0, 1, 0, 0;
  CHECK(embedlab::one_hot({2, 3, 1}, 4) == expected);
}

TEST_CASE("one_hot of 3, 2, 0, 1 is seed 004's matrix") {
  Matrix expected(4, 4);
  expected << 0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0;
  CHECK(embedlab::one_hot({3, 2, 0, 1}, 4) == expected);
}

TEST_CASE("the Linear weight is the transpose, as linear.weight = embedding.weight.T") {
  Matrix w(2, 3);
  w << 1, 2, 3, 4, 5, 6;
  Matrix t(3, 2);
  t << 1, 4, 2, 5, 3, 6;
  CHECK(embedlab::linear_weight(w) == t);
}

TEST_CASE("the one-hot product is a real product: it propagates 0 * Inf = NaN into other rows") {
  Matrix w = Matrix::Ones(3, 2);
  w(0, 1) = std::numeric_limits<float>::infinity();
  const Matrix out = embedlab::onehot_product(embedlab::one_hot({1, 2}, 3), w);
  CHECK(out(0, 0) == 1.0f);
  CHECK(std::isnan(out(0, 1)));  // 0 * Inf from row 0, which id 1 never asked for
  CHECK(std::isnan(out(1, 1)));
}

TEST_CASE("the product starts from +0 like torch.mm: an all -0.0 column sums to +0.0") {
  // torch.mm(one_hot([1], 2).float(), [[-1.], [-0.]]) prints tensor([[0.]]): every product is
  // -0.0, but BLAS accumulates into +0.
  Matrix w(2, 1);
  w << -1.0f, -0.0f;
  const Matrix out = embedlab::onehot_product(embedlab::one_hot({1}, 2), w);
  CHECK(out(0, 0) == 0.0f);
  CHECK_FALSE(std::signbit(out(0, 0)));
}

TEST_CASE("one_hot and the product refuse bad shapes with specific messages") {
  CHECK_THROWS_WITH(embedlab::one_hot({0, 5}, 4), Contains("index out of range in self"));
  CHECK_THROWS_WITH(embedlab::one_hot({}, 4), Contains("number of token ids n must be at least 1"));
  CHECK_THROWS_WITH(embedlab::onehot_product(Matrix::Zero(2, 4), Matrix::Zero(5, 3)),
                    Contains("4 columns but the weight has 5 rows"));
}
