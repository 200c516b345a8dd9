#include "embedlab/gguf.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>
#include <optional>

#include "embedlab/error.hpp"
#include "quoted.hpp"
#include "table_file.hpp"
#include "tensor_names.hpp"

// The format: ggml's docs/gguf.md and ggml.h's enum ggml_type (type ids and block layouts).
namespace embedlab {
namespace {

[[noreturn]] void fail(const std::string& message) { throw InputError(Argument::weights, message); }

// ggml's types: id, name, values per block and bytes per block (0: layout not known here, so no
// size check), and how a table of it becomes float32, when it can be one.
struct GgmlType {
  std::uint32_t id;
  std::string_view name;
  std::uint64_t block_values;
  std::uint64_t block_bytes;
  std::optional<StoredFloat> table;
};
constexpr GgmlType kGgmlTypes[] = {
    {0, "F32", 1, 4, StoredFloat::f32},
    {1, "F16", 1, 2, StoredFloat::f16},
    {2, "Q4_0", 32, 18, StoredFloat::q4_0},
    {3, "Q4_1", 32, 20, {}},
    {6, "Q5_0", 32, 22, {}},
    {7, "Q5_1", 32, 24, {}},
    {8, "Q8_0", 32, 34, StoredFloat::q8_0},
    {9, "Q8_1", 32, 36, {}},
    {10, "Q2_K", 256, 84, {}},
    {11, "Q3_K", 256, 110, {}},
    {12, "Q4_K", 256, 144, StoredFloat::q4_k},
    {13, "Q5_K", 256, 176, {}},
    {14, "Q6_K", 256, 210, StoredFloat::q6_k},
    {15, "Q8_K", 256, 292, {}},
    {16, "IQ2_XXS", 256, 66, {}},
    {17, "IQ2_XS", 256, 74, {}},
    {18, "IQ3_XXS", 256, 98, {}},
    {19, "IQ1_S", 256, 50, {}},
    {20, "IQ4_NL", 32, 18, {}},
    {21, "IQ3_S", 256, 110, {}},
    {22, "IQ2_S", 256, 82, {}},
    {23, "IQ4_XS", 256, 136, {}},
    {24, "I8", 1, 1, {}},
    {25, "I16", 1, 2, {}},
    {26, "I32", 1, 4, {}},
    {27, "I64", 1, 8, {}},
    {28, "F64", 1, 8, {}},
    {29, "IQ1_M", 256, 56, {}},
    {30, "BF16", 1, 2, StoredFloat::bf16},
    {34, "TQ1_0", 256, 54, {}},
    {35, "TQ2_0", 256, 66, {}},
    {39, "MXFP4", 32, 17, {}},
};
constexpr std::string_view kTableTypes = "F32, F16, BF16, Q8_0, Q4_0, Q4_K and Q6_K";

const GgmlType* find_type(std::uint32_t id) {
  for (const GgmlType& t : kGgmlTypes)
    if (t.id == id) return &t;
  return nullptr;
}

// The metadata value types.
enum ValueType : std::uint32_t {
  kU8,
  kI8,
  kU16,
  kI16,
  kU32,
  kI32,
  kF32,
  kBool,
  kString,
  kArray,
  kU64,
  kI64,
  kF64,
  kValueTypes
};
constexpr std::string_view kValueTypeNames[] = {"UINT8",  "INT8",    "UINT16", "INT16",  "UINT32",
                                                "INT32",  "FLOAT32", "BOOL",   "STRING", "ARRAY",
                                                "UINT64", "INT64",   "FLOAT64"};
constexpr int kValueSizes[] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};

// The longest key or tensor name accepted (the format's limit for keys), and string value.
constexpr std::uint64_t kMaxNameBytes = 65535;
constexpr std::uint64_t kMaxStringBytes = std::uint64_t{1} << 26;
// The bytes a cursor reads from its source at a time.
constexpr std::uint64_t kChunkBytes = std::uint64_t{1} << 20;
// Elements of an array a metadata text shows.
constexpr std::uint64_t kShownElements = 3;

// The header read in order from a source, a chunk at a time; each read names its field and is
// checked against the bytes left in the file first.
class Cursor {
 public:
  explicit Cursor(const ByteSource& source) : source_(source), size_(source.size()) {}

  std::uint64_t at() const { return at_; }
  std::uint64_t size() const { return size_; }
  std::uint64_t left() const { return size_ - at_; }

