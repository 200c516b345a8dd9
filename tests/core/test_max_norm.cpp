// max_norm: row norms and the in-place renormalisation. Reference values are hand computed
// (Pythagorean rows whose norms are exact) or PyTorch's formula written out in the test;
// tests/torch/ compares thousands of rows bit for bit with live PyTorch.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "embedlab/error.hpp"
#include "embedlab/max_norm.hpp"
#include "matrix_literals.hpp"

using Catch::Contains;
using embedlab::Ids;
using embedlab::Matrix;

namespace {

// PyTorch's scale: in double from the float norm, then rounded to float for the product.
float pytorch_scale(double max_norm, float norm) {
  return static_cast<float>(max_norm / (static_cast<double>(norm) + 1e-7));
}

}  // namespace

TEST_CASE("row norms for each norm_type", "[max_norm]") {
  const float row[] = {3.0f, -4.0f};
  CHECK(embedlab::row_norm(row, 2, 2.0) == 5.0f);
  CHECK(embedlab::row_norm(row, 2, 1.0) == 7.0f);
  CHECK(embedlab::row_norm(row, 2, std::numeric_limits<double>::infinity()) == 4.0f);
  const float cube[] = {3.0f, 4.0f, 5.0f};  // 27 + 64 + 125 = 216 = 6^3
  CHECK(embedlab::row_norm(cube, 3, 3.0) == Approx(6.0f).epsilon(1e-6));
  const float nan_row[] = {1.0f, std::numeric_limits<float>::quiet_NaN(), 2.0f};
  CHECK(std::isnan(embedlab::row_norm(nan_row, 3, std::numeric_limits<double>::infinity())));
  SECTION("2-norms of long rows go through eight float lanes, still exact for integers") {
    const float ones[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2};  // 16 + 12
    CHECK(embedlab::row_norm(ones, 19, 2.0) == std::sqrt(28.0f));
  }
}

TEST_CASE("rows above max_norm are scaled down in place, once per distinct id", "[max_norm]") {
  Matrix w = rows({{3, 4}, {0.6f, 0.8f}, {6, 8}});  // norms 5, 1, 10
  const Ids scaled = embedlab::embedding_renorm(w, {2, 0, 1, 0, 2}, 2.0);
  CHECK(scaled == Ids{0, 2});
  const float s0 = pytorch_scale(2.0, 5.0f);
  const float s2 = pytorch_scale(2.0, 10.0f);
  CHECK(w == rows({{3 * s0, 4 * s0}, {0.6f, 0.8f}, {6 * s2, 8 * s2}}));
  // The 1e-7 keeps the result just under max_norm.
  CHECK(embedlab::row_norm(w.row(0).data(), 2, 2.0) <= 2.0f);
}

TEST_CASE("a row exactly at max_norm, or not looked up, is left alone", "[max_norm]") {
  Matrix w = rows({{3, 4}, {30, 40}});
  CHECK(embedlab::embedding_renorm(w, {0}, 5.0).empty());  // norm > max_norm is strict
  CHECK(w == rows({{3, 4}, {30, 40}}));
}

TEST_CASE("the 1-norm and inf-norm pick different rows", "[max_norm]") {
  Matrix w = rows({{3, 4}, {4.5f, 0}});  // 1-norms 7 and 4.5; inf-norms 4 and 4.5
  Matrix by_one = w;
  CHECK(embedlab::embedding_renorm(by_one, {0, 1}, 5.0, 1.0) == Ids{0});
  Matrix by_inf = w;
  CHECK(embedlab::embedding_renorm(by_inf, {0, 1}, 4.25, std::numeric_limits<double>::infinity()) ==
        Ids{1});
  CHECK(by_inf(1, 0) == 4.5f * pytorch_scale(4.25, 4.5f));
}

TEST_CASE("renorm validates its arguments with specific messages", "[max_norm]") {
  Matrix w = rows({{3, 4}});
  CHECK_THROWS_WITH(embedlab::embedding_renorm(w, {1}, 1.0),
                    Contains("id 1 at position 1 is not below the vocabulary size V = 1"));
  CHECK_THROWS_WITH(embedlab::embedding_renorm(w, {0}, 0.0),
                    Contains("max_norm must be a positive number"));
  CHECK_THROWS_WITH(embedlab::embedding_renorm(w, {0}, std::nan("")),
                    Contains("max_norm must be a positive number"));
  CHECK_THROWS_WITH(embedlab::embedding_renorm(w, {0}, 1.0, -2.0),
                    Contains("norm_type must be positive"));
  CHECK(w == rows({{3, 4}}));  // untouched by the failed calls
}
