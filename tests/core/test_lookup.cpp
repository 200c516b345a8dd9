#include <catch2/catch.hpp>
#include <random>

#include "embedlab/error.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/onehot.hpp"
#include "same_bits.hpp"

using Catch::Contains;
using embedlab::Ids;
using embedlab::Index;
using embedlab::Matrix;
using embedlab::test::same_bits;

namespace {

Matrix random_table(Index vocab, Index dim, std::mt19937& rng) {
  std::normal_distribution<float> normal(0.0f, 1.0f);
  Matrix w(vocab, dim);
  for (Index i = 0; i < w.size(); ++i) w.data()[i] = normal(rng);
  return w;
}

Ids random_ids(Index n, Index vocab, std::mt19937& rng) {
  std::uniform_int_distribution<Index> pick(0, vocab - 1);
  Ids ids(static_cast<std::size_t>(n));
  for (auto& id : ids) id = pick(rng);
  return ids;
}

// The independent reference: an element-by-element triple loop over the one-hot matrix.
Matrix naive_onehot_product(const Ids& ids, const Matrix& w) {
  Matrix out(static_cast<Index>(ids.size()), w.cols());
  for (Index k = 0; k < out.rows(); ++k) {
    for (Index j = 0; j < w.cols(); ++j) {
      float sum = 0.0f;
      for (Index v = 0; v < w.rows(); ++v) sum += (v == ids[k] ? 1.0f : 0.0f) * w(v, j);
      out(k, j) = sum;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("lookup copies the rows named by the ids, in order, repeats included") {
  Matrix w(3, 2);
  w << 1, 2, 3, 4, 5, 6;
  Matrix expected(4, 2);
  expected << 5, 6, 1, 2, 5, 6, 3, 4;
  CHECK(same_bits(embedlab::lookup(w, {2, 0, 2, 1}), expected));
}

TEST_CASE("lookup and the one-hot product agree bit for bit on random finite tables") {
  std::mt19937 rng(20261122);
  struct Shape {
    Index vocab, dim, n;
  };
  const Shape shapes[] = {{1, 1, 1},     {1, 7, 5},      {4, 5, 3},      {17, 3, 40},
                          {64, 33, 64},  {1000, 64, 17}, {257, 1024, 9}, {8192, 5, 31},
                          {50257, 8, 4}, {50000, 1, 3}};
  for (const auto& s : shapes) {
    CAPTURE(s.vocab, s.dim, s.n);
    const Matrix w = random_table(s.vocab, s.dim, rng);
    const Ids ids = random_ids(s.n, s.vocab, rng);
    const Matrix rows = embedlab::lookup(w, ids);
    const Matrix product = embedlab::onehot_product(embedlab::one_hot(ids, s.vocab), w);
    CHECK(same_bits(rows, product));
    if (s.vocab * s.dim * s.n <= 4'000'000) CHECK(same_bits(rows, naive_onehot_product(ids, w)));
  }
}

TEST_CASE("lookup validates ids against the table before touching memory") {
  const Matrix w = Matrix::Zero(4, 5);
  CHECK_THROWS_WITH(embedlab::lookup(w, {2, 3, 4}),
                    Contains("index out of range in self") && Contains("4"));
  CHECK_THROWS_AS(embedlab::lookup(w, {-1}), embedlab::InputError);
}