  void need(std::uint64_t bytes, const std::string& field) const {
    if (bytes > left())
      fail(field + " needs " + std::to_string(bytes) + " bytes at byte " + std::to_string(at_) +
           ", but the file ends " + std::to_string(left()) + " bytes later (it is " +
           std::to_string(size_) + " bytes)");
  }

  void take(char* out, std::uint64_t bytes, const std::string& field) {
    need(bytes, field);
    while (bytes > 0) {
      if (at_ < chunk_at_ || at_ >= chunk_at_ + chunk_.size()) fill();
      const std::uint64_t offset = at_ - chunk_at_;
      const std::uint64_t n = std::min<std::uint64_t>(bytes, chunk_.size() - offset);
      std::memcpy(out, chunk_.data() + offset, static_cast<std::size_t>(n));
      out += n;
      at_ += n;
      bytes -= n;
    }
  }

  void skip(std::uint64_t bytes, const std::string& field) {
    need(bytes, field);
    at_ += bytes;
  }

  template <typename T>
  T number(const std::string& field) {
    T value;
    take(reinterpret_cast<char*>(&value), sizeof value, field);
    return value;
  }

  // A string: its uint64 length, at most `most` and within the file, then its bytes.
  std::string string(const std::string& field, std::uint64_t most) {
    const auto length = number<std::uint64_t>(field + "'s length");
    if (length > most)
      fail(field + " is " + std::to_string(length) + " bytes long; at most " +
           std::to_string(most) + " are accepted");
    need(length, field);
    std::string out(static_cast<std::size_t>(length), '\0');
    take(out.data(), length, field);
    return out;
  }

 private:
  void fill() {
    chunk_at_ = at_;
    chunk_.resize(static_cast<std::size_t>(std::min(kChunkBytes, size_ - at_)));
    source_.read(chunk_at_, chunk_.size(), chunk_.data());
  }

  const ByteSource& source_;
  std::uint64_t size_;
  std::uint64_t at_ = 0;
  std::uint64_t chunk_at_ = 0;
  std::string chunk_;
};

std::string value_type_name(std::uint32_t type) {
  return type < kValueTypes ? std::string(kValueTypeNames[type]) : "type " + std::to_string(type);
}

void check_value_type(std::uint32_t type, const std::string& field) {
  if (type >= kValueTypes)
    fail(field + " has value type " + std::to_string(type) +
         ", which GGUF does not define (0 to 12: UINT8, INT8, UINT16, INT16, UINT32, INT32, "
         "FLOAT32, BOOL, STRING, ARRAY, UINT64, INT64, FLOAT64)");
}

// A scalar value of a fixed-size type, as text.
std::string scalar_text(std::uint32_t type, Cursor& in, const std::string& field) {
  switch (type) {
    case kU8:
      return std::to_string(in.number<std::uint8_t>(field));
    case kI8:
      return std::to_string(in.number<std::int8_t>(field));
    case kU16:
      return std::to_string(in.number<std::uint16_t>(field));
    case kI16:
      return std::to_string(in.number<std::int16_t>(field));
    case kU32:
      return std::to_string(in.number<std::uint32_t>(field));
    case kI32:
      return std::to_string(in.number<std::int32_t>(field));
    case kU64:
      return std::to_string(in.number<std::uint64_t>(field));
    case kI64:
      return std::to_string(in.number<std::int64_t>(field));
    case kBool: {
      const auto b = in.number<std::uint8_t>(field);
      if (b > 1) fail(field + " is a BOOL of value " + std::to_string(b) + ": it must be 0 or 1");
      return b ? "true" : "false";
    }
    case kF32:
    case kF64: {
      char shown[32];
      const double x = type == kF32 ? in.number<float>(field) : in.number<double>(field);
      std::snprintf(shown, sizeof shown, "%g", x);
      return shown;
    }
  }
  return {};
}

std::string string_text(const std::string& s) { return quoted(s, '"', 60); }

// One value of `type` (not an array) as text; a string's bytes go to `keep` when given.
std::string value_text(std::uint32_t type, Cursor& in, const std::string& field,
                       std::string* keep = nullptr) {
  if (type != kString) return scalar_text(type, in, field);
  std::string s = in.string(field, kMaxStringBytes);
  std::string text = string_text(s);
  if (keep) *keep = std::move(s);
  return text;
}

// An array's elements, as a text of the first few; the strings of tokenizer.ggml.tokens kept.
std::string array_text(Cursor& in, const std::string& field, std::string& type_name,
                       std::vector<std::string>* tokens) {
  const auto type = in.number<std::uint32_t>(field + "'s element type");
  check_value_type(type, field + "'s elements");
  if (type == kArray) fail(field + " is an array of arrays, which GGUF does not allow");
  type_name = "ARRAY[" + value_type_name(type) + "]";
  const auto count = in.number<std::uint64_t>(field + "'s element count");
  // Each element takes at least its size (a string at least its 8-byte length).
  const std::uint64_t least = type == kString ? 8 : static_cast<std::uint64_t>(kValueSizes[type]);
  if (count > in.left() / least)
    fail(field + " claims " + std::to_string(count) + " elements of " + value_type_name(type) +
         ", at least " + std::to_string(least) + " bytes each, but only " +
         std::to_string(in.left()) + " bytes of the file are left");
  if (tokens && type != kString)
    fail(field + " must be an array of STRING, not of " + value_type_name(type));
  if (tokens) tokens->reserve(static_cast<std::size_t>(count));
  std::string text = "[" + std::to_string(count) + (count == 1 ? " element" : " elements");
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::string element = field + " element " + std::to_string(i);
    if (type != kString && i >= kShownElements) {
      in.skip((count - i) * least, element);
      break;
    }
    std::string kept;
    const std::string shown = value_text(type, in, element, tokens ? &kept : nullptr);
    if (i < kShownElements) text += (i ? ", " : ": ") + shown;
    if (tokens) tokens->push_back(std::move(kept));
  }
  return text + (count > kShownElements ? ", ...]" : "]");
}

