#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "embedlab/error.hpp"
#include "embedlab/float_bits.hpp"
#include "embedlab/npy.hpp"
#include "embedlab/safetensors.hpp"
#include "safetensors_builder.hpp"
#include "same_bits.hpp"

using namespace std::string_literals;
using Catch::Contains;
using Catch::EndsWith;
using Catch::Equals;
using Catch::StartsWith;
using embedlab::Argument;
using embedlab::Index;
using embedlab::InputError;
using embedlab::Matrix;
using embedlab::SafetensorsEntry;
using embedlab::SafetensorsHeader;
using embedlab::test::entry;
using embedlab::test::message_of;
using embedlab::test::safetensors_file;
using embedlab::test::same_bits;

namespace {

SafetensorsHeader header_of(const std::string& file) {
  return embedlab::parse_safetensors_header(file, file.size());
}

// The table as a caller reads it: header, choice, then only the table's bytes.
Matrix table_of(const std::string& file, const std::string& name = "") {
  const SafetensorsHeader header = header_of(file);
  const SafetensorsEntry& e = embedlab::choose_embedding_table(header, name);
  return embedlab::convert_safetensors_table(e, file.substr(e.begin, e.end - e.begin));
}

std::string header_error(const std::string& file) {
  return message_of([&] { header_of(file); });
}

std::string table_error(const std::string& file, const std::string& name = "",
                        const embedlab::Limits& limits = embedlab::default_limits) {
  return message_of([&] {
    const SafetensorsHeader header = header_of(file);
    embedlab::choose_embedding_table(header, name, limits);
  });
}

std::string u16_bytes(std::initializer_list<std::uint16_t> values) {
  std::string out;
  for (std::uint16_t v : values) out += {static_cast<char>(v & 0xff), static_cast<char>(v >> 8)};
  return out;
}

// Little-endian bytes of float32 1.0, -2.0, 0.5 and of float64 0.1.
const std::string kOne = "\x00\x00\x80\x3f"s;
const std::string kMinusTwo = "\x00\x00\x00\xc0"s;
const std::string kHalf = "\x00\x00\x00\x3f"s;
const std::string kPointOne64 = "\x9a\x99\x99\x99\x99\x99\xb9\x3f"s;

// The bytes this process has asked the kernel to read so far (rchar in /proc/self/io): counted
// outside the reader, whatever buffering the stream does.
std::uint64_t bytes_read_by_process() {
  std::ifstream io("/proc/self/io");
  REQUIRE(io);
  std::string key;
  std::uint64_t value = 0;
  while (io >> key >> value)
    if (key == "rchar:") return value;
  FAIL("no rchar line in /proc/self/io");
  return 0;
}

}  // namespace

TEST_CASE("a float32 table is read from its byte range, other tensors untouched") {
  const std::string file =
      safetensors_file("{" + entry("bias", "F32", "[1]", 0, 4) + ", " +
                           entry("transformer.wte.weight", "F32", "[2, 2]", 4, 20) + "}",
                       kHalf + kOne + kMinusTwo + kHalf + kOne);
  const Matrix m = table_of(file);
  REQUIRE(m.rows() == 2);
  REQUIRE(m.cols() == 2);
  CHECK(m(0, 0) == 1.0f);
  CHECK(m(0, 1) == -2.0f);
  CHECK(m(1, 0) == 0.5f);
  CHECK(m(1, 1) == 1.0f);
}

TEST_CASE("the header lists every tensor in the order of its bytes, with its file range") {
  // JSON order (and nlohmann's sorted order) is z, a; the bytes hold a first.
  const std::string json = "{" + entry("z.position_ids", "I64", "[1, 2]", 8, 24) + ", " +
                           entry("a.weight", "F16", "[2, 2]", 0, 8) +
                           ", \"__metadata__\": {\"format\": \"pt\", \"b\": \"2\"}}";
  const std::string file = safetensors_file(json, std::string(24, '\0'));
  const SafetensorsHeader h = header_of(file);
  CHECK(h.file_size == file.size());
  CHECK(h.data_start == 8 + json.size());
  REQUIRE(h.tensors.size() == 2);
  CHECK(h.tensors[0].name == "a.weight");
  CHECK(h.tensors[0].dtype == "F16");
  CHECK(h.tensors[0].shape == std::vector<Index>{2, 2});
  CHECK(h.tensors[0].begin == h.data_start);
  CHECK(h.tensors[0].end == h.data_start + 8);
  CHECK(h.tensors[1].name == "z.position_ids");
  CHECK(h.tensors[1].dtype == "I64");
  CHECK(h.tensors[1].begin == h.data_start + 8);
  using Pair = std::pair<std::string, std::string>;
  CHECK(h.metadata == std::vector<Pair>{{"b", "2"}, {"format", "pt"}});
}

