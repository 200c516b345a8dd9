// EmbeddingBag: bags from offsets, sum / mean / max, weights, padding, the multi-hot matrix and
// the backward. Reference values are hand computed from a small integer table; tests/torch/
// compares the same functions with live PyTorch.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <random>

#include "embedlab/compare.hpp"
#include "embedlab/embedding_bag.hpp"
#include "embedlab/error.hpp"
#include "matrix_literals.hpp"

using Catch::Contains;
using embedlab::BagMode;
using embedlab::BagOptions;
using embedlab::Ids;
using embedlab::Index;
using embedlab::Matrix;

namespace {

// W (4, 2): row v is [2v + 1, 2v + 2].
const Matrix w = rows({{1, 2}, {3, 4}, {5, 6}, {7, 8}});
// Bags {0, 1}, {} and {2, 3, 1}.
const Ids ids = {0, 1, 2, 3, 1};
const Ids offsets = {0, 2, 2};

BagOptions mode(BagMode m) {
  BagOptions options;
  options.mode = m;
  return options;
}

}  // namespace

TEST_CASE("sum, mean and max of each bag; an empty bag gives zeros", "[embedding_bag]") {
  const auto sum = embedlab::embedding_bag(w, ids, offsets, mode(BagMode::sum));
  CHECK(sum.output == rows({{4, 6}, {0, 0}, {15, 18}}));
  CHECK(sum.bag_size == std::vector<Index>{2, 0, 3});
  CHECK(embedlab::embedding_bag(w, ids, offsets).output == rows({{2, 3}, {0, 0}, {5, 6}}));
  const auto max = embedlab::embedding_bag(w, ids, offsets, mode(BagMode::max));
  CHECK(max.output == rows({{3, 4}, {0, 0}, {7, 8}}));
  CHECK(max.max_rows == std::vector<Index>{1, 1, -1, -1, 3, 3});
}

TEST_CASE("include_last_offset takes the end of the ids as one more offset", "[embedding_bag]") {
  BagOptions options = mode(BagMode::sum);
  options.include_last_offset = true;
  CHECK(embedlab::embedding_bag(w, ids, {0, 2, 2, 5}, options).output ==
        rows({{4, 6}, {0, 0}, {15, 18}}));
  CHECK(embedlab::embedding_bag(w, ids, {0, 5}, options).output == rows({{19, 24}}));
}

TEST_CASE("per_sample_weights scale each id's row in a sum", "[embedding_bag]") {
  BagOptions options = mode(BagMode::sum);
  options.per_sample_weights = {1, 2, 0.5f, 1, -1};
  // 1 [1, 2] + 2 [3, 4]; 0.5 [5, 6] + [7, 8] - [3, 4]
  CHECK(embedlab::embedding_bag(w, ids, offsets, options).output ==
        rows({{7, 10}, {0, 0}, {6.5f, 7}}));
  SECTION("a weight of 0 still multiplies: 0 * Inf is NaN, as in PyTorch") {
    Matrix inf_table = w;
    inf_table(0, 0) = std::numeric_limits<float>::infinity();
    options.per_sample_weights = {0, 1, 1, 1, 1};
    CHECK(std::isnan(embedlab::embedding_bag(inf_table, ids, offsets, options).output(0, 0)));
  }
}

TEST_CASE("padding_idx is left out of sums, maxima and the mean's count", "[embedding_bag]") {
  BagOptions options = mode(BagMode::mean);
  options.padding_idx = 1;
  const auto mean = embedlab::embedding_bag(w, ids, offsets, options);
  CHECK(mean.output == rows({{1, 2}, {0, 0}, {6, 7}}));  // [1, 2] / 1; ([5, 6] + [7, 8]) / 2
  CHECK(mean.bag_size == std::vector<Index>{1, 0, 2});
  options.mode = BagMode::max;
  options.padding_idx = -1;  // row 3
  CHECK(embedlab::embedding_bag(w, ids, offsets, options).output == rows({{3, 4}, {0, 0}, {5, 6}}));
  SECTION("a bag of padding only is empty") {
    CHECK(embedlab::embedding_bag(w, {3, 3}, {0}, options).output == rows({{0, 0}}));
  }
}