std::string ne_text(const std::vector<std::uint64_t>& ne) {
  std::string text = "[";
  for (std::size_t i = 0; i < ne.size(); ++i) text += (i ? ", " : "") + std::to_string(ne[i]);
  return text + "]";
}

// "tensor 3 'blk.0.attn_q.weight'"
std::string tensor_field(std::uint64_t i, const std::string& name) {
  return "tensor " + std::to_string(i) + " " + name_text(name);
}

GgufTensor read_tensor_info(Cursor& in, std::uint64_t i) {
  GgufTensor t;
  t.name = in.string("tensor " + std::to_string(i) + "'s name", kMaxNameBytes);
  const std::string field = tensor_field(i, t.name);
  const auto dims = in.number<std::uint32_t>(field + "'s number of dimensions");
  if (dims < 1 || dims > 4)
    fail(field + " has " + std::to_string(dims) + " dimensions; GGUF tensors have 1 to 4");
  std::uint64_t elements = 1;
  for (std::uint32_t k = 0; k < dims; ++k) {
    const auto n = in.number<std::uint64_t>(field + "'s ne[" + std::to_string(k) + "]");
    // A tensor's elements are at most 2^63 - 1 (ggml's int64 counts); in a file they are fewer.
    if (n != 0 &&
        elements > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) / n)
      fail(field + "'s dimensions " + ne_text(t.ne) + " then " + std::to_string(n) +
           " make more than 2^63 elements");
    elements *= n;
    t.ne.push_back(n);
  }
  t.type = in.number<std::uint32_t>(field + "'s type");
  t.begin = in.number<std::uint64_t>(field + "'s data offset");
  const GgmlType* type = find_type(t.type);
  if (type && t.ne[0] % type->block_values != 0)
    fail(field + " has rows of ne[0] = " + std::to_string(t.ne[0]) +
         " values, not a whole number of " + std::string(type->name) + " blocks of " +
         std::to_string(type->block_values));
  // Its size, when its layout is known, checked against the file's before it is multiplied out.
  if (type) {
    const std::uint64_t blocks = elements / type->block_values;
    if (blocks > in.size() / type->block_bytes)
      fail(field + " (" + std::string(type->name) + " " + ne_text(t.ne) + ") is " +
           std::to_string(blocks) + " blocks of " + std::to_string(type->block_bytes) +
           " bytes, more than the whole file's " + std::to_string(in.size()) + " bytes");
    t.end = blocks * type->block_bytes;
  }
  return t;
}

