#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "embedlab/byte_source.hpp"
#include "embedlab/encoding.hpp"
#include "embedlab/float_bits.hpp"
#include "embedlab/gguf.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/streamed.hpp"
#include "gguf_builder.hpp"
#include "safetensors_builder.hpp"
#include "same_bits.hpp"

using Catch::Contains;
using embedlab::GgufHeader;
using embedlab::GgufTable;
using embedlab::Index;
using embedlab::Matrix;
using embedlab::memory_source;
using embedlab::StoredFloat;
using embedlab::Table;
using embedlab::test::GgufBuilder;
using embedlab::test::message_of;
using embedlab::test::same_bits;

namespace {

constexpr std::uint32_t kF32 = 0, kQ4_0 = 2, kQ8_0 = 8, kQ4_K = 12, kQ5_K = 13, kQ6_K = 14;

GgufHeader header_of(const std::string& bytes) {
  return embedlab::read_gguf_header(*memory_source(bytes));
}

GgufTable table_of(const std::string& bytes, std::string_view name = {}) {
  return embedlab::open_gguf_table(memory_source(bytes), name);
}

// What the one-hot product makes of looked-up rows: each value itself, except that a zero comes
// out +0.0 (1 * -0.0 added onto +0.0 and the 0 * w terms is +0.0). A quantized block with a
// negative scale holds -0.0 where its quant is zero, which the lookup copies as it is.
Matrix zeros_positive(Matrix m) {
  for (Index i = 0; i < m.size(); ++i)
    if (m.data()[i] == 0.0f) m.data()[i] = 0.0f;
  return m;
}

// A file with one tensor info (and no metadata), its data `data_bytes` zeros.
std::string one_tensor(std::uint64_t cols, std::uint64_t rows, std::uint32_t type,
                       std::size_t data_bytes, std::uint64_t offset = 0,
                       std::string_view name = "token_embd.weight") {
  GgufBuilder b;
  b.start(1, 0).tensor(name, cols, rows, type, offset).pad();
  return b.bytes() + std::string(data_bytes, '\0');
}

}  // namespace

TEST_CASE("a GGUF table of F32 rows is read as (V, d) from ne = [d, V]") {
  GgufBuilder b;
  b.start(2, 1).str("general.architecture").u32(8).str("llama");
  b.tensor("output_norm.weight", 3, 1, kF32, 0).tensor("token_embd.weight", 3, 2, kF32, 32).pad();
  std::string data(32, '\0');
  for (float x : {1.5f, -2.0f, 0.25f, 4.0f, -0.0f, 8.0f}) {
    const std::uint32_t bits = embedlab::float_bits(x);
    data.append(reinterpret_cast<const char*>(&bits), 4);
  }
  const GgufTable t = table_of(b.bytes() + data);
  CHECK(t.table.rows() == 2);
  CHECK(t.table.cols() == 3);
  CHECK_FALSE(t.has_head);
  CHECK(t.tokens.empty());
  Matrix expected(2, 3);
  expected << 1.5f, -2.0f, 0.25f, 4.0f, -0.0f, 8.0f;
  CHECK(same_bits(t.table.to_matrix(), expected));
  const GgufHeader h = header_of(b.bytes() + data);
  REQUIRE(h.metadata.size() == 1);
  CHECK(h.metadata[0].text == "\"llama\"");
  CHECK(h.data_start % 32 == 0);
}

TEST_CASE("Q8_0 and Q4_0 blocks dequantize as ggml's reference does, by hand") {
  // Q8_0: d = 0.5 (f16 0x3800), q = -128, -1, 0, 3, ... -> q * d.
  std::string q8(34, '\0');
  q8[0] = '\x00';
  q8[1] = '\x38';
  q8[2] = '\x80';
  q8[3] = '\xff';
  q8[5] = '\x03';
  Matrix m = Table(memory_source(q8), 0, 1, 32, StoredFloat::q8_0).to_matrix();
  CHECK(m(0, 0) == -64.0f);
  CHECK(m(0, 1) == -0.5f);
  CHECK(m(0, 3) == 1.5f);
  // Q4_0: d = 2 (0x4000); byte j holds value j (low nibble) and j + 16 (high): (q - 8) * d.
  std::string q4(18, '\0');
  q4[1] = '\x40';
  q4[2] = '\xf0';  // value 0: 0 - 8, value 16: 15 - 8
  q4[3] = '\x19';  // value 1: 9 - 8, value 17: 1 - 8
  m = Table(memory_source(q4), 0, 1, 32, StoredFloat::q4_0).to_matrix();
  CHECK(m(0, 0) == -16.0f);
  CHECK(m(0, 16) == 14.0f);
  CHECK(m(0, 1) == 2.0f);
  CHECK(m(0, 17) == -14.0f);
  CHECK(m(0, 2) == -16.0f);
}

