// A table as a handle to rows kept in their stored dtype (table.hpp): the same float32 values as
// a whole conversion gives, read only where asked for, through every operation that takes one.
// References: the Matrix versions of the same operations, hand-written bit patterns, and a
// byte source that counts what is read.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "embedlab/byte_source.hpp"
#include "embedlab/embedding_bag.hpp"
#include "embedlab/error.hpp"
#include "embedlab/float_bits.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/max_norm.hpp"
#include "embedlab/npy.hpp"
#include "embedlab/onehot.hpp"
#include "embedlab/routes.hpp"
#include "embedlab/streamed.hpp"
#include "embedlab/table.hpp"
#include "same_bits.hpp"

using Catch::Equals;
using embedlab::ByteSource;
using embedlab::float_bits;
using embedlab::float_from_bits;
using embedlab::Ids;
using embedlab::Index;
using embedlab::Matrix;
using embedlab::StoredFloat;
using embedlab::Table;
using embedlab::test::same_bits;

namespace {

// Bytes in memory, read through read() only (never in place), counting what is read.
class CountingSource final : public ByteSource {
 public:
  explicit CountingSource(std::string bytes) : bytes_(std::move(bytes)) {}
  std::uint64_t size() const override { return bytes_.size(); }
  void read(std::uint64_t offset, std::size_t length, char* out) const override {
    std::memcpy(out, bytes_.data() + offset, length);
    bytes_read += length;
    ++reads;
  }
  mutable std::uint64_t bytes_read = 0;
  mutable int reads = 0;

