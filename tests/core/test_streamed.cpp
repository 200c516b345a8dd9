// Products streamed through a table a block of rows at a time (streamed.hpp) against the same
// products done whole: bit for bit on tables built to make the order of additions show (NaNs of
// several payloads and both signs, Infs, -0.0, repeated ids), for tables of one block and of
// many, with blocks that do and do not divide V. The whole products are in turn checked against
// Eigen's own product on finite tables, and the heatmap against a plain reading of its rule.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <string>

#include "embedlab/backward.hpp"
#include "embedlab/byte_source.hpp"
#include "embedlab/embedding_bag.hpp"
#include "embedlab/encoding.hpp"
#include "embedlab/float_bits.hpp"
#include "embedlab/onehot.hpp"
#include "embedlab/streamed.hpp"
#include "embedlab/table.hpp"
#include "same_bits.hpp"

using embedlab::Encoding;
using embedlab::float_from_bits;
using embedlab::Ids;
using embedlab::Index;
using embedlab::Matrix;
using embedlab::Table;
using embedlab::test::same_bits;

namespace {

// NaNs with several payloads and both signs, both infinities, -0.0: each sum of a column that
// holds two of them depends on which is added first.
const float kSpecials[] = {float_from_bits(0x7fc00001u),
                           float_from_bits(0xffc00002u),
                           float_from_bits(0x7fc12345u),
                           float_from_bits(0xff80dead),
                           float_from_bits(0x7f800001u),  // signalling: comes back quiet
                           std::numeric_limits<float>::infinity(),
                           -std::numeric_limits<float>::infinity(),
                           -0.0f};

// A table whose entries are mostly normal, with a sprinkle of specials in rows and columns.
Matrix special_table(Index vocab, Index dim, std::mt19937& rng, bool specials = true) {
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_int_distribution<int> pick(0, 39);
  std::uniform_int_distribution<std::size_t> special(0, std::size(kSpecials) - 1);
  Matrix w(vocab, dim);
  for (Index i = 0; i < w.size(); ++i)
    w.data()[i] = specials && pick(rng) == 0 ? kSpecials[special(rng)] : normal(rng);
  return w;
}

// Ids with repeats.
Ids some_ids(Index n, Index vocab, std::mt19937& rng) {
  std::uniform_int_distribution<Index> pick(0, vocab - 1);
  Ids ids(static_cast<std::size_t>(n));
  for (auto& id : ids) id = pick(rng);
  if (n > 2) ids[1] = ids[0];
  return ids;
}

// W stored as BF16 in a byte source, as a file holds it, and the float32 table it stands for.
std::pair<Table, Matrix> bf16_table(const Matrix& w) {
  std::string bytes(static_cast<std::size_t>(w.size()) * 2, '\0');
  Matrix converted(w.rows(), w.cols());
  for (Index i = 0; i < w.size(); ++i) {
    const auto top = static_cast<std::uint16_t>(embedlab::float_bits(w.data()[i]) >> 16);
    std::memcpy(bytes.data() + 2 * i, &top, 2);
    converted.data()[i] = float_from_bits(std::uint32_t{top} << 16);
  }
  return {Table(embedlab::memory_source(std::move(bytes)), 0, w.rows(), w.cols(),
                embedlab::StoredFloat::bf16),
          converted};
}

Matrix streamed_product(const Table& w, Encoding e, Index block_rows) {
  embedlab::StreamOptions options;
  options.block_rows = block_rows;
  embedlab::StreamedProduct product(w, std::move(e), options);
  product.run();
  return product.result();
}

// The sum the other way round, v = V-1 down to 0: to show that these tables tell orders apart.
Matrix reversed_product(const Ids& ids, const Matrix& w) {
  Matrix out(static_cast<Index>(ids.size()), w.cols());
  for (Index k = 0; k < out.rows(); ++k)
    for (Index j = 0; j < w.cols(); ++j) {
      float sum = 0.0f;
      for (Index v = w.rows() - 1; v >= 0; --v) sum += (v == ids[k] ? 1.0f : 0.0f) * w(v, j);
      out(k, j) = sum;
    }
  return out;
}

struct Shape {
  Index vocab, dim, n;
};
const Shape kShapes[] = {{1, 1, 1},      {3, 5, 4},      {511, 7, 3},    {512, 33, 17},
                         {513, 16, 9},   {1300, 70, 40}, {2048, 5, 600}, {3000, 24, 2},
                         {600, 3, 3000}, {600, 2500, 5}};
const Index kBlocks[] = {512, 1024, 1536, 2048, 0};

}  // namespace