TEST_CASE("max keeps the first of equal maxima, and a NaN only when it comes first",
          "[embedding_bag]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Matrix t = rows({{1, nan}, {1, 5}, {0, 2}});
  const auto m = embedlab::embedding_bag(t, {1, 0, 2, 0}, {0, 3}, mode(BagMode::max));
  CHECK(m.output(0, 0) == 1.0f);
  CHECK(m.max_rows[0] == 1);          // rows 1 and 0 tie at 1: the first in the bag wins
  CHECK(m.output(0, 1) == 5.0f);      // the later NaN is not greater than 5
  CHECK(std::isnan(m.output(1, 1)));  // bag {0}: NaN first, nothing is greater than it
}

TEST_CASE("sum and mean are a multi-hot matrix times W; max has no such form", "[embedding_bag]") {
  const Matrix counts = embedlab::bag_matrix(ids, offsets, 4, mode(BagMode::sum));
  CHECK(counts == rows({{1, 1, 0, 0}, {0, 0, 0, 0}, {0, 1, 1, 1}}));
  CHECK(embedlab::bag_product(counts, w) ==
        embedlab::embedding_bag(w, ids, offsets, mode(BagMode::sum)).output);
  const Matrix means = embedlab::bag_matrix(ids, offsets, 4, mode(BagMode::mean));
  const float third = 1.0f / 3.0f;
  CHECK(means == rows({{0.5f, 0.5f, 0, 0}, {0, 0, 0, 0}, {0, third, third, third}}));
  BagOptions weighted = mode(BagMode::sum);
  weighted.per_sample_weights = {1, 2, 0.5f, 1, -1};
  CHECK(embedlab::bag_matrix(ids, offsets, 4, weighted) ==
        rows({{1, 2, 0, 0}, {0, 0, 0, 0}, {0, -1, 0.5f, 1}}));
  CHECK_THROWS_WITH(embedlab::bag_matrix(ids, offsets, 4, mode(BagMode::max)),
                    Contains("mode='max' has no matrix-product form"));
  SECTION("an empty bag's row is +0.0, as torch.mm gives, even where W's column is negative") {
    const Matrix negative = -w;
    const Matrix product = embedlab::bag_product(counts, negative);
    CHECK_FALSE(std::signbit(product(1, 0)));
    CHECK(product.row(0) == rows({{-4, -6}}));
  }
  CHECK_THROWS_WITH(embedlab::bag_product(counts, Matrix::Zero(3, 2)),
                    Contains("4 columns but the weight has 3 rows"));
}

TEST_CASE("the bag adds in position order, the product in vocabulary order", "[embedding_bag]") {
  const float tiny = std::ldexp(1.0f, -24);
  const Matrix t = rows({{1.0f}, {tiny}, {tiny}});
  SECTION("up to two ids per bag: bit-identical") {
    std::mt19937 rng(3);
    std::normal_distribution<float> normal(0.0f, 100.0f);
    Matrix big(50, 7);
    for (Index i = 0; i < big.size(); ++i) big.data()[i] = normal(rng);
    std::uniform_int_distribution<Index> pick(0, 49);
    Ids many;
    Ids starts;
    for (Index b = 0; b < 200; ++b) {
      starts.push_back(static_cast<Index>(many.size()));
      for (Index k = 0; k < b % 3; ++k) many.push_back(pick(rng));
    }
    const auto bags = embedlab::embedding_bag(big, many, starts, mode(BagMode::sum)).output;
    const auto product =
        embedlab::bag_product(embedlab::bag_matrix(many, starts, 50, mode(BagMode::sum)), big);
    CHECK(embedlab::compare(bags, product).identical);
  }
  SECTION("three ids: (tiny + tiny) + 1 in the bag, (1 + tiny) + tiny in the product") {
    const auto bag = embedlab::embedding_bag(t, {1, 2, 0}, {0}, mode(BagMode::sum)).output;
    const auto product =
        embedlab::bag_product(embedlab::bag_matrix({1, 2, 0}, {0}, 3, mode(BagMode::sum)), t);
    CHECK(bag(0, 0) == 1.0f + 2 * tiny);
    CHECK(product(0, 0) == 1.0f);
  }
}

