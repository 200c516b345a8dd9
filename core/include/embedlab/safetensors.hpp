#pragma once
// .safetensors files (Hugging Face's format), such as a model's model.safetensors. Only the header
// and the rows of the one tensor wanted that a computation needs are ever read, so a 5 GB file
// costs a few of its rows: the file is a ByteSource (byte_source.hpp) read a range at a time, the
// first 8 bytes, then the header, then rows of the table as a Table reads them (table.hpp). The
// steps below also take the pieces from a caller that reads them itself.
//
// The format: N, the header's length, as a little-endian uint64; N bytes of JSON mapping each
// tensor's name to {"dtype": "BF16", "shape": [V, d], "data_offsets": [begin, end]}, the offsets
// relative to the data section that starts at byte 8 + N, and an optional "__metadata__" object
// of strings; then the data section: each tensor's values, little-endian, C order.
//
// Every error is an InputError with Argument::weights and a message for a learner.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "embedlab/byte_source.hpp"
#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"
#include "embedlab/table.hpp"

namespace embedlab {

// The longest header accepted: the limit of the safetensors library itself.
inline constexpr std::uint64_t kSafetensorsMaxHeader = 100'000'000;

// One tensor as the header describes it.
struct SafetensorsEntry {
  std::string name;
  std::string dtype;         // as written: "BF16", "F32", "I64", ...; only a table's is checked
  std::vector<Index> shape;  // [] for a scalar
  std::uint64_t begin = 0;   // its bytes are [begin, end) of the file (data_offsets + 8 + N)
  std::uint64_t end = 0;
};

struct SafetensorsHeader {
  std::uint64_t file_size = 0;
  std::uint64_t data_start = 0;           // 8 + N: where the data section begins
  std::vector<SafetensorsEntry> tensors;  // in the order of their bytes in the file
  std::vector<std::pair<std::string, std::string>> metadata;  // "__metadata__", sorted by key
};

// Step 1: 8 + N, the bytes that hold the header, from the file's first 8 bytes (or more) and its
// size in bytes. Refuses a file shorter than 8 bytes, and N over kSafetensorsMaxHeader or past the
// end of the file.
std::uint64_t safetensors_header_size(std::string_view first_bytes, std::uint64_t file_size);

// Step 2: the header, from the file's first bytes (at least 8 + N of them; more are ignored).
// Checks the JSON (errors say where), each entry's fields and types, and the byte ranges: not
// reversed, inside the data section, not overlapping, and as long as shape x dtype size for
// every dtype whose size is known. Tensors of any dtype are listed.
SafetensorsHeader parse_safetensors_header(std::string_view first_bytes, std::uint64_t file_size);

// The tensors that look like a token embedding table: 2-D, and named `wte.weight`,
// `embed_tokens.weight`, `tok_embeddings.weight`, `word_embeddings.weight`, `shared.weight` or
// `embeddings.weight`, alone or after a '.' ("model.embed_tokens.weight"). In file order.
std::vector<const SafetensorsEntry*> embedding_table_candidates(const SafetensorsHeader& header);

// The tensors that look like a position embedding table: 2-D, and named `wpe.weight` (GPT-2),
// `embed_positions.weight` or `position_embeddings.weight`, alone or after a '.'. In file order.
std::vector<const SafetensorsEntry*> position_table_candidates(const SafetensorsHeader& header);

// The table to load: the tensor called `name` (the close names are listed when there is none),
// or with an empty name the only candidate (the candidates, or the 2-D tensors, are listed when
// there is not exactly one). Then checks that it can be a table, before any of its bytes is read:
// 2-D, a dtype among F32, F64, F16 and BF16 (others are named), and a shape within the limits.
const SafetensorsEntry& choose_embedding_table(const SafetensorsHeader& header,
                                               std::string_view name = {},
                                               const Limits& limits = default_limits);

// Step 3: the table's values as float32, from its bytes (the file's [entry.begin, entry.end)).
// F16 and BF16 convert exactly (a NaN comes back quiet, as PyTorch's .float() gives it), F64 is
// rounded and must fit in float32. Checks the entry as choose_embedding_table does first, and
// that the table can be held whole (limits.max_elements).
Matrix convert_safetensors_table(const SafetensorsEntry& entry, std::string_view bytes,
                                 const Limits& limits = default_limits);

// For a caller that converts the table whole (convert_safetensors_table, a reader of every row):
// that its V x d float32 values fit limits.max_elements. The message names the tensor.
void check_held_safetensors_table(const SafetensorsEntry& entry,
                                  const Limits& limits = default_limits);

// Step 3 in pieces, so that a caller need never hold all of a table's bytes beside the table:
// into `table`, allocated (V, d) by the caller, rows [first_row, first_row + n) from their n rows
// of bytes, the file's [entry.begin + first_row * row_bytes, entry.begin + (first_row + n) *
// row_bytes). Checks the entry as convert_safetensors_table does, the table's shape, and that the
// bytes are whole rows of the table.
void convert_safetensors_rows(const SafetensorsEntry& entry, Index first_row,
                              std::string_view bytes, Matrix& table,
                              const Limits& limits = default_limits);
// The bytes of one row of the table: d * the dtype's size. Checks the entry first.
Index safetensors_row_bytes(const SafetensorsEntry& entry, const Limits& limits = default_limits);

// How a table of this dtype became float32, for the CLI and the page to show:
// "BF16 (bfloat16), converted to float32 exactly", "F64 (float64), rounded to float32".
std::string dtype_conversion_text(std::string_view dtype);

// Steps 1 and 2 through a source: its first 8 bytes, then the header.
SafetensorsHeader read_safetensors_header(const ByteSource& source);

struct SafetensorsTable {
  SafetensorsEntry entry;  // where W came from: its name, dtype and shape
  Table table;             // (V, d): its rows where they lie in the source, or held in memory
                           // when they are at most kHeldTableBytes
  std::string file;        // from disk: the file that holds it (for an index, its shard)
};
// The table choose_embedding_table(header, name) picks, over the source's bytes; nothing but the
// header is read yet (and the table's bytes, when it is held). `context` starts every message,
// those of later reads too (a path: "model.safetensors: ").
SafetensorsTable open_safetensors_table(std::shared_ptr<const ByteSource> source,
                                        std::string_view name = {},
                                        const Limits& limits = default_limits,
                                        const std::string& context = {});

// A table a front end holds in memory and hands over as a .safetensors header would describe it:
// `dtype` ("F32", "BF16", "I64", ...), `shape`, and its little-endian bytes, C order, in `source`
// (Python's embedlab.show() of a notebook's own tensor). Checked as a file's table is, the tensor
// called `name` in the messages, but for its shape: it is the table's own, so V and d out of their
// limits are errors of vocab and dim, as if typed.
Table tensor_table(std::shared_ptr<const ByteSource> source, std::string_view dtype,
                   const std::vector<Index>& shape, const std::string& name,
                   const Limits& limits = default_limits);

// From disk. Errors name the path.
SafetensorsHeader read_safetensors_header(const std::string& path);
SafetensorsTable load_safetensors_table(const std::string& path, std::string_view name = {},
                                        const Limits& limits = default_limits);

}  // namespace embedlab