TEST_CASE("the header is read in two steps from the file's first bytes alone") {
  const std::string json = "{" + entry("wte.weight", "F32", "[1, 1]", 0, 4) + "}";
  const std::string file = safetensors_file(json, kOne);
  CHECK(embedlab::safetensors_header_size(file.substr(0, 8), file.size()) == 8 + json.size());
  // The first 8 + N bytes are enough; the data need not be there.
  const SafetensorsHeader h =
      embedlab::parse_safetensors_header(file.substr(0, 8 + json.size()), file.size());
  REQUIRE(h.tensors.size() == 1);
  CHECK(h.tensors[0].begin == 8 + json.size());
  CHECK(message_of([&] { embedlab::safetensors_header_size(file.substr(0, 5), file.size()); }) ==
        "the .safetensors header's length needs the file's first 8 bytes, only 5 were given");
  CHECK(message_of([&] { embedlab::parse_safetensors_header(file.substr(0, 8), file.size()); }) ==
        "the .safetensors header needs the file's first " + std::to_string(8 + json.size()) +
            " bytes, only 8 were given");
}

TEST_CASE("BF16 is the top half of a float32: every value, NaN bits included, is kept") {
  const std::string file =
      safetensors_file("{" + entry("model.embed_tokens.weight", "BF16", "[2, 4]", 0, 16) + "}",
                       u16_bytes({0x3f80, 0xc000, 0x8000, 0x0001,     //
                                  0x7f80, 0xff80, 0x7fc1, 0x7f81}));  // +-Inf, quiet/signalling NaN
  const Matrix m = table_of(file);
  CHECK(m(0, 0) == 1.0f);
  CHECK(m(0, 1) == -2.0f);
  CHECK(embedlab::float_bits(m(0, 2)) == 0x80000000u);  // -0
  CHECK(m(0, 3) == std::ldexp(1.0f, -133));             // the smallest bf16 subnormal
  CHECK(m(1, 0) == std::numeric_limits<float>::infinity());
  CHECK(m(1, 1) == -std::numeric_limits<float>::infinity());
  CHECK(embedlab::float_bits(m(1, 2)) == 0x7fc10000u);
  CHECK(embedlab::float_bits(m(1, 3)) == 0x7f810000u);
}

TEST_CASE("F16 converts exactly: normals, subnormals, +-0, +-Inf, and NaNs come back quiet") {
  const std::string file = safetensors_file(
      "{" + entry("wte.weight", "F16", "[3, 4]", 0, 24) + "}",
      u16_bytes({0x3c00, 0xc000, 0x3555, 0x7bff,     // 1, -2, 0.333251953125, 65504
                 0x0001, 0x03ff, 0x0400, 0x8000,     // 2^-24, 1023 * 2^-24, 2^-14, -0
                 0x7c00, 0xfc00, 0x7e00, 0xfc01}));  // +-Inf, quiet NaN, signalling -NaN
  const Matrix m = table_of(file);
  CHECK(m(0, 0) == 1.0f);
  CHECK(m(0, 1) == -2.0f);
  CHECK(m(0, 2) == 0.333251953125f);
  CHECK(m(0, 3) == 65504.0f);
  CHECK(m(1, 0) == std::ldexp(1.0f, -24));
  CHECK(m(1, 1) == std::ldexp(1023.0f, -24));
  CHECK(m(1, 2) == std::ldexp(1.0f, -14));
  CHECK(embedlab::float_bits(m(1, 3)) == 0x80000000u);
  CHECK(m(2, 0) == std::numeric_limits<float>::infinity());
  CHECK(m(2, 1) == -std::numeric_limits<float>::infinity());
  CHECK(embedlab::float_bits(m(2, 2)) == 0x7fc00000u);
  // Sign and payload kept, quiet bit set, as PyTorch's .float() gives it.
  CHECK(embedlab::float_bits(m(2, 3)) == 0xffc02000u);
}

TEST_CASE("F64 is rounded to float32 and must fit") {
  const std::string huge = "\xab\x7c\x4d\x24\x44\x04\x40\x5e"s;  // 1e146
  const std::string fits =
      safetensors_file("{" + entry("wte.weight", "F64", "[1, 1]", 0, 8) + "}", kPointOne64);
  CHECK(table_of(fits)(0, 0) == 0.1f);
  const std::string file =
      safetensors_file("{" + entry("wte.weight", "F64", "[1, 2]", 0, 16) + "}", kPointOne64 + huge);
  CHECK(message_of([&] { table_of(file); }) ==
        "tensor 'wte.weight': value 1e+146 at row 0, column 1 does not fit in float32 (the "
        "largest float32 is about 3.4e38)");
}