TEST_CASE("the streamed one-hot product is the whole product, bit for bit", "[streamed]") {
  std::mt19937 rng(7);
  bool orders_differ = false;
  for (const Shape& s : kShapes) {
    const Matrix w = special_table(s.vocab, s.dim, rng);
    const Ids ids = some_ids(s.n, s.vocab, rng);
    const Matrix whole = embedlab::onehot_product(embedlab::one_hot(ids, s.vocab), w);
    orders_differ = orders_differ || !same_bits(whole, reversed_product(ids, w));
    const auto [stored, converted] = bf16_table(w);
    const Matrix whole_bf16 = embedlab::onehot_product(embedlab::one_hot(ids, s.vocab), converted);
    for (const Index block : kBlocks) {
      INFO("V = " << s.vocab << ", d = " << s.dim << ", n = " << s.n << ", block = " << block);
      CHECK(same_bits(streamed_product(Table(w), embedlab::one_hot_encoding(ids, s.vocab), block),
                      whole));
      CHECK(same_bits(streamed_product(stored, embedlab::one_hot_encoding(ids, s.vocab), block),
                      whole_bf16));
    }
  }
  // Else the test could not fail: an order of additions other than the GEMM's shows in the bits.
  CHECK(orders_differ);
}

TEST_CASE("on finite tables the product is Eigen's own, and the lookup's rows", "[streamed]") {
  std::mt19937 rng(8);
  for (const Shape& s : kShapes) {
    const Matrix w = special_table(s.vocab, s.dim, rng, false);
    const Ids ids = some_ids(s.n, s.vocab, rng);
    const Matrix onehot = embedlab::one_hot(ids, s.vocab);
    Matrix eigen = Matrix::Zero(s.n, s.dim);
    eigen.noalias() += onehot * w;
    INFO("V = " << s.vocab << ", d = " << s.dim << ", n = " << s.n);
    CHECK(same_bits(embedlab::onehot_product(onehot, w), eigen));
    CHECK(same_bits(streamed_product(Table(w), embedlab::one_hot_encoding(ids, s.vocab), 512),
                    eigen));
  }
}

TEST_CASE("the streamed multi-hot product is bag_product, bit for bit", "[streamed]") {
  std::mt19937 rng(9);
  for (const Shape& s : kShapes) {
    const Matrix w = special_table(s.vocab, s.dim, rng);
    const Ids ids = some_ids(s.n, s.vocab, rng);
    embedlab::BagOptions options;
    options.mode = embedlab::BagMode::mean;
    const Ids offsets = s.n > 2 ? Ids{0, 1, s.n / 2} : Ids{0};
    const Matrix whole =
        embedlab::bag_product(embedlab::bag_matrix(ids, offsets, s.vocab, options), w);
    for (const Index block : kBlocks) {
      INFO("V = " << s.vocab << ", block = " << block);
      CHECK(same_bits(
          streamed_product(Table(w), embedlab::bag_encoding(ids, offsets, s.vocab, options), block),
          whole));
    }
  }
}

TEST_CASE("the streamed gradient E^T G is onehot_backward, bit for bit", "[streamed]") {
  std::mt19937 rng(10);
  for (const Shape& s : kShapes) {
    const Matrix g = special_table(s.n, s.dim, rng);
    const Ids ids = some_ids(s.n, s.vocab, rng);
    const Matrix whole = embedlab::onehot_backward(embedlab::one_hot(ids, s.vocab), g);
    for (const Index block : kBlocks) {
      INFO("V = " << s.vocab << ", d = " << s.dim << ", n = " << s.n << ", block = " << block);
      embedlab::GradientViewOptions options;
      options.block_rows = block;
      Matrix seen = Matrix::Constant(s.vocab, s.dim, 7.0f);
      options.on_rows = [&](Index first, Index count, const float* values) {
        std::memcpy(seen.row(first).data(), values, static_cast<std::size_t>(count * s.dim) * 4);
      };
      embedlab::StreamedGradient gradient(embedlab::one_hot_encoding(ids, s.vocab), g, options);
      gradient.run();
      CHECK(same_bits(seen, whole));
      CHECK(same_bits(gradient.result().whole, whole));
    }
  }
}