TEST_CASE("Q4_K's packed 6-bit scales and mins dequantize as ggml's reference does, by hand") {
  std::string q4k(144, '\0');
  q4k[1] = '\x3c';        // d = 1
  q4k[3] = '\x38';        // dmin = 0.5
  q4k[4 + 1] = '\xc0';    // sub-block 1: scale 0; its top 2 bits are sub-block 5's scale's (48)
  q4k[4 + 5] = '\x40';    // sub-block 1: min 0; its top 2 bits are sub-block 5's min's (16)
  q4k[4 + 9] = '\x21';    // sub-block 5: scale 48 | 1, min 16 | 2
  q4k[16 + 64] = '\x70';  // value 160 (sub-block 5, a high nibble): 7; value 128: 0
  const Matrix m = Table(memory_source(q4k), 0, 1, 256, StoredFloat::q4_k).to_matrix();
  CHECK(m(0, 160) == 49.0f * 7.0f - 0.5f * 18.0f);
  CHECK(m(0, 161) == -9.0f);
  CHECK(m(0, 128) == 0.0f);  // sub-block 4: scale 0, min 0
  CHECK(m(0, 32) == 0.0f);   // sub-block 1
}

TEST_CASE("a row that is not a whole number of blocks is refused, naming both") {
  CHECK_THAT(message_of([] {
               Table(memory_source(std::string(1000, '\0')), 0, 1, 1152, StoredFloat::q6_k);
             }),
             Contains("a row of 1152 values is not a whole number of Q6_K blocks, which hold 256"));
  CHECK_THAT(message_of([] { header_of(one_tensor(100, 2, kQ4_K, 0)); }),
             Contains("rows of ne[0] = 100 values, not a whole number of Q4_K blocks of 256"));
}

TEST_CASE("a corrupt GGUF header is refused with the field it is about") {
  SECTION("truncated") {
    const std::string whole = one_tensor(32, 2, kQ8_0, 68);
    CHECK_THAT(message_of([&] { header_of(whole.substr(0, 2)); }),
               Contains("GGUF's magic (the first 4 bytes) needs 4 bytes at byte 0"));
    GgufBuilder long_name;
    long_name.start(1, 0).str(std::string(60, 'n'));
    CHECK_THAT(message_of([&] { header_of(long_name.bytes().substr(0, 70)); }),
               Contains("tensor 0's name needs 60 bytes at byte 32, but the file ends 38 bytes "
                        "later (it is 70 bytes)"));
    CHECK_THAT(
        message_of([&] { header_of(whole.substr(0, whole.size() - 1)); }),
        Contains(
            "'token_embd.weight' (Q8_0 [32, 2], 68 bytes) at data offset 0 runs past the end"));
  }
  SECTION("bad magic and version") {
    CHECK_THAT(message_of([] { header_of("GGML" + std::string(40, '\0')); }),
               Contains("not a GGUF file: it starts with \"GGML\""));
    CHECK_THAT(message_of([] { header_of(GgufBuilder().start(0, 0, 1).bytes()); }),
               Contains("GGUF version 1 (32-bit counts"));
    CHECK_THAT(message_of([] { header_of(GgufBuilder().start(0, 0, 4).bytes()); }),
               Contains("GGUF version 4 is not read: versions 2 and 3 are"));
    CHECK_THAT(message_of([] { header_of(GgufBuilder().start(0, 0, 3u << 24).bytes()); }),
               Contains("big-endian"));
  }
  SECTION("absurd counts and lengths") {
    CHECK_THAT(message_of([] { header_of(GgufBuilder().start(1ull << 60, 0).bytes()); }),
               Contains("the tensor count, 1152921504606846976, is more than"));
    CHECK_THAT(message_of([] { header_of(GgufBuilder().start(0, ~0ull).bytes()); }),
               Contains("the metadata count, 18446744073709551615, is more than"));
    GgufBuilder key;
    key.start(0, 1).u64(1ull << 40).raw(std::string(20, 'k'));
    CHECK_THAT(message_of([&] { header_of(key.bytes()); }),
               Contains("metadata entry 0's key is 1099511627776 bytes long; at most 65535"));
    GgufBuilder array;
    array.start(0, 1).str("tokenizer.ggml.scores").u32(9).u32(6).u64(1ull << 62).raw("xxxx");
    CHECK_THAT(message_of([&] { header_of(array.bytes()); }),
               Contains("metadata \"tokenizer.ggml.scores\" claims 4611686018427387904 elements of "
                        "FLOAT32, at least 4 bytes each, but only 4 bytes"));
    GgufBuilder string;
    string.start(0, 1).str("general.name").u32(8).u64(1000).raw("abc");
    CHECK_THAT(message_of([&] { header_of(string.bytes()); }),
               Contains("metadata \"general.name\" needs 1000 bytes"));
  }
  SECTION("absurd dimensions") {
    GgufBuilder dims;
    dims.start(1, 0).str("token_embd.weight").u32(5).raw(std::string(64, '\0'));
    CHECK_THAT(message_of([&] { header_of(dims.bytes()); }),
               Contains("tensor 0 'token_embd.weight' has 5 dimensions; GGUF tensors have 1 to 4"));
    GgufBuilder huge;
    huge.start(1, 0).str("t").u32(2).u64(1ull << 40).u64(1ull << 40).u32(kF32).u64(0).pad();
    CHECK_THAT(message_of([&] { header_of(huge.bytes()); }), Contains("more than 2^63 elements"));
    GgufBuilder big;
    big.start(1, 0).tensor("token_embd.weight", 4096, 1ull << 30, kF32).pad();
    CHECK_THAT(message_of([&] { header_of(big.bytes()); }),
               Contains("(F32 [4096, 1073741824]) is 4398046511104 blocks of 4 bytes, more than "
                        "the whole file's"));
  }
  SECTION("values of the wrong type or an unknown one") {
    GgufBuilder type;
    type.start(0, 1).str("x").u32(13).raw("abcd");
    CHECK_THAT(message_of([&] { header_of(type.bytes()); }),
               Contains("metadata \"x\" has value type 13, which GGUF does not define"));
    GgufBuilder boolean;
    boolean.start(0, 1).str("flag").u32(7).u8(2);
    CHECK_THAT(message_of([&] { header_of(boolean.bytes()); }), Contains("must be 0 or 1"));
    GgufBuilder align;
    align.start(0, 1).str("general.alignment").u32(4).u32(24);
    CHECK_THAT(message_of([&] { header_of(align.bytes()); }),
               Contains("24: it must be a power of 2"));
    GgufBuilder tokens;
    tokens.start(0, 1).str("tokenizer.ggml.tokens").u32(9).u32(4).u64(1).u32(7);
    CHECK_THAT(message_of([&] { header_of(tokens.bytes()); }),
               Contains("must be an array of STRING, not of UINT32"));
  }
  SECTION("offsets") {
    CHECK_THAT(message_of([] { header_of(one_tensor(32, 2, kQ8_0, 68, 8)); }),
               Contains("data offset 8 is not a multiple of the alignment, 32"));
    CHECK_THAT(message_of([] { header_of(one_tensor(32, 2, kQ8_0, 68, 1ull << 63)); }),
               Contains("runs past the end of the file"));
  }
}