TEST_CASE("the embedding table is found by its name's last parts, and only if 2-D") {
  const auto candidates = [](const std::string& json) {
    std::vector<std::string> names;
    const std::string file = safetensors_file(json, std::string(64, '\0'));
    const SafetensorsHeader h = header_of(file);
    for (const SafetensorsEntry* e : embedding_table_candidates(h)) names.push_back(e->name);
    return names;
  };
  using Names = std::vector<std::string>;
  // BERT: word_embeddings, not position_embeddings ("embeddings.weight" after a '_').
  CHECK(candidates("{" + entry("bert.embeddings.word_embeddings.weight", "F32", "[2, 2]", 0, 16) +
                   ", " +
                   entry("bert.embeddings.position_embeddings.weight", "F32", "[2, 2]", 16, 32) +
                   "}") == Names{"bert.embeddings.word_embeddings.weight"});
  CHECK(candidates("{" + entry("wte.weight", "F32", "[2, 2]", 0, 16) + "}") == Names{"wte.weight"});
  CHECK(candidates("{" + entry("tok_embeddings.weight", "F32", "[4, 4]", 0, 64) + "}") ==
        Names{"tok_embeddings.weight"});
  CHECK(candidates("{" + entry("model.embeddings.weight", "F32", "[4, 4]", 0, 64) + "}") ==
        Names{"model.embeddings.weight"});
  // Not a whole part of the name, or not 2-D.
  CHECK(candidates("{" + entry("xwte.weight", "F32", "[2, 2]", 0, 16) + ", " +
                   entry("model.embed_tokens.weight", "F32", "[4]", 16, 32) + "}")
            .empty());
  // T5: several.
  CHECK(candidates("{" + entry("shared.weight", "F32", "[2, 2]", 0, 16) + ", " +
                   entry("encoder.embed_tokens.weight", "F32", "[2, 2]", 16, 32) + "}") ==
        Names{"shared.weight", "encoder.embed_tokens.weight"});
}

TEST_CASE("no candidate, or several, is an error that lists them") {
  const std::string none = safetensors_file("{" + entry("lm_head.weight", "F32", "[2, 2]", 0, 16) +
                                                ", " + entry("ln.bias", "F32", "[2]", 16, 24) + "}",
                                            std::string(24, '\0'));
  CHECK(table_error(none) ==
        "no tensor looks like the embedding table (a 2-D tensor named wte.weight, "
        "embed_tokens.weight, tok_embeddings.weight, word_embeddings.weight, shared.weight or "
        "embeddings.weight, perhaps after a prefix such as \"model.\"); name the one to load: its "
        "2-D tensors are 'lm_head.weight' (F32 [2, 2])");
  const std::string one_d =
      safetensors_file("{" + entry("ln.bias", "F32", "[2]", 0, 8) + "}", std::string(8, '\0'));
  CHECK_THAT(table_error(one_d), Contains("name the one to load: the file holds 1 tensor and "
                                          "none is 2-D"));
  const std::string several =
      safetensors_file("{" + entry("shared.weight", "BF16", "[4, 2]", 0, 16) + ", " +
                           entry("encoder.embed_tokens.weight", "BF16", "[4, 2]", 16, 32) + "}",
                       std::string(32, '\0'));
  CHECK(table_error(several) ==
        "2 tensors look like the embedding table: 'shared.weight' (BF16 [4, 2]), "
        "'encoder.embed_tokens.weight' (BF16 [4, 2]); name the one to load");
  // Naming one settles it.
  CHECK(table_of(several, "encoder.embed_tokens.weight").rows() == 4);
}

TEST_CASE("a name that is not in the file lists the close ones") {
  const std::string file =
      safetensors_file("{" + entry("transformer.wte.weight", "F32", "[2, 2]", 0, 16) + ", " +
                           entry("transformer.wpe.weight", "F32", "[2, 2]", 16, 32) + ", " +
                           entry("transformer.h.0.attn.bias", "F32", "[2]", 32, 40) + "}",
                       std::string(40, '\0'));
  // A suffix of the real name, then a typo: both wpe and wte are one letter from "wxe".
  CHECK(table_error(file, "wte.weight") ==
        "no tensor is named 'wte.weight' in the file; close names: 'transformer.wte.weight' (F32 "
        "[2, 2])");
  CHECK(table_error(file, "transformer.wxe.weight") ==
        "no tensor is named 'transformer.wxe.weight' in the file; close names: "
        "'transformer.wte.weight' (F32 [2, 2]), 'transformer.wpe.weight' (F32 [2, 2])");
  CHECK(table_error(file, "embedding") ==
        "no tensor is named 'embedding' in the file; no name is close, and its 2-D tensors are "
        "'transformer.wte.weight' (F32 [2, 2]), 'transformer.wpe.weight' (F32 [2, 2])");
  CHECK(table_of(file, "transformer.wpe.weight").rows() == 2);
}

TEST_CASE("the chosen tensor must be a table: 2-D, a float dtype, not empty, within the limits") {
  const std::string file = safetensors_file(
      "{" + entry("bias", "F32", "[3]", 0, 12) + ", " + entry("q8", "I8", "[2, 2]", 12, 16) + ", " +
          entry("f8", "F8_E4M3", "[2, 2]", 16, 20) + ", " +
          entry("flags", "BOOL", "[2, 2]", 20, 24) + ", " + entry("q4", "Q4", "[2, 2]", 24, 26) +
          ", " + entry("empty", "F32", "[0, 4]", 26, 26) + "}",
      std::string(26, '\0'));
  CHECK(table_error(file, "bias") ==
        "tensor 'bias' has shape [3] (1-D); an embedding table is 2-D (V, d)");
  CHECK(table_error(file, "q8") ==
        "tensor 'q8' is I8 (int8), which cannot be read as a table: the supported dtypes are F32, "
        "F64, F16 and BF16");
  CHECK_THAT(table_error(file, "f8"), StartsWith("tensor 'f8' is F8_E4M3 (float8 e4m3), which"));
  CHECK_THAT(table_error(file, "flags"), StartsWith("tensor 'flags' is BOOL (bool), which"));
  // An unknown dtype is listed (its size cannot be checked) but cannot be a table.
  CHECK(header_of(file).tensors.size() == 6);
  CHECK(table_error(file, "q4") ==
        "tensor 'q4' has the unknown dtype 'Q4', which cannot be read as a table: the supported "
        "dtypes are F32, F64, F16 and BF16");
  CHECK(table_error(file, "empty") ==
        "tensor 'empty' is empty: shape [0, 4]; an embedding table needs at least one row and "
        "one column");
}

