// The gradients of the lookup and of the one-hot product. Reference values are hand computed
// (small integers and powers of two, exact in float32); tests/torch/ compares the same
// functions with live PyTorch.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <random>

#include "embedlab/backward.hpp"
#include "embedlab/compare.hpp"
#include "embedlab/error.hpp"
#include "embedlab/onehot.hpp"
#include "embedlab/verdict.hpp"
#include "matrix_literals.hpp"

using Catch::Contains;
using embedlab::EmbeddingOptions;
using embedlab::Ids;
using embedlab::Index;
using embedlab::Matrix;

namespace {

Matrix random_gradient(Index n, Index d, std::mt19937& rng) {
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_real_distribution<float> exponent(-4.0f, 4.0f);
  Matrix g(n, d);
  for (Index i = 0; i < g.size(); ++i) g.data()[i] = normal(rng) * std::pow(10.0f, exponent(rng));
  return g;
}

const float tiny = std::ldexp(1.0f, -24);  // half an ulp of 1.0f

}  // namespace

TEST_CASE("the backward of the lookup scatter-adds G's rows", "[backward]") {
  // ids 2, 0, 2 and G = [[1, 2], [3, 4], [5, 6]]: row 0 gets G(1), row 2 gets G(0) + G(2).
  const Matrix g = rows({{1, 2}, {3, 4}, {5, 6}});
  const Matrix expected = rows({{3, 4}, {0, 0}, {6, 8}, {0, 0}});
  CHECK(embedlab::embedding_backward({2, 0, 2}, g, 4) == expected);
}

TEST_CASE("duplicates are added in increasing position, from +0", "[backward]") {
  // 1 + 2^-24 rounds back to 1 (a tie, to even), twice; 2^-24 + 2^-24 first would give
  // 1 + 2^-23. So the order is visible in the bits.
  const Matrix big_first = rows({{1.0f}, {tiny}, {tiny}});
  CHECK(embedlab::embedding_backward({0, 0, 0}, big_first, 1)(0, 0) == 1.0f);
  const Matrix big_last = rows({{tiny}, {tiny}, {1.0f}});
  CHECK(embedlab::embedding_backward({0, 0, 0}, big_last, 1)(0, 0) == 1.0f + 2 * tiny);
  // 0 + (-0) is +0, as PyTorch's zero-initialised accumulation gives.
  const Matrix minus_zero = rows({{-0.0f}});
  CHECK_FALSE(std::signbit(embedlab::embedding_backward({0}, minus_zero, 1)(0, 0)));
}

TEST_CASE("padding_idx gets no gradient; negative values count from the end", "[backward]") {
  const Matrix g = rows({{1, 2}, {3, 4}, {5, 6}});
  EmbeddingOptions options;
  options.padding_idx = 1;
  CHECK(embedlab::embedding_backward({0, 1, 1}, g, 3, options) == rows({{1, 2}, {0, 0}, {0, 0}}));
  options.padding_idx = -3;  // row 0 of 3
  CHECK(embedlab::embedding_backward({0, 1, 1}, g, 3, options) == rows({{0, 0}, {8, 10}, {0, 0}}));
}

TEST_CASE("scale_grad_by_freq divides by the id's count, with a fused multiply-add", "[backward]") {
  EmbeddingOptions options;
  options.scale_grad_by_freq = true;
  SECTION("exact halves") {
    // id 0 twice: (2 + 4) / 2; id 1 once: 6 / 1.
    const Matrix g = rows({{2}, {4}, {6}});
    CHECK(embedlab::embedding_backward({0, 0, 1}, g, 2, options) == rows({{3}, {6}}));
  }
  SECTION("thirds: the scale is float(1.0 / 3) and each step is one rounding") {
    const float s = static_cast<float>(1.0 / 3.0);
    const float a = 0.1f, b = 0.1f, c = 0.1f;
    const float fused = std::fma(c, s, std::fma(b, s, std::fma(a, s, 0.0f)));
    const volatile float p1 = a * s, p2 = b * s, p3 = c * s;  // rounded: the unfused way
    const float unfused = ((0.0f + p1) + p2) + p3;
    REQUIRE(fused != unfused);  // these values tell the two apart
    const Matrix g = rows({{a}, {b}, {c}});
    CHECK(embedlab::embedding_backward({0, 0, 0}, g, 1, options)(0, 0) == fused);
  }
  SECTION("the padding row still counts nothing") {
    options.padding_idx = 0;
    const Matrix g = rows({{2}, {4}, {6}});
    CHECK(embedlab::embedding_backward({0, 0, 1}, g, 2, options) == rows({{0}, {6}}));
  }
}