TEST_CASE("the table must be named, 2-D and of a type that is read") {
  CHECK_THAT(message_of([] { table_of(one_tensor(32, 2, kQ8_0, 68, 0, "token_embd.weigh")); }),
             Contains("no tensor is named 'token_embd.weight' in the file (1 tensor); close names: "
                      "'token_embd.weigh'"));
  CHECK_THAT(message_of([] { table_of(one_tensor(256, 2, kQ5_K, 352)); }),
             Contains("Q5_K tables are not read; the types read are F32, F16, BF16, Q8_0, Q4_0, "
                      "Q4_K and Q6_K"));
  CHECK_THAT(message_of([] { table_of(one_tensor(32, 2, 99, 0)); }),
             Contains("type 99 tables are not read"));
  GgufBuilder one_d;
  one_d.start(1, 0).str("token_embd.weight").u32(1).u64(8).u32(kF32).u64(0).pad();
  CHECK_THAT(message_of([&] { table_of(one_d.bytes() + std::string(32, '\0')); }),
             Contains("has 1 dimensions: an embedding table has 2, ne = [d, V]"));
  CHECK_THAT(message_of([] { table_of(one_tensor(32, 1 << 23, kQ8_0, 0)); }),
             Contains("more than the whole file's"));
  // A file with its other tensors in a type not read opens: only the table's type matters.
  GgufBuilder mixed;
  mixed.start(2, 0)
      .tensor("blk.0.ffn_up.weight", 256, 1, kQ5_K, 0)
      .tensor("token_embd.weight", 32, 2, kQ4_0, 192)
      .pad();
  CHECK(table_of(mixed.bytes() + std::string(192 + 36, '\0')).table.dtype() == StoredFloat::q4_0);
}