TEST_CASE("a table over the limits is refused before any of its bytes is read") {
  // Only the header is given; the file is said to be long enough for the data.
  const std::string json = "{" + entry("wte.weight", "BF16", "[5000000, 4]", 0, 40000000) + "}";
  const std::string head = safetensors_file(json);
  const SafetensorsHeader h = embedlab::parse_safetensors_header(head, head.size() + 40000000);
  CHECK(message_of([&] { embedlab::choose_embedding_table(h); }) ==
        "tensor 'wte.weight' [5000000, 4]: the vocabulary size V = 5,000,000 is over the limit of "
        "4,194,304");
  // A table is read where it lies, so its size is no limit; held whole, it is.
  embedlab::Limits small;
  small.max_elements = 10;
  small.max_vocab = 1 << 23;
  CHECK(embedlab::choose_embedding_table(h, "", small).name == "wte.weight");
  CHECK_THAT(message_of([&] {
               embedlab::convert_safetensors_table(embedlab::choose_embedding_table(h, "", small),
                                                   std::string(40000000, '\0'), small);
             }),
             Equals("tensor 'wte.weight' [5000000, 4]: the embedding table (V x d) would be "
                    "5,000,000 x 4 floats, over the limit of 10 floats (0 MiB) that keeps memory "
                    "bounded"));
}

TEST_CASE("the table's bytes must be the ones its entry names") {
  const std::string file =
      safetensors_file("{" + entry("wte.weight", "F32", "[1, 2]", 0, 8) + "}", kOne + kHalf);
  const SafetensorsHeader h = header_of(file);
  const SafetensorsEntry& e = embedlab::choose_embedding_table(h);
  const std::string expected_range =
      "tensor 'wte.weight' is bytes " + std::to_string(e.begin) + " to " + std::to_string(e.end);
  CHECK(message_of([&] { embedlab::convert_safetensors_table(e, kOne); }) ==
        expected_range + " of the file, 8 bytes, but 4 were given");
  // An entry made up by a caller is checked against its shape too.
  SafetensorsEntry made_up = e;
  made_up.shape = {2, 2};
  CHECK(message_of([&] { embedlab::convert_safetensors_table(made_up, kOne + kHalf); }) ==
        "tensor 'wte.weight' spans bytes " + std::to_string(e.begin) + " to " +
            std::to_string(e.end) + ", but shape [2, 2] of F32 needs 16 bytes");
}

TEST_CASE("a table converted a few rows at a time is the table converted whole") {
  // F64 rows of 3 values: 24 bytes each.
  std::string data;
  for (int i = 0; i < 12; ++i) {
    const double v = 0.1 * i - 0.35;
    char bytes[8];
    std::memcpy(bytes, &v, 8);
    data.append(bytes, 8);
  }
  const std::string file =
      safetensors_file("{" + entry("wte.weight", "F64", "[4, 3]", 0, 96) + "}", data);
  const SafetensorsHeader h = header_of(file);
  const SafetensorsEntry& e = embedlab::choose_embedding_table(h);
  CHECK(embedlab::safetensors_row_bytes(e) == 24);
  const std::string_view bytes = std::string_view(file).substr(e.begin, 96);
  Matrix pieces(4, 3);
  embedlab::convert_safetensors_rows(e, 3, bytes.substr(72, 24), pieces);
  embedlab::convert_safetensors_rows(e, 0, bytes.substr(0, 48), pieces);
  embedlab::convert_safetensors_rows(e, 2, bytes.substr(48, 24), pieces);
  CHECK(same_bits(pieces, embedlab::convert_safetensors_table(e, bytes)));
  CHECK(pieces(3, 2) == static_cast<float>(0.1 * 11 - 0.35));

  CHECK(
      message_of([&] { embedlab::convert_safetensors_rows(e, 0, bytes.substr(0, 30), pieces); }) ==
      "the rows of tensor 'wte.weight' are 24 bytes each, and 30 bytes are not a whole number "
      "of rows");
  CHECK(message_of([&] {
          embedlab::convert_safetensors_rows(e, 3, bytes.substr(0, 48), pieces);
        }) == "rows 3 to 5 are not all in tensor 'wte.weight', which has rows 0 to 4");
  CHECK_THAT(message_of([&] { embedlab::convert_safetensors_rows(e, -1, "", pieces); }),
             StartsWith("rows -1 to -1 are not all in"));
  Matrix wrong(3, 4);
  CHECK(message_of([&] { embedlab::convert_safetensors_rows(e, 0, bytes, wrong); }) ==
        "the table to fill is 3 x 4, but tensor 'wte.weight' is [4, 3]");
  // A value too large for float32 is placed by its row in the table, not in the piece.
  const double huge = 1e300;
  std::string big_row(bytes.substr(0, 16));
  big_row.append(reinterpret_cast<const char*>(&huge), 8);
  CHECK(message_of([&] { embedlab::convert_safetensors_rows(e, 2, big_row, pieces); }) ==
        "tensor 'wte.weight': value 1e+300 at row 2, column 2 does not fit in float32 (the "
        "largest float32 is about 3.4e38)");
}

