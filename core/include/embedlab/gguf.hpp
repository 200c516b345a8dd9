#pragma once
// GGUF files (llama.cpp's format, versions 2 and 3), such as those llama.cpp, Ollama and LM Studio
// run. As with .safetensors (safetensors.hpp), only the header and the rows of the table that a
// computation needs are read: the file is a ByteSource (byte_source.hpp), and the table a Table
// (table.hpp) over its stored blocks, F32, F16, BF16, Q8_0, Q4_0, Q4_K or Q6_K, dequantized a
// row at a time by a lookup (as llama.cpp's ggml_get_rows does) and every block once by a
// streamed product (streamed.hpp).
//
// The format, little-endian: "GGUF", version (uint32), tensor count and metadata count (uint64);
// the metadata, each a key (string: uint64 length, then its bytes), a value type (uint32) and a
// value (an integer, float, bool or string, or an array: element type (uint32), count (uint64),
// elements); the tensor infos, each a name, the number of dimensions (uint32, at most 4), ne[0..]
// (uint64 each, ne[0] the fastest-varying: a row), a ggml type (uint32) and the offset of its data
// from the data section (uint64, a multiple of the alignment); then the data section, which starts
// at the next multiple of general.alignment (32 when absent).
//
// The token embedding table is `token_embd.weight`, ne = [d, V]: V rows of d values, a (V, d)
// table. A file whose head has its own weights holds `output.weight`; one without it ties the
// head to the embedding table.
//
// Every count, length, dimension, offset and size is checked against the file before anything
// is allocated or read; every error is an InputError with Argument::weights that names the field.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "embedlab/byte_source.hpp"
#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"
#include "embedlab/table.hpp"

namespace embedlab {

// The name of the table a GGUF file's model embeds its tokens with, and of its head's own weights.
inline constexpr std::string_view kGgufTableName = "token_embd.weight";
inline constexpr std::string_view kGgufHeadName = "output.weight";

// One tensor as the header describes it.
struct GgufTensor {
  std::string name;
  std::uint32_t type = 0;         // ggml's type id
  std::vector<std::uint64_t> ne;  // as stored: ne[0] is a row's length
  std::uint64_t begin = 0;        // its bytes are [begin, end) of the file
  std::uint64_t end = 0;          // (end == begin when the type's block size is unknown)
};

// One metadata entry, as --list-tensors and the page show it.
struct GgufMetadata {
  std::string key;
  std::string type;  // "UINT32", "STRING", "ARRAY[STRING]", ...
  std::string text;  // the value, cut short: "32", "\"llama\"", "[128256 strings: \"!\", ...]"
};

struct GgufHeader {
  std::uint32_t version = 0;
  std::uint64_t file_size = 0;
  std::uint64_t alignment = 32;        // general.alignment
  std::uint64_t data_start = 0;        // where the data section begins
  std::vector<GgufTensor> tensors;     // in the order of the header
  std::vector<GgufMetadata> metadata;  // in the order of the header
  std::vector<std::string> tokens;     // tokenizer.ggml.tokens, when it is there
};

// Whether the bytes start with GGUF's magic, "GGUF".
bool has_gguf_magic(std::string_view first_bytes);

// The header, read from the source a piece at a time.
GgufHeader read_gguf_header(const ByteSource& source);

// A ggml type as messages show it: "Q4_K", or "type 99" for one ggml does not define.
std::string ggml_type_name(std::uint32_t type);
// How a table of this type becomes float32, for the CLI and the page to show:
// "Q4_K (256 weights in 144 bytes), dequantized to float32 as ggml's dequantize_row_q4_K".
std::string ggml_conversion_text(std::uint32_t type);
// The tensor's shape as (V, d) reads it: [ne[1], ne[0]] for a table, ne reversed in general.
std::vector<Index> gguf_shape(const GgufTensor& tensor);

// The table to load: the tensor called `name` (default: token_embd.weight), checked before any of
// its bytes is read: 2-D, a type among F32, F16, BF16, Q8_0, Q4_0, Q4_K and Q6_K (others are
// named), a row a whole number of blocks, and a shape within the limits.
const GgufTensor& choose_gguf_table(const GgufHeader& header, std::string_view name = {},
                                    const Limits& limits = default_limits);

struct GgufTable {
  GgufTensor tensor;                // where W came from: its name, type and ne
  Table table;                      // (V, d) over the stored blocks
  bool has_head = false;            // whether the file holds output.weight (else the head is tied)
  std::vector<std::string> tokens;  // the file's vocabulary, when it has one
};
// The table choose_gguf_table(header, name) picks, over the source's bytes; nothing but the header
// is read yet (and the table's bytes, when they are at most kHeldTableBytes). `context` starts
// every message, those of later reads too (a path: "model.gguf: ").
GgufTable open_gguf_table(std::shared_ptr<const ByteSource> source, std::string_view name = {},
                          const Limits& limits = default_limits, const std::string& context = {});

// From disk. Errors name the path.
GgufHeader read_gguf_header(const std::string& path);
GgufTable load_gguf_table(const std::string& path, std::string_view name = {},
                          const Limits& limits = default_limits);

}  // namespace embedlab