TEST_CASE("a gradient not held whole keeps the rows asked for and a summary", "[streamed]") {
  // G = [[1, 2], [Inf, 4]] for ids 0 and 3 of V = 1000: column 0 of every row is NaN (0 * Inf),
  // but row 3's, 0 * 1 + 1 * Inf = Inf; column 1 is 2 and 4 in rows 0 and 3, +0.0 elsewhere.
  Matrix g(2, 2);
  g << 1, 2, std::numeric_limits<float>::infinity(), 4;
  embedlab::GradientViewOptions options;
  options.whole = false;
  options.keep_rows = {999, 5, 0};
  embedlab::StreamedGradient gradient(embedlab::one_hot_encoding({0, 3}, 1000), g, options);
  gradient.run();
  const embedlab::Gradient& r = gradient.result();
  CHECK(r.whole.size() == 0);
  CHECK(r.kept == Ids{0, 3, 5, 999});
  CHECK(std::isnan(r.at(5, 0)));
  CHECK(r.at(5, 1) == 0.0f);
  CHECK_FALSE(std::signbit(r.at(999, 1)));
  CHECK(r.at(3, 1) == 4.0f);
  CHECK(r.at(3, 0) == std::numeric_limits<float>::infinity());
  CHECK(r.nonzero_rows == 1000);
  CHECK(r.nan_rows == 999);
  CHECK(r.max_abs == 4.0);
  // Too large for the limits: the same view, asked for whole.
  embedlab::Limits small;
  small.max_elements = 100;
  embedlab::StreamedGradient limited(embedlab::one_hot_encoding({0, 3}, 1000), g, {}, small);
  limited.run();
  CHECK(limited.result().whole.size() == 0);
  CHECK(limited.result().at(3, 1) == 4.0f);
}

TEST_CASE("the heatmap follows the page's rule, read in blocks or whole", "[streamed]") {
  std::mt19937 rng(11);
  const Matrix w = special_table(1000, 700, rng);
  const Index h = 256, wd = 512;
  // The rule, plainly: pixel (p, q) covers [floor(p * V / h), floor((p + 1) * V / h)) x the same
  // for columns; the first NaN in row-major order, else the first value of largest magnitude.
  Matrix expected(h, wd);
  for (Index p = 0; p < h; ++p)
    for (Index q = 0; q < wd; ++q) {
      float best = 0.0f;
      for (Index i = p * 1000 / h; i < (p + 1) * 1000 / h; ++i)
        for (Index j = q * 700 / wd; j < (q + 1) * 700 / wd; ++j)
          if (!std::isnan(best) && (std::isnan(w(i, j)) || std::fabs(w(i, j)) > std::fabs(best)))
            best = w(i, j);
      expected(p, q) = best;
    }
  embedlab::StreamOptions options;
  options.block_rows = 512;
  options.downsample_height = h;
  options.downsample_width = wd;
  embedlab::StreamedProduct product(Table(w), embedlab::one_hot_encoding({3}, 1000), options);
  product.run();
  CHECK(same_bits(product.downsample(), expected));
  // Smaller than the picture: one pixel per cell, the matrix itself.
  embedlab::Downsample small(3, 2, h, wd);
  const Matrix m = special_table(3, 2, rng);
  small.add_rows(0, 3, m.data());
  CHECK(same_bits(small.pixels(), m));
}

TEST_CASE("a row to keep past the table, or a heatmap over the limits, is refused", "[streamed]") {
  using Catch::Contains;
  const Matrix g = Matrix::Ones(1, 2);
  embedlab::GradientViewOptions keep;
  keep.keep_rows = {3, 4};  // V = 4: row 4 is past the table
  CHECK_THROWS_WITH(embedlab::StreamedGradient(embedlab::one_hot_encoding({0}, 4), g, keep),
                    "a row to keep must lie in [0, V) = [0, 4), got 4");
  keep.keep_rows = {-1};
  CHECK_THROWS_WITH(embedlab::StreamedGradient(embedlab::one_hot_encoding({0}, 4), g, keep),
                    Contains("got -1"));
  // 1000 x 2 drawn in at most 600 x 600 pixels is 600 x 2 of them; a limit of 1,000 floats
  // holds 500 x 2, not 600 x 2.
  embedlab::Limits small;
  small.max_elements = 1000;
  embedlab::GradientViewOptions heatmap;
  heatmap.downsample_height = 600;
  heatmap.downsample_width = 600;
  CHECK_THROWS_WITH(
      embedlab::StreamedGradient(embedlab::one_hot_encoding({0}, 1000), g, heatmap, small),
      Contains("the heatmap would be 600 x 2 floats, over the limit of 1,000 floats"));
  heatmap.downsample_height = 500;
  CHECK_NOTHROW(
      embedlab::StreamedGradient(embedlab::one_hot_encoding({0}, 1000), g, heatmap, small));
  embedlab::StreamOptions stream;
  stream.downsample_height = 600;
  stream.downsample_width = 600;
  CHECK_THROWS_WITH(embedlab::StreamedProduct(Table(Matrix::Zero(1000, 2)),
                                              embedlab::one_hot_encoding({0}, 1000), stream, small),
                    Contains("the heatmap would be 600 x 2"));
}