TEST_CASE(
    "a GGUF table's routes decode the blocks each needs: the lookup its rows, the product all") {
  // 1536 rows of 512 Q6_K values (2 blocks a row), random bytes with a valid scale.
  const Index rows = 1536, cols = 512;
  std::string data(static_cast<std::size_t>(rows * 2 * 210), '\0');
  std::uint32_t state = 7;
  for (char& c : data) c = static_cast<char>((state = state * 1664525u + 1013904223u) >> 24);
  for (Index b = 0; b < rows * 2; ++b) {
    data[b * 210 + 208] = '\x00';
    data[b * 210 + 209] = '\x20';  // d = 2^-7
  }
  GgufBuilder file;
  file.start(1, 0).tensor("token_embd.weight", cols, rows, kQ6_K).pad();
  const GgufTable t = table_of(file.bytes() + data);
  const embedlab::Ids ids = {1535, 3, 700, 3};
  const std::uint64_t before = t.table.blocks_decoded();
  const Matrix rows_looked_up = embedlab::lookup(t.table, ids);
  CHECK(t.table.blocks_decoded() - before == 4 * 2);
  embedlab::StreamedProduct product(t.table, embedlab::one_hot_encoding(ids, rows), {512, 0, 0});
  product.run();
  CHECK(t.table.blocks_decoded() - before == 4 * 2 + rows * 2);
  CHECK(same_bits(zeros_positive(rows_looked_up), product.result()));
}

#ifdef EMBEDLAB_GGUF_REFERENCE_DIR
namespace {

const std::string kReference = EMBEDLAB_GGUF_REFERENCE_DIR "/";

std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

// Hidden: run by ctest after gguf_reference.py has written the files and their values.
TEST_CASE("every table type has the values of ggml's reference dequantization", "[.gguf]") {
  std::istringstream listing(read_whole(kReference + "tables.txt"));
  std::string type;
  Index rows = 0, cols = 0;
  int k = 0;
  while (listing >> type >> rows >> cols) {
    INFO(type);
    const GgufTable t = embedlab::load_gguf_table(kReference + type + ".gguf");
    CHECK(std::string(embedlab::stored_float_name(t.table.dtype())) == type);
    REQUIRE(t.table.rows() == rows);
    REQUIRE(t.table.cols() == cols);
    const std::string values = read_whole(kReference + type + ".f32");
    REQUIRE(values.size() == static_cast<std::size_t>(4 * rows * cols));
    Matrix expected(rows, cols);
    std::memcpy(expected.data(), values.data(), values.size());
    CHECK(same_bits(t.table.to_matrix(), expected));
    // Both routes give those rows, bit for bit.
    const embedlab::Ids ids = {rows - 1, 0, 2, 2};
    embedlab::StreamedProduct product(t.table, embedlab::one_hot_encoding(ids, rows));
    product.run();
    const Matrix looked_up = embedlab::lookup(t.table, ids);
    CHECK(same_bits(zeros_positive(looked_up), product.result()));
    CHECK(same_bits(Matrix(looked_up.row(0)), Matrix(expected.row(rows - 1))));
    // What else the file holds.
    CHECK(t.has_head == (k % 2 == 0));
    REQUIRE(t.tokens.size() == static_cast<std::size_t>(rows));
    CHECK(t.tokens.back() ==
          "\xe2\x96\x81"
          "caf\xc3\xa9");
    const GgufHeader h = embedlab::read_gguf_header(kReference + type + ".gguf");
    CHECK(h.version == (k % 3 == 0 ? 2u : 3u));
    CHECK(h.alignment == (k % 2 ? 64u : 32u));
    ++k;
  }
  CHECK(k == 7);
}

TEST_CASE("metadata of every value type is listed as written", "[.gguf]") {
  const GgufHeader h = embedlab::read_gguf_header(kReference + "Q4_K.gguf");
  std::vector<std::string> shown;
  for (const auto& m : h.metadata) shown.push_back(m.key + " " + m.type + " " + m.text);
  CHECK_THAT(shown, Catch::VectorContains(std::string("general.architecture STRING \"llama\"")));
  for (const char* line :
       {"u8 UINT8 200", "i8 INT8 -100", "u16 UINT16 60000", "i16 INT16 -30000",
        "u32 UINT32 4000000000", "i32 INT32 -2000000000", "f32 FLOAT32 0.5", "flag BOOL true",
        "u64 UINT64 9223372036854775813", "i64 INT64 -4611686018427387904", "f64 FLOAT64 -1.25",
        "tokenizer.ggml.scores ARRAY[FLOAT32] [5 elements: 0, -1.5, -2, ...]",
        "tokenizer.ggml.token_type ARRAY[INT32] [5 elements: 1, 1, 3, ...]",
        "empty ARRAY[UINT8] [0 elements]",
        "tokenizer.ggml.tokens ARRAY[STRING] [7 elements: \"tok0\", \"tok1\", \"tok2\", ...]"})
    CHECK_THAT(shown, Catch::VectorContains(std::string(line)));
}
#endif
