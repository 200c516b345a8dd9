#include "embedlab/safetensors.hpp"

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <tuple>
#include <unordered_set>

#include "embedlab/error.hpp"
#include "quoted.hpp"
#include "table_file.hpp"
#include "tensor_names.hpp"

// The format: https://github.com/huggingface/safetensors (README, "Format").
namespace embedlab {
namespace {

using Json = nlohmann::json;

[[noreturn]] void fail(const std::string& message) { throw InputError(Argument::weights, message); }

// The dtypes the safetensors library defines. bytes: the size of one value (0: packed into
// fewer than 8 bits, so no size check); table: how it becomes float32, if it can be a table.
struct Dtype {
  std::string_view name;
  std::string_view meaning;
  std::uint64_t bytes;
  std::optional<StoredFloat> table;
};
constexpr Dtype kDtypes[] = {
    {"F32", "float32", 4, StoredFloat::f32},
    {"F64", "float64", 8, StoredFloat::f64},
    {"F16", "float16", 2, StoredFloat::f16},
    {"BF16", "bfloat16", 2, StoredFloat::bf16},
    {"BOOL", "bool", 1, {}},
    {"U8", "uint8", 1, {}},
    {"I8", "int8", 1, {}},
    {"F8_E4M3", "float8 e4m3", 1, {}},
    {"F8_E5M2", "float8 e5m2", 1, {}},
    {"F8_E8M0", "float8 e8m0", 1, {}},
    {"I16", "int16", 2, {}},
    {"U16", "uint16", 2, {}},
    {"I32", "int32", 4, {}},
    {"U32", "uint32", 4, {}},
    {"I64", "int64", 8, {}},
    {"U64", "uint64", 8, {}},
    {"C64", "complex64", 8, {}},
    {"F4", "float4 e2m1, packed", 0, {}},
    {"F6_E2M3", "float6 e2m3, packed", 0, {}},
    {"F6_E3M2", "float6 e3m2, packed", 0, {}},
};
constexpr std::string_view kTableDtypes = "F32, F64, F16 and BF16";

const Dtype* find_dtype(std::string_view name) {
  for (const Dtype& d : kDtypes)
    if (d.name == name) return &d;
  return nullptr;
}

std::string shape_text(const std::vector<Index>& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

// A dtype as a message shows it: a known one as it is ("BF16"), another quoted.
std::string dtype_text(std::string_view dtype) {
  return find_dtype(dtype) ? std::string(dtype) : quoted(dtype, '\'', 24);
}

// "'wte.weight' (F32 [50257, 768])": how a message names a tensor.
std::string tensor_text(const SafetensorsEntry& e) {
  return name_text(e.name) + " (" + dtype_text(e.dtype) + " " + shape_text(e.shape) + ")";
}

// "1 tensor", "3 tensors"
std::string tensor_count(std::size_t n) {
  return std::to_string(n) + (n == 1 ? " tensor" : " tensors");
}

// A safetensors header nests three deep: the object of tensors, an entry, its shape. Deeper
// JSON is refused while it is read, before it costs memory.
constexpr int kMaxDepth = 3;

Json parse_json(std::string_view text) {
  std::unordered_set<std::string> names;
  const auto check = [&](int depth, Json::parse_event_t event, Json& parsed) {
    if (depth > kMaxDepth)
      fail("invalid .safetensors header: its JSON nests more than " + std::to_string(kMaxDepth) +
           " levels deep (a safetensors header holds tensors, each an object with a shape list)");
    if (event == Json::parse_event_t::key && depth == 1 &&
        !names.insert(parsed.get<std::string>()).second)
      fail("invalid .safetensors header: tensor " + name_text(parsed.get<std::string>()) +
           " is listed twice");
    return true;
  };
  try {
    return Json::parse(text.begin(), text.end(), check);
  } catch (const Json::parse_error& e) {
    // e.byte counts the bytes read, the offending one included; the JSON starts at byte 8.
    fail("invalid JSON in the .safetensors header (at byte offset " +
         std::to_string(8 + e.byte - 1) + " in the file): " + json_error_text(e));
  } catch (const Json::out_of_range& e) {  // a number beyond double's range, such as 1e999
    fail("invalid JSON in the .safetensors header: " + json_error_text(e));
  }
}

// A non-negative integer in the header, or nothing.
std::optional<std::uint64_t> unsigned_value(const Json& value) {
  if (!value.is_number_unsigned()) return std::nullopt;
  return value.get<std::uint64_t>();
}

const Json& field(const Json& entry, const std::string& tensor, const char* key) {
  const auto it = entry.find(key);
  if (it == entry.end())
    fail("invalid .safetensors header: tensor " + name_text(tensor) + " has no \"" + key +
         "\" (each tensor needs \"dtype\", \"shape\" and \"data_offsets\")");
  return *it;
}

// One entry of the header: {"dtype": "F32", "shape": [V, d], "data_offsets": [begin, end]}.
SafetensorsEntry parse_entry(const std::string& name, const Json& value, std::uint64_t data_start,
                             std::uint64_t data_size) {
  const std::string where = "invalid .safetensors header: tensor " + name_text(name);
  if (!value.is_object())
    fail(where + " should be an object with \"dtype\", \"shape\" and \"data_offsets\", found " +
         json_text(value));
  SafetensorsEntry e;
  e.name = name;

  const Json& dtype = field(value, name, "dtype");
  if (!dtype.is_string())
    fail(where + ": \"dtype\" should be a string such as \"F32\", found " + json_text(dtype));
  e.dtype = dtype.get<std::string>();

  const Json& shape = field(value, name, "shape");
  const std::string shape_expected = ": \"shape\" should be a list of non-negative integers";
  if (!shape.is_array()) fail(where + shape_expected + ", found " + json_text(shape));
  for (const Json& dim : shape) {
    const auto d = unsigned_value(dim);
    if (!d || *d > static_cast<std::uint64_t>(std::numeric_limits<Index>::max()))
      fail(where + shape_expected + ", found " + json_text(shape));
    e.shape.push_back(static_cast<Index>(*d));
  }

  const Json& offsets = field(value, name, "data_offsets");
  std::optional<std::uint64_t> begin, end;
  if (offsets.is_array() && offsets.size() == 2) {
    begin = unsigned_value(offsets[0]);
    end = unsigned_value(offsets[1]);
  }
  if (!begin || !end)
    fail(where + ": \"data_offsets\" should be two non-negative integers [begin, end], found " +
         json_text(offsets));
  const std::string range =
      "data_offsets [" + std::to_string(*begin) + ", " + std::to_string(*end) + "]";
  if (*begin > *end) fail(where + ": its " + range + " are reversed (begin after end)");
  if (*end > data_size)
    fail("corrupt or truncated .safetensors file: the " + range + " of tensor " + name_text(name) +
         " run past the end of the data section, which holds " + std::to_string(data_size) +
         " bytes (from byte " + std::to_string(data_start) + " to the end of the file)");
  e.begin = data_start + *begin;
  e.end = data_start + *end;

  if (const Dtype* d = find_dtype(e.dtype); d && d->bytes != 0) {
    // shape x dtype size, or nothing when that overflows 64 bits.
    std::optional<std::uint64_t> needed = d->bytes;
    for (Index dim : e.shape) {
      const auto n = static_cast<std::uint64_t>(dim);
      if (needed && n != 0 && *needed > std::numeric_limits<std::uint64_t>::max() / n)
        needed.reset();
      else if (needed)
        *needed *= n;
    }
    if (needed != std::optional(*end - *begin))
      fail("corrupt .safetensors header: the " + range + " of tensor " + name_text(name) +
           " hold " + std::to_string(*end - *begin) + " bytes, but shape " + shape_text(e.shape) +
           " of " + e.dtype + " needs " + (needed ? std::to_string(*needed) : "more than 2^64") +
           " (" + std::to_string(d->bytes) + (d->bytes == 1 ? " byte" : " bytes") + " per value)");
  }
  return e;
}

// Tensors sorted by their bytes; two that share a byte are refused.
void check_no_overlap(const std::vector<SafetensorsEntry>& tensors) {
  const SafetensorsEntry* furthest = nullptr;  // the tensor that reaches furthest so far
  for (const SafetensorsEntry& e : tensors) {
    if (e.begin == e.end) continue;
    if (furthest && e.begin < furthest->end)
      fail("corrupt .safetensors header: tensors " + name_text(furthest->name) + " (bytes " +
           std::to_string(furthest->begin) + " to " + std::to_string(furthest->end) +
           " of the file) and " + name_text(e.name) + " (bytes " + std::to_string(e.begin) +
           " to " + std::to_string(e.end) + ") overlap");
    if (!furthest || e.end > furthest->end) furthest = &e;
  }
}

// "'a' (F32 [3, 4]), 'b' (BF16 [5, 6]) and 2 more"
std::string tensor_list(const std::vector<const SafetensorsEntry*>& tensors,
                        std::size_t shown = 8) {
  std::string text;
  for (std::size_t i = 0; i < tensors.size() && i < shown; ++i)
    text += (i ? ", " : "") + tensor_text(*tensors[i]);
  if (tensors.size() > shown) text += " and " + std::to_string(tensors.size() - shown) + " more";
  return text;
}

std::vector<const SafetensorsEntry*> two_d_tensors(const SafetensorsHeader& header) {
  std::vector<const SafetensorsEntry*> found;
  for (const SafetensorsEntry& e : header.tensors)
    if (e.shape.size() == 2) found.push_back(&e);
  return found;
}

std::string all_two_d_text(const SafetensorsHeader& header) {
  const auto found = two_d_tensors(header);
  if (found.empty())
    return "the file holds " + tensor_count(header.tensors.size()) + " and none is 2-D";
  return "its 2-D tensors are " + tensor_list(found);
}

// The tensors whose names are close to `wanted`, closest first.
std::vector<const SafetensorsEntry*> close_tensors(const SafetensorsHeader& header,
                                                   std::string_view wanted) {
  std::vector<std::string_view> names;
  for (const SafetensorsEntry& e : header.tensors) names.push_back(e.name);
  std::vector<const SafetensorsEntry*> found;
  for (const std::size_t i : close_names(names, wanted)) found.push_back(&header.tensors[i]);
  return found;
}

StoredFloat table_type(const SafetensorsEntry& e) {
  const Dtype* d = find_dtype(e.dtype);
  if (d && d->table) return *d->table;
  const std::string supported =
      ", which cannot be read as a table: the supported dtypes are " + std::string(kTableDtypes);
  if (d)
    fail("tensor " + name_text(e.name) + " is " + e.dtype + " (" + std::string(d->meaning) + ")" +
         supported);
  fail("tensor " + name_text(e.name) + " has the unknown dtype " + quoted(e.dtype, '\'', 24) +
       supported);
}

void check_table_rank(const SafetensorsEntry& e) {
  if (e.shape.size() != 2)
    fail("tensor " + name_text(e.name) + " has shape " + shape_text(e.shape) + " (" +
         std::to_string(e.shape.size()) + "-D); an embedding table is 2-D (V, d)");
}

// What choose_embedding_table and convert_safetensors_table check: the entry can be a table.
StoredFloat check_table_entry(const SafetensorsEntry& e, const Limits& limits) {
  const std::string tensor = "tensor " + name_text(e.name);
  check_table_rank(e);
  const StoredFloat type = table_type(e);
  const Index rows = e.shape[0], cols = e.shape[1];
  if (rows == 0 || cols == 0)
    fail(tensor + " is empty: shape " + shape_text(e.shape) +
         "; an embedding table needs at least one row and one column");
  check_file_table_shape(rows, cols, limits, tensor + " " + shape_text(e.shape) + ": ");
  // Within the limits, rows * cols * 8 cannot overflow.
  const auto needed = static_cast<std::uint64_t>(rows * cols * stored_size(type));
  if (e.end < e.begin || e.end - e.begin != needed)
    fail(tensor + " spans bytes " + std::to_string(e.begin) + " to " + std::to_string(e.end) +
         ", but shape " + shape_text(e.shape) + " of " + e.dtype + " needs " +
         std::to_string(needed) + " bytes");
  return type;
}

}  // namespace

std::uint64_t safetensors_header_size(std::string_view first_bytes, std::uint64_t file_size) {
  if (file_size < 8)
    fail("not a .safetensors file: it is " + std::to_string(file_size) +
         " bytes long, and a .safetensors file starts with 8 bytes that give its header's length");
  if (first_bytes.size() < 8)
    fail("the .safetensors header's length needs the file's first 8 bytes, only " +
         std::to_string(first_bytes.size()) + " were given");
  std::uint64_t n = 0;
  for (int i = 8; i-- > 0;) n = (n << 8) | static_cast<unsigned char>(first_bytes[i]);
  if (n > kSafetensorsMaxHeader)
    fail("not a .safetensors file, or a corrupt one: its first 8 bytes give a header length of " +
         std::to_string(n) + " bytes, over the format's limit of " +
         std::to_string(kSafetensorsMaxHeader) + " bytes (100 MB)");
  if (n > file_size - 8)
    fail("truncated .safetensors file: its first 8 bytes give a header length of " +
         std::to_string(n) + " bytes, but only " + std::to_string(file_size - 8) +
         " bytes follow them");
  return 8 + n;
}

SafetensorsHeader parse_safetensors_header(std::string_view first_bytes, std::uint64_t file_size) {
  SafetensorsHeader header;
  header.file_size = file_size;
  header.data_start = safetensors_header_size(first_bytes, file_size);
  if (first_bytes.size() < header.data_start)
    fail("the .safetensors header needs the file's first " + std::to_string(header.data_start) +
         " bytes, only " + std::to_string(first_bytes.size()) + " were given");
  const Json json = parse_json(first_bytes.substr(8, header.data_start - 8));
  if (!json.is_object())
    fail("invalid .safetensors header: it should be a JSON object of tensors, found " +
         json_text(json));
  const std::uint64_t data_size = file_size - header.data_start;
  for (const auto& [name, value] : json.items()) {
    if (name != "__metadata__") {
      header.tensors.push_back(parse_entry(name, value, header.data_start, data_size));
      continue;
    }
    if (!value.is_object())
      fail("invalid .safetensors header: \"__metadata__\" should be an object of strings, found " +
           json_text(value));
    for (const auto& [key, text] : value.items()) {
      if (!text.is_string())
        fail("invalid .safetensors header: \"__metadata__\" should hold only strings, but " +
             name_text(key) + " is " + json_text(text));
      header.metadata.emplace_back(key, text.get<std::string>());
    }
  }
  std::sort(header.tensors.begin(), header.tensors.end(), [](const auto& a, const auto& b) {
    return std::tie(a.begin, a.end, a.name) < std::tie(b.begin, b.end, b.name);
  });
  check_no_overlap(header.tensors);
  return header;
}

std::vector<const SafetensorsEntry*> embedding_table_candidates(const SafetensorsHeader& header) {
  std::vector<const SafetensorsEntry*> found;
  for (const SafetensorsEntry* e : two_d_tensors(header))
    if (named_like_embedding_table(e->name)) found.push_back(e);
  return found;
}

std::vector<const SafetensorsEntry*> position_table_candidates(const SafetensorsHeader& header) {
  std::vector<const SafetensorsEntry*> found;
  for (const SafetensorsEntry* e : two_d_tensors(header))
    if (named_like_position_table(e->name)) found.push_back(e);
  return found;
}

const SafetensorsEntry& choose_embedding_table(const SafetensorsHeader& header,
                                               std::string_view name, const Limits& limits) {
  const SafetensorsEntry* chosen = nullptr;
  if (!name.empty()) {
    for (const SafetensorsEntry& e : header.tensors)
      if (e.name == name) chosen = &e;
    if (!chosen) {
      const auto close = close_tensors(header, name);
      fail("no tensor is named " + name_text(name) + " in the file; " +
           (close.empty() ? "no name is close, and " + all_two_d_text(header)
                          : "close names: " + tensor_list(close, 5)));
    }
  } else {
    const auto candidates = embedding_table_candidates(header);
    if (candidates.empty())
      fail(std::string("no tensor looks like the embedding table (a 2-D tensor named ") +
           kTableNamesText + "); name the one to load: " + all_two_d_text(header));
    if (candidates.size() > 1)
      fail(tensor_count(candidates.size()) +
           " look like the embedding table: " + tensor_list(candidates) + "; name the one to load");
    chosen = candidates.front();
  }
  check_table_entry(*chosen, limits);
  return *chosen;
}

Matrix convert_safetensors_table(const SafetensorsEntry& entry, std::string_view bytes,
                                 const Limits& limits) {
  check_table_entry(entry, limits);
  if (bytes.size() != entry.end - entry.begin)
    fail("tensor " + name_text(entry.name) + " is bytes " + std::to_string(entry.begin) + " to " +
         std::to_string(entry.end) + " of the file, " + std::to_string(entry.end - entry.begin) +
         " bytes, but " + std::to_string(bytes.size()) + " were given");
  check_held_safetensors_table(entry, limits);
  Matrix m(entry.shape[0], entry.shape[1]);
  convert_safetensors_rows(entry, 0, bytes, m, limits);
  return m;
}

void check_held_safetensors_table(const SafetensorsEntry& entry, const Limits& limits) {
  check_table_entry(entry, limits);
  try {
    check_elements(entry.shape[0], entry.shape[1], Argument::weights, "the embedding table (V x d)",
                   limits);
  } catch (const InputError& e) {
    fail("tensor " + name_text(entry.name) + " " + shape_text(entry.shape) + ": " + e.what());
  }
}

Index safetensors_row_bytes(const SafetensorsEntry& entry, const Limits& limits) {
  return entry.shape[1] * stored_size(check_table_entry(entry, limits));
}

void convert_safetensors_rows(const SafetensorsEntry& entry, Index first_row,
                              std::string_view bytes, Matrix& table, const Limits& limits) {
  const StoredFloat type = check_table_entry(entry, limits);
  const std::string tensor = "tensor " + name_text(entry.name);
  const Index rows = entry.shape[0], cols = entry.shape[1], row_bytes = cols * stored_size(type);
  if (table.rows() != rows || table.cols() != cols)
    fail("the table to fill is " + std::to_string(table.rows()) + " x " +
         std::to_string(table.cols()) + ", but " + tensor + " is " + shape_text(entry.shape));
  const auto count = static_cast<Index>(bytes.size()) / row_bytes;
  if (static_cast<Index>(bytes.size()) % row_bytes != 0)
    fail("the rows of " + tensor + " are " + std::to_string(row_bytes) + " bytes each, and " +
         std::to_string(bytes.size()) + " bytes are not a whole number of rows");
  if (first_row < 0 || first_row > rows - count)
    fail("rows " + std::to_string(first_row) + " to " + std::to_string(first_row + count) +
         " are not all in " + tensor + ", which has rows 0 to " + std::to_string(rows));
  try {
    convert_to_float32(bytes, type, table.data() + first_row * cols, first_row, 0, cols);
  } catch (const InputError& e) {
    fail(tensor + ": " + e.what());
  }
}

std::string dtype_conversion_text(std::string_view dtype) {
  const Dtype* d = find_dtype(dtype);
  if (!d || !d->table) return std::string(dtype);
  const std::string name = std::string(d->name) + " (" + std::string(d->meaning) + ")";
  switch (*d->table) {
    case StoredFloat::f32:
      return name + ", as stored";
    case StoredFloat::f64:
      return name + ", rounded to float32";
    default:
      return name + ", converted to float32 exactly";
  }
}

namespace {

// Runs `read`, naming the path in its errors as load_npy does.
template <typename Read>
auto with_path(const std::string& path, Read read) {
  try {
    return read();
  } catch (const InputError& e) {
    fail(path + ": " + e.what());
  }
}

}  // namespace

SafetensorsHeader read_safetensors_header(const ByteSource& source) {
  const std::string first = read_range(source, 0, std::min<std::uint64_t>(8, source.size()));
  const std::uint64_t header_size = safetensors_header_size(first, source.size());
  return parse_safetensors_header(read_range(source, 0, header_size), source.size());
}

SafetensorsTable open_safetensors_table(std::shared_ptr<const ByteSource> source,
                                        std::string_view name, const Limits& limits,
                                        const std::string& context) {
  try {
    const SafetensorsHeader header = read_safetensors_header(*source);
    const SafetensorsEntry& entry = choose_embedding_table(header, name, limits);
    Table table(std::move(source), entry.begin, entry.shape[0], entry.shape[1], table_type(entry),
                context + "tensor " + name_text(entry.name) + ": ", limits);
    if (table.stored_bytes() <= kHeldTableBytes) table = table.held();
    return {entry, std::move(table), {}};
  } catch (const InputError& e) {
    fail(context + e.what());
  }
}

SafetensorsHeader read_safetensors_header(const std::string& path) {
  const auto file = open_file(path, "a .safetensors file");
  return with_path(path, [&] { return read_safetensors_header(*file); });
}

SafetensorsTable load_safetensors_table(const std::string& path, std::string_view name,
                                        const Limits& limits) {
  SafetensorsTable table =
      open_safetensors_table(open_file(path, "a .safetensors file"), name, limits, path + ": ");
  table.file = path;
  return table;
}

Table tensor_table(std::shared_ptr<const ByteSource> source, std::string_view dtype,
                   const std::vector<Index>& shape, const std::string& name, const Limits& limits) {
  const SafetensorsEntry entry{name, std::string(dtype), shape, 0, source->size()};
  check_table_rank(entry);
  const StoredFloat type = table_type(entry);
  check_table_shape(shape[0], shape[1], limits);
  return Table(std::move(source), 0, shape[0], shape[1], type, "tensor " + name_text(name) + ": ",
               limits);
}

}  // namespace embedlab
