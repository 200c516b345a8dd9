// Embind bindings of the core's GGUF header reader (embedlab/gguf.hpp), linked into the page's
// module beside safetensors_bindings.cpp and wrapped by tables.mjs. A page's main thread reads a
// File only asynchronously, and a GGUF header has no length field (its vocabulary can be
// megabytes): the caller hands over the file's first bytes, and gets back either the header or
// how many first bytes it needs, then reads that many and asks again.
//   hasGgufMagic(firstBytes) -> whether the file starts with "GGUF"
//   ggufHeader(firstBytes, fileSize, name) -> { needBytes } or the header: its tensors,
//     metadata, its vocabulary and the table it would open (token_embd.weight, or the tensor
//     called name)
// The table itself opens with openGgufTable(source, name) (table_bindings.cpp).
// Errors come back as values (js_values.hpp); the core's all name Argument::weights.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "embedlab/error.hpp"
#include "embedlab/gguf.hpp"
#include "js_values.hpp"

namespace embedlab {
namespace {

using emscripten::val;
using namespace js;

// The first bytes of a file of `size` bytes; a read past them asks for more.
struct NeedBytes {
  std::uint64_t bytes;
};
class PrefixSource final : public ByteSource {
 public:
  PrefixSource(std::string first, std::uint64_t size) : first_(std::move(first)), size_(size) {}
  std::uint64_t size() const override { return size_; }
  void read(std::uint64_t offset, std::size_t length, char* out) const override {
    if (offset + length > first_.size()) throw NeedBytes{offset + length};
    std::memcpy(out, first_.data() + offset, length);
  }

 private:
  std::string first_;
  std::uint64_t size_;
};

bool has_gguf_magic_js(const val& first_bytes) {
  return has_gguf_magic(bytes_from_js(first_bytes));
}

val number(std::uint64_t x) { return val(static_cast<double>(x)); }

// { version, fileSize, dataStart, tensors: [{ name, dtype, ne, shape, begin, end, candidate,
//   conversion }],
//   metadata: [[key, "TYPE: value"]], table, tableError, hasHead, tokens (tokenizer.ggml.tokens,
//   or null) } in the header's order, or
//   { needBytes }. shape is ne reversed: (V, d) for a table.
val gguf_header_js(const val& first_bytes, double file_size, const std::string& name) {
  return guarded([&] {
    const auto size = static_cast<std::uint64_t>(std::max(0.0, file_size));
    std::string first = bytes_from_js(first_bytes);
    const std::uint64_t had = first.size();
    GgufHeader header;
    try {
      header = read_gguf_header(PrefixSource(std::move(first), size));
    } catch (const NeedBytes& need) {
      // Twice as many at least, so that a header of any length takes a few rounds.
      val out = val::object();
      out.set("needBytes", number(std::min(size, std::max(need.bytes, 2 * had))));
      return out;
    }
    val tensors = val::array();
    bool head = false;
    for (const GgufTensor& t : header.tensors) {
      val x = val::object();
      val ne = val::array(), shape = val::array();
      for (const auto n : t.ne) ne.call<void>("push", number(n));
      for (const Index n : gguf_shape(t)) shape.call<void>("push", static_cast<double>(n));
      x.set("name", t.name);
      x.set("dtype", ggml_type_name(t.type));
      x.set("ne", ne);
      x.set("shape", shape);
      x.set("begin", number(t.begin));
      x.set("end", number(t.end));
      x.set("candidate", t.name == kGgufTableName);
      x.set("conversion", ggml_conversion_text(t.type));
      tensors.call<void>("push", x);
      head = head || t.name == kGgufHeadName;
    }
    val metadata = val::array();
    for (const GgufMetadata& m : header.metadata) {
      val pair = val::array();
      pair.call<void>("push", m.key);
      pair.call<void>("push", m.type + ": " + m.text);
      metadata.call<void>("push", pair);
    }
    val out = val::object();
    out.set("version", header.version);
    out.set("fileSize", number(header.file_size));
    out.set("dataStart", number(header.data_start));
    out.set("tensors", tensors);
    out.set("metadata", metadata);
    out.set("hasHead", head);
    out.set("tokens", header.tokens.empty() ? val::null() : strings_to_js(header.tokens));
    set_table_or_error(out, [&] { return choose_gguf_table(header, name).name; });
    return out;
  });
}

}  // namespace
}  // namespace embedlab

EMSCRIPTEN_BINDINGS(embedlab_gguf) {
  using namespace embedlab;
  emscripten::function("hasGgufMagic", &has_gguf_magic_js);
  emscripten::function("ggufHeader", &gguf_header_js);
}