TEST_CASE("a table larger than the reader's block of bytes is read in several blocks") {
  // 1100 rows of 1000 float32 values: 4.4 MB, more than one 4 MiB block.
  const Index rows = 1100, cols = 1000;
  std::string data(static_cast<std::size_t>(4 * rows * cols), '\0');
  for (Index i = 0; i < rows * cols; ++i) {
    const float v = static_cast<float>(i % 977) - 0.5f * static_cast<float>(i / cols);
    std::memcpy(&data[static_cast<std::size_t>(4 * i)], &v, 4);
  }
  const std::string path = "embedlab_test_blocks.safetensors";
  {
    std::ofstream out(path, std::ios::binary);
    out << safetensors_file("{" + entry("wte.weight", "F32", "[1100, 1000]", 0, data.size()) + "}",
                            data);
  }
  const embedlab::SafetensorsTable t = embedlab::load_safetensors_table(path);
  std::remove(path.c_str());
  const Matrix w = t.table.to_matrix();
  REQUIRE(w.rows() == rows);
  REQUIRE(w.cols() == cols);
  CHECK(std::memcmp(w.data(), data.data(), data.size()) == 0);
}

TEST_CASE("the header length must be within the file and the format's limit") {
  CHECK(message_of([] { embedlab::safetensors_header_size("abc", 3); }) ==
        "not a .safetensors file: it is 3 bytes long, and a .safetensors file starts with 8 bytes "
        "that give its header's length");
  std::string over_limit = "\x01\xe1\xf5\x05\x00\x00\x00\x00"s;  // 100000001
  CHECK(message_of([&] { embedlab::safetensors_header_size(over_limit, 1ull << 40); }) ==
        "not a .safetensors file, or a corrupt one: its first 8 bytes give a header length of "
        "100000001 bytes, over the format's limit of 100000000 bytes (100 MB)");
  // A .npy file read as .safetensors: "\x93NUMPY\x01\x00" is a length of about 2^48.
  CHECK_THAT(header_error("\x93NUMPY\x01\x00\x76\x00{}"s),
             StartsWith("not a .safetensors file, or a corrupt one: its first 8 bytes give a "
                        "header length of 379676406402707 bytes"));
  CHECK(header_error("\x64\x00\x00\x00\x00\x00\x00\x00{}"s) ==
        "truncated .safetensors file: its first 8 bytes give a header length of 100 bytes, but "
        "only 2 bytes follow them");
}

TEST_CASE("invalid JSON says where") {
  CHECK(header_error(safetensors_file("{\"a\": tru}")) ==
        "invalid JSON in the .safetensors header (at byte offset 17 in the file): parse error at "
        "line 1, column 10: syntax error while parsing value - invalid literal; last read: "
        "'\"a\": tru}'");
  CHECK_THAT(header_error(safetensors_file("{\n  \"a\": 1,\n  x}")),
             StartsWith("invalid JSON in the .safetensors header (at byte offset 22 in the "
                        "file): parse error at line 3, column 3: syntax error while parsing "
                        "object key"));
  CHECK_THAT(header_error(safetensors_file("")),
             Contains("parse error at line 1, column 1: syntax error while parsing value - "
                      "unexpected end of input"));
  CHECK(header_error(safetensors_file("{\"a\": 1e999}")) ==
        "invalid JSON in the .safetensors header: number overflow parsing '1e999'");
  // Bytes that are not UTF-8 are shown escaped.
  CHECK_THAT(header_error(safetensors_file("{\"\xff\": 1}")),
             Contains("ill-formed UTF-8 byte; last read: '\"\\xff'"));
  CHECK(header_error(safetensors_file("{\"a\": {\"shape\": [[1]]}}")) ==
        "invalid .safetensors header: its JSON nests more than 3 levels deep (a safetensors "
        "header holds tensors, each an object with a shape list)");
  CHECK(header_error(safetensors_file("[1]")) ==
        "invalid .safetensors header: it should be a JSON object of tensors, found the array [1]");
  CHECK(header_error(safetensors_file(
            "{" + entry("a", "F32", "[1]", 0, 4) + ", " + entry("a", "F32", "[1]", 4, 8) + "}",
            std::string(8, '\0'))) == "invalid .safetensors header: tensor 'a' is listed twice");
}