// The data offsets, relative to the data section, as the file's byte ranges: aligned, and within
// the file.
void place_tensors(GgufHeader& h) {
  for (std::size_t i = 0; i < h.tensors.size(); ++i) {
    GgufTensor& t = h.tensors[i];
    const std::string field = tensor_field(i, t.name);
    const std::uint64_t offset = t.begin, size = t.end;
    if (offset % h.alignment != 0)
      fail(field + "'s data offset " + std::to_string(offset) +
           " is not a multiple of the alignment, " + std::to_string(h.alignment));
    const std::uint64_t data = h.file_size - h.data_start;
    if (offset > data || size > data - offset)
      fail(field + " (" + ggml_type_name(t.type) + " " + ne_text(t.ne) + ", " +
           std::to_string(size) + " bytes) at data offset " + std::to_string(offset) +
           " runs past the end of the file: its data section, from byte " +
           std::to_string(h.data_start) + ", holds " + std::to_string(data) + " bytes");
    t.begin = h.data_start + offset;
    t.end = t.begin + size;
  }
}

}  // namespace

bool has_gguf_magic(std::string_view first_bytes) {
  return first_bytes.size() >= 4 && first_bytes.substr(0, 4) == "GGUF";
}

GgufHeader read_gguf_header(const ByteSource& source) {
  GgufHeader h;
  h.file_size = source.size();
  Cursor in(source);
  char magic[4];
  in.take(magic, 4, "GGUF's magic (the first 4 bytes)");
  if (!has_gguf_magic(std::string_view(magic, 4)))
    fail("not a GGUF file: it starts with " + quoted(std::string_view(magic, 4), '"', 4, true) +
         ", not \"GGUF\"");
  h.version = in.number<std::uint32_t>("the version");
  if (h.version == 1)
    fail("GGUF version 1 (32-bit counts, before August 2023) is not read: versions 2 and 3 are");
  if (h.version != 2 && h.version != 3)
    fail("GGUF version " + std::to_string(h.version) + " is not read: versions 2 and 3 are" +
         (h.version > 0xffff ? " (a big-endian file? only little-endian files are read)" : ""));
  const auto tensors = in.number<std::uint64_t>("the tensor count");
  const auto entries = in.number<std::uint64_t>("the metadata count");
  // A metadata entry takes at least 13 bytes (key length, value type, a 1-byte value), a tensor
  // info at least 32 (name length, dimensions, one ne, type, offset).
  if (entries > in.left() / 13)
    fail("the metadata count, " + std::to_string(entries) + ", is more than the " +
         std::to_string(in.left()) + " bytes left in the file can hold (13 bytes each at least)");
  if (tensors > in.left() / 32)
    fail("the tensor count, " + std::to_string(tensors) + ", is more than the " +
         std::to_string(in.left()) + " bytes left in the file can hold (32 bytes each at least)");
  h.metadata.reserve(static_cast<std::size_t>(entries));
  for (std::uint64_t i = 0; i < entries; ++i) {
    GgufMetadata m;
    m.key = in.string("metadata entry " + std::to_string(i) + "'s key", kMaxNameBytes);
    const std::string field = "metadata " + quoted(m.key, '"', 60);
    const auto type = in.number<std::uint32_t>(field + "'s value type");
    check_value_type(type, field);
    const bool is_tokens = m.key == "tokenizer.ggml.tokens";
    if (is_tokens && type != kArray)
      fail(field + " must be an array of STRING, not " + value_type_name(type));
    if (type == kArray) {
      m.text = array_text(in, field, m.type, is_tokens ? &h.tokens : nullptr);
    } else {
      m.type = value_type_name(type);
      if (m.key == "general.alignment") {
        if (type != kU32) fail(field + " must be a UINT32, not " + m.type);
        h.alignment = in.number<std::uint32_t>(field);
        if (h.alignment == 0 || (h.alignment & (h.alignment - 1)) != 0)
          fail(field + " is " + std::to_string(h.alignment) + ": it must be a power of 2");
        m.text = std::to_string(h.alignment);
      } else {
        m.text = value_text(type, in, field);
      }
    }
    h.metadata.push_back(std::move(m));
  }
  h.tensors.reserve(static_cast<std::size_t>(tensors));
  for (std::uint64_t i = 0; i < tensors; ++i) h.tensors.push_back(read_tensor_info(in, i));
  // The data section starts at the next multiple of the alignment (which may be the file's end
  // when no tensor has bytes).
  const std::uint64_t padding = (h.alignment - in.at() % h.alignment) % h.alignment;
  in.need(padding, "the padding before the data section");
  h.data_start = in.at() + padding;
  place_tensors(h);
  return h;
}