TEST_CASE("the backward of sum, mean and max", "[embedding_bag]") {
  const Matrix g = rows({{1, 1}, {2, 2}, {3, 3}});
  for (const BagMode m : {BagMode::sum, BagMode::mean, BagMode::max}) {
    const BagOptions options = mode(m);
    const auto forward = embedlab::embedding_bag(w, ids, offsets, options);
    const Matrix grad = embedlab::embedding_bag_backward(ids, offsets, g, forward, 4, options);
    if (m == BagMode::sum) {
      CHECK(grad == rows({{1, 1}, {4, 4}, {3, 3}, {3, 3}}));  // id 1 is in bags 0 and 2
    } else if (m == BagMode::mean) {
      CHECK(grad == rows({{0.5f, 0.5f}, {1.5f, 1.5f}, {1, 1}, {1, 1}}));  // 1/2 and 3/3
    } else {
      CHECK(grad == rows({{0, 0}, {1, 1}, {0, 0}, {3, 3}}));  // to rows 1 and 3, the maxima
    }
  }
  SECTION("weights, scale_grad_by_freq and padding_idx") {
    BagOptions options = mode(BagMode::sum);
    options.per_sample_weights = {1, 2, 0.5f, 1, -1};
    options.scale_grad_by_freq = true;  // id 1 appears twice
    options.padding_idx = 3;
    const auto forward = embedlab::embedding_bag(w, ids, offsets, options);
    // row 1: (2 * 1 - 1 * 3) / 2; row 2: 0.5 * 3; row 3 is padding
    CHECK(embedlab::embedding_bag_backward(ids, offsets, g, forward, 4, options) ==
          rows({{1, 1}, {-0.5f, -0.5f}, {1.5f, 1.5f}, {0, 0}}));
  }
}

TEST_CASE("bags are validated with specific messages", "[embedding_bag]") {
  const BagOptions sum = mode(BagMode::sum);
  CHECK_THROWS_WITH(embedlab::embedding_bag(w, ids, {1, 3}, sum),
                    Contains("offsets[0] = 1 but the first bag must start at the first id"));
  CHECK_THROWS_WITH(embedlab::embedding_bag(w, ids, {0, 3, 1}, sum),
                    Contains("offsets[2] = 1 is less than offsets[1] = 3"));
  CHECK_THROWS_WITH(embedlab::embedding_bag(w, ids, {0, 6}, sum),
                    Contains("offsets[1] = 6 is past the end of the ids: an offset can be at most "
                             "the number of ids, n = 5"));
  CHECK_THROWS_WITH(embedlab::embedding_bag(w, ids, {}, sum), Contains("offsets is empty"));
  BagOptions last = sum;
  last.include_last_offset = true;
  CHECK_THROWS_WITH(embedlab::embedding_bag(w, ids, {0, 3}, last),
                    Contains("offsets[1] = 3 but with include_last_offset the last offset is the "
                             "end of the ids and must be n = 5"));
  CHECK_THROWS_WITH(embedlab::embedding_bag(w, {0, 4}, {0}, sum),
                    Contains("id 4 at position 2 is not below the vocabulary size V = 4"));
  BagOptions weighted = sum;
  weighted.per_sample_weights = {1, 2};
  CHECK_THROWS_WITH(embedlab::embedding_bag(w, ids, offsets, weighted),
                    Contains("per_sample_weights has 2 values but there are 5 ids"));
  weighted.mode = BagMode::mean;
  CHECK_THROWS_WITH(embedlab::embedding_bag(w, {0, 1}, {0}, weighted),
                    Contains("only supported for mode='sum' (got mode='mean')"));
  BagOptions padded = sum;
  padded.padding_idx = 4;
  CHECK_THROWS_WITH(embedlab::embedding_bag(w, ids, offsets, padded),
                    Contains("padding_idx = 4 is outside the vocabulary"));
  const auto forward = embedlab::embedding_bag(w, ids, offsets, sum);
  CHECK_THROWS_WITH(
      embedlab::embedding_bag_backward(ids, offsets, Matrix::Zero(2, 2), forward, 4, sum),
      Contains("the upstream gradient has 2 rows but there are 3 bags"));
  CHECK_THROWS_WITH(
      embedlab::embedding_bag_backward(ids, {0, 2}, Matrix::Zero(2, 2), forward, 4, sum),
      Contains("the forward result does not belong to these bags"));
}
