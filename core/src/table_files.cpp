#include "embedlab/table_files.hpp"

#include <fstream>
#include <utility>

#include "embedlab/byte_source.hpp"
#include "embedlab/error.hpp"
#include "embedlab/gguf.hpp"
#include "embedlab/npy.hpp"
#include "embedlab/safetensors.hpp"
#include "embedlab/safetensors_index.hpp"

namespace embedlab {
namespace {

bool ends_with(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The file's first bytes (fewer when it is shorter, none when it cannot be read: its reader then
// says why).
std::string first_bytes(const std::string& path, std::size_t count) {
  std::ifstream file(path, std::ios::binary);
  std::string bytes(count, '\0');
  file.read(bytes.data(), static_cast<std::streamsize>(count));
  bytes.resize(static_cast<std::size_t>(file.gcount()));
  return bytes;
}

// "[50257, 768]"
std::string shape_text(const std::vector<Index>& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

}  // namespace

TableFormat table_file_format(const std::string& path) {
  if (ends_with(path, ".npy") || ends_with(path, ".npz") || has_npy_magic(first_bytes(path, 6)))
    return TableFormat::npy;
  if (ends_with(path, ".gguf") || has_gguf_magic(first_bytes(path, 4))) return TableFormat::gguf;
  if (is_safetensors_index_name(path)) return TableFormat::safetensors_index;
  return TableFormat::safetensors;
}

TableFile open_table_file(const std::string& path, std::string_view tensor, const Limits& limits) {
  TableFile t;
  t.format = table_file_format(path);
  switch (t.format) {
    case TableFormat::npy:
      if (!tensor.empty())
        throw InputError(Argument::weights,
                         path +
                             ": a .npy file holds one array, not named tensors, so there is no "
                             "tensor '" +
                             std::string(tensor) + "' to choose: name none");
      t.table = open_npy_table(open_file(path, "a .npy file"), limits, path + ": ");
      t.origin = "W loaded from " + path;
      return t;
    case TableFormat::gguf: {
      GgufTable table = load_gguf_table(path, tensor, limits);
      const std::vector<Index> shape = gguf_shape(table.tensor);
      t.table = std::move(table.table);
      t.tensor = table.tensor.name;
      t.has_head = table.has_head;
      t.tokens = std::move(table.tokens);
      t.origin = "W loaded from " + path + ": tensor '" + t.tensor + "', ne [" +
                 std::to_string(shape[1]) + ", " + std::to_string(shape[0]) +
                 "] read as (V, d) = (" + std::to_string(shape[0]) + ", " +
                 std::to_string(shape[1]) + "), " + ggml_conversion_text(table.tensor.type) +
                 (t.has_head ? "; the head has its own output.weight"
                             : "; no output.weight: the head is tied to this table");
      return t;
    }
    case TableFormat::safetensors:
    case TableFormat::safetensors_index: {
      const bool index = t.format == TableFormat::safetensors_index;
      SafetensorsTable table = index ? load_indexed_table(path, tensor, limits)
                                     : load_safetensors_table(path, tensor, limits);
      const std::string shard =
          index ? ", shard " + table.file.substr(table.file.find_last_of('/') + 1) : "";
      t.table = std::move(table.table);
      t.tensor = table.entry.name;
      t.origin = "W loaded from " + path + shard + ": tensor '" + t.tensor + "', shape " +
                 shape_text(table.entry.shape) + ", " + dtype_conversion_text(table.entry.dtype);
      return t;
    }
  }
  return t;
}

}  // namespace embedlab
