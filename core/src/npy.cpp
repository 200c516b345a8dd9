#include "embedlab/npy.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "embedlab/error.hpp"
#include "embedlab/float_bits.hpp"
#include "quoted.hpp"
#include "table_file.hpp"

// The format: https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
// "\x93NUMPY", major, minor, header length (uint16 LE in 1.0, uint32 LE in 2.0 and 3.0),
// then a Python dict literal such as {'descr': '<f4', 'fortran_order': False, 'shape': (3, 7), }
// padded with spaces and a '\n', then the raw C-order data.
namespace embedlab {
namespace {

constexpr std::string_view kMagic("\x93NUMPY", 6);
constexpr std::size_t kMaxRank = 32;                   // NumPy 1.x's NPY_MAXDIMS
constexpr std::uint64_t kLargestHeader = 10 + 0xffff;  // what a version 1.0 header can hold

std::uint64_t little_endian(std::string_view bytes) {
  std::uint64_t value = 0;
  for (std::size_t i = bytes.size(); i-- > 0;)
    value = (value << 8) | static_cast<unsigned char>(bytes[i]);
  return value;
}

// "(3,)", "(3, 7)", "()": the shape as Python prints it, so it can be matched with w.shape.
std::string shape_text(const std::vector<Index>& shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

// What a dtype string means, for the message that rejects it: "int64", "big-endian float32".
std::string dtype_meaning(std::string_view descr) {
  std::string order;
  if (!descr.empty() &&
      (descr[0] == '<' || descr[0] == '>' || descr[0] == '|' || descr[0] == '=')) {
    if (descr[0] == '>') order = "big-endian ";
    descr.remove_prefix(1);
  }
  if (descr.empty()) return "";
  const char kind = descr[0];
  const std::string_view size = descr.substr(1);
  const bool sized = !size.empty() && size.size() <= 2 &&
                     size.find_first_not_of("0123456789") == std::string_view::npos;
  const std::string bits = sized ? std::to_string(8 * std::stoi(std::string(size))) : "";
  switch (kind) {
    case 'f':
      return sized ? order + "float" + bits : "";
    case 'i':
      return sized ? order + "int" + bits : "";
    case 'u':
      return sized ? order + "uint" + bits : "";
    case 'c':
      return sized ? order + "complex" + bits : "";
    case 'b':
      return "bool";
    case 'O':
      return "Python objects";
    case 'U':
      return "unicode strings";
    case 'S':
      return "byte strings";
    case 'M':
      return "datetime64";
    case 'm':
      return "timedelta64";
    default:
      return "";
  }
}

// The three entries of the header dict that matter.
struct Header {
  std::optional<std::string> descr;
  std::optional<bool> fortran_order;
  std::optional<std::vector<Index>> shape;
};

// A parser for the subset of Python literals that np.save writes in the header.
class HeaderParser {
 public:
  explicit HeaderParser(std::string_view text) : text_(text) {}

  Header parse() {
    Header header;
    expect('{');
    for (skip_space(); !take('}'); skip_space()) {
      const std::string key = string_literal();
      expect(':');
      skip_space();
      if (key == "descr") {
        if (peek() == '[')
          fail(
              "a structured dtype (a list as 'descr') is not supported; save a plain float32 "
              "array");
        header.descr = string_literal();
      } else if (key == "fortran_order") {
        header.fortran_order = bool_literal();
      } else if (key == "shape") {
        header.shape = int_tuple();
      } else {
        fail("unexpected key " + quoted(key, '\'', 24, true));
      }
      skip_space();
      if (!take(',')) {
        expect('}');
        break;
      }
    }
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text after the closing '}'");
    if (!header.descr) fail("no 'descr' entry");
    if (!header.fortran_order) fail("no 'fortran_order' entry");
    if (!header.shape) fail("no 'shape' entry");
    return header;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(Argument::weights, "corrupt .npy header: " + what + " (at character " +
                                            std::to_string(pos_ + 1) + " of " +
                                            quoted(text_, '"', 120, true) + ")");
  }
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void skip_space() {
    while (pos_ < text_.size() &&
           (peek() == ' ' || peek() == '\n' || peek() == '\t' || peek() == '\r'))
      ++pos_;
  }
  bool take(char c) {
    if (pos_ >= text_.size() || peek() != c) return false;
    ++pos_;
    return true;
  }
  void expect(char c) {
    skip_space();
    if (!take(c)) fail(std::string("expected '") + c + "'");
  }
  bool take_word(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  // 'text' or "text"; np.save never writes escapes in these strings.
  std::string string_literal() {
    const char quote = peek();
    if (quote != '\'' && quote != '"') fail("expected a quoted string");
    const std::size_t end = text_.find(quote, pos_ + 1);
    if (end == std::string_view::npos) fail("a string is never closed");
    const std::string value(text_.substr(pos_ + 1, end - pos_ - 1));
    pos_ = end + 1;
    return value;
  }

  bool bool_literal() {
    if (take_word("True")) return true;
    if (take_word("False")) return false;
    fail("expected True or False");
  }

  // "()", "(3,)", "(3, 7)": non-negative integers (Python 2 wrote "3L").
  std::vector<Index> int_tuple() {
    std::vector<Index> dims;
    expect('(');
    for (skip_space(); !take(')'); skip_space()) {
      const std::size_t start = pos_;
      while (peek() >= '0' && peek() <= '9') ++pos_;
      if (pos_ == start) fail("expected a dimension (a non-negative integer) in 'shape'");
      if (pos_ - start > 18) fail("a dimension in 'shape' is too large");
      if (dims.size() == kMaxRank)
        fail("'shape' has more than " + std::to_string(kMaxRank) + " dimensions");
      dims.push_back(std::stoll(std::string(text_.substr(start, pos_ - start))));
      take('L');
      skip_space();
      if (!take(',')) {
        expect(')');
        break;
      }
    }
    return dims;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

// rows * cols * item_size, or nothing if that does not fit in an Index.
std::optional<Index> payload_bytes(Index rows, Index cols, Index item_size) {
  const Index max = std::numeric_limits<Index>::max();
  if (cols > max / item_size || rows > max / (cols * item_size)) return std::nullopt;
  return rows * cols * item_size;
}

}  // namespace

bool has_npy_magic(std::string_view first_bytes) {
  return first_bytes.substr(0, kMagic.size()) == kMagic;
}

namespace {

// Where a .npy file's table lies, read from its header.
struct NpyLayout {
  StoredFloat type;
  Index rows;
  Index cols;
  std::uint64_t data_start;  // the payload is [data_start, file_size)
};

// What parse_npy checks but the values, from the file's first bytes (`head`, all of the header)
// and its length.
NpyLayout npy_layout(std::string_view head, std::uint64_t file_size, const Limits& limits) {
  if (head.substr(0, 2) == "PK")
    throw InputError(
        Argument::weights,
        "not a .npy file: this is a zip archive, maybe an .npz from np.savez; save one "
        "array with np.save(path, w)");
  if (!has_npy_magic(head))
    throw InputError(Argument::weights,
                     "not a .npy file: it should start with \"\\x93NUMPY\" (what np.save writes), "
                     "but starts with " +
                         quoted(head.substr(0, kMagic.size()), '"', 24, true));
  if (file_size < 8)
    throw InputError(Argument::weights,
                     "truncated .npy file: expected at least 10 bytes of header, found " +
                         std::to_string(file_size));
  const int major = static_cast<unsigned char>(head[6]);
  const int minor = static_cast<unsigned char>(head[7]);
  if (minor != 0 || major < 1 || major > 3)
    throw InputError(Argument::weights, "unsupported .npy format version " + std::to_string(major) +
                                            "." + std::to_string(minor) +
                                            ": this reader understands versions 1.0, 2.0 and 3.0");
  const std::size_t length_size = major == 1 ? 2 : 4;
  const std::size_t prefix = 8 + length_size;
  if (file_size < prefix)
    throw InputError(Argument::weights, "truncated .npy file: expected at least " +
                                            std::to_string(prefix) + " bytes of header, found " +
                                            std::to_string(file_size));
  const std::uint64_t header_size = little_endian(head.substr(8, length_size));
  if (file_size - prefix < header_size)
    throw InputError(Argument::weights,
                     "truncated .npy header: expected " + std::to_string(header_size) +
                         " bytes of header after the first " + std::to_string(prefix) + ", found " +
                         std::to_string(file_size - prefix));
  if (head.size() - prefix < header_size)
    throw InputError(Argument::weights,
                     "corrupt .npy header: it says it is " + std::to_string(header_size) +
                         " bytes long, more than the " + std::to_string(kLargestHeader - 10) +
                         " bytes this reader takes (np.save writes a few hundred)");
  const Header header = HeaderParser(head.substr(prefix, header_size)).parse();

  const std::string& descr = *header.descr;
  const std::optional<StoredFloat> type = descr == "<f2"   ? std::optional(StoredFloat::f16)
                                          : descr == "<f4" ? std::optional(StoredFloat::f32)
                                          : descr == "<f8" ? std::optional(StoredFloat::f64)
                                                           : std::nullopt;
  if (!type) {
    const std::string meaning = dtype_meaning(descr);
    throw InputError(Argument::weights,
                     "unsupported dtype " + quoted(descr, '\'', 24, true) +
                         (meaning.empty() ? "" : " (" + meaning + ")") +
                         ": only little-endian float16 ('<f2'), float32 ('<f4') and float64 "
                         "('<f8') are supported; save w.astype('<f4') instead");
  }
  const Index item_size = stored_size(*type);
  if (*header.fortran_order)
    throw InputError(Argument::weights,
                     "the array was saved in Fortran order (fortran_order: True); save it with "
                     "np.save(path, np.ascontiguousarray(w))");
  const std::vector<Index>& shape = *header.shape;
  if (shape.size() != 2)
    throw InputError(Argument::weights, "expected a 2-D array (V, d), found shape " +
                                            shape_text(shape) + " (" +
                                            std::to_string(shape.size()) + "-D)");
  const Index rows = shape[0], cols = shape[1];
  if (rows == 0 || cols == 0)
    throw InputError(Argument::weights,
                     "the array is empty: shape " + shape_text(shape) +
                         "; an embedding table needs at least one row and one column");
  check_file_table_shape(rows, cols, limits);

  const std::uint64_t data_start = prefix + header_size;
  const std::uint64_t payload = file_size - data_start;
  const std::optional<Index> expected = payload_bytes(rows, cols, item_size);
  const std::string needs = "shape " + shape_text(shape) + " " + descr + " needs " +
                            (expected ? std::to_string(*expected) : "more than 2^63") + " bytes";
  if (!expected || static_cast<std::uint64_t>(*expected) > payload)
    throw InputError(Argument::weights,
                     "truncated .npy data: " + needs + ", found " + std::to_string(payload));
  if (static_cast<std::uint64_t>(*expected) < payload)
    throw InputError(Argument::weights, "corrupt .npy file: " + needs + ", found " +
                                            std::to_string(payload) +
                                            " (extra bytes after the data)");

  return {*type, rows, cols, data_start};
}

}  // namespace

Matrix parse_npy(std::string_view bytes, const Limits& limits) {
  const NpyLayout layout = npy_layout(bytes, bytes.size(), limits);
  check_elements(layout.rows, layout.cols, Argument::weights, "the embedding table (V x d)",
                 limits);
  Matrix m(layout.rows, layout.cols);
  convert_to_float32(bytes.substr(layout.data_start), layout.type, m.data(), 0, 0, layout.cols);
  return m;
}

Table open_npy_table(std::shared_ptr<const ByteSource> source, const Limits& limits,
                     const std::string& context) {
  try {
    const std::string head =
        read_range(*source, 0, std::min<std::uint64_t>(source->size(), kLargestHeader));
    const NpyLayout layout = npy_layout(head, source->size(), limits);
    Table table(std::move(source), layout.data_start, layout.rows, layout.cols, layout.type,
                context, limits);
    return table.stored_bytes() <= kHeldTableBytes ? table.held() : table;
  } catch (const InputError& e) {
    throw InputError(Argument::weights, context + e.what());
  }
}

Matrix load_npy(const std::string& path, const Limits& limits) {
  return open_npy_table(open_file(path, "a .npy file"), limits, path + ": ").to_matrix(limits);
}

std::string to_npy(const Matrix& m) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" +
                       std::to_string(m.rows()) + ", " + std::to_string(m.cols()) + "), }";
  // Spaces and a '\n' so that the data starts at a multiple of 64 bytes, as np.save aligns it.
  const std::size_t unpadded = kMagic.size() + 4 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';

  std::string out(kMagic);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  out.reserve(out.size() + 4 * static_cast<std::size_t>(m.size()));
  for (Index i = 0; i < m.size(); ++i) {
    const std::uint32_t bits = float_bits(m.data()[i]);
    for (int b = 0; b < 4; ++b) out += static_cast<char>((bits >> (8 * b)) & 0xff);
  }
  return out;
}

}  // namespace embedlab