TEST_CASE("an entry missing a field, or with one of the wrong type, is named") {
  const auto error = [](const std::string& value) {
    return header_error(safetensors_file("{\"w\": " + value + "}", std::string(16, '\0')));
  };
  CHECK(error("3") ==
        "invalid .safetensors header: tensor 'w' should be an object with \"dtype\", \"shape\" "
        "and \"data_offsets\", found the number 3");
  CHECK(error("{\"dtype\": \"F32\", \"shape\": [1]}") ==
        "invalid .safetensors header: tensor 'w' has no \"data_offsets\" (each tensor needs "
        "\"dtype\", \"shape\" and \"data_offsets\")");
  CHECK_THAT(error("{\"shape\": [1], \"data_offsets\": [0, 4]}"),
             StartsWith("invalid .safetensors header: tensor 'w' has no \"dtype\""));
  CHECK_THAT(error("{\"dtype\": \"F32\", \"data_offsets\": [0, 4]}"),
             StartsWith("invalid .safetensors header: tensor 'w' has no \"shape\""));
  CHECK(error("{\"dtype\": 7, \"shape\": [1], \"data_offsets\": [0, 4]}") ==
        "invalid .safetensors header: tensor 'w': \"dtype\" should be a string such as \"F32\", "
        "found the number 7");
  CHECK(error("{\"dtype\": \"F32\", \"shape\": [2, -1], \"data_offsets\": [0, 4]}") ==
        "invalid .safetensors header: tensor 'w': \"shape\" should be a list of non-negative "
        "integers, found the array [2,-1]");
  CHECK_THAT(error("{\"dtype\": \"F32\", \"shape\": [1.5], \"data_offsets\": [0, 4]}"),
             EndsWith("found the array [1.5]"));
  CHECK_THAT(error("{\"dtype\": \"F32\", \"shape\": \"1\", \"data_offsets\": [0, 4]}"),
             EndsWith("found the string \"1\""));
  CHECK_THAT(error("{\"dtype\": \"F32\", \"shape\": [18446744073709551615], \"data_offsets\": "
                   "[0, 4]}"),
             Contains("\"shape\" should be a list of non-negative integers"));
  CHECK(error("{\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [0]}") ==
        "invalid .safetensors header: tensor 'w': \"data_offsets\" should be two non-negative "
        "integers [begin, end], found the array [0]");
  CHECK_THAT(error("{\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [\"0\", \"4\"]}"),
             EndsWith("found the array [\"0\",\"4\"]"));
  CHECK_THAT(error("{\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": null}"),
             EndsWith("[begin, end], found null"));
  // A control character in a name is shown escaped.
  CHECK_THAT(header_error(safetensors_file("{\"a\\u0001b\": 3}")),
             StartsWith("invalid .safetensors header: tensor 'a\\x01b' should be an object"));
}

TEST_CASE("__metadata__ must map names to strings") {
  CHECK(header_error(safetensors_file("{\"__metadata__\": [1]}")) ==
        "invalid .safetensors header: \"__metadata__\" should be an object of strings, found the "
        "array [1]");
  CHECK(header_error(safetensors_file("{\"__metadata__\": {\"a\": \"x\", \"n\": 2}}")) ==
        "invalid .safetensors header: \"__metadata__\" should hold only strings, but 'n' is the "
        "number 2");
}

TEST_CASE("data_offsets must be in order, inside the data section, apart, and match the shape") {
  const std::string data(24, '\0');
  CHECK(header_error(safetensors_file("{" + entry("w", "F32", "[1]", 8, 4) + "}", data)) ==
        "invalid .safetensors header: tensor 'w': its data_offsets [8, 4] are reversed (begin "
        "after end)");
  const std::string json = "{" + entry("w", "F32", "[2, 2]", 16, 32) + "}";
  CHECK(header_error(safetensors_file(json, data)) ==
        "corrupt or truncated .safetensors file: the data_offsets [16, 32] of tensor 'w' run past "
        "the end of the data section, which holds 24 bytes (from byte " +
            std::to_string(8 + json.size()) + " to the end of the file)");
  CHECK(header_error(safetensors_file("{" + entry("w", "BF16", "[2, 3]", 0, 20) + "}", data)) ==
        "corrupt .safetensors header: the data_offsets [0, 20] of tensor 'w' hold 20 bytes, but "
        "shape [2, 3] of BF16 needs 12 (2 bytes per value)");
  // Every dtype of known size is checked, tables or not.
  CHECK_THAT(header_error(safetensors_file("{" + entry("i", "I64", "[2]", 0, 8) + "}", data)),
             EndsWith("shape [2] of I64 needs 16 (8 bytes per value)"));
  CHECK_THAT(header_error(safetensors_file(
                 "{" + entry("i", "U8", "[4294967296, 4294967296]", 0, 8) + "}", data)),
             EndsWith("needs more than 2^64 (1 byte per value)"));
  const std::string overlap_json = "{" + entry("a", "F32", "[1, 2]", 0, 8) + ", " +
                                   entry("b", "F32", "[1, 3]", 4, 16) + ", " +
                                   entry("c", "F32", "[0]", 4, 4) + "}";
  const std::uint64_t start = 8 + overlap_json.size();
  CHECK(header_error(safetensors_file(overlap_json, data)) ==
        "corrupt .safetensors header: tensors 'a' (bytes " + std::to_string(start) + " to " +
            std::to_string(start + 8) + " of the file) and 'b' (bytes " +
            std::to_string(start + 4) + " to " + std::to_string(start + 16) + ") overlap");
  // An empty tensor inside another one's range shares no byte; neither does a gap.
  CHECK(header_of(safetensors_file("{" + entry("a", "F32", "[1, 2]", 0, 8) + ", " +
                                       entry("c", "F32", "[0]", 4, 4) + ", " +
                                       entry("d", "F32", "[1]", 12, 16) + "}",
                                   data))
            .tensors.size() == 3);
}

