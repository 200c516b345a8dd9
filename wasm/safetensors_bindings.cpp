// Embind bindings of the core's .safetensors header reader (embedlab/safetensors.hpp), linked
// into the page's module beside bindings.cpp and wrapped by embedlab.mjs: what a file holds,
// before its table is opened (openSafetensorsTable, table_bindings.cpp). The caller reads the
// header's bytes itself (File.slice in a browser, fs in Node) and hands them over:
//   hasNpyMagic(firstBytes) -> whether the file is a .npy one
//   safetensorsHeaderSize(firstBytes, fileSize) -> 8 + N, the bytes that hold the header
//   safetensorsHeader(headerBytes, fileSize, name) -> its tensors, metadata and the table it would
//     pick (the tensor called name, checked to be one)
//   safetensorsIndex(text, name) -> a sharded checkpoint's index and the shard of its table
// Errors come back as values (js_values.hpp); the core's all name Argument::weights.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <string>
#include <vector>

#include "embedlab/error.hpp"
#include "embedlab/npy.hpp"
#include "embedlab/safetensors.hpp"
#include "embedlab/safetensors_index.hpp"
#include "js_values.hpp"

namespace embedlab {
namespace {

using emscripten::val;
using namespace js;

std::uint64_t file_size_from_js(double size) {
  const Index bytes = to_index(size, Argument::weights, "the file size");
  if (bytes < 0)
    throw InputError(Argument::weights, "the file size must be a number of bytes, 0 or more, got " +
                                            js::js_text(size));
  return static_cast<std::uint64_t>(bytes);
}

// Sizes and offsets as JS numbers: exact up to 2^53 bytes (8 PiB), beyond any file.
val number(std::uint64_t x) { return val(static_cast<double>(x)); }

val shape_to_js(const std::vector<Index>& shape) {
  val out = val::array();
  for (const Index n : shape) out.call<void>("push", static_cast<double>(n));
  return out;
}

bool has_npy_magic_js(const val& first_bytes) { return has_npy_magic(bytes_from_js(first_bytes)); }

val safetensors_header_size_js(const val& first_bytes, double file_size) {
  return guarded([&] {
    const std::string first = bytes_from_js(first_bytes);
    return number(safetensors_header_size(first, file_size_from_js(file_size)));
  });
}

// { fileSize, dataStart, tensors: [{ name, dtype, shape, begin, end, candidate, conversion }]
//   (in file order), metadata: [[key, value]] (sorted by key), table: the tensor called name, or
//   without a name the one that would be loaded, or null and tableError: why there is none (no
//   such tensor, several or no candidates, or the one found cannot be a table) }
val safetensors_header_js(const val& header_bytes, double file_size, const std::string& name) {
  return guarded([&] {
    const std::string bytes = bytes_from_js(header_bytes);
    const SafetensorsHeader header = parse_safetensors_header(bytes, file_size_from_js(file_size));
    const auto candidates = embedding_table_candidates(header);
    val tensors = val::array();
    for (const SafetensorsEntry& e : header.tensors) {
      val t = val::object();
      t.set("name", e.name);
      t.set("dtype", e.dtype);
      t.set("shape", shape_to_js(e.shape));
      t.set("begin", number(e.begin));
      t.set("end", number(e.end));
      t.set("candidate", std::find(candidates.begin(), candidates.end(), &e) != candidates.end());
      t.set("conversion", dtype_conversion_text(e.dtype));
      tensors.call<void>("push", t);
    }
    val metadata = val::array();
    for (const auto& [key, value] : header.metadata) {
      val pair = val::array();
      pair.call<void>("push", key);
      pair.call<void>("push", value);
      metadata.call<void>("push", pair);
    }
    val out = val::object();
    out.set("fileSize", number(header.file_size));
    out.set("dataStart", number(header.data_start));
    out.set("tensors", tensors);
    out.set("metadata", metadata);
    set_table_or_error(out, [&] { return choose_embedding_table(header, name).name; });
    return out;
  });
}

// A sharded checkpoint's model.safetensors.index.json, as text: { weightMap: [[tensor, shard]] (in
// the index's order), shards (each once), table: { tensor, shard } (the tensor called name, or
// the one named like an embedding table) or null and tableError: why there is none }.
val safetensors_index_js(const std::string& text, const std::string& name) {
  return guarded([&] {
    const SafetensorsIndex index = parse_safetensors_index(text);
    val map = val::array();
    for (const auto& [tensor, shard] : index.weight_map) {
      val pair = val::array();
      pair.call<void>("push", tensor);
      pair.call<void>("push", shard);
      map.call<void>("push", pair);
    }
    val shards = val::array();
    for (const std::string& shard : index.shards) shards.call<void>("push", shard);
    val out = val::object();
    out.set("weightMap", map);
    out.set("shards", shards);
    set_table_or_error(out, [&] {
      const IndexedTable table = find_indexed_table(index, name);
      val found = val::object();
      found.set("tensor", table.tensor);
      found.set("shard", table.shard);
      return found;
    });
    return out;
  });
}

}  // namespace
}  // namespace embedlab

EMSCRIPTEN_BINDINGS(embedlab_safetensors) {
  using namespace embedlab;
  emscripten::function("hasNpyMagic", &has_npy_magic_js);
  emscripten::function("safetensorsHeaderSize", &safetensors_header_size_js);
  emscripten::function("safetensorsHeader", &safetensors_header_js);
  emscripten::function("safetensorsIndex", &safetensors_index_js);
}