TEST_CASE("the one-hot route's gradient onehot^T G equals the scatter-add", "[backward]") {
  std::mt19937 rng(11);
  SECTION("at most two rows per id: bit-identical (a + b == b + a, x + 0 == x)") {
    for (const Index n : {1, 2, 7, 64, 257, 1500}) {
      const Index vocab = n / 2 + 1;
      Ids ids;
      for (Index k = 0; k < n; ++k) ids.push_back(k % vocab);  // each id at most twice
      std::shuffle(ids.begin(), ids.end(), rng);
      const Matrix g = random_gradient(n, 9, rng);
      const auto v =
          embedlab::grade_comparison(embedlab::embedding_backward(ids, g, vocab),
                                     embedlab::onehot_backward(embedlab::one_hot(ids, vocab), g),
                                     embedlab::RoutePair::backward);
      INFO("n = " << n << ": " << v.sentence);
      CHECK(v.grade == embedlab::Grade::identical);
    }
  }
  SECTION("three rows of one id, 1 then two halves of an ulp far apart: the GEMM differs") {
    // Eigen splits the depth n = 20000 into panels and adds each panel's partial sum to the
    // result: 1 + (2^-24 + 2^-24) = 1 + 2^-23, where the scatter-add rounds twice to 1.
    const Index n = 20000;
    Ids ids(n, 1);
    ids[0] = ids[n - 2] = ids[n - 1] = 0;
    Matrix g = Matrix::Zero(n, 1);
    g(0, 0) = 1.0f;
    g(n - 2, 0) = g(n - 1, 0) = tiny;
    const Matrix scatter = embedlab::embedding_backward(ids, g, 2);
    const Matrix gemm = embedlab::onehot_backward(embedlab::one_hot(ids, 2), g);
    CHECK(scatter(0, 0) == 1.0f);
    CHECK(gemm(0, 0) == 1.0f + 2 * tiny);
  }
  SECTION("a row no id asked for is +0.0 in both, as in PyTorch") {
    const Matrix g = rows({{-1}, {-2}});
    CHECK_FALSE(std::signbit(embedlab::onehot_backward(embedlab::one_hot({0, 0}, 2), g)(1, 0)));
  }
  SECTION("Inf in G: 0 * Inf poisons every row of that column in the GEMM only") {
    Matrix g = rows({{1, 2}, {std::numeric_limits<float>::infinity(), 4}});
    const Matrix scatter = embedlab::embedding_backward({0, 1}, g, 3);
    const Matrix gemm = embedlab::onehot_backward(embedlab::one_hot({0, 1}, 3), g);
    CHECK(scatter(0, 0) == 1.0f);
    CHECK(scatter(2, 0) == 0.0f);
    CHECK(std::isnan(gemm(0, 0)));  // 1 * 1 + 0 * Inf
    CHECK(std::isnan(gemm(2, 0)));  // a row no id asked for
    CHECK(gemm(0, 1) == 2.0f);
  }
}

TEST_CASE("the backward validates before computing, with specific messages", "[backward]") {
  const Matrix g = rows({{1}, {2}});
  CHECK_THROWS_WITH(embedlab::embedding_backward({0, 7}, g, 4),
                    Contains("id 7 at position 2 is not below the vocabulary size V = 4"));
  CHECK_THROWS_WITH(embedlab::embedding_backward({0, -1}, g, 4), Contains("is negative"));
  CHECK_THROWS_WITH(embedlab::embedding_backward({0, 1, 2}, g, 4),
                    Contains("the upstream gradient has 2 rows but there are 3 ids"));
  CHECK_THROWS_WITH(embedlab::embedding_backward({0, 1}, g, 0),
                    Contains("vocabulary size V must be at least 1"));
  EmbeddingOptions options;
  options.padding_idx = 4;
  CHECK_THROWS_WITH(embedlab::embedding_backward({0, 1}, g, 4, options),
                    Contains("padding_idx = 4 is outside the vocabulary: it must lie in [-4, 3]"));
  options.padding_idx = -5;
  CHECK_THROWS_AS(embedlab::embedding_backward({0, 1}, g, 4, options), embedlab::InputError);
  CHECK_THROWS_WITH(embedlab::onehot_backward(Matrix::Zero(3, 4), g),
                    Contains("the upstream gradient has 2 rows but there are 3 ids"));
}