TEST_CASE("how each dtype became float32 is said in one place") {
  CHECK(embedlab::dtype_conversion_text("BF16") == "BF16 (bfloat16), converted to float32 exactly");
  CHECK(embedlab::dtype_conversion_text("F16") == "F16 (float16), converted to float32 exactly");
  CHECK(embedlab::dtype_conversion_text("F32") == "F32 (float32), as stored");
  CHECK(embedlab::dtype_conversion_text("F64") == "F64 (float64), rounded to float32");
}

TEST_CASE("load_safetensors_table reads a file on disk and names its path in errors") {
  const std::string path = "embedlab_test_table.safetensors";
  {
    std::ofstream out(path, std::ios::binary);
    out << safetensors_file("{" + entry("model.embed_tokens.weight", "BF16", "[1, 2]", 0, 4) + "}",
                            u16_bytes({0x3f80, 0xc000}));
  }
  const embedlab::SafetensorsTable t = embedlab::load_safetensors_table(path);
  CHECK(t.entry.name == "model.embed_tokens.weight");
  CHECK(t.entry.dtype == "BF16");
  REQUIRE(t.table.cols() == 2);
  CHECK(t.table.to_matrix()(0, 1) == -2.0f);
  CHECK(embedlab::read_safetensors_header(path).tensors.size() == 1);
  CHECK(message_of([&] { embedlab::load_safetensors_table(path, "wte"); }) ==
        path +
            ": no tensor is named 'wte' in the file; no name is close, and its 2-D tensors are "
            "'model.embed_tokens.weight' (BF16 [1, 2])");
  {
    std::ofstream out(path, std::ios::binary);
    out << "not safetensors";
  }
  CHECK_THAT(message_of([&] { embedlab::read_safetensors_header(path); }),
             StartsWith(path + ": not a .safetensors file, or a corrupt one"));
  std::remove(path.c_str());
  CHECK_THAT(message_of([] { embedlab::load_safetensors_table("/nonexistent/m.safetensors"); }),
             StartsWith("cannot open /nonexistent/m.safetensors: "));
  CHECK(message_of([] { embedlab::read_safetensors_header("."); }) ==
        "cannot read .: it is a folder, not a .safetensors file");
}

TEST_CASE("a table at the end of a 2 GiB file costs the header and the table, not the file") {
  // A sparse file: 2 GiB of hole (a U8 tensor) then a BF16 table; holes take no disk space.
  const std::uint64_t hole = std::uint64_t{1} << 31;
  const std::string json = "{" + entry("padding", "U8", "[" + std::to_string(hole) + "]", 0, hole) +
                           ", " + entry("wte.weight", "BF16", "[2, 3]", hole, hole + 12) + "}";
  const std::string head = safetensors_file(json);
  const std::string table = u16_bytes({0x3f80, 0xc000, 0x3f00, 0x0000, 0x8000, 0x4040});
  const std::string path = "embedlab_test_sparse.safetensors";
  {
    std::ofstream out(path, std::ios::binary);
    out << head;
  }
  std::filesystem::resize_file(path, head.size() + hole);
  {
    std::ofstream out(path, std::ios::binary | std::ios::in | std::ios::out | std::ios::ate);
    out << table;
  }
  REQUIRE(std::filesystem::file_size(path) == head.size() + hole + 12);

  const std::uint64_t before = bytes_read_by_process();
  const embedlab::SafetensorsTable t = embedlab::load_safetensors_table(path);
  const std::uint64_t read = bytes_read_by_process() - before;
  std::remove(path.c_str());
  INFO("bytes read: " << read);
  // A buffered stream reads in blocks of a few KiB; the whole file would be 2 GiB.
  CHECK(read >= head.size() + table.size());
  CHECK(read < (1u << 20));
  const Matrix w = t.table.to_matrix();
  CHECK(w(0, 1) == -2.0f);
  CHECK(w(1, 2) == 3.0f);
}