 private:
  std::string bytes_;
};

template <typename T>
std::string bytes_of(const std::vector<T>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

Matrix random_matrix(Index rows, Index cols, std::mt19937& rng) {
  std::normal_distribution<float> normal(0.0f, 1.0f);
  Matrix m(rows, cols);
  for (Index i = 0; i < m.size(); ++i) m.data()[i] = normal(rng);
  return m;
}

// A float32 table read through a CountingSource, at byte 8 of it.
std::pair<Table, std::shared_ptr<CountingSource>> counted(const Matrix& w) {
  std::string bytes(8, 'x');
  bytes.append(reinterpret_cast<const char*>(w.data()), static_cast<std::size_t>(w.size()) * 4);
  auto source = std::make_shared<CountingSource>(bytes);
  return {Table(source, 8, w.rows(), w.cols(), StoredFloat::f32), source};
}

}  // namespace

TEST_CASE("a float32 table in memory is read in place", "[table]") {
  const Matrix w = (Matrix(2, 3) << 1, 2, 3, 4, 5, 6).finished();
  const Table t(w);
  CHECK(t.in_memory());
  CHECK(t.row_bytes() == 12);
  std::vector<float> buffer;
  const float* rows = t.rows_at(1, 1, buffer);
  CHECK(buffer.empty());
  CHECK(rows[2] == 6.0f);
  CHECK(same_bits(t.to_matrix(), w));
}

TEST_CASE("BF16 and F16 rows convert exactly, NaNs quiet with their sign and payload", "[table]") {
  // BF16: 1, -2, +NaN payload 1 (signalling: comes back quiet), -Inf, -0, 2^-133.
  const std::vector<std::uint16_t> bf16{0x3f80, 0xc000, 0x7f81, 0xff80, 0x8000, 0x0001};
  const Table b(embedlab::memory_source(bytes_of(bf16)), 0, 3, 2, StoredFloat::bf16);
  const Matrix m = b.to_matrix();
  const std::uint32_t expected[] = {0x3f800000, 0xc0000000, 0x7f810000,
                                    0xff800000, 0x80000000, 0x00010000};
  for (int i = 0; i < 6; ++i) CHECK(float_bits(m.data()[i]) == expected[i]);
  // F16: 1, a signalling NaN with payload 1 (quiet, 0x7fc02000), 2^-24, -65504.
  const std::vector<std::uint16_t> f16{0x3c00, 0x7c01, 0x0001, 0xfbff};
  const Matrix h =
      Table(embedlab::memory_source(bytes_of(f16)), 0, 2, 2, StoredFloat::f16).to_matrix();
  CHECK(h(0, 0) == 1.0f);
  CHECK(float_bits(h(0, 1)) == 0x7fc02000u);
  CHECK(h(1, 0) == std::ldexp(1.0f, -24));
  CHECK(h(1, 1) == -65504.0f);
}

TEST_CASE("the lookup reads its n rows and nothing else", "[table]") {
  std::mt19937 rng(1);
  const Matrix w = random_matrix(1000, 8, rng);
  auto [t, source] = counted(w);
  CHECK_FALSE(t.in_memory());
  const Ids ids{999, 3, 3};
  CHECK(same_bits(embedlab::lookup(t, ids), embedlab::lookup(w, ids)));
  CHECK(source->bytes_read == 3 * 32);
}

TEST_CASE("an F64 value beyond float32 is an error when its row is read", "[table]") {
  std::vector<double> values{0.5, 1.0, 2.0, 1e300};
  const Table t(embedlab::memory_source(bytes_of(values)), 0, 2, 2, StoredFloat::f64,
                "tensor 'proj': ");
  CHECK(embedlab::lookup(t, {0})(0, 1) == 1.0f);
  CHECK_THROWS_WITH(embedlab::lookup(t, {1}),
                    Equals("tensor 'proj': value 1e+300 at row 1, column 1 does not fit in float32 "
                           "(the largest float32 is about 3.4e38)"));
}

TEST_CASE("a table's bytes must lie within its source", "[table]") {
  CHECK_THROWS_WITH(
      Table(embedlab::memory_source(std::string(10, '\0')), 4, 2, 2, StoredFloat::bf16, "t: "),
      Equals("t: the table's bytes 4 to 12 run past the end of the 10 bytes there are"));
}

TEST_CASE("held() reads the bytes once; with_rows() replaces rows everywhere", "[table]") {
  std::mt19937 rng(2);
  const Matrix w = random_matrix(700, 5, rng);
  auto [t, source] = counted(w);
  const Table held = t.held();
  CHECK(held.in_memory());
  CHECK(source->reads == 1);
  CHECK(same_bits(held.to_matrix(), w));
  CHECK(source->reads == 1);

  const Matrix replacement = random_matrix(2, 5, rng);
  const Table changed = t.with_rows({4, 650}, replacement);
  Matrix expected = w;
  expected.row(4) = replacement.row(0);
  expected.row(650) = replacement.row(1);
  CHECK(same_bits(changed.to_matrix(), expected));
  CHECK(same_bits(embedlab::lookup(changed, {650, 1}), embedlab::lookup(expected, {650, 1})));
  embedlab::StreamOptions options;
  options.block_rows = 512;
  embedlab::StreamedProduct product(changed, embedlab::one_hot_encoding({4, 650}, 700), options);
  product.run();
  CHECK(same_bits(product.result(),
                  embedlab::onehot_product(embedlab::one_hot({4, 650}, 700), expected)));
  // Replacing again keeps the earlier rows not replaced now.
  const Table twice = changed.with_rows({650}, replacement.row(0));
  expected.row(650) = replacement.row(0);
  CHECK(same_bits(twice.to_matrix(), expected));
}

TEST_CASE("max_norm on a table scales the rows it reads, as on a matrix", "[table]") {
  std::mt19937 rng(3);
  Matrix w = random_matrix(300, 16, rng);
  auto [t, source] = counted(w);
  const Ids ids{5, 7, 5, 299};
  const Ids scaled = embedlab::embedding_renorm(t, ids, 3.0);
  const Ids expected = embedlab::embedding_renorm(w, ids, 3.0);
  CHECK(scaled == expected);
  CHECK_FALSE(scaled.empty());
  CHECK(same_bits(t.to_matrix(), w));
}

TEST_CASE("nn.EmbeddingBag on a table reads each named row once and gives the same bits",
          "[table]") {
  std::mt19937 rng(4);
  const Matrix w = random_matrix(500, 6, rng);
  const Ids ids{3, 400, 3, 9, 400, 2};
  const Ids offsets{0, 2, 2, 5};
  for (const auto mode :
       {embedlab::BagMode::sum, embedlab::BagMode::mean, embedlab::BagMode::max}) {
    embedlab::BagOptions options;
    options.mode = mode;
    options.padding_idx = 9;
    auto [t, source] = counted(w);
    const auto from_table = embedlab::embedding_bag(t, ids, offsets, options);
    const auto from_matrix = embedlab::embedding_bag(w, ids, offsets, options);
    CHECK(same_bits(from_table.output, from_matrix.output));
    CHECK(from_table.bag_size == from_matrix.bag_size);
    CHECK(from_table.max_rows == from_matrix.max_rows);
    CHECK(source->bytes_read == 4 * 6 * 4);  // rows 2, 3, 9 and 400
  }
}

TEST_CASE("a streamed product reports its progress block by block", "[table]") {
  std::mt19937 rng(5);
  const Matrix w = random_matrix(1000, 4, rng);
  auto [t, source] = counted(w);
  embedlab::StreamOptions options;
  options.block_rows = 300;  // rounded up to 512
  embedlab::StreamedProduct product(t, embedlab::one_hot_encoding({1, 2, 3}, 1000), options);
  CHECK(product.step().rows_done == 512);
  CHECK(product.progress().bytes_read == 512 * 16);
  CHECK(product.progress().multiply_adds == 3 * 512 * 4);
  CHECK_FALSE(product.done());
  product.step();
  CHECK(product.done());
  CHECK(product.progress().bytes_read == product.progress().bytes);
  CHECK(product.progress().multiply_adds == product.progress().total_multiply_adds);
  CHECK(source->bytes_read == 16000);
  CHECK(embedlab::stream_block_rows(768) == 1536);  // 4 MiB of float32 rows of 768, rounded up
}

TEST_CASE("both routes through a table are those through its matrix", "[table]") {
  std::mt19937 rng(6);
  Matrix w = random_matrix(600, 3, rng);
  w(7, 1) = std::numeric_limits<float>::infinity();
  auto [t, source] = counted(w);
  const Ids ids{7, 599, 7};
  const auto a = embedlab::both_routes(t, ids);
  const auto b = embedlab::both_routes(w, ids);
  CHECK(same_bits(a.lookup, b.lookup));
  CHECK(same_bits(a.product, b.product));
  CHECK(a.comparison.bit_identical == b.comparison.bit_identical);
  CHECK(a.comparison.nan_mismatches == b.comparison.nan_mismatches);
  CHECK_FALSE(a.comparison.identical);
}

TEST_CASE("a .npy source gives the table parse_npy gives, and its errors", "[table]") {
  std::mt19937 rng(7);
  const Matrix w = random_matrix(5, 3, rng);
  const std::string file = embedlab::to_npy(w);
  const Table t = embedlab::open_npy_table(embedlab::memory_source(file));
  CHECK(same_bits(t.to_matrix(), embedlab::parse_npy(file)));
  CHECK_THROWS_WITH(
      embedlab::open_npy_table(embedlab::memory_source(file.substr(0, 150)), {}, "w.npy: "),
      Equals("w.npy: truncated .npy data: shape (5, 3) <f4 needs 60 bytes, found 22"));
}
