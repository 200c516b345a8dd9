#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>

#include "embedlab/byte_source.hpp"
#include "embedlab/error.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/npy.hpp"
#include "same_bits.hpp"

using namespace std::string_literals;
using Catch::Contains;
using Catch::Equals;
using Catch::StartsWith;
using embedlab::InputError;
using embedlab::Matrix;
using embedlab::parse_npy;
using embedlab::test::same_bits;

namespace {

// A .npy file put together by hand from the format description: magic, version, the header
// length (uint16 LE in 1.0, uint32 LE in 2.0/3.0), the dict padded with spaces and ended with
// '\n' so the data starts at a multiple of 64 bytes, then the data bytes.
std::string npy_file(const std::string& dict, const std::string& data, int major = 1) {
  const std::size_t prefix = major == 1 ? 10 : 12;
  std::string header = dict;
  while ((prefix + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string out = "\x93NUMPY"s + static_cast<char>(major) + '\0';
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  for (std::size_t b = 0; b < length_bytes; ++b)
    out += static_cast<char>((header.size() >> (8 * b)) & 0xff);
  return out + header + data;
}

std::string dict(const std::string& descr, const std::string& shape, bool fortran = false) {
  return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
         ", 'shape': " + shape + ", }";
}

// Little-endian bytes of float32 1.0, -2.0, 0.5 and of float64 0.1 and -2.5.
const std::string kOne = "\x00\x00\x80\x3f"s;
const std::string kMinusTwo = "\x00\x00\x00\xc0"s;
const std::string kHalf = "\x00\x00\x00\x3f"s;
const std::string kPointOne64 = "\x9a\x99\x99\x99\x99\x99\xb9\x3f"s;
const std::string kMinusTwoAndAHalf64 = "\x00\x00\x00\x00\x00\x00\x04\xc0"s;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("parse_npy reads a float32 file built by hand") {
  const Matrix m = parse_npy(npy_file(dict("<f4", "(1, 2)"), kOne + kMinusTwo));
  REQUIRE(m.rows() == 1);
  REQUIRE(m.cols() == 2);
  CHECK(m(0, 0) == 1.0f);
  CHECK(m(0, 1) == -2.0f);
}

TEST_CASE("parse_npy reads row-major data: row i is the i-th group of d values") {
  const Matrix m = parse_npy(
      npy_file(dict("<f4", "(3, 2)"), kOne + kMinusTwo + kHalf + kOne + kMinusTwo + kHalf));
  REQUIRE(m.rows() == 3);
  CHECK(m(0, 1) == -2.0f);
  CHECK(m(1, 0) == 0.5f);
  CHECK(m(2, 1) == 0.5f);
}

TEST_CASE("parse_npy rounds float64 to float32") {
  const Matrix m = parse_npy(npy_file(dict("<f8", "(2, 1)"), kPointOne64 + kMinusTwoAndAHalf64));
  REQUIRE(m.rows() == 2);
  REQUIRE(m.cols() == 1);
  CHECK(m(0, 0) == 0.1f);
  CHECK(m(1, 0) == -2.5f);
}

TEST_CASE("parse_npy converts float16 to float32 exactly") {
  // 1, -2, 2^-24 (the smallest subnormal), 65504 (the largest float16), -0, +Inf.
  const Matrix m = parse_npy(
      npy_file(dict("<f2", "(2, 3)"), "\x00\x3c\x00\xc0\x01\x00\xff\x7b\x00\x80\x00\x7c"s));
  REQUIRE(m.rows() == 2);
  REQUIRE(m.cols() == 3);
  CHECK(m(0, 0) == 1.0f);
  CHECK(m(0, 1) == -2.0f);
  CHECK(m(0, 2) == std::ldexp(1.0f, -24));
  CHECK(m(1, 0) == 65504.0f);
  CHECK(std::signbit(m(1, 1)));
  CHECK(m(1, 1) == 0.0f);
  CHECK(m(1, 2) == std::numeric_limits<float>::infinity());
  CHECK_THROWS_WITH(parse_npy(npy_file(dict("<f2", "(2, 3)"), std::string(8, '\0'))),
                    Equals("truncated .npy data: shape (2, 3) <f2 needs 12 bytes, found 8"));
}

TEST_CASE("parse_npy reads format versions 2.0 and 3.0") {
  const std::string data = kOne + kMinusTwo;
  CHECK(parse_npy(npy_file(dict("<f4", "(2, 1)"), data, 2))(1, 0) == -2.0f);
  CHECK(parse_npy(npy_file(dict("<f4", "(2, 1)"), data, 3))(1, 0) == -2.0f);
}

TEST_CASE("parse_npy accepts any key order, double quotes and no trailing comma") {
  const std::string header = "{\"shape\": (1,2), \"fortran_order\": False, \"descr\": \"<f4\"}";
  CHECK(parse_npy(npy_file(header, kOne + kHalf))(0, 1) == 0.5f);
  // Python 2's NumPy wrote long integers with an L.
  CHECK(parse_npy(npy_file(dict("<f4", "(1L, 2L)"), kOne + kHalf)).cols() == 2);
}

TEST_CASE("to_npy writes exactly what np.save writes for a float32 array") {
  Matrix m(1, 2);
  m << 1.0f, -2.0f;
  // np.save of np.array([[1, -2]], dtype=np.float32): a 118-byte header, data at byte 128.
  const std::string header =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2), }" + std::string(58, ' ') + "\n";
  REQUIRE(header.size() == 118);
  CHECK(embedlab::to_npy(m) == "\x93NUMPY\x01\x00\x76\x00"s + header + kOne + kMinusTwo);
}

TEST_CASE("to_npy then parse_npy gives back the same bits") {
  Matrix m(3, 5);
  for (int i = 0; i < m.size(); ++i) m.data()[i] = static_cast<float>(i * i) / 7.0f - 3.0f;
  m(0, 0) = -0.0f;
  m(1, 1) = std::numeric_limits<float>::infinity();
  m(2, 2) = std::numeric_limits<float>::quiet_NaN();
  m(2, 4) = std::numeric_limits<float>::denorm_min();
  const std::string bytes = embedlab::to_npy(m);
  CHECK((bytes.size() - 4 * m.size()) % 64 == 0);
  CHECK(same_bits(parse_npy(bytes), m));
}

TEST_CASE("a file that is not .npy is refused") {
  CHECK_THROWS_AS(parse_npy(""), InputError);
  CHECK_THROWS_WITH(parse_npy("hello world"),
                    Equals("not a .npy file: it should start with \"\\x93NUMPY\" (what np.save "
                           "writes), but starts with \"hello \""));
  CHECK_THROWS_WITH(parse_npy("\x89PNG\r\n\x1a\n"s),
                    Contains("starts with \"\\x89PNG\\x0d\\x0a\""));
  CHECK_THROWS_WITH(parse_npy("PK\x03\x04"s), Contains("np.savez"));
}

TEST_CASE("an unsupported format version is named") {
  std::string bytes = npy_file(dict("<f4", "(1, 1)"), kOne);
  bytes[6] = 4;
  CHECK_THROWS_WITH(parse_npy(bytes),
                    Equals("unsupported .npy format version 4.0: this reader understands versions "
                           "1.0, 2.0 and 3.0"));
  bytes[6] = 1;
  bytes[7] = 1;
  CHECK_THROWS_WITH(parse_npy(bytes), StartsWith("unsupported .npy format version 1.1"));
}

TEST_CASE("a truncated header says how many bytes were expected and found") {
  const std::string whole = npy_file(dict("<f4", "(1, 1)"), kOne);
  CHECK_THROWS_WITH(parse_npy(whole.substr(0, 7)),
                    Equals("truncated .npy file: expected at least 10 bytes of header, found 7"));
  CHECK_THROWS_WITH(parse_npy(whole.substr(0, 9)),
                    Equals("truncated .npy file: expected at least 10 bytes of header, found 9"));
  CHECK_THROWS_WITH(parse_npy(whole.substr(0, 50)),
                    Equals("truncated .npy header: expected 118 bytes of header after the first "
                           "10, found 40"));
}

TEST_CASE("a truncated or padded payload says how many bytes were expected and found") {
  const std::string header = dict("<f4", "(2, 3)");
  CHECK_THROWS_WITH(parse_npy(npy_file(header, std::string(20, '\0'))),
                    Equals("truncated .npy data: shape (2, 3) <f4 needs 24 bytes, found 20"));
  CHECK_THROWS_WITH(parse_npy(npy_file(header, std::string(28, '\0'))),
                    Equals("corrupt .npy file: shape (2, 3) <f4 needs 24 bytes, found 28 (extra "
                           "bytes after the data)"));
  CHECK_THROWS_WITH(parse_npy(npy_file(dict("<f8", "(2, 3)"), std::string(24, '\0'))),
                    Contains("needs 48 bytes, found 24"));
}

TEST_CASE("other dtypes are named, with what is supported") {
  const auto message = [](const std::string& descr) {
    try {
      parse_npy(npy_file(dict(descr, "(1, 1)"), std::string(8, '\0')));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(message("<i8"),
             Equals("unsupported dtype '<i8' (int64): only little-endian float16 ('<f2'), "
                    "float32 ('<f4') and float64 ('<f8') are supported; save w.astype('<f4') "
                    "instead"));
  CHECK_THAT(message(">f4"), StartsWith("unsupported dtype '>f4' (big-endian float32):"));
  CHECK_THAT(message(">f8"), StartsWith("unsupported dtype '>f8' (big-endian float64):"));
  CHECK_THAT(message(">f2"), StartsWith("unsupported dtype '>f2' (big-endian float16):"));
  CHECK_THAT(message("<f16"), StartsWith("unsupported dtype '<f16' (float128):"));
  CHECK_THAT(message("|u1"), StartsWith("unsupported dtype '|u1' (uint8):"));
  CHECK_THAT(message("|b1"), StartsWith("unsupported dtype '|b1' (bool):"));
  CHECK_THAT(message("<c8"), StartsWith("unsupported dtype '<c8' (complex64):"));
  CHECK_THAT(message("|O"), StartsWith("unsupported dtype '|O' (Python objects):"));
  CHECK_THAT(message("<U5"), StartsWith("unsupported dtype '<U5' (unicode strings):"));
  CHECK_THAT(message("zz"), StartsWith("unsupported dtype 'zz': only little-endian"));
}

TEST_CASE("Fortran order is refused with the fix") {
  CHECK_THROWS_WITH(parse_npy(npy_file(dict("<f4", "(1, 1)", true), kOne)),
                    Equals("the array was saved in Fortran order (fortran_order: True); save it "
                           "with np.save(path, np.ascontiguousarray(w))"));
}

TEST_CASE("only 2-D arrays are tables, and the shape found is named") {
  CHECK_THROWS_WITH(parse_npy(npy_file(dict("<f4", "(3,)"), kOne + kOne + kOne)),
                    Equals("expected a 2-D array (V, d), found shape (3,) (1-D)"));
  CHECK_THROWS_WITH(parse_npy(npy_file(dict("<f4", "()"), kOne)), Contains("found shape () (0-D)"));
  CHECK_THROWS_WITH(parse_npy(npy_file(dict("<f4", "(2, 3, 4)"), "")),
                    Contains("found shape (2, 3, 4) (3-D)"));
}

TEST_CASE("an empty array is refused") {
  CHECK_THROWS_WITH(parse_npy(npy_file(dict("<f4", "(0, 4)"), "")),
                    Equals("the array is empty: shape (0, 4); an embedding table needs at least "
                           "one row and one column"));
  CHECK_THROWS_WITH(parse_npy(npy_file(dict("<f4", "(3, 0)"), "")), Contains("shape (3, 0)"));
}

TEST_CASE("a shape over the limits is refused before the data is read") {
  // No data follows: a limit error (not a truncation error) shows the shape was checked first.
  CHECK_THROWS_WITH(parse_npy(npy_file(dict("<f4", "(5000000, 4)"), "")),
                    Contains("vocabulary size V = 5,000,000 is over the limit"));
  embedlab::Limits small;
  small.max_elements = 10;
  CHECK_THROWS_WITH(parse_npy(npy_file(dict("<f4", "(4, 4)"), std::string(64, '\0')), small),
                    Contains("4 x 4 floats, over the limit of 10 floats"));
  CHECK_THROWS_WITH(parse_npy(npy_file(dict("<f4", "(999999999999999999, 1)"), "")),
                    Contains("over the limit"));
}

TEST_CASE("a corrupt header dict is refused and shown") {
  CHECK_THROWS_WITH(parse_npy(npy_file("{'descr': '<f4', 'fortran_order': False}", "")),
                    StartsWith("corrupt .npy header: no 'shape' entry (at character "));
  CHECK_THROWS_WITH(parse_npy(npy_file("hello", "")),
                    StartsWith("corrupt .npy header: expected '{' (at character 1 of \"hello"));
  CHECK_THROWS_WITH(parse_npy(npy_file(dict("<f4", "(1, x)"), "")),
                    Contains("expected a dimension (a non-negative integer) in 'shape'"));
  CHECK_THROWS_WITH(parse_npy(npy_file(dict("<f4", "(1, -1)"), "")),
                    Contains("expected a dimension"));
  CHECK_THROWS_WITH(parse_npy(npy_file(dict("<f4", "(1, 99999999999999999999)"), "")),
                    Contains("a dimension in 'shape' is too large"));
  CHECK_THROWS_WITH(parse_npy(npy_file("{'descr': '<f4', 'fortran_order': Maybe}", "")),
                    Contains("expected True or False"));
  CHECK_THROWS_WITH(parse_npy(npy_file("{'descr' '<f4'}", "")), Contains("expected ':'"));
  CHECK_THROWS_WITH(parse_npy(npy_file("{'descr': '<f4, 'shape': (1, 1)}", "")),
                    Contains("expected '}'"));
  CHECK_THROWS_WITH(parse_npy(npy_file("{'descr': [('a', '<f4')], 'fortran_order': False}", "")),
                    Contains("a structured dtype (a list as 'descr') is not supported"));
  CHECK_THROWS_WITH(parse_npy(npy_file("{'colour': 'red'}", "")),
                    Contains("unexpected key 'colour'"));
}

TEST_CASE("a float64 value too large for float32 is refused with its place") {
  const std::string huge = "\xab\x7c\x4d\x24\x44\x04\x40\x5e"s;  // 1e146
  CHECK_THROWS_WITH(parse_npy(npy_file(dict("<f8", "(1, 2)"), kPointOne64 + huge)),
                    Equals("value 1e+146 at row 0, column 1 does not fit in float32 (the largest "
                           "float32 is about 3.4e38)"));
}

TEST_CASE("load_npy names the path when the file is missing or bad") {
  CHECK_THROWS_WITH(embedlab::load_npy("/nonexistent/w.npy"),
                    StartsWith("cannot open /nonexistent/w.npy: "));
  const std::string path = "embedlab_test_bad.npy";
  {
    std::ofstream out(path, std::ios::binary);
    out << "not numpy";
  }
  CHECK_THROWS_WITH(embedlab::load_npy(path), StartsWith(path + ": not a .npy file"));
  std::remove(path.c_str());
  CHECK_THROWS_WITH(embedlab::load_npy("."),
                    Equals("cannot read .: it is a folder, not a .npy file"));
}

TEST_CASE("a .npy file of any size opens as a table; held whole, it must fit the limits") {
  // Gemma 3's shape in float32, 1.2 GB: a sparse file whose data is a hole but for row 7.
  const std::string path = "embedlab_test_large.npy";
  const std::string head = npy_file(dict("<f4", "(262144, 1152)"), "");
  {
    std::ofstream out(path, std::ios::binary);
    out << head;
  }
  std::filesystem::resize_file(path, head.size() + std::uint64_t{262144} * 1152 * 4);
  {
    std::fstream out(path, std::ios::binary | std::ios::in | std::ios::out);
    out.seekp(static_cast<std::streamoff>(head.size() + 7 * 1152 * 4));
    out << kMinusTwo;
  }
  const embedlab::Table t = embedlab::open_npy_table(embedlab::open_file(path));
  CHECK(t.rows() == 262144);
  CHECK(t.cols() == 1152);
  CHECK_FALSE(t.in_memory());
  const Matrix rows = embedlab::lookup(t, {7, 262143});
  CHECK(rows(0, 0) == -2.0f);
  CHECK(rows(0, 1) == 0.0f);
  CHECK(rows(1, 1151) == 0.0f);
  CHECK_THROWS_WITH(
      embedlab::load_npy(path),
      Contains("the embedding table (V x d) would be 262,144 x 1,152 floats, over the "
               "limit of 67,108,864 floats"));
  std::remove(path.c_str());
}

#ifdef EMBEDLAB_NPY_REFERENCE_DIR
// Hidden: run by ctest after npy_reference.py has written the files with real NumPy.
TEST_CASE("parse_npy agrees with np.save", "[.numpy]") {
  const std::string dir = EMBEDLAB_NPY_REFERENCE_DIR "/";
  for (const char* name :
       {"f4_3x7", "f8_3x7", "f4_1x1", "f8_1x1", "f8_2x3", "f4_3x7_v2", "f4_3x7_v3"}) {
    INFO(name);
    const Matrix m = embedlab::load_npy(dir + name + ".npy");
    std::ifstream values(dir + name + ".txt");
    Matrix expected;
    {
      embedlab::Index rows = 0, cols = 0;
      REQUIRE(values >> rows >> cols);
      expected.resize(rows, cols);
      std::string text;
      for (embedlab::Index i = 0; i < rows * cols; ++i) {
        REQUIRE(values >> text);
        expected.data()[i] = std::strtof(text.c_str(), nullptr);
      }
    }
    CHECK(same_bits(m, expected));
  }
  // Our writer is byte-for-byte NumPy's for float32 C-order arrays.
  for (const char* name : {"f4_3x7", "f4_1x1"}) {
    INFO(name);
    const std::string file = read_file(dir + name + ".npy");
    CHECK(embedlab::to_npy(parse_npy(file)) == file);
  }
  CHECK_THROWS_WITH(embedlab::load_npy(dir + "fortran.npy"), Contains("saved in Fortran order"));
  CHECK_THROWS_WITH(embedlab::load_npy(dir + "int64.npy"), Contains("'<i8' (int64)"));
  CHECK_THROWS_WITH(embedlab::load_npy(dir + "big_endian.npy"), Contains("'>f4' (big-endian"));
  CHECK_THROWS_WITH(embedlab::load_npy(dir + "rank1.npy"), Contains("found shape (3,) (1-D)"));
}
#endif