#ifdef EMBEDLAB_SAFETENSORS_REFERENCE_DIR
namespace {

const std::string kReference = EMBEDLAB_SAFETENSORS_REFERENCE_DIR "/";

std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The float32 values PyTorch gave a table, as safetensors_reference.py wrote them.
Matrix torch_values(const std::string& file, const std::string& name, Index rows, Index cols) {
  const std::string bytes = read_whole(kReference + file + "/" + name + ".f32");
  REQUIRE(bytes.size() == static_cast<std::size_t>(4 * rows * cols));
  Matrix m(rows, cols);
  for (Index i = 0; i < m.size(); ++i) {
    std::uint32_t bits = 0;
    for (int b = 3; b >= 0; --b) bits = bits << 8 | static_cast<unsigned char>(bytes[4 * i + b]);
    m.data()[i] = embedlab::float_from_bits(bits);
  }
  return m;
}

}  // namespace

// Hidden: run by ctest after safetensors_reference.py has written the files with NumPy and torch.
TEST_CASE("the tensors of a file in every dtype are listed as written", "[.torch]") {
  const SafetensorsHeader h = embedlab::read_safetensors_header(kReference + "dtypes.safetensors");
  std::istringstream manifest(read_whole(kReference + "dtypes.tensors"));
  std::string line;
  std::size_t i = 0;
  while (std::getline(manifest, line)) {
    INFO(line);
    REQUIRE(i < h.tensors.size());
    std::istringstream fields(line);
    std::string name, dtype;
    fields >> name >> dtype;
    std::vector<Index> shape;
    for (Index dim; fields >> dim;) shape.push_back(dim);
    CHECK(h.tensors[i].name == name);
    CHECK(h.tensors[i].dtype == dtype);
    CHECK(h.tensors[i].shape == shape);
    ++i;
  }
  CHECK(i == h.tensors.size());
  using Pair = std::pair<std::string, std::string>;
  CHECK(h.metadata == std::vector<Pair>{{"format", "pt"}, {"source", "safetensors_reference.py"}});
  // The BF16 table is the only one named like an embedding.
  const embedlab::SafetensorsTable t =
      embedlab::load_safetensors_table(kReference + "dtypes.safetensors");
  CHECK(t.entry.name == "model.embed_tokens.weight");
}

TEST_CASE("every table of every float dtype has PyTorch's float32 bits", "[.torch]") {
  for (const char* name : {"model.embed_tokens.weight", "lm_head.f16", "proj.f32", "proj.f64"}) {
    INFO(name);
    const embedlab::SafetensorsTable t =
        embedlab::load_safetensors_table(kReference + "dtypes.safetensors", name);
    CHECK(same_bits(t.table.to_matrix(),
                    torch_values("dtypes", name, t.table.rows(), t.table.cols())));
  }
}

TEST_CASE("all 65536 F16 and all 65536 BF16 bit patterns have PyTorch's float32 bits", "[.torch]") {
  for (const char* name : {"f16.weight", "bf16.weight"}) {
    INFO(name);
    const embedlab::SafetensorsTable t =
        embedlab::load_safetensors_table(kReference + "halves.safetensors", name);
    CHECK(same_bits(t.table.to_matrix(), torch_values("halves", name, 256, 256)));
  }
  // The same patterns saved by NumPy as '<f2'.
  CHECK(same_bits(embedlab::load_npy(kReference + "every_f16.npy"),
                  torch_values("halves", "f16.weight", 256, 256)));
}
#endif

TEST_CASE("a tensor handed over in memory is checked as a file's table, its shape as typed") {
  const auto bytes = [](std::string data) { return embedlab::memory_source(std::move(data)); };
  // F16 bits by hand: 1.0 is 0x3c00, -2.0 is 0xc000.
  const embedlab::Table t = embedlab::tensor_table(bytes("\x00\x3c\x00\xc0"s), "F16", {2, 1}, "W");
  CHECK(t.dtype() == embedlab::StoredFloat::f16);
  CHECK(t.to_matrix() == (Matrix(2, 1) << 1.0f, -2.0f).finished());

  const auto error = [&](std::string_view dtype, std::vector<Index> shape, std::string data = {}) {
    try {
      embedlab::tensor_table(bytes(std::move(data)), dtype, shape, "W");
    } catch (const InputError& e) {
      return std::pair(e.argument(), std::string(e.what()));
    }
    return std::pair(Argument::compared, std::string("no error"));
  };
  CHECK(error("F32", {4}) ==
        std::pair(Argument::weights,
                  "tensor 'W' has shape [4] (1-D); an embedding table is 2-D (V, d)"s));
  CHECK(error("I64", {2, 2}) ==
        std::pair(Argument::weights,
                  "tensor 'W' is I64 (int64), which cannot be read as a table: the supported "
                  "dtypes are F32, F64, F16 and BF16"s));
  CHECK(error("F32", {4194305, 1}) ==
        std::pair(Argument::vocab,
                  "the vocabulary size V = 4,194,305 is over the limit of "
                  "4,194,304"s));
  CHECK(
      error("F32", {1, 65537}) ==
      std::pair(Argument::dim, "the embedding dimension d = 65,537 is over the limit of 65,536"s));
  CHECK(error("F32", {0, 3}) ==
        std::pair(Argument::vocab, "the vocabulary size V must be at least 1, got 0"s));
  CHECK(error("F32", {2, 1}, "1234"s).second ==
        "tensor 'W': the table's bytes 0 to 8 run past the end of the 4 bytes there are");
}