std::string ggml_type_name(std::uint32_t type) {
  const GgmlType* t = find_type(type);
  return t ? std::string(t->name) : "type " + std::to_string(type);
}

std::string ggml_conversion_text(std::uint32_t type) {
  const GgmlType* t = find_type(type);
  if (!t || !t->table) return ggml_type_name(type);
  const std::string name(t->name);
  switch (*t->table) {
    case StoredFloat::f32:
      return name + ", as stored";
    case StoredFloat::f16:
    case StoredFloat::bf16:
      return name + ", converted to float32 exactly";
    default:
      break;
  }
  std::string lower = name;
  for (char& c : lower) c = c == 'K' ? 'K' : static_cast<char>(std::tolower(c));
  return name + " (" + std::to_string(t->block_values) + " weights in " +
         std::to_string(t->block_bytes) +
         " bytes), dequantized to float32 as ggml's dequantize_row_" + lower;
}

std::vector<Index> gguf_shape(const GgufTensor& tensor) {
  std::vector<Index> shape;
  for (auto it = tensor.ne.rbegin(); it != tensor.ne.rend(); ++it)
    shape.push_back(static_cast<Index>(*it));
  return shape;
}

const GgufTensor& choose_gguf_table(const GgufHeader& header, std::string_view name,
                                    const Limits& limits) {
  if (name.empty()) name = kGgufTableName;
  const GgufTensor* chosen = nullptr;
  for (const GgufTensor& t : header.tensors)
    if (t.name == name) chosen = &t;
  if (!chosen) {
    std::vector<std::string_view> names;
    for (const GgufTensor& t : header.tensors) names.push_back(t.name);
    std::string close;
    for (std::size_t i : close_names(names, name))
      close += (close.empty() ? "" : ", ") + name_text(names[i]);
    const std::size_t n = header.tensors.size();
    fail("no tensor is named " + name_text(name) + " in the file (" + std::to_string(n) +
         (n == 1 ? " tensor); " : " tensors); ") +
         (close.empty() ? "name the one to load with --tensor" : "close names: " + close));
  }
  const std::string what = "tensor " + name_text(chosen->name) + " (" +
                           ggml_type_name(chosen->type) + ", ne " + ne_text(chosen->ne) + ")";
  if (chosen->ne.size() != 2)
    fail(what + " has " + std::to_string(chosen->ne.size()) +
         " dimensions: an embedding table has 2, ne = [d, V]");
  const GgmlType* type = find_type(chosen->type);
  if (!type || !type->table)
    fail(what + ": " + ggml_type_name(chosen->type) + " tables are not read; the types read are " +
         std::string(kTableTypes));
  const auto cols = chosen->ne[0], rows = chosen->ne[1];
  const auto max = static_cast<std::uint64_t>(std::numeric_limits<Index>::max());
  check_file_table_shape(rows > max ? -1 : static_cast<Index>(rows),
                         cols > max ? -1 : static_cast<Index>(cols), limits, what + ": ");
  return *chosen;
}

GgufTable open_gguf_table(std::shared_ptr<const ByteSource> source, std::string_view name,
                          const Limits& limits, const std::string& context) {
  try {
    GgufHeader header = read_gguf_header(*source);
    const GgufTensor& t = choose_gguf_table(header, name, limits);
    Table table(std::move(source), t.begin, static_cast<Index>(t.ne[1]),
                static_cast<Index>(t.ne[0]), *find_type(t.type)->table,
                context + "tensor " + name_text(t.name) + ": ", limits);
    if (table.stored_bytes() <= kHeldTableBytes) table = table.held();
    const bool head = std::any_of(header.tensors.begin(), header.tensors.end(),
                                  [](const GgufTensor& x) { return x.name == kGgufHeadName; });
    return {t, std::move(table), head, std::move(header.tokens)};
  } catch (const InputError& e) {
    fail(context + e.what());
  }
}

GgufHeader read_gguf_header(const std::string& path) {
  const auto file = open_file(path, "a GGUF file");
  try {
    return read_gguf_header(*file);
  } catch (const InputError& e) {
    fail(path + ": " + e.what());
  }
}

GgufTable load_gguf_table(const std::string& path, std::string_view name, const Limits& limits) {
  return open_gguf_table(open_file(path, "a GGUF file"), name, limits, path + ": ");
}

}  // namespace embedlab
